// Never twice: after the response record has expired (--key-retention 1s) and the sweeper
// deleted it, the same key and fields still return the existing payment (replayed), other
// fields still get 422, and nothing reaches the acquirer again.
#include "gatewayapi.h"
#include "gatewayprocess.h"

#include <QtTest>

using namespace GatewayApi;

class TestRetention final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void keyOutlivesItsRecord_data();
    void keyOutlivesItsRecord();
    void refundKeyOutlivesItsRecord();
    void oneKeySpaceForPaymentsAndRefunds();

private:
    double swept();
    // Waits until the sweeper has deleted `records` more records than `before` counted:
    // every record made since, including the one under test.
    void waitForSweep(double before, int records);

    GatewayProcess m_gateway;
    HttpClient m_client;
};

void TestRetention::initTestCase()
{
    QVERIFY2(m_gateway.start({QStringLiteral("--key-retention"), QStringLiteral("1s")}),
        m_gateway.failureMessage().constData());
    m_client.setBaseUrl(m_gateway.baseUrl());
}

void TestRetention::cleanup()
{
    QVERIFY2(m_gateway.isRunning(), m_gateway.failureMessage().constData());
}

double TestRetention::swept()
{
    return metricSum(parseMetrics(m_client.get(QStringLiteral("/metrics")).body),
        QStringLiteral("oncepay_retention_swept_total"));
}

void TestRetention::waitForSweep(double before, int records)
{
    QTRY_VERIFY_WITH_TIMEOUT(swept() >= before + records, 20000);
}

void TestRetention::keyOutlivesItsRecord_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("succeeded");
    QTest::newRow("succeeded") << QStringLiteral("tok_visa") << 201 << 1;
    QTest::newRow("declined") << QStringLiteral("tok_chargeDeclined") << 402 << 0;
}

void TestRetention::keyOutlivesItsRecord()
{
    QFETCH(QString, method);
    QFETCH(int, status);
    QFETCH(int, succeeded);

    const QString key = uniqueKey(QStringLiteral("old"));
    const QByteArray body = paymentBody(8800, method, QStringLiteral("ord-ret"));
    const double before = swept();
    const HttpReply first = pay(m_client, key, body);
    ONCEPAY_VERIFY_STATUS(first, status);
    const QJsonObject firstPayment = status == 402 ? first.object().value(QStringLiteral("payment")).toObject()
                                                   : first.object();
    waitForSweep(before, 1);
    if (QTest::currentTestFailed())
        return;

    const HttpReply again = pay(m_client, key, body);
    ONCEPAY_VERIFY_STATUS(again, status);
    QVERIFY2(again.replayed(), again.describe().constData());
    const QJsonObject p = status == 402 ? again.object().value(QStringLiteral("payment")).toObject() : again.object();
    QCOMPARE(p.value(QStringLiteral("id")), firstPayment.value(QStringLiteral("id")));
    QCOMPARE(p.value(QStringLiteral("status")), firstPayment.value(QStringLiteral("status")));
    QCOMPARE(p.value(QStringLiteral("amount")).toInteger(), 8800);
    if (status == 201)
        QCOMPARE(again.header("Location"), first.header("Location"));
    else
        ONCEPAY_VERIFY_PROBLEM(again, 402, QStringLiteral("card-declined"));

    // Equivalent JSON is still the same request.
    const HttpReply reordered = pay(m_client, key,
        "{\"payment_method\":\"" + method.toUtf8()
            + "\",\"order_id\":\"ord-ret\", \"currency\":\"CNY\",\"amount\":8800}");
    ONCEPAY_VERIFY_STATUS(reordered, status);
    QVERIFY(reordered.replayed());

    const QByteArray otherBodies[] = {paymentBody(8801, method, QStringLiteral("ord-ret")),
        paymentBody(8800, method, QStringLiteral("ord-other")),
        paymentBody(8800, QStringLiteral("tok_unionpay"), QStringLiteral("ord-ret"))};
    for (const QByteArray &other : otherBodies)
        ONCEPAY_VERIFY_PROBLEM(pay(m_client, key, other), 422, QStringLiteral("idempotency-key-reused"));

    const Charges charges = acquirerCharges(m_client, key);
    QVERIFY2(charges.ok, charges.raw.constData());
    QCOMPARE(charges.succeeded, succeeded);
    QCOMPARE(charges.rows.size(), 1);
    const HttpReply byKey = m_client.get(QStringLiteral("/v1/payments?idempotency_key=") + key);
    QCOMPARE(byKey.object().value(QStringLiteral("id")), firstPayment.value(QStringLiteral("id")));
}

