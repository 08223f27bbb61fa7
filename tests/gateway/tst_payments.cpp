// POST /v1/payments: the payment object, outcomes by test token and acquirer mode, replay
// byte for byte, fingerprints (422 vs. equivalent JSON), and GET by id / by key.
#include "gatewayapi.h"
#include "gatewayprocess.h"

#include <QtTest>

using namespace GatewayApi;

class TestPayments final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void createdPaymentHasEveryField();
    void currencies_data();
    void currencies();
    void edgeValuesAccepted_data();
    void edgeValuesAccepted();
    void keysAreCaseSensitive();
    void outcomes_data();
    void outcomes();
    void replayIsByteForByte();
    void reusedKeyWithOtherBody_data();
    void reusedKeyWithOtherBody();
    void equivalentJsonReplays_data();
    void equivalentJsonReplays();
    void timeoutAfterChargeResolves();
    void errorBeforeChargeIsNotRecorded();
    void acquirerModes_data();
    void acquirerModes();
    void unknownPaymentIsNotFound();

private:
    GatewayProcess m_gateway;
    HttpClient m_client;
};

void TestPayments::initTestCase()
{
    QVERIFY2(m_gateway.start({QStringLiteral("--recovery-interval"), QStringLiteral("300ms")}),
        m_gateway.failureMessage().constData());
    m_client.setBaseUrl(m_gateway.baseUrl());
}

void TestPayments::cleanup()
{
    QVERIFY2(m_gateway.isRunning(), m_gateway.failureMessage().constData());
    QVERIFY(setAcquirer(m_client, QStringLiteral("normal"), 0));
}

