// Requests rejected before execution (400 validation, 401, 413, 415, 429) are answered with
// the right problem and are not recorded: a corrected request with the same key executes.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "rawhttp.h"

#include <QtTest>

using namespace GatewayApi;

class TestRejections final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void validation_data();
    void validation();
    void unsupportedMediaType_data();
    void unsupportedMediaType();
    void bodySize_data();
    void bodySize();
    void unauthorized_data();
    void unauthorized();
    void rateLimited();

private:
    // The corrected request with the same key must execute exactly once.
    void verifyKeyStillFree(const QString &key);

    GatewayProcess m_gateway;
    HttpClient m_client;
};

void TestRejections::initTestCase()
{
    QVERIFY2(m_gateway.start(), m_gateway.failureMessage().constData());
    m_client.setBaseUrl(m_gateway.baseUrl());
}

void TestRejections::cleanup()
{
    QVERIFY2(m_gateway.isRunning(), m_gateway.failureMessage().constData());
}

void TestRejections::verifyKeyStillFree(const QString &key)
{
    const HttpReply fixed = pay(m_client, key);
    ONCEPAY_VERIFY_STATUS(fixed, 201);
    QVERIFY2(!fixed.replayed(), fixed.describe().constData());
    const Charges charges = acquirerCharges(m_client, key);
    QVERIFY2(charges.ok, charges.raw.constData());
    QCOMPARE(charges.succeeded, 1);
}

void TestRejections::validation_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("field");   // must be named by one of the errors

    const QByteArray ok = R"("currency":"CNY","order_id":"ord-1","payment_method":"tok_visa")";
    auto withAmount = [&](const QByteArray &amount) {
        return "{\"amount\":" + amount + "," + ok + "}";
    };
    const QString amount = QStringLiteral("amount");
    QTest::newRow("amount zero") << withAmount("0") << amount;
    QTest::newRow("amount negative") << withAmount("-1") << amount;
    QTest::newRow("amount too big") << withAmount("100000001") << amount;
    QTest::newRow("amount float") << withAmount("19.99") << amount;
    QTest::newRow("amount string") << withAmount("\"1999\"") << amount;
    QTest::newRow("amount null") << withAmount("null") << amount;
    QTest::newRow("amount missing") << QByteArray("{" + ok + "}") << amount;

    const QByteArray rest = R"("amount":1999,"payment_method":"tok_visa")";
    auto with = [&](const QByteArray &fields) {
        return "{" + rest + "," + fields + "}";
    };
    const QString currency = QStringLiteral("currency");
    const QString order = QStringLiteral("order_id");
    QTest::newRow("currency lower case") << with(R"("currency":"cny","order_id":"o1")") << currency;
    QTest::newRow("currency two letters") << with(R"("currency":"CN","order_id":"o1")") << currency;
    QTest::newRow("currency number") << with(R"("currency":156,"order_id":"o1")") << currency;
    QTest::newRow("currency missing") << with(R"("order_id":"o1")") << currency;
    QTest::newRow("order_id empty") << with(R"("currency":"CNY","order_id":"")") << order;
    QTest::newRow("order_id 65 chars")
        << with(R"("currency":"CNY","order_id":")" + QByteArray(65, 'o') + "\"") << order;
    QTest::newRow("order_id space") << with(R"("currency":"CNY","order_id":"ord 1")") << order;
    QTest::newRow("order_id slash") << with(R"("currency":"CNY","order_id":"ord/1")") << order;
    QTest::newRow("order_id missing") << with(R"("currency":"CNY")") << order;

    const QByteArray base = R"("amount":1999,"currency":"CNY","order_id":"o1")";
    auto extra = [&](const QByteArray &fields) {
        return "{" + base + "," + fields + "}";
    };
    QTest::newRow("payment_method not a token")
        << extra(R"("payment_method":"4111111111111111")") << QStringLiteral("payment_method");
    QTest::newRow("payment_method missing") << QByteArray("{" + base + "}") << QStringLiteral("payment_method");
    QTest::newRow("unknown field")
        << extra(R"("payment_method":"tok_visa","amonut":1)") << QStringLiteral("amonut");
    QTest::newRow("description 501 chars")
        << extra(R"("payment_method":"tok_visa","description":")" + QByteArray(501, 'd') + "\"")
        << QStringLiteral("description");
    QByteArray meta = "{";
    for (int i = 0; i < 21; ++i)
        meta += (i ? ",\"k" : "\"k") + QByteArray::number(i) + "\":\"v\"";
    meta += "}";
    QTest::newRow("metadata 21 values")
        << extra(R"("payment_method":"tok_visa","metadata":)" + meta) << QStringLiteral("metadata");
    QTest::newRow("metadata NUL in a value")
        << extra(R"("payment_method":"tok_visa","metadata":{"a":"x\u0000y"})") << QStringLiteral("metadata");
    QTest::newRow("metadata NUL in a key")
        << extra(R"("payment_method":"tok_visa","metadata":{"a\u0000":"y"})") << QStringLiteral("metadata");
    QTest::newRow("metadata number value")
        << extra(R"("payment_method":"tok_visa","metadata":{"a":1})") << QStringLiteral("metadata");
    QTest::newRow("metadata array")
        << extra(R"("payment_method":"tok_visa","metadata":["a"])") << QStringLiteral("metadata");
}

