// `kill -9` of the office while a batch of 500 events is in its hands, then the same batch again:
// every event stored once (OFFICE.md: "200 means all of it is stored; 5xx means none of it is",
// and a batch whose answer was lost counts once when sent again). Runs on PostgreSQL too.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "officeapi.h"
#include "testdatabase.h"

#include <QtTest>

#include <memory>

using namespace OfficeApi;

class TestOfficeCrash final : public QObject
{
    Q_OBJECT

private slots:
    void killedMidBatchThenSentAgain();
};

void TestOfficeCrash::killedMidBatchThenSentAgain()
{
    GatewayProcess office(GatewayProcess::Program::Office);
    QVERIFY2(office.start(), office.failureMessage().constData());
    const QString till = QStringLiteral("1");
    qint64 next = 1;
    int answeredBeforeKill = 0;
    for (int round = 0; round < 8; ++round) {
        HttpClient client(office.baseUrl(), kTill1);
        const QByteArray body = eventsBody(till, next, 500, round);
        QNetworkReply *inFlight = client.start({"POST", QStringLiteral("/v1/events"), body, {}});
        // Killed once the whole batch has reached the office (or, every other round, as soon as
        // it starts arriving): somewhere between reading it and committing it, or just after.
        auto sent = std::make_shared<bool>(false);
        QObject::connect(inFlight, &QNetworkReply::uploadProgress, inFlight, [sent, round](qint64 done, qint64 total) {
            if (done > 0 && (round % 2 == 0 || done == total))
                *sent = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(*sent || inFlight->isFinished(), 20000);
        office.kill9();
        const HttpReply lost = client.collect(inFlight);
        if (lost.status == 200)
            ++answeredBeforeKill;
        else
            QVERIFY2(lost.status == 0, lost.describe().constData());   // no answer, or all of it

        QVERIFY2(office.restart(), office.failureMessage().constData());
        client.setBaseUrl(office.baseUrl());
        const HttpReply again = postEvents(client, body);
        const QJsonObject o = again.object();
        QVERIFY2(again.status == 200, again.describe().constData());
        QCOMPARE(o.value(QStringLiteral("applied")).toInt() + o.value(QStringLiteral("replayed")).toInt(), 500);
        QCOMPARE(qint64(o.value(QStringLiteral("last_seq")).toDouble()), next + 499);
        next += 500;
        const StoredEvents stored = storedEvents(office.database(), till);
        QVERIFY2(stored.ok, qPrintable(stored.error));
        QCOMPARE(stored.rows, next - 1);
        QCOMPARE(stored.distinctSeqs, next - 1);
        QCOMPARE(stored.lastSeq, next - 1);
    }
    qInfo("%d of 8 batches were answered before the kill", answeredBeforeKill);
}

QTEST_GUILESS_MAIN(TestOfficeCrash)
#include "tst_officecrash.moc"
