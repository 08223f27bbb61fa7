// POST /v1/payments/{id}/refunds: idempotent by key, bounded by what remains (also under
// concurrency, refunds still processing counted), through the acquirer with the refund's own
// key: a lost answer is 202 and resolved by asking the acquirer, a decline moves nothing, a
// refusal is not recorded. The acquirer's refund ledger is the ground truth throughout.
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
    void answerLostThenResolved();
    void declinedRefundMovesNothing();
    void refusedRefundIsNotRecorded();
    void processingRefundReservesItsAmount();
    void lookups();
    void keysSharedWithPayments();

private:
    QString newPayment(qint64 amount, const QString &method = QStringLiteral("tok_visa"), QString *key = nullptr);
    void waitForRefund(const QString &id, const QString &status, QJsonObject *refund = nullptr);
    HttpReply refund(const QString &paymentId, const QString &key, const QByteArray &body);
    QJsonObject payment(const QString &id);

    GatewayProcess m_gateway;
    HttpClient m_client;
};

void TestRefunds::initTestCase()
{
    // Recovery runs often, so that a refund whose answer was lost resolves within the test.
    QVERIFY2(m_gateway.start({QStringLiteral("--recovery-interval"), QStringLiteral("200ms")}),
        m_gateway.failureMessage().constData());
    m_client.setBaseUrl(m_gateway.baseUrl());
}

void TestRefunds::cleanup()
{
    QVERIFY(setAcquirer(m_client, QStringLiteral("normal")));
    QVERIFY2(m_gateway.isRunning(), m_gateway.failureMessage().constData());
}

void TestRefunds::waitForRefund(const QString &id, const QString &status, QJsonObject *refund)
{
    QJsonObject o;
    QTRY_VERIFY_WITH_TIMEOUT((o = m_client.get(QStringLiteral("/v1/refunds/") + id).object(),
                                 o.value(QStringLiteral("status")).toString() == status),
        15000);
    if (refund)
        *refund = o;
}

QString TestRefunds::newPayment(qint64 amount, const QString &method, QString *key)
{
    const QString k = uniqueKey(QStringLiteral("pay"));
    if (key)
        *key = k;
    const HttpReply r = pay(m_client, k, paymentBody(amount, method));
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
    QString chargeKey;
    const QString id = newPayment(1000, QStringLiteral("tok_visa"), &chargeKey);
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
    // The money went back through the acquirer, once per refund, with the refunds' own keys.
    const AcquirerRefunds bank = acquirerRefunds(m_client, chargeKey);
    QVERIFY2(bank.ok, bank.raw.constData());
    QCOMPARE(bank.succeeded, 2);
    QCOMPARE(bank.refunded, 1000);
    QCOMPARE(QSet<QString>(bank.keys.cbegin(), bank.keys.cend()), (QSet<QString>{k1, k2}));
}

