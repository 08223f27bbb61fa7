// Fail closed: while another connection holds the gateway's database locked (SQLite or PostgreSQL),
// writes answer 503 store-unavailable after the busy timeout and execute nothing; after
// the lock is gone the same key executes exactly once.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "testdatabase.h"

#include <QtTest>

using namespace GatewayApi;

class TestStoreUnavailable final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void failsClosed_data();
    void failsClosed();
    void notReadyWhileTheStoreIsLocked();

private:
    GatewayProcess m_gateway;
    HttpClient m_client;
};

void TestStoreUnavailable::initTestCase()
{
    QVERIFY2(m_gateway.start({QStringLiteral("--store-busy-timeout"), QStringLiteral("200ms")}),
             m_gateway.failureMessage().constData());
    m_client.setBaseUrl(m_gateway.baseUrl());
}

void TestStoreUnavailable::cleanup()
{
    QVERIFY2(m_gateway.isRunning(), m_gateway.failureMessage().constData());
}

void TestStoreUnavailable::failsClosed_data()
{
    QTest::addColumn<bool>("isRefund");
    QTest::addColumn<QString>("method");
    QTest::newRow("payment") << false << QStringLiteral("tok_visa");
    QTest::newRow("declined payment") << false << QStringLiteral("tok_chargeDeclined");
    QTest::newRow("refund") << true << QStringLiteral("tok_visa");
}

void TestStoreUnavailable::failsClosed()
{
    QFETCH(bool, isRefund);
    QFETCH(QString, method);

    QString paymentId;
    if (isRefund) {
        const HttpReply p = pay(m_client, uniqueKey(QStringLiteral("base")), paymentBody(1000));
        ONCEPAY_VERIFY_STATUS(p, 201);
        paymentId = p.object().value(QStringLiteral("id")).toString();
    }
    const QString key = uniqueKey(QStringLiteral("locked"));
    const QByteArray body = isRefund ? QByteArray(R"({"amount":400})") : paymentBody(1234, method);
    const QString path = isRefund ? QStringLiteral("/v1/payments/%1/refunds").arg(paymentId)
                                  : QStringLiteral("/v1/payments");
    {
        StoreLock lock(m_gateway.database());
        QVERIFY2(lock.ok(), qPrintable(lock.error()));
        for (int attempt = 0; attempt < 2; ++attempt) {
            const HttpReply r = m_client.post(path, body, keyHeader(key));
            ONCEPAY_VERIFY_PROBLEM(r, 503, QStringLiteral("store-unavailable"));
        }
        // Nothing executed without idempotency protection: the bank saw nothing.
        if (!isRefund) {
            const Charges charges = acquirerCharges(m_client, key);
            QVERIFY2(charges.ok, charges.raw.constData());
            QCOMPARE(charges.rows.size(), 0);
        }
        QVERIFY2(lock.release(), qPrintable(lock.error()));
    }
    // Not recorded: the same key now executes, once.
    const int expected = method == QStringLiteral("tok_chargeDeclined") ? 402 : 201;
    const HttpReply done = m_client.post(path, body, keyHeader(key));
    ONCEPAY_VERIFY_STATUS(done, expected);
    QVERIFY(!done.replayed());
    const HttpReply again = m_client.post(path, body, keyHeader(key));
    ONCEPAY_VERIFY_STATUS(again, expected);
    QVERIFY(again.replayed());
    QCOMPARE(again.body, done.body);
    if (isRefund) {
        const QJsonObject p = m_client.get(QStringLiteral("/v1/payments/") + paymentId).object();
        QCOMPARE(p.value(QStringLiteral("amount_refunded")).toInteger(), 400);
    } else {
        const Charges charges = acquirerCharges(m_client, key);
        QCOMPARE(charges.succeeded, expected == 201 ? 1 : 0);
        QCOMPARE(charges.rows.size(), 1);
    }
}

// Issue 11: /healthz is readiness: 503 while the store does not answer (here: locked by another
// connection), 200 again once it does; /livez says only that the process answers.
void TestStoreUnavailable::notReadyWhileTheStoreIsLocked()
{
    ONCEPAY_VERIFY_STATUS(m_client.get(QStringLiteral("/healthz")), 200);
    {
        StoreLock lock(m_gateway.database());
        QVERIFY2(lock.ok(), qPrintable(lock.error()));
        ONCEPAY_VERIFY_PROBLEM(m_client.get(QStringLiteral("/healthz")), 503, QStringLiteral("store-unavailable"));
        ONCEPAY_VERIFY_STATUS(m_client.get(QStringLiteral("/livez")), 200);
        QVERIFY2(lock.release(), qPrintable(lock.error()));
    }
    ONCEPAY_VERIFY_STATUS(m_client.get(QStringLiteral("/healthz")), 200);
}

QTEST_GUILESS_MAIN(TestStoreUnavailable)
#include "tst_storeunavailable.moc"
