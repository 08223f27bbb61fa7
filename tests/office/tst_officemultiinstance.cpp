// Two office instances on one database (a chain behind a load balancer), the same batch sent to
// both at once: the unique key (merchant, store, till, seq) lets one apply it and makes the
// other's a replay, never a second copy; two different batches for the same seqs end with one
// applied and the other refused 422. Meant for PostgreSQL (tst_officemultiinstance_pg); on SQLite
// the two processes share the file's lock and the same holds.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "officeapi.h"
#include "testdatabase.h"

#include <QtTest>

using namespace OfficeApi;

class TestOfficeMultiInstance final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void sameBatchRacedOverTwoInstances();
    void differentBatchesForTheSameSeqs();

private:
    void checkStoredOnce();

    GatewayProcess m_a{GatewayProcess::Program::Office};
    GatewayProcess m_b{GatewayProcess::Program::Office};
    qint64 m_next = 1;
};

void TestOfficeMultiInstance::initTestCase()
{
    QVERIFY2(m_a.start(), m_a.failureMessage().constData());
    m_b.useDatabase(m_a.sharedDatabase());
    QVERIFY2(m_b.start(), m_b.failureMessage().constData());
}

void TestOfficeMultiInstance::checkStoredOnce()
{
    const StoredEvents stored = storedEvents(m_a.database(), QStringLiteral("1"));
    QVERIFY2(stored.ok, qPrintable(stored.error));
    QCOMPARE(stored.rows, m_next - 1);
    QCOMPARE(stored.distinctSeqs, m_next - 1);
    QCOMPARE(stored.lastSeq, m_next - 1);
}

void TestOfficeMultiInstance::sameBatchRacedOverTwoInstances()
{
    HttpClient a(m_a.baseUrl(), kTill1);
    HttpClient b(m_b.baseUrl(), kTill1);
    for (int round = 0; round < 10; ++round) {
        const int count = 50 + 40 * round;
        const QByteArray body = eventsBody(QStringLiteral("1"), m_next, count, round);
        QNetworkReply *toA = a.start({"POST", QStringLiteral("/v1/events"), body, {}});
        QNetworkReply *toB = b.start({"POST", QStringLiteral("/v1/events"), body, {}});
        const HttpReply fromA = a.collect(toA);
        const HttpReply fromB = b.collect(toB);
        QVERIFY2(fromA.status == 200, fromA.describe().constData());
        QVERIFY2(fromB.status == 200, fromB.describe().constData());
        const auto n = [](const HttpReply &r, const char *field) {
            return r.object().value(QLatin1String(field)).toInt();
        };
        QCOMPARE(n(fromA, "applied") + n(fromB, "applied"), count);
        QCOMPARE(n(fromA, "replayed") + n(fromB, "replayed"), count);
        m_next += count;
        checkStoredOnce();
    }
}

void TestOfficeMultiInstance::differentBatchesForTheSameSeqs()
{
    HttpClient a(m_a.baseUrl(), kTill1);
    HttpClient b(m_b.baseUrl(), kTill1);
    for (int round = 0; round < 6; ++round) {
        const int count = 200;
        QNetworkReply *toA = a.start({"POST", QStringLiteral("/v1/events"), eventsBody(QStringLiteral("1"), m_next, count, 100 + round), {}});
        QNetworkReply *toB = b.start({"POST", QStringLiteral("/v1/events"), eventsBody(QStringLiteral("1"), m_next, count, 200 + round), {}});
        const HttpReply fromA = a.collect(toA);
        const HttpReply fromB = b.collect(toB);
        const HttpReply &won = fromA.status == 200 ? fromA : fromB;
        const HttpReply &lost = fromA.status == 200 ? fromB : fromA;
        ONCEPAY_VERIFY_BATCH(won, count, 0, m_next + count - 1);
        ONCEPAY_VERIFY_PROBLEM(lost, 422, QStringLiteral("event-mismatch"));
        m_next += count;
        checkStoredOnce();
    }
}

QTEST_GUILESS_MAIN(TestOfficeMultiInstance)
#include "tst_officemultiinstance.moc"