void TestRejections::validation()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, field);
    const QString key = uniqueKey(QStringLiteral("invalid"));
    const HttpReply r = pay(m_client, key, body);
    ONCEPAY_VERIFY_PROBLEM(r, 400, QStringLiteral("validation-failed"));
    const QJsonArray errors = r.object().value(QStringLiteral("errors")).toArray();
    QVERIFY2(!errors.isEmpty(), r.describe().constData());
    bool named = false;
    for (const auto &e : errors) {
        const QJsonObject o = e.toObject();
        QVERIFY2(o.value(QStringLiteral("message")).isString(), r.describe().constData());
        named = named || o.value(QStringLiteral("field")).toString().startsWith(field);
    }
    QVERIFY2(named, r.describe().constData());
    QVERIFY(!r.replayed());
    verifyKeyStillFree(key);
}

void TestRejections::unsupportedMediaType_data()
{
    QTest::addColumn<QList<QByteArray>>("contentType");
    QTest::addColumn<int>("status");
    using L = QList<QByteArray>;
    QTest::newRow("missing") << L{} << 415;
    QTest::newRow("text/plain") << L{"Content-Type: text/plain"} << 415;
    QTest::newRow("form") << L{"Content-Type: application/x-www-form-urlencoded"} << 415;
    QTest::newRow("xml") << L{"Content-Type: application/xml"} << 415;
    QTest::newRow("json prefix") << L{"Content-Type: application/jsonx"} << 415;
    QTest::newRow("charset parameter") << L{"Content-Type: application/json; charset=utf-8"} << 201;
    QTest::newRow("parameter, no space") << L{"Content-Type: application/json;charset=UTF-8"} << 201;
    QTest::newRow("charset quoted") << L{"Content-Type: application/json; charset=\"utf-8\""} << 201;
    QTest::newRow("charset latin-1") << L{"Content-Type: application/json; charset=iso-8859-1"} << 415;
    QTest::newRow("charset utf-16") << L{"Content-Type: application/json; charset=UTF-16"} << 415;
}

void TestRejections::unsupportedMediaType()
{
    QFETCH(QList<QByteArray>, contentType);
    QFETCH(int, status);
    const QString key = uniqueKey(QStringLiteral("media"));
    const QList<QByteArray> lines = QList<QByteArray>{"Authorization: Bearer sk_test_demo_till1",
                                        "Idempotency-Key: \"" + key.toUtf8() + '"'}
        + contentType;
    const RawResult raw = RawHttp::exchange(m_gateway.port(),
        RawHttp::request("POST", "/v1/payments", lines, paymentBody()));
    QVERIFY2(raw.complete, raw.describe().constData());
    if (status == 415) {
        ONCEPAY_VERIFY_PROBLEM(raw.asReply(), 415, QString());   // API.md names no slug
        verifyKeyStillFree(key);
    } else {
        QVERIFY2(raw.status == status, raw.describe().constData());
    }
}

void TestRejections::bodySize_data()
{
    QTest::addColumn<int>("size");
    QTest::addColumn<int>("status");
    QTest::newRow("40 KB") << 40000 << 201;
    QTest::newRow("exactly 64 KiB") << 65536 << 201;
    QTest::newRow("64 KiB + 1") << 65537 << 413;
    QTest::newRow("1 MiB") << 1024 * 1024 << 413;
}