void TestPayments::createdPaymentHasEveryField()
{
    const QString key = uniqueKey(QStringLiteral("fields"));
    const HttpReply r = pay(m_client, key, paymentBody(1999, QStringLiteral("tok_visa"), QStringLiteral("ord-fields-1")));
    ONCEPAY_VERIFY_STATUS(r, 201);
    QVERIFY(r.header("Content-Type").startsWith("application/json"));
    QVERIFY(!r.replayed());
    const QJsonObject p = r.object();
    const QByteArray why = paymentMismatch(p);
    QVERIFY2(why.isEmpty(), why.constData());
    const QString id = p.value(QStringLiteral("id")).toString();
    QCOMPARE(r.header("Location"), QByteArray("/v1/payments/") + id.toUtf8());
    QCOMPARE(p.value(QStringLiteral("amount")).toInteger(), 1999);
    QCOMPARE(p.value(QStringLiteral("currency")).toString(), QStringLiteral("CNY"));
    QCOMPARE(p.value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    QCOMPARE(p.value(QStringLiteral("order_id")).toString(), QStringLiteral("ord-fields-1"));
    QCOMPARE(p.value(QStringLiteral("terminal_id")).toString(), QStringLiteral("till-1"));
    QCOMPARE(p.value(QStringLiteral("idempotency_key")).toString(), key);
    QVERIFY(p.value(QStringLiteral("decline_code")).isNull());
    QCOMPARE(p.value(QStringLiteral("amount_refunded")).toInteger(), 0);

    const HttpReply byId = m_client.get(QString::fromUtf8(r.header("Location")));
    ONCEPAY_VERIFY_STATUS(byId, 200);
    QCOMPARE(byId.object(), p);
    const HttpReply byKey = m_client.get(QStringLiteral("/v1/payments?idempotency_key=") + key);
    ONCEPAY_VERIFY_STATUS(byKey, 200);
    QCOMPARE(byKey.object(), p);

    const Charges charges = acquirerCharges(m_client, key);
    QVERIFY2(charges.ok, charges.raw.constData());
    QCOMPARE(charges.succeeded, 1);
    QCOMPARE(charges.rows.size(), 1);
    const QJsonObject row = charges.rows.first().toObject();
    QCOMPARE(row.value(QStringLiteral("amount")).toInteger(), 1999);
    QCOMPARE(row.value(QStringLiteral("currency")).toString(), QStringLiteral("CNY"));
}

void TestPayments::currencies_data()
{
    QTest::addColumn<QString>("currency");
    for (const char *c : {"CNY", "USD", "EUR", "JPY"})
        QTest::newRow(c) << QString::fromLatin1(c);
}

void TestPayments::currencies()
{
    QFETCH(QString, currency);
    const HttpReply r = pay(m_client, uniqueKey(currency),
        paymentBody(500, QStringLiteral("tok_visa"), QStringLiteral("ord-c"), currency));
    ONCEPAY_VERIFY_STATUS(r, 201);
    QCOMPARE(r.object().value(QStringLiteral("currency")).toString(), currency);
    QCOMPARE(r.object().value(QStringLiteral("amount")).toInteger(), 500);
}

void TestPayments::edgeValuesAccepted_data()
{
    QTest::addColumn<QByteArray>("body");
    const QByteArray rest = R"("currency":"CNY","payment_method":"tok_visa")";
    QTest::newRow("amount 1") << QByteArray(R"({"amount":1,"order_id":"o-min",)" + rest + "}");
    QTest::newRow("amount 100000000") << QByteArray(R"({"amount":100000000,"order_id":"o-max",)" + rest + "}");
    QTest::newRow("order_id 64 chars")
        << QByteArray(R"({"amount":10,"order_id":")" + QByteArray(62, 'a') + R"(-_",)" + rest + "}");
    QTest::newRow("description 500 chars")
        << QByteArray(R"({"amount":10,"order_id":"o-d","description":")" + QByteArray(500, 'd') + R"(",)" + rest + "}");
    QTest::newRow("description in Chinese")
        << QByteArray(R"({"amount":10,"order_id":"o-zh","description":"咖啡 两杯",)" + rest + "}");
    QByteArray meta = "{";
    for (int i = 0; i < 20; ++i)
        meta += (i ? ",\"k" : "\"k") + QByteArray::number(i) + "\":\"v\"";
    meta += "}";
    QTest::newRow("metadata 20 values") << QByteArray(R"({"amount":10,"order_id":"o-m","metadata":)" + meta + "," + rest + "}");
}

void TestPayments::edgeValuesAccepted()
{
    QFETCH(QByteArray, body);
    const QString key = uniqueKey(QStringLiteral("edge"));
    const HttpReply r = pay(m_client, key, body);
    ONCEPAY_VERIFY_STATUS(r, 201);
    const QJsonObject sent = QJsonDocument::fromJson(body).object();
    QCOMPARE(r.object().value(QStringLiteral("amount")), sent.value(QStringLiteral("amount")));
    QCOMPARE(r.object().value(QStringLiteral("order_id")), sent.value(QStringLiteral("order_id")));
    QCOMPARE(acquirerCharges(m_client, key).succeeded, 1);
}

void TestPayments::keysAreCaseSensitive()
{
    const QString lower = uniqueKey(QStringLiteral("case")).toLower();
    const QString upper = lower.toUpper();
    const HttpReply a = pay(m_client, lower);
    const HttpReply b = pay(m_client, upper);
    ONCEPAY_VERIFY_STATUS(a, 201);
    ONCEPAY_VERIFY_STATUS(b, 201);
    QVERIFY(!b.replayed());
    QVERIFY(a.object().value(QStringLiteral("id")) != b.object().value(QStringLiteral("id")));
    QCOMPARE(b.object().value(QStringLiteral("idempotency_key")).toString(), upper);
}

void TestPayments::outcomes_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("declineCode");
    QTest::addColumn<int>("succeededCharges");
    QTest::addColumn<QString>("brand");   // the acquirer names the card, declined or not
    QTest::addColumn<QString>("last4");

    QTest::newRow("visa") << QStringLiteral("tok_visa") << 201 << QString() << 1
                          << QStringLiteral("visa") << QStringLiteral("4242");
    QTest::newRow("mastercard") << QStringLiteral("tok_mastercard") << 201 << QString() << 1
                                << QStringLiteral("mastercard") << QStringLiteral("4444");
    QTest::newRow("unionpay") << QStringLiteral("tok_unionpay") << 201 << QString() << 1
                              << QStringLiteral("unionpay") << QStringLiteral("0005");
    QTest::newRow("declined") << QStringLiteral("tok_chargeDeclined") << 402
                              << QStringLiteral("card_declined") << 0 << QStringLiteral("visa") << QStringLiteral("0002");
    QTest::newRow("insufficient funds") << QStringLiteral("tok_insufficientFunds") << 402
                                        << QStringLiteral("insufficient_funds") << 0
                                        << QStringLiteral("visa") << QStringLiteral("9995");
}

