// A batch whose COMMIT's answer is lost (PostgreSQL, through PgCommitCutter): the office cannot
// know whether it was stored, so it answers 500 outcome-unknown, never 503 (OFFICE.md, API.md
// promise 10); the same batch sent again is counted as replayed, stored once. SQLite commits in
// the office's own process: it has no answer on a wire to lose.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "officeapi.h"
#include "pgcommitcutter.h"
#include "testdatabase.h"

#include <QUuid>
#include <QtTest>

using namespace OfficeApi;

class TestOfficeCommitLost final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void batchCommitAnswerLost();
};

void TestOfficeCommitLost::init()
{
    if (!TestDatabase::postgresRequested())
        QSKIP("PostgreSQL only: the COMMIT's answer is cut on the wire (runs as tst_officecommitlost_pg)");
}

void TestOfficeCommitLost::batchCommitAnswerLost()
{
    GatewayProcess office(GatewayProcess::Program::Office);
    PgCommitCutter cutter;
    const TestDatabase &db = office.database();
    QVERIFY2(db.ok(), qPrintable(db.error()));
    const QUrl direct(db.dbArg());
    QVERIFY(cutter.listen(direct.host(), quint16(direct.port(5432))));
    QUrl proxied = direct;
    proxied.setHost(QStringLiteral("127.0.0.1"));
    proxied.setPort(cutter.port());
    // The proxy reads the protocol: no TLS between the office and the server.
    const QMap<QString, QString> env{{QStringLiteral("PGSSLMODE"), QStringLiteral("disable")},
        {QStringLiteral("PGGSSENCMODE"), QStringLiteral("disable")}};
    QVERIFY2(office.start({QStringLiteral("--db"), proxied.toString(), QStringLiteral("--db-connections"), QStringLiteral("2")}, env),
        office.failureMessage().constData());
    HttpClient client(office.baseUrl(), kTill1);
    ONCEPAY_VERIFY_BATCH(postEvents(client, eventsBody(QStringLiteral("1"), 1, 10)), 10, 0, 10);

    // The batch's events carry the marker in their data; its transaction's COMMIT is cut.
    const QString marker = QStringLiteral("cut-") + QUuid::createUuid().toString(QUuid::Id128);
    const QByteArray body = eventsBody(QStringLiteral("1"), 11, 20, 0, marker);
    cutter.arm(marker.toUtf8());
    const HttpReply first = postEvents(client, body);
    QCOMPARE(cutter.cuts(), 1);
    ONCEPAY_VERIFY_PROBLEM(first, 500, QStringLiteral("outcome-unknown"));

    // It was committed: sent again, every event is a replay.
    HttpReply again;
    ONCEPAY_TRY_UNTIL(again = postEvents(client, body), again.status != 503, 20000);
    ONCEPAY_VERIFY_BATCH(again, 0, 20, 30);
    const StoredEvents stored = storedEvents(db, QStringLiteral("1"));
    QVERIFY2(stored.ok, qPrintable(stored.error));
    QCOMPARE(stored.rows, 30);
    QCOMPARE(stored.distinctSeqs, 30);
    QVERIFY2(office.isRunning(), office.failureMessage().constData());
}

QTEST_GUILESS_MAIN(TestOfficeCommitLost)
#include "tst_officecommitlost.moc"
