// The Idempotency-Key header rules of API.md, sent over a raw socket so that every byte
// of the header (quoting, repetition, empty values) is exactly what the row says.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "rawhttp.h"

#include <QtTest>

using namespace GatewayApi;

class TestIdempotencyKeyHeader final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void header_data();
    void header();
    void getIgnoresTheHeader();

private:
    RawResult post(const QList<QByteArray> &keyLines);

    GatewayProcess m_gateway;
    HttpClient m_client;
};

void TestIdempotencyKeyHeader::initTestCase()
{
    QVERIFY2(m_gateway.start(), m_gateway.failureMessage().constData());
    m_client.setBaseUrl(m_gateway.baseUrl());
}

void TestIdempotencyKeyHeader::cleanup()
{
    QVERIFY2(m_gateway.isRunning(), m_gateway.failureMessage().constData());
}

RawResult TestIdempotencyKeyHeader::post(const QList<QByteArray> &keyLines)
{
    QList<QByteArray> lines{"Authorization: Bearer sk_test_demo_till1",
        "Content-Type: application/json"};
    lines += keyLines;
    return RawHttp::exchange(m_gateway.port(),
        RawHttp::request("POST", "/v1/payments", lines, paymentBody()));
}

void TestIdempotencyKeyHeader::header_data()
{
    QTest::addColumn<QList<QByteArray>>("keyLines");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("slug");   // of the 400; empty when accepted
    QTest::addColumn<QString>("decoded");   // the key the payment must carry when accepted
    QTest::addColumn<QStringList>("absent");   // keys that must not exist afterwards

    const QByteArray allowed = "AZaz09-_.:~";
    QByteArray k255;
    while (k255.size() < 255)
        k255 += allowed;
    k255.truncate(255);
    QByteArray k255b = k255;
    k255b[0] = 'B';
    const QByteArray k256 = k255 + "x";
    const QString missing = QStringLiteral("idempotency-key-missing");
    const QString invalid = QStringLiteral("idempotency-key-invalid");
    using L = QList<QByteArray>;

    QTest::newRow("missing") << L{} << 400 << missing << QString() << QStringList();
    QTest::newRow("empty value") << L{"Idempotency-Key: "} << 400 << invalid << QString() << QStringList();
    QTest::newRow("empty string") << L{"Idempotency-Key: \"\""} << 400 << invalid << QString() << QStringList();
    QTest::newRow("256 chars quoted") << L{"Idempotency-Key: \"" + k256 + '"'} << 400 << invalid
                                      << QString() << QStringList{QString::fromLatin1(k256)};
    QTest::newRow("256 chars bare") << L{"Idempotency-Key: " + k256} << 400 << invalid << QString()
                                    << QStringList{QString::fromLatin1(k256)};
    QTest::newRow("space inside") << L{"Idempotency-Key: \"pay 1\""} << 400 << invalid << QString() << QStringList();
    QTest::newRow("slash") << L{"Idempotency-Key: \"pay/1\""} << 400 << invalid << QString() << QStringList();
    QTest::newRow("at sign") << L{"Idempotency-Key: \"pay@1\""} << 400 << invalid << QString() << QStringList();
    QTest::newRow("percent") << L{"Idempotency-Key: \"pay%201\""} << 400 << invalid << QString() << QStringList();
    QTest::newRow("non-ASCII") << L{"Idempotency-Key: \"pay-\xc3\xa9\""} << 400 << invalid << QString() << QStringList();
    QTest::newRow("escaped quote") << L{"Idempotency-Key: \"pay\\\"1\""} << 400 << invalid << QString() << QStringList();
    QTest::newRow("escaped backslash") << L{"Idempotency-Key: \"pay\\\\1\""} << 400 << invalid << QString() << QStringList();
    QTest::newRow("unterminated quote") << L{"Idempotency-Key: \"pay-unterminated"} << 400 << invalid
                                        << QString() << QStringList{QStringLiteral("pay-unterminated")};
    QTest::newRow("closing quote only") << L{"Idempotency-Key: pay-closing\""} << 400 << invalid
                                        << QString() << QStringList{QStringLiteral("pay-closing")};
    QTest::newRow("single quotes") << L{"Idempotency-Key: 'pay-single'"} << 400 << invalid
                                   << QString() << QStringList{QStringLiteral("pay-single")};
    QTest::newRow("garbage after string") << L{"Idempotency-Key: \"pay-trail\"x"} << 400 << invalid
                                          << QString() << QStringList{QStringLiteral("pay-trail")};
    QTest::newRow("a list of two") << L{"Idempotency-Key: \"pay-la\", \"pay-lb\""} << 400 << invalid << QString()
                                   << QStringList{QStringLiteral("pay-la"), QStringLiteral("pay-lb")};
    QTest::newRow("header twice") << L{"Idempotency-Key: \"pay-ta\"", "Idempotency-Key: \"pay-tb\""} << 400
                                  << invalid << QString()
                                  << QStringList{QStringLiteral("pay-ta"), QStringLiteral("pay-tb")};
    QTest::newRow("header twice, same value")
        << L{"Idempotency-Key: \"pay-twin\"", "Idempotency-Key: \"pay-twin\""} << 400 << invalid
        << QString() << QStringList{QStringLiteral("pay-twin")};

    QTest::newRow("255 chars quoted") << L{"Idempotency-Key: \"" + k255 + '"'} << 201 << QString()
                                      << QString::fromLatin1(k255) << QStringList();
    QTest::newRow("255 chars bare") << L{"Idempotency-Key: " + k255b} << 201 << QString()
                                    << QString::fromLatin1(k255b) << QStringList();
    QTest::newRow("bare token") << L{"Idempotency-Key: pay-8e03978e_x.y:z~1"} << 201 << QString()
                                << QStringLiteral("pay-8e03978e_x.y:z~1") << QStringList();
    QTest::newRow("quoted") << L{"Idempotency-Key: \"pay-quoted-1\""} << 201 << QString()
                            << QStringLiteral("pay-quoted-1") << QStringList();
    QTest::newRow("one character") << L{"Idempotency-Key: \"q\""} << 201 << QString()
                                   << QStringLiteral("q") << QStringList();
    QTest::newRow("surrounding white space") << L{"Idempotency-Key:   \"pay-ows\"  "} << 201 << QString()
                                             << QStringLiteral("pay-ows") << QStringList();
    QTest::newRow("lower-case header name") << L{"idempotency-key: \"pay-lower\""} << 201 << QString()
                                            << QStringLiteral("pay-lower") << QStringList();
}

