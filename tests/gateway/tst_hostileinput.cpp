// Hostile bytes on the wire: each gets a 4xx answer or a closed connection, nothing is
// stored, and the gateway process stays up and keeps answering /healthz.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "rawhttp.h"

#include <QtTest>

using namespace GatewayApi;

class TestHostileInput final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void hostile_data();
    void hostile();

private:
    GatewayProcess m_gateway;
    HttpClient m_client;
};

void TestHostileInput::initTestCase()
{
    QVERIFY2(m_gateway.start(), m_gateway.failureMessage().constData());
    m_client.setBaseUrl(m_gateway.baseUrl());
}

static QByteArray postPayment(const QByteArray &key, const QByteArray &body,
    const QList<QByteArray> &extra = {})
{
    return RawHttp::request("POST", "/v1/payments",
        QList<QByteArray>{"Authorization: Bearer sk_test_demo_till1",
            "Content-Type: application/json",
            "Idempotency-Key: \"" + key + '"'}
            + extra,
        body);
}

void TestHostileInput::hostile_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("expected");   // exact status, or 0: any 4xx or a closed connection
    QTest::addColumn<QString>("key");   // must not exist afterwards (empty: nothing to look up)

    auto row = [](const char *name, const QByteArray &bytes, int expected, const char *key) {
        QTest::newRow(name) << bytes << expected << QString::fromLatin1(key);
    };
    auto amountBody = [](const QByteArray &amount) {
        return R"({"amount":)" + amount + R"(,"currency":"CNY","order_id":"o1","payment_method":"tok_visa"})";
    };

    row("broken JSON", postPayment("h-broken", R"({"amount": 1999, "currency":)"), 400, "h-broken");
    row("not JSON at all", postPayment("h-text", "amount=1999&currency=CNY"), 400, "h-text");
    row("JSON array", postPayment("h-array", "[1999]"), 400, "h-array");
    row("JSON string", postPayment("h-string", "\"payment\""), 400, "h-string");
    row("empty body", postPayment("h-empty", ""), 400, "h-empty");
    row("trailing garbage", postPayment("h-trail", paymentBody() + "}}"), 400, "h-trail");
    row("1000-deep arrays", postPayment("h-deep1", QByteArray(1000, '[') + QByteArray(1000, ']')), 400, "h-deep1");
    QByteArray nested;
    for (int i = 0; i < 1000; ++i)
        nested += "{\"a\":";
    nested += "1" + QByteArray(1000, '}');
    row("1000-deep objects", postPayment("h-deep2", nested), 400, "h-deep2");
    row("60000-deep arrays", postPayment("h-deep3", QByteArray(60000, '[') + QByteArray(60, ']')), 400, "h-deep3");
    row("amount 1e400", postPayment("h-e400", amountBody("1e400")), 400, "h-e400");
    row("amount 30 digits", postPayment("h-digits", amountBody("123456789012345678901234567890")), 400, "h-digits");
    row("amount 2^63", postPayment("h-2p63", amountBody("9223372036854775808")), 400, "h-2p63");
    row("amount NaN", postPayment("h-nan", amountBody("NaN")), 400, "h-nan");
    row("NUL in body", postPayment("h-nul", QByteArray(R"({"amount":1999,"currency":"CNY","order_id":"o1)") + '\0' + R"(","payment_method":"tok_visa"})"),
        400, "h-nul");
    row("invalid UTF-8 in body", postPayment("h-utf8", R"({"amount":1999,"currency":"CNY","order_id":"o1","payment_method":"tok_visa","description":"\xff\xfe"})"),
        400, "h-utf8");
    row("NUL in key", postPayment(QByteArray("h-nulkey") + '\0' + "x", paymentBody()), 0, "h-nulkey");
    row("CR LF in key", postPayment("h-crlf\r\nX-Injected: 1", paymentBody()), 0, "h-crlf");
    row("60 KB header", postPayment("h-bighdr", paymentBody(), {"X-Padding: " + QByteArray(60 * 1024, 'p')}), 0, "");
    row("200 MB announced, few bytes sent",
        "POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk_test_demo_till1\r\n"
        "Content-Type: application/json\r\nIdempotency-Key: \"h-huge\"\r\nContent-Length: 200000000\r\n\r\n{\"amount\":",
        0, "h-huge");
    row("2 MB body sent", postPayment("h-2mb", "{\"description\":\"" + QByteArray(2 * 1024 * 1024, 'x') + "\"}"),
        0, "h-2mb");
    row("negative Content-Length",
        "POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\nabc", 0, "");
    row("bad chunk size",
        "POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk_test_demo_till1\r\n"
        "Content-Type: application/json\r\nIdempotency-Key: \"h-chunk\"\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
        0, "h-chunk");
    // A chunk line ends in CRLF: chunks framed with LF alone are 400 at once, not a 408 at the
    // body's time limit (30 s, past this exchange's 10 s).
    row("bare LF after a chunk size",
        "POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk_test_demo_till1\r\n"
        "Content-Type: application/json\r\nIdempotency-Key: \"h-chunklf\"\r\nTransfer-Encoding: chunked\r\n\r\n"
            + QByteArray::number(paymentBody().size(), 16) + "\n" + paymentBody() + "\n0\n\n",
        400, "h-chunklf");
    // RFC 9112 6.1: Transfer-Encoding in an HTTP/1.0 request is faulty framing.
    row("HTTP/1.0 with Transfer-Encoding",
        "POST /v1/payments HTTP/1.0\r\nAuthorization: Bearer sk_test_demo_till1\r\nContent-Type: application/json\r\n"
        "Idempotency-Key: \"h-te10\"\r\nTransfer-Encoding: chunked\r\n\r\n"
            + QByteArray::number(paymentBody().size(), 16) + "\r\n" + paymentBody() + "\r\n0\r\n\r\n",
        400, "h-te10");
    // RFC 9112 3.2: a Host that names no host.
    row("Host a b", "GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n", 400, "");
    row("Host a, b", "GET /healthz HTTP/1.1\r\nHost: a, b\r\n\r\n", 400, "");
    row("garbage request line", "HELLO THERE\r\n\r\n", 0, "");
    row("only a method", "GET\r\n\r\n", 0, "");
    row("binary noise", QByteArray::fromHex("16030100a5010000a10303") + QByteArray(200, '\xee') + "\r\n\r\n", 0, "");
    // RFC 9112 5.1: a server MUST reject white space between field name and colon with 400
    // (request smuggling through the reverse proxy of docs/operations.md).
    row("white space before colon", "GET /healthz HTTP/1.1\r\nHost : 127.0.0.1\r\n\r\n", 0, "");
    row("header line without colon", "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nthis is not a header\r\n\r\n", 0, "");
    row("Content-Length and Transfer-Encoding",
        "POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk_test_demo_till1\r\n"
        "Content-Type: application/json\r\nIdempotency-Key: \"h-clte\"\r\nContent-Length: 5\r\n"
        "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        0, "h-clte");
    row("unknown route", RawHttp::request("GET", "/v1/../../etc/passwd", {}), 0, "");
    row("wrong method", RawHttp::request("DELETE", "/v1/payments", {"Authorization: Bearer sk_test_demo_till1"}), 0, "");
}

void TestHostileInput::hostile()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, expected);
    QFETCH(QString, key);

    const RawResult r = RawHttp::exchange(m_gateway.port(), bytes, 10000);
    QVERIFY2(r.connected, r.describe().constData());
    if (expected) {
        QVERIFY2(r.status == expected, r.describe().constData());
        ONCEPAY_VERIFY_PROBLEM(r.asReply(), expected, QString());
    } else {
        const bool fourXx = r.status >= 400 && r.status < 500;
        QVERIFY2(fourXx || (r.status == 0 && r.closedByServer), r.describe().constData());
        // Every error the gateway answers is a problem document.
        if (fourXx)
            ONCEPAY_VERIFY_PROBLEM(r.asReply(), r.status, QString());
    }

    QVERIFY2(m_gateway.isRunning(), m_gateway.failureMessage().constData());
    HttpClient anonymous(m_gateway.baseUrl(), {});   // /healthz needs no authentication
    const HttpReply health = anonymous.get(QStringLiteral("/healthz"));
    ONCEPAY_VERIFY_STATUS(health, 200);
    QCOMPARE(health.object().value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    if (!key.isEmpty()) {
        const HttpReply stored = m_client.get(QStringLiteral("/v1/payments?idempotency_key=") + key);
        QVERIFY2(stored.status == 404, stored.describe().constData());
        QCOMPARE(acquirerCharges(m_client, key).rows.size(), 0);
    }
}

QTEST_GUILESS_MAIN(TestHostileInput)
#include "tst_hostileinput.moc"