void TestRetention::refundKeyOutlivesItsRecord()
{
    const double before = swept();
    const HttpReply p = pay(m_client, uniqueKey(QStringLiteral("base")), paymentBody(1000));
    ONCEPAY_VERIFY_STATUS(p, 201);
    const QString path = QStringLiteral("/v1/payments/%1/refunds").arg(p.object().value(QStringLiteral("id")).toString());
    const QString key = uniqueKey(QStringLiteral("re-old"));
    const HttpReply first = m_client.post(path, R"({"amount":250})", keyHeader(key));
    ONCEPAY_VERIFY_STATUS(first, 201);
    waitForSweep(before, 2);   // the payment's record and the refund's
    if (QTest::currentTestFailed())
        return;
    // The refund is never applied twice, however old its key.
    const HttpReply again = m_client.post(path, R"({"amount":250})", keyHeader(key));
    QVERIFY2(again.status == 201 || again.status == 422, again.describe().constData());
    if (again.status == 201)
        QCOMPARE(again.object().value(QStringLiteral("id")), first.object().value(QStringLiteral("id")));
    const QJsonObject payment = m_client.get(QStringLiteral("/v1/payments/") + p.object().value(QStringLiteral("id")).toString()).object();
    QCOMPARE(payment.value(QStringLiteral("amount_refunded")).toInteger(), 250);
}

void TestRetention::oneKeySpaceForPaymentsAndRefunds()
{
    // API.md promise 9: a payment's key never executes a refund and a refund's key never a
    // payment, before and after their records expire.
    const double before = swept();
    const QString paymentKey = uniqueKey(QStringLiteral("ns-pay"));
    const HttpReply p = pay(m_client, paymentKey, paymentBody(3000));
    ONCEPAY_VERIFY_STATUS(p, 201);
    const QString paymentId = p.object().value(QStringLiteral("id")).toString();
    const QString path = QStringLiteral("/v1/payments/%1/refunds").arg(paymentId);
    const QString refundKey = uniqueKey(QStringLiteral("ns-re"));
    ONCEPAY_VERIFY_STATUS(m_client.post(path, R"({"amount":100})", keyHeader(refundKey)), 201);

    auto crossUses = [&] {
        ONCEPAY_VERIFY_PROBLEM(m_client.post(path, R"({"amount":100})", keyHeader(paymentKey)), 422,
            QStringLiteral("idempotency-key-reused"));
        ONCEPAY_VERIFY_PROBLEM(pay(m_client, refundKey, paymentBody(3000)), 422,
            QStringLiteral("idempotency-key-reused"));
    };
    crossUses();
    if (QTest::currentTestFailed())
        return;
    waitForSweep(before, 2);
    if (QTest::currentTestFailed())
        return;
    crossUses();
    if (QTest::currentTestFailed())
        return;
    // Nothing executed: one refund of 100, no payment under the refund's key, one charge.
    QCOMPARE(m_client.get(QStringLiteral("/v1/payments/") + paymentId).object().value(QStringLiteral("amount_refunded")).toInteger(), 100);
    ONCEPAY_VERIFY_STATUS(m_client.get(QStringLiteral("/v1/payments?idempotency_key=") + refundKey), 404);
    const Charges charges = acquirerCharges(m_client, refundKey);
    QVERIFY2(charges.ok && charges.rows.isEmpty(), charges.raw.constData());
}

QTEST_GUILESS_MAIN(TestRetention)
#include "tst_retention.moc"
