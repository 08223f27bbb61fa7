// POST /v1/payments/{id}/refunds: idempotent by key, bounded by what remains (also under
// concurrency), and the payment's amount_refunded and status follow.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "rawhttp.h"

#include <QtTest>

using namespace GatewayApi;

class TestRefunds final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void partialThenFull();
    void invalidRefunds_data();
    void invalidRefunds();
    void concurrentRefundsStayBounded();
    void concurrentSameKeyRefundsOnce();

private:
    QString newPayment(qint64 amount, const QString &method = QStringLiteral("tok_visa"));
    HttpReply refund(const QString &paymentId, const QString &key, const QByteArray &body);
    QJsonObject payment(const QString &id);

    GatewayProcess m_gateway;
    HttpClient m_client;
};

void TestRefunds::initTestCase()
{
    QVERIFY2(m_gateway.start(), m_gateway.failureMessage().constData());
    m_client.setBaseUrl(m_gateway.baseUrl());
}

void TestRefunds::cleanup()
{
    QVERIFY2(m_gateway.isRunning(), m_gateway.failureMessage().constData());
}

QString TestRefunds::newPayment(qint64 amount, const QString &method)
{
    const HttpReply r = pay(m_client, uniqueKey(QStringLiteral("pay")), paymentBody(amount, method));
    const QJsonObject o = r.status == 402 ? r.object().value(QStringLiteral("payment")).toObject() : r.object();
    return o.value(QStringLiteral("id")).toString();
}

HttpReply TestRefunds::refund(const QString &paymentId, const QString &key, const QByteArray &body)
{
    return m_client.post(QStringLiteral("/v1/payments/%1/refunds").arg(paymentId), body, keyHeader(key));
}

QJsonObject TestRefunds::payment(const QString &id)
{
    return m_client.get(QStringLiteral("/v1/payments/") + id).object();
}

static QByteArray amountBody(qint64 amount)
{
    return "{\"amount\":" + QByteArray::number(amount) + "}";
}