void TestRejections::bodySize()
{
    QFETCH(int, size);
    QFETCH(int, status);
    // A valid payment padded with insignificant white space up to `size` bytes.
    QByteArray body = paymentBody();
    body.chop(1);
    body += QByteArray(size - body.size() - 1, ' ') + "}";
    QCOMPARE(body.size(), size);
    const QString key = uniqueKey(QStringLiteral("size"));
    const HttpReply r = pay(m_client, key, body);
    if (status == 413) {
        // Closing the connection is allowed for a huge body; an answer must be the 413.
        if (r.status != 0)
            ONCEPAY_VERIFY_PROBLEM(r, 413, QStringLiteral("payload-too-large"));
        verifyKeyStillFree(key);
    } else {
        ONCEPAY_VERIFY_STATUS(r, status);
    }
}

void TestRejections::unauthorized_data()
{
    QTest::addColumn<QByteArray>("authorization");   // empty: no header
    QTest::newRow("missing") << QByteArray();
    QTest::newRow("unknown token") << QByteArray("Bearer sk_test_nobody");
    QTest::newRow("basic scheme") << QByteArray("Basic c2tfdGVzdF9kZW1vX3RpbGwxOg==");
    QTest::newRow("token without scheme") << QByteArray("sk_test_demo_till1");
    QTest::newRow("empty bearer") << QByteArray("Bearer ");
    QTest::newRow("token prefix") << QByteArray("Bearer sk_test_demo_till");
}

void TestRejections::unauthorized()
{
    QFETCH(QByteArray, authorization);
    const QString key = uniqueKey(QStringLiteral("auth"));
    HttpClient anonymous(m_gateway.baseUrl(), {});
    HttpHeaders headers = keyHeader(key);
    if (!authorization.isEmpty())
        headers.append({"Authorization", authorization});
    ONCEPAY_VERIFY_PROBLEM(anonymous.post(QStringLiteral("/v1/payments"), paymentBody(), headers), 401,
        QStringLiteral("unauthorized"));
    ONCEPAY_VERIFY_PROBLEM(anonymous.get(QStringLiteral("/v1/payments?idempotency_key=") + key, headers),
        401, QStringLiteral("unauthorized"));
    verifyKeyStillFree(key);
}

void TestRejections::rateLimited()
{
    GatewayProcess limited;
    QVERIFY2(limited.start({QStringLiteral("--rate-limit"), QStringLiteral("2")}),
        limited.failureMessage().constData());
    HttpClient till1(limited.baseUrl(), kTill1);
    QList<HttpRequest> burst;
    QStringList keys;
    for (int i = 0; i < 12; ++i) {
        keys << uniqueKey(QStringLiteral("burst"));
        burst.append({"POST", QStringLiteral("/v1/payments"), paymentBody(), keyHeader(keys.last())});
    }
    const QList<HttpReply> replies = till1.sendAll(burst);
    int limitedIndex = -1;
    for (int i = 0; i < replies.size(); ++i) {
        const HttpReply &r = replies.at(i);
        QVERIFY2(r.status == 201 || r.status == 429, r.describe().constData());
        if (r.status == 429) {
            ONCEPAY_VERIFY_PROBLEM(r, 429, QStringLiteral("rate-limited"));
            bool ok = false;
            QVERIFY2(r.header("Retry-After").toInt(&ok) >= 0 && ok, r.describe().constData());
            limitedIndex = i;
        }
    }
    QVERIFY2(limitedIndex >= 0, "a burst of 12 requests with --rate-limit 2 was never limited");

    // The limit is per token: another till is served at once.
    HttpClient till2(limited.baseUrl(), kTill2);
    ONCEPAY_VERIFY_STATUS(pay(till2, uniqueKey(QStringLiteral("till2"))), 201);

    // A 429 is not recorded: once the window has passed, the same key executes.
    const QString key = keys.at(limitedIndex);
    HttpReply retry;
    ONCEPAY_TRY_UNTIL(retry = pay(till1, key), retry.status != 429, 65000);
    ONCEPAY_VERIFY_STATUS(retry, 201);
    QVERIFY(!retry.replayed());
    HttpClient ledger(limited.baseUrl(), kTill2);   // till-1 may still be over its limit
    QCOMPARE(acquirerCharges(ledger, key).succeeded, 1);
    QVERIFY2(limited.isRunning(), limited.failureMessage().constData());
}

QTEST_GUILESS_MAIN(TestRejections)
#include "tst_rejections.moc"