void TestRefunds::invalidRefunds_data()
{
    QTest::addColumn<QString>("paymentMethod");   // empty: an unknown payment id
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
    QString chargeKey;
    const QString id = newPayment(1000, QStringLiteral("tok_visa"), &chargeKey);
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
    const AcquirerRefunds bank = acquirerRefunds(m_client, chargeKey);
    QVERIFY2(bank.ok && bank.succeeded == 3 && bank.refunded == 900, bank.raw.constData());
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

void TestRefunds::answerLostThenResolved()
{
    QString chargeKey;
    const QString id = newPayment(1000, QStringLiteral("tok_visa"), &chargeKey);
    // The acquirer refunds, and its answer is lost: 202 processing, never a guess.
    QVERIFY(setAcquirer(m_client, QStringLiteral("timeout_after_charge")));
    const QString key = uniqueKey(QStringLiteral("lost"));
    const HttpReply r = GatewayApi::refund(m_client, id, key, 400);
    ONCEPAY_VERIFY_STATUS(r, 202);
    const QJsonObject processing = r.object();
    QCOMPARE(processing.value(QStringLiteral("status")).toString(), QStringLiteral("processing"));
    const QString refundId = processing.value(QStringLiteral("id")).toString();
    QCOMPARE(QString::fromUtf8(r.header("Location")), QStringLiteral("/v1/refunds/") + refundId);
    QCOMPARE(payment(id).value(QStringLiteral("amount_refunded")).toInteger(), 0);   // not known yet
    QVERIFY(setAcquirer(m_client, QStringLiteral("normal")));

    // Recovery asks the acquirer by the refund's key and settles it; nothing is sent twice.
    QJsonObject settled;
    waitForRefund(refundId, QStringLiteral("succeeded"), &settled);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(settled.value(QStringLiteral("amount")).toInteger(), 400);
    const QJsonObject p = payment(id);
    QCOMPARE(p.value(QStringLiteral("amount_refunded")).toInteger(), 400);
    QCOMPARE(p.value(QStringLiteral("status")).toString(), QStringLiteral("partially_refunded"));
    // The till's retry with the same key learns the outcome.
    const HttpReply retry = GatewayApi::refund(m_client, id, key, 400);
    ONCEPAY_VERIFY_STATUS(retry, 201);
    QVERIFY(retry.replayed());
    QCOMPARE(retry.object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    const AcquirerRefunds bank = acquirerRefunds(m_client, chargeKey);
    QVERIFY2(bank.ok && bank.succeeded == 1 && bank.refunded == 400, bank.raw.constData());
    QCOMPARE(bank.keys, QStringList{key});
}

void TestRefunds::declinedRefundMovesNothing()
{
    QString chargeKey;
    const QString id = newPayment(1000, QStringLiteral("tok_visa"), &chargeKey);
    QVERIFY(setAcquirer(m_client, QStringLiteral("decline_all")));
    const QString key = uniqueKey(QStringLiteral("declined"));
    const HttpReply r = GatewayApi::refund(m_client, id, key, 1000);
    ONCEPAY_VERIFY_PROBLEM(r, 402, QStringLiteral("refund-declined"));
    const QJsonObject failed = r.object().value(QStringLiteral("refund")).toObject();
    QCOMPARE(failed.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
    QCOMPARE(failed.value(QStringLiteral("failure_code")).toString(), QStringLiteral("refund_declined"));
    // Final: replayed as it was, even with the acquirer back to normal.
    QVERIFY(setAcquirer(m_client, QStringLiteral("normal")));
    const HttpReply again = GatewayApi::refund(m_client, id, key, 1000);
    QCOMPARE(again.status, 402);
    QVERIFY(again.replayed());
    QCOMPARE(payment(id).value(QStringLiteral("amount_refunded")).toInteger(), 0);
    // Nothing was reserved by it: a new refund of the whole amount goes through.
    ONCEPAY_VERIFY_STATUS(GatewayApi::refund(m_client, id, uniqueKey(QStringLiteral("after")), 1000), 201);
    const AcquirerRefunds bank = acquirerRefunds(m_client, chargeKey);
    QVERIFY2(bank.ok && bank.succeeded == 1 && bank.declined == 1 && bank.refunded == 1000, bank.raw.constData());
}

void TestRefunds::refusedRefundIsNotRecorded()
{
    QString chargeKey;
    const QString id = newPayment(1000, QStringLiteral("tok_visa"), &chargeKey);
    QVERIFY(setAcquirer(m_client, QStringLiteral("error_before_charge")));
    const QString key = uniqueKey(QStringLiteral("refused"));
    ONCEPAY_VERIFY_PROBLEM(GatewayApi::refund(m_client, id, key, 700), 502, QStringLiteral("acquirer-unavailable"));
    QVERIFY(acquirerRefunds(m_client, chargeKey).rows.isEmpty());
    ONCEPAY_VERIFY_STATUS(m_client.get(QStringLiteral("/v1/refunds?idempotency_key=") + key), 404);
    // The same key executes once the acquirer accepts again, and the amount was given back.
    QVERIFY(setAcquirer(m_client, QStringLiteral("normal")));
    const HttpReply r = GatewayApi::refund(m_client, id, key, 700);
    ONCEPAY_VERIFY_STATUS(r, 201);
    QVERIFY(!r.replayed());
    ONCEPAY_VERIFY_STATUS(GatewayApi::refund(m_client, id, uniqueKey(QStringLiteral("rest")), 300), 201);
    const AcquirerRefunds bank = acquirerRefunds(m_client, chargeKey);
    QVERIFY2(bank.ok && bank.succeeded == 2 && bank.refunded == 1000, bank.raw.constData());
}

void TestRefunds::processingRefundReservesItsAmount()
{
    QString chargeKey;
    const QString id = newPayment(1000, QStringLiteral("tok_visa"), &chargeKey);
    QVERIFY(setAcquirer(m_client, QStringLiteral("timeout_after_charge")));
    const HttpReply lost = GatewayApi::refund(m_client, id, uniqueKey(QStringLiteral("held")), 600);
    ONCEPAY_VERIFY_STATUS(lost, 202);
    QVERIFY(setAcquirer(m_client, QStringLiteral("normal")));
    // Whether or not recovery has settled it yet, 600 is spoken for: 500 more never fits.
    ONCEPAY_VERIFY_PROBLEM(GatewayApi::refund(m_client, id, uniqueKey(QStringLiteral("over")), 500), 400,
        QStringLiteral("validation-failed"));
    ONCEPAY_VERIFY_STATUS(GatewayApi::refund(m_client, id, uniqueKey(QStringLiteral("fits")), 400), 201);
    waitForRefund(lost.object().value(QStringLiteral("id")).toString(), QStringLiteral("succeeded"));
    if (QTest::currentTestFailed())
        return;
    const QJsonObject p = payment(id);
    QCOMPARE(p.value(QStringLiteral("amount_refunded")).toInteger(), 1000);
    QCOMPARE(p.value(QStringLiteral("status")).toString(), QStringLiteral("refunded"));
    const AcquirerRefunds bank = acquirerRefunds(m_client, chargeKey);
    QVERIFY2(bank.ok && bank.succeeded == 2 && bank.refunded == 1000, bank.raw.constData());
}

void TestRefunds::lookups()
{
    const QString id = newPayment(1000);
    const QString k1 = uniqueKey(QStringLiteral("look"));
    const QString k2 = uniqueKey(QStringLiteral("look"));
    const HttpReply r1 = GatewayApi::refund(m_client, id, k1, 100);
    const HttpReply r2 = GatewayApi::refund(m_client, id, k2, 200);
    ONCEPAY_VERIFY_STATUS(r1, 201);
    ONCEPAY_VERIFY_STATUS(r2, 201);

    const HttpReply byKey = m_client.get(QStringLiteral("/v1/refunds?idempotency_key=") + k2);
    ONCEPAY_VERIFY_STATUS(byKey, 200);
    QCOMPARE(byKey.object(), r2.object());
    QCOMPARE(byKey.object().value(QStringLiteral("idempotency_key")).toString(), k2);
    QCOMPARE(byKey.object().value(QStringLiteral("payment_id")).toString(), id);
    const HttpReply byId = m_client.get(QString::fromUtf8(r1.header("Location")));
    ONCEPAY_VERIFY_STATUS(byId, 200);
    QCOMPARE(byId.object(), r1.object());
    const HttpReply list = m_client.get(QStringLiteral("/v1/payments/%1/refunds").arg(id));
    ONCEPAY_VERIFY_STATUS(list, 200);
    const QJsonArray data = list.object().value(QStringLiteral("data")).toArray();
    QCOMPARE(data.size(), 2);
    QCOMPARE(data.at(0).toObject(), r1.object());
    QCOMPARE(data.at(1).toObject(), r2.object());

    ONCEPAY_VERIFY_PROBLEM(m_client.get(QStringLiteral("/v1/refunds?idempotency_key=") + uniqueKey()), 404,
        QStringLiteral("not-found"));
    ONCEPAY_VERIFY_PROBLEM(m_client.get(QStringLiteral("/v1/refunds?idempotency_key=")), 400,
        QStringLiteral("validation-failed"));
    ONCEPAY_VERIFY_PROBLEM(m_client.get(QStringLiteral("/v1/refunds/re_doesnotexist")), 404, QStringLiteral("not-found"));
    ONCEPAY_VERIFY_PROBLEM(m_client.get(QStringLiteral("/v1/payments/pay_doesnotexist/refunds")), 404,
        QStringLiteral("not-found"));
    // Another merchant sees none of them.
    HttpClient other(m_gateway.baseUrl(), kOther);
    ONCEPAY_VERIFY_STATUS(other.get(QStringLiteral("/v1/refunds?idempotency_key=") + k1), 404);
    ONCEPAY_VERIFY_STATUS(other.get(QString::fromUtf8(r1.header("Location"))), 404);
    ONCEPAY_VERIFY_STATUS(other.get(QStringLiteral("/v1/payments/%1/refunds").arg(id)), 404);
    const AcquirerRefunds theirs = acquirerRefunds(other, QString());
    QVERIFY2(theirs.ok && !theirs.keys.contains(k1) && !theirs.keys.contains(k2), theirs.raw.constData());
}

void TestRefunds::keysSharedWithPayments()
{
    QString payKey;
    const QString id = newPayment(1000, QStringLiteral("tok_visa"), &payKey);
    // A payment's key never executes a refund, and a refund's key never a payment.
    ONCEPAY_VERIFY_PROBLEM(GatewayApi::refund(m_client, id, payKey, 100), 422, QStringLiteral("idempotency-key-reused"));
    const QString refundKey = uniqueKey(QStringLiteral("ns"));
    ONCEPAY_VERIFY_STATUS(GatewayApi::refund(m_client, id, refundKey, 100), 201);
    ONCEPAY_VERIFY_PROBLEM(pay(m_client, refundKey, paymentBody(100)), 422, QStringLiteral("idempotency-key-reused"));
    QVERIFY(acquirerCharges(m_client, refundKey).rows.isEmpty());
    QCOMPARE(payment(id).value(QStringLiteral("amount_refunded")).toInteger(), 100);
}

QTEST_GUILESS_MAIN(TestRefunds)
#include "tst_refunds.moc"