void TestRefunds::partialThenFull()
{
    const QString id = newPayment(1000);
    QVERIFY(!id.isEmpty());
    const QString k1 = uniqueKey(QStringLiteral("re"));
    const QByteArray body1 = R"({"amount":300,"reason":"customer changed mind"})";
    const HttpReply r1 = refund(id, k1, body1);
    ONCEPAY_VERIFY_STATUS(r1, 201);
    const QJsonObject re = r1.object();
    QVERIFY(re.value(QStringLiteral("id")).toString().startsWith(QStringLiteral("re_")));
    QCOMPARE(re.value(QStringLiteral("payment_id")).toString(), id);
    QCOMPARE(re.value(QStringLiteral("amount")).toInteger(), 300);
    QCOMPARE(re.value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    QVERIFY(QDateTime::fromString(re.value(QStringLiteral("created_at")).toString(), Qt::ISODateWithMs).isValid());
    QCOMPARE(payment(id).value(QStringLiteral("amount_refunded")).toInteger(), 300);
    QCOMPARE(payment(id).value(QStringLiteral("status")).toString(), QStringLiteral("partially_refunded"));

    // Replay byte for byte, and the refund is not applied twice.
    const HttpReply again = refund(id, k1, body1);
    ONCEPAY_VERIFY_STATUS(again, 201);
    QVERIFY(again.replayed());
    QCOMPARE(again.body, r1.body);
    QCOMPARE(payment(id).value(QStringLiteral("amount_refunded")).toInteger(), 300);
    // Same key, another amount: 422, the original untouched.
    ONCEPAY_VERIFY_PROBLEM(refund(id, k1, amountBody(200)), 422, QStringLiteral("idempotency-key-reused"));

    // More than what remains (700): 400, not recorded, so the corrected request executes.
    const QString k2 = uniqueKey(QStringLiteral("re"));
    ONCEPAY_VERIFY_PROBLEM(refund(id, k2, amountBody(701)), 400, QStringLiteral("validation-failed"));
    QCOMPARE(payment(id).value(QStringLiteral("amount_refunded")).toInteger(), 300);
    const HttpReply r2 = refund(id, k2, amountBody(700));
    ONCEPAY_VERIFY_STATUS(r2, 201);
    QVERIFY(!r2.replayed());
    const QJsonObject full = payment(id);
    QCOMPARE(full.value(QStringLiteral("amount_refunded")).toInteger(), 1000);
    QCOMPARE(full.value(QStringLiteral("status")).toString(), QStringLiteral("refunded"));

    // Nothing remains.
    ONCEPAY_VERIFY_PROBLEM(refund(id, uniqueKey(QStringLiteral("re")), amountBody(1)), 400,
                           QStringLiteral("validation-failed"));
    // The first refund still replays after all that.
    QCOMPARE(refund(id, k1, body1).body, r1.body);
}

void TestRefunds::invalidRefunds_data()
{
    QTest::addColumn<QString>("paymentMethod"); // empty: an unknown payment id
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("withKey");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("slug");

    const QString visa = QStringLiteral("tok_visa");
    const QString validation = QStringLiteral("validation-failed");
    QTest::newRow("missing key") << visa << amountBody(100) << false << 400 << QStringLiteral("idempotency-key-missing");
    QTest::newRow("amount zero") << visa << amountBody(0) << true << 400 << validation;
    QTest::newRow("amount negative") << visa << amountBody(-100) << true << 400 << validation;
    QTest::newRow("amount float") << visa << QByteArray(R"({"amount":1.5})") << true << 400 << validation;
    QTest::newRow("amount string") << visa << QByteArray(R"({"amount":"100"})") << true << 400 << validation;
    QTest::newRow("more than paid") << visa << amountBody(1001) << true << 400 << validation;
    QTest::newRow("unknown field") << visa << QByteArray(R"({"amount":100,"amuont":1})") << true << 400 << validation;
    QTest::newRow("unknown payment") << QString() << amountBody(100) << true << 404 << QStringLiteral("not-found");
    QTest::newRow("declined payment") << QStringLiteral("tok_chargeDeclined") << amountBody(100) << true << 400 << validation;
}

void TestRefunds::invalidRefunds()
{
    QFETCH(QString, paymentMethod);
    QFETCH(QByteArray, body);
    QFETCH(bool, withKey);
    QFETCH(int, status);
    QFETCH(QString, slug);
    const QString id = paymentMethod.isEmpty() ? QStringLiteral("pay_doesnotexist0000")
                                               : newPayment(1000, paymentMethod);
    const HttpHeaders headers = withKey ? keyHeader(uniqueKey(QStringLiteral("bad"))) : HttpHeaders();
    const HttpReply r = m_client.post(QStringLiteral("/v1/payments/%1/refunds").arg(id), body, headers);
    ONCEPAY_VERIFY_PROBLEM(r, status, slug);
    if (!paymentMethod.isEmpty())
        QCOMPARE(payment(id).value(QStringLiteral("amount_refunded")).toInteger(), 0);
}

void TestRefunds::concurrentRefundsStayBounded()
{
    // Ten refunds of 300 with distinct keys on 1000: exactly three fit.
    const QString id = newPayment(1000);
    QList<QByteArray> requests;
    for (int i = 0; i < 10; ++i) {
        requests << RawHttp::request("POST", "/v1/payments/" + id.toUtf8() + "/refunds",
                                     {"Authorization: Bearer sk_test_demo_till1", "Content-Type: application/json",
                                      "Idempotency-Key: \"" + uniqueKey(QStringLiteral("par")).toUtf8() + '"'},
                                     amountBody(300));
    }
    int created = 0;
    for (const RawResult &r : RawHttp::exchangeAll(m_gateway.port(), requests)) {
        QVERIFY2(r.status == 201 || r.status == 400, r.describe().constData());
        created += r.status == 201;
    }
    QCOMPARE(created, 3);
    const QJsonObject p = payment(id);
    QCOMPARE(p.value(QStringLiteral("amount_refunded")).toInteger(), 900);
    QCOMPARE(p.value(QStringLiteral("status")).toString(), QStringLiteral("partially_refunded"));
}

void TestRefunds::concurrentSameKeyRefundsOnce()
{
    const QString id = newPayment(1000);
    const QString key = uniqueKey(QStringLiteral("same"));
    QList<QByteArray> requests;
    for (int i = 0; i < 20; ++i) {
        requests << RawHttp::request("POST", "/v1/payments/" + id.toUtf8() + "/refunds",
                                     {"Authorization: Bearer sk_test_demo_till1", "Content-Type: application/json",
                                      "Idempotency-Key: \"" + key.toUtf8() + '"'},
                                     amountBody(100));
    }
    QSet<QString> refundIds;
    for (const RawResult &r : RawHttp::exchangeAll(m_gateway.port(), requests)) {
        QVERIFY2(r.status == 201 || r.status == 409, r.describe().constData());
        if (r.status == 201)
            refundIds << r.json().object().value(QStringLiteral("id")).toString();
    }
    QCOMPARE(refundIds.size(), 1);
    QCOMPARE(payment(id).value(QStringLiteral("amount_refunded")).toInteger(), 100);
}

QTEST_GUILESS_MAIN(TestRefunds)
#include "tst_refunds.moc"