void TestIdempotencyKeyHeader::header()
{
    QFETCH(QList<QByteArray>, keyLines);
    QFETCH(int, status);
    QFETCH(QString, slug);
    QFETCH(QString, decoded);
    QFETCH(QStringList, absent);

    const RawResult raw = post(keyLines);
    QVERIFY2(raw.complete, raw.describe().constData());
    const HttpReply reply = raw.asReply();
    if (status == 201) {
        ONCEPAY_VERIFY_STATUS(reply, 201);
        const QJsonObject payment = reply.object();
        QCOMPARE(payment.value(QStringLiteral("idempotency_key")).toString(), decoded);
        const HttpReply byKey = m_client.get(
            QStringLiteral("/v1/payments?idempotency_key=") + decoded);
        ONCEPAY_VERIFY_STATUS(byKey, 200);
        QCOMPARE(byKey.object().value(QStringLiteral("id")), payment.value(QStringLiteral("id")));
    } else {
        ONCEPAY_VERIFY_PROBLEM(reply, status, slug);
    }
    // A rejected header stores nothing under any reading of it.
    for (const QString &key : std::as_const(absent)) {
        // 404, or 400 for a lookup by a key that could never be valid.
        const HttpReply byKey = m_client.get(QStringLiteral("/v1/payments?idempotency_key=") + key);
        QVERIFY2(byKey.status == 404 || (byKey.status == 400 && key.size() > 255),
            byKey.describe().constData());
    }
}

void TestIdempotencyKeyHeader::getIgnoresTheHeader()
{
    const HttpReply created = pay(m_client, uniqueKey(QStringLiteral("get")));
    ONCEPAY_VERIFY_STATUS(created, 201);
    const QString id = created.object().value(QStringLiteral("id")).toString();
    for (const QByteArray &value : {QByteArray("\"bad key!\""), QByteArray(""), QByteArray("x y")}) {
        const RawResult raw = RawHttp::exchange(
            m_gateway.port(),
            RawHttp::request("GET", "/v1/payments/" + id.toUtf8(),
                {"Authorization: Bearer sk_test_demo_till1",
                    "Idempotency-Key: " + value}));
        QVERIFY2(raw.status == 200, raw.describe().constData());
        QCOMPARE(raw.json().object().value(QStringLiteral("id")).toString(), id);
    }
}

QTEST_GUILESS_MAIN(TestIdempotencyKeyHeader)
#include "tst_idempotencykeyheader.moc"