void TestPayments::outcomes()
{
    QFETCH(QString, method);
    QFETCH(int, status);
    QFETCH(QString, declineCode);
    QFETCH(int, succeededCharges);
    QFETCH(QString, brand);
    QFETCH(QString, last4);

    const QString key = uniqueKey(method);
    const QByteArray body = paymentBody(2500, method, QStringLiteral("ord-outcome"));
    const HttpReply first = pay(m_client, key, body);
    QJsonObject payment;
    if (status == 402) {
        ONCEPAY_VERIFY_PROBLEM(first, 402, QStringLiteral("card-declined"));
        payment = first.object().value(QStringLiteral("payment")).toObject();
        QCOMPARE(payment.value(QStringLiteral("status")).toString(), QStringLiteral("declined"));
        QCOMPARE(payment.value(QStringLiteral("decline_code")).toString(), declineCode);
    } else {
        ONCEPAY_VERIFY_STATUS(first, status);
        payment = first.object();
        QCOMPARE(payment.value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    }
    const QByteArray why = paymentMismatch(payment);
    QVERIFY2(why.isEmpty(), why.constData());
    // What the receipt prints: the card (declined or not) and, for an approved charge only, the
    // acquirer's authorization code.
    const QJsonObject card = payment.value(QStringLiteral("card")).toObject();
    QCOMPARE(card.value(QStringLiteral("brand")).toString(), brand);
    QCOMPARE(card.value(QStringLiteral("last4")).toString(), last4);
    const QJsonValue code = payment.value(QStringLiteral("authorization_code"));
    if (status == 201)
        QCOMPARE(code.toString().size(), 6);
    else
        QVERIFY2(code.isNull(), first.body.constData());

    // Outcomes are recorded: the same request answers the same bytes again.
    const HttpReply again = pay(m_client, key, body);
    ONCEPAY_VERIFY_STATUS(again, status);
    QVERIFY2(again.replayed(), again.describe().constData());
    QCOMPARE(again.body, first.body);
    // The payment row holds them too: GET by id and by key, and the list.
    const QString id = payment.value(QStringLiteral("id")).toString();
    const HttpReply byId = m_client.get(QStringLiteral("/v1/payments/") + id);
    ONCEPAY_VERIFY_STATUS(byId, 200);
    QCOMPARE(byId.object().value(QStringLiteral("card")).toObject(), card);
    QCOMPARE(byId.object().value(QStringLiteral("authorization_code")), code);
    const HttpReply byKey = m_client.get(QStringLiteral("/v1/payments?idempotency_key=") + key);
    ONCEPAY_VERIFY_STATUS(byKey, 200);
    QCOMPARE(byKey.object().value(QStringLiteral("authorization_code")), code);
    const QDateTime created = QDateTime::fromString(payment.value(QStringLiteral("created_at")).toString(),
        Qt::ISODateWithMs);
    QVERIFY(created.isValid());
    const HttpReply list = m_client.get(QStringLiteral("/v1/payments?terminal_id=till-1&limit=500&created_after=")
        + created.addMSecs(-1).toUTC().toString(Qt::ISODateWithMs));
    ONCEPAY_VERIFY_STATUS(list, 200);
    bool listed = false;
    const QJsonArray data = list.object().value(QStringLiteral("data")).toArray();
    for (const QJsonValue &v : data) {
        if (v.toObject().value(QStringLiteral("id")).toString() != id)
            continue;
        listed = true;
        QCOMPARE(v.toObject().value(QStringLiteral("card")).toObject(), card);
        QCOMPARE(v.toObject().value(QStringLiteral("authorization_code")), code);
    }
    QVERIFY2(listed, list.body.constData());

    const Charges charges = acquirerCharges(m_client, key);
    QVERIFY2(charges.ok, charges.raw.constData());
    QCOMPARE(charges.succeeded, succeededCharges);
    QVERIFY2(charges.rows.size() <= 1, charges.raw.constData());
    // The code is the acquirer's: the same in its ledger.
    if (status == 201)
        QCOMPARE(charges.rows.first().toObject().value(QStringLiteral("authorization_code")), code);
}

void TestPayments::replayIsByteForByte()
{
    const QString key = uniqueKey(QStringLiteral("replay"));
    const QByteArray body = paymentBody(777);
    const HttpReply first = pay(m_client, key, body);
    ONCEPAY_VERIFY_STATUS(first, 201);
    QVERIFY(!first.replayed());
    for (int i = 0; i < 3; ++i) {
        const HttpReply again = pay(m_client, key, body);
        ONCEPAY_VERIFY_STATUS(again, 201);
        QCOMPARE(again.header("Idempotent-Replayed"), QByteArray("true"));
        QCOMPARE(again.body, first.body);
        QCOMPARE(again.header("Location"), first.header("Location"));
    }
    // Another till of the same merchant shares the merchant's keys.
    HttpClient till2(m_gateway.baseUrl(), kTill2);
    const HttpReply fromTill2 = pay(till2, key, body);
    ONCEPAY_VERIFY_STATUS(fromTill2, 201);
    QVERIFY(fromTill2.replayed());
    QCOMPARE(fromTill2.body, first.body);
    QCOMPARE(acquirerCharges(m_client, key).succeeded, 1);
}

void TestPayments::reusedKeyWithOtherBody_data()
{
    QTest::addColumn<QByteArray>("other");
    QTest::newRow("amount") << paymentBody(1000);
    QTest::newRow("currency") << paymentBody(999, QStringLiteral("tok_visa"), QStringLiteral("ord-0001"),
        QStringLiteral("USD"));
    QTest::newRow("order") << paymentBody(999, QStringLiteral("tok_visa"), QStringLiteral("ord-0002"));
    QTest::newRow("method") << paymentBody(999, QStringLiteral("tok_mastercard"));
    QTest::newRow("added description")
        << QByteArray(R"({"amount":999,"currency":"CNY","order_id":"ord-0001","payment_method":"tok_visa","description":"x"})");
    QTest::newRow("number written otherwise")
        << QByteArray(R"({"amount":9.99e2,"currency":"CNY","order_id":"ord-0001","payment_method":"tok_visa"})");
}

void TestPayments::reusedKeyWithOtherBody()
{
    QFETCH(QByteArray, other);
    const QString key = uniqueKey(QStringLiteral("reuse"));
    const QByteArray original = paymentBody(999);
    const HttpReply first = pay(m_client, key, original);
    ONCEPAY_VERIFY_STATUS(first, 201);

    const HttpReply reused = pay(m_client, key, other);
    // A differently written number is either another request (422) or not an integer (400);
    // what it must never be is a replay or a second payment.
    if (QByteArray(QTest::currentDataTag()) == "number written otherwise" && reused.status == 400)
        ONCEPAY_VERIFY_PROBLEM(reused, 400, QStringLiteral("validation-failed"));
    else
        ONCEPAY_VERIFY_PROBLEM(reused, 422, QStringLiteral("idempotency-key-reused"));

    const HttpReply still = pay(m_client, key, original);
    ONCEPAY_VERIFY_STATUS(still, 201);
    QVERIFY(still.replayed());
    QCOMPARE(still.body, first.body);
    QCOMPARE(still.header("Location"), first.header("Location"));
    QCOMPARE(acquirerCharges(m_client, key).succeeded, 1);
}

void TestPayments::equivalentJsonReplays_data()
{
    QTest::addColumn<QByteArray>("equivalent");
    QTest::newRow("reordered keys")
        << QByteArray(R"({"payment_method":"tok_visa","order_id":"ord-eq","currency":"CNY","amount":1234})");
    QTest::newRow("white space")
        << QByteArray("{ \"amount\" : 1234 ,\n\t\"currency\":\"CNY\", \"order_id\" :\"ord-eq\",\r\n \"payment_method\": \"tok_visa\" }\n");
    QTest::newRow("reordered and spaced")
        << QByteArray("{\n  \"order_id\": \"ord-eq\",\n  \"amount\": 1234,\n  \"payment_method\": \"tok_visa\",\n  \"currency\": \"CNY\"\n}");
}

void TestPayments::equivalentJsonReplays()
{
    QFETCH(QByteArray, equivalent);
    const QString key = uniqueKey(QStringLiteral("equiv"));
    const HttpReply first = pay(m_client, key, paymentBody(1234, QStringLiteral("tok_visa"), QStringLiteral("ord-eq")));
    ONCEPAY_VERIFY_STATUS(first, 201);
    const HttpReply again = pay(m_client, key, equivalent);
    ONCEPAY_VERIFY_STATUS(again, 201);
    QVERIFY(again.replayed());
    QCOMPARE(again.body, first.body);
    QCOMPARE(acquirerCharges(m_client, key).succeeded, 1);
}

void TestPayments::timeoutAfterChargeResolves()
{
    const QString key = uniqueKey(QStringLiteral("lost"));
    const QByteArray body = paymentBody(4200, QStringLiteral("tok_timeoutAfterCharge"));
    const HttpReply first = pay(m_client, key, body);
    ONCEPAY_VERIFY_STATUS(first, 202);
    const QJsonObject p = first.object();
    QCOMPARE(p.value(QStringLiteral("status")).toString(), QStringLiteral("processing"));
    const QString id = p.value(QStringLiteral("id")).toString();
    QCOMPARE(first.header("Location"), QByteArray("/v1/payments/") + id.toUtf8());

    // The gateway resolves it in the background by asking the acquirer by key.
    QTRY_COMPARE_WITH_TIMEOUT(
        m_client.get(QStringLiteral("/v1/payments/") + id).object().value(QStringLiteral("status")).toString(),
        QStringLiteral("succeeded"), 30000);
    const Charges charges = acquirerCharges(m_client, key);
    QVERIFY2(charges.ok, charges.raw.constData());
    QCOMPARE(charges.succeeded, 1);

    // A replay of a 202 answers the payment's current state.
    const HttpReply again = pay(m_client, key, body);
    ONCEPAY_VERIFY_STATUS(again, 201);
    QVERIFY(again.replayed());
    QCOMPARE(again.object().value(QStringLiteral("id")).toString(), id);
    QCOMPARE(again.object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    QCOMPARE(acquirerCharges(m_client, key).succeeded, 1);
    // Recovery's settlement carries what the acquirer answered when asked by key: the card and
    // the code it issued when it charged.
    const QString code = again.object().value(QStringLiteral("authorization_code")).toString();
    QCOMPARE(code.size(), 6);
    QCOMPARE(again.object().value(QStringLiteral("card")).toObject().value(QStringLiteral("brand")).toString(),
        QStringLiteral("visa"));
    QCOMPARE(acquirerCharges(m_client, key).rows.first().toObject().value(QStringLiteral("authorization_code")).toString(),
        code);
}

void TestPayments::errorBeforeChargeIsNotRecorded()
{
    const QString key = uniqueKey(QStringLiteral("refused"));
    const QByteArray body = paymentBody(300, QStringLiteral("tok_errorBeforeCharge"));
    for (int attempt = 0; attempt < 2; ++attempt) {
        const HttpReply r = pay(m_client, key, body);
        ONCEPAY_VERIFY_PROBLEM(r, 502, QStringLiteral("acquirer-unavailable"));
        QVERIFY2(!r.replayed(), r.describe().constData());
    }
    const Charges charges = acquirerCharges(m_client, key);
    QVERIFY2(charges.ok, charges.raw.constData());
    QCOMPARE(charges.succeeded, 0);
    // Not recorded: the same key with another card executes normally.
    const HttpReply fixed = pay(m_client, key, paymentBody(300));
    ONCEPAY_VERIFY_STATUS(fixed, 201);
    QCOMPARE(acquirerCharges(m_client, key).succeeded, 1);
}

void TestPayments::acquirerModes_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<int>("firstStatus");
    QTest::addColumn<int>("retryStatus");   // same key after PUT mode normal
    QTest::addColumn<int>("succeededCharges");   // in the end

    QTest::newRow("decline_all") << QStringLiteral("decline_all") << 402 << 402 << 0;
    QTest::newRow("error_before_charge") << QStringLiteral("error_before_charge") << 502 << 201 << 1;
    QTest::newRow("timeout_after_charge") << QStringLiteral("timeout_after_charge") << 202 << 201 << 1;
}

void TestPayments::acquirerModes()
{
    QFETCH(QString, mode);
    QFETCH(int, firstStatus);
    QFETCH(int, retryStatus);
    QFETCH(int, succeededCharges);

    QVERIFY(setAcquirer(m_client, mode, 0));
    const HttpReply sim = m_client.get(QStringLiteral("/v1/_sim/acquirer"));
    ONCEPAY_VERIFY_STATUS(sim, 200);
    QCOMPARE(sim.object().value(QStringLiteral("mode")).toString(), mode);

    const QString key = uniqueKey(mode);
    const QByteArray body = paymentBody(1500);
    const HttpReply first = pay(m_client, key, body);
    ONCEPAY_VERIFY_STATUS(first, firstStatus);
    QVERIFY(setAcquirer(m_client, QStringLiteral("normal"), 0));

    // 202 turns into 201 once the background resolution has happened.
    HttpReply retry;
    ONCEPAY_TRY_UNTIL(retry = pay(m_client, key, body), retry.status != 202, 30000);
    ONCEPAY_VERIFY_STATUS(retry, retryStatus);
    QCOMPARE(retry.replayed(), firstStatus != 502);
    const Charges charges = acquirerCharges(m_client, key);
    QVERIFY2(charges.ok, charges.raw.constData());
    QCOMPARE(charges.succeeded, succeededCharges);
}

void TestPayments::unknownPaymentIsNotFound()
{
    ONCEPAY_VERIFY_PROBLEM(m_client.get(QStringLiteral("/v1/payments/pay_doesnotexist")), 404,
        QStringLiteral("not-found"));
    ONCEPAY_VERIFY_PROBLEM(m_client.get(QStringLiteral("/v1/payments?idempotency_key=never-used")), 404,
        QStringLiteral("not-found"));
}

QTEST_GUILESS_MAIN(TestPayments)
#include "tst_payments.moc"
