// The claim is atomic: of many concurrent identical requests exactly one executes, the
// others get 409 idempotency-key-in-use with Retry-After or the replay; one acquirer charge.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "rawhttp.h"

#include <QSet>
#include <QtTest>

using namespace GatewayApi;

class TestConcurrency final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void sameKeyOverRawSockets_data();
    void sameKeyOverRawSockets();
    void sameKeyOverQNetworkAccessManager();
    void distinctKeysAllExecute();
    void heldRequestAnswers409ThenReplays();
    void slowAcquirerOutlivesTheLease();

private:
    GatewayProcess m_gateway;
    HttpClient m_client;
};

static QByteArray rawPayment(const QByteArray &token, const QString &key, const QByteArray &body)
{
    return RawHttp::request("POST", "/v1/payments",
        {"Authorization: Bearer " + token, "Content-Type: application/json",
            "Idempotency-Key: \"" + key.toUtf8() + '"'},
        body);
}

void TestConcurrency::initTestCase()
{
    QVERIFY2(m_gateway.start(), m_gateway.failureMessage().constData());
    m_client.setBaseUrl(m_gateway.baseUrl());
}

void TestConcurrency::cleanup()
{
    QVERIFY2(m_gateway.isRunning(), m_gateway.failureMessage().constData());
    QVERIFY(setAcquirer(m_client, QStringLiteral("normal"), 0));
}

void TestConcurrency::sameKeyOverRawSockets_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<bool>("twoTills");
    QTest::addColumn<int>("latencyMs");
    QTest::addColumn<int>("finalStatus");
    QTest::addColumn<int>("succeededCharges");

    QTest::newRow("approved") << QStringLiteral("tok_visa") << false << 0 << 201 << 1;
    QTest::newRow("approved, two tills") << QStringLiteral("tok_visa") << true << 0 << 201 << 1;
    QTest::newRow("approved, slow acquirer") << QStringLiteral("tok_visa") << false << 300 << 201 << 1;
    QTest::newRow("declined") << QStringLiteral("tok_chargeDeclined") << false << 0 << 402 << 0;
    QTest::newRow("declined, slow acquirer") << QStringLiteral("tok_insufficientFunds") << true << 300 << 402 << 0;
}

void TestConcurrency::sameKeyOverRawSockets()
{
    QFETCH(QString, method);
    QFETCH(bool, twoTills);
    QFETCH(int, latencyMs);
    QFETCH(int, finalStatus);
    QFETCH(int, succeededCharges);

    QVERIFY(setAcquirer(m_client, QStringLiteral("normal"), latencyMs));
    const QString key = uniqueKey(QStringLiteral("race"));
    const QByteArray body = paymentBody(1000, method);
    QList<QByteArray> requests;
    for (int i = 0; i < 50; ++i)
        requests << rawPayment(twoTills && i % 2 ? kTill2 : kTill1, key, body);
    const QList<RawResult> results = RawHttp::exchangeAll(m_gateway.port(), requests, 30000);

    int finals = 0;
    QSet<QString> paymentIds;
    for (const RawResult &r : results) {
        QVERIFY2(r.complete, r.describe().constData());
        QVERIFY2(r.status == finalStatus || r.status == 409, r.describe().constData());
        if (r.status == 409) {
            ONCEPAY_VERIFY_PROBLEM(r.asReply(), 409, QStringLiteral("idempotency-key-in-use"));
            QVERIFY2(r.header("Retry-After") == "1", r.describe().constData());
            continue;
        }
        ++finals;
        const QJsonObject o = r.json().object();
        paymentIds << (finalStatus == 402 ? o.value(QStringLiteral("payment")).toObject() : o)
                          .value(QStringLiteral("id"))
                          .toString();
    }
    QVERIFY(finals >= 1);
    QCOMPARE(paymentIds.size(), 1);

    const Charges charges = acquirerCharges(m_client, key);
    QVERIFY2(charges.ok, charges.raw.constData());
    QCOMPARE(charges.succeeded, succeededCharges);
    QVERIFY2(charges.rows.size() <= 1, charges.raw.constData());

    const HttpReply after = pay(m_client, key, body);
    ONCEPAY_VERIFY_STATUS(after, finalStatus);
    QVERIFY(after.replayed());
}

void TestConcurrency::sameKeyOverQNetworkAccessManager()
{
    const QString key = uniqueKey(QStringLiteral("qnam"));
    QList<HttpRequest> requests;
    for (int i = 0; i < 50; ++i)
        requests.append({"POST", QStringLiteral("/v1/payments"), paymentBody(), keyHeader(key)});
    // Two managers: twice the parallel connections of one.
    HttpClient second(m_gateway.baseUrl(), kTill2);
    QList<QNetworkReply *> started;
    for (int i = 0; i < requests.size(); ++i)
        started << (i % 2 ? second.start(requests.at(i)) : m_client.start(requests.at(i)));
    int created = 0;
    QSet<QString> ids;
    for (int i = 0; i < started.size(); ++i) {
        const HttpReply r = i % 2 ? second.collect(started.at(i)) : m_client.collect(started.at(i));
        QVERIFY2(r.status == 201 || r.status == 409, r.describe().constData());
        if (r.status == 201) {
            ++created;
            ids << r.object().value(QStringLiteral("id")).toString();
        } else {
            QCOMPARE(r.header("Retry-After"), QByteArray("1"));
        }
    }
    QVERIFY(created >= 1);
    QCOMPARE(ids.size(), 1);
    QCOMPARE(acquirerCharges(m_client, key).succeeded, 1);
}

void TestConcurrency::distinctKeysAllExecute()
{
    QList<QByteArray> requests;
    QStringList keys;
    for (int i = 0; i < 50; ++i) {
        keys << uniqueKey(QStringLiteral("distinct"));
        requests << rawPayment(kTill1, keys.last(), paymentBody(100 + i));
    }
    const QList<RawResult> results = RawHttp::exchangeAll(m_gateway.port(), requests, 30000);
    QSet<QString> ids;
    for (qsizetype i = 0; i < results.size(); ++i) {
        const RawResult &r = results.at(i);
        QVERIFY2(r.status == 201, r.describe().constData());
        const QJsonObject o = r.json().object();
        QCOMPARE(o.value(QStringLiteral("idempotency_key")).toString(), keys.at(i));
        QCOMPARE(o.value(QStringLiteral("amount")).toInteger(), 100 + i);
        ids << o.value(QStringLiteral("id")).toString();
    }
    QCOMPARE(ids.size(), 50);
    for (const QString &key : std::as_const(keys))
        QCOMPARE(acquirerCharges(m_client, key).succeeded, 1);
}

void TestConcurrency::heldRequestAnswers409ThenReplays()
{
    // The acquirer holds whichever request claimed the key for a second; the other one
    // arrives meanwhile and must be told 409 with Retry-After: 1, before the 201 is out.
    QVERIFY(setAcquirer(m_client, QStringLiteral("normal"), 1000));
    const QString key = uniqueKey(QStringLiteral("held"));
    const HttpRequest request{"POST", QStringLiteral("/v1/payments"), paymentBody(3000), keyHeader(key)};
    HttpClient other(m_gateway.baseUrl(), kTill1);
    QNetworkReply *firstReply = m_client.start(request);
    QTRY_VERIFY_WITH_TIMEOUT(m_client.get(QStringLiteral("/v1/payments?idempotency_key=") + key).status == 200,
        10000);
    const HttpReply second = other.send(request);
    const HttpReply first = m_client.collect(firstReply);

    ONCEPAY_VERIFY_STATUS(first, 201);
    ONCEPAY_VERIFY_PROBLEM(second, 409, QStringLiteral("idempotency-key-in-use"));
    QCOMPARE(second.header("Retry-After"), QByteArray("1"));
    QVERIFY2(second.finishedAtMs <= first.finishedAtMs, "the 409 came after the request had finished");

    QVERIFY(setAcquirer(m_client, QStringLiteral("normal"), 0));
    const HttpReply replay = other.send(request);
    ONCEPAY_VERIFY_STATUS(replay, 201);
    QVERIFY(replay.replayed());
    QCOMPARE(replay.body, first.body);
    QCOMPARE(acquirerCharges(m_client, key).succeeded, 1);
}

void TestConcurrency::slowAcquirerOutlivesTheLease()
{
    // The bank takes 2.5 s, the lease is 1 s: while the owner runs, every retry gets 409;
    // the owner answers (201, or 202 when its acquirer timeout is bounded by the lease),
    // and whoever resolves it afterwards, the bank charges once.
    GatewayProcess gateway;
    QVERIFY2(gateway.start({QStringLiteral("--claim-lease"), QStringLiteral("1s"),
                 QStringLiteral("--recovery-interval"), QStringLiteral("200ms")}),
        gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    HttpClient retrier(gateway.baseUrl());
    QVERIFY(setAcquirer(client, QStringLiteral("normal"), 2500));
    const QString key = uniqueKey(QStringLiteral("lease"));
    const HttpRequest request{"POST", QStringLiteral("/v1/payments"), paymentBody(6100), keyHeader(key)};
    QNetworkReply *owner = client.start(request);
    QTRY_VERIFY_WITH_TIMEOUT(client.get(QStringLiteral("/v1/payments?idempotency_key=") + key).status == 200, 10000);

    QList<HttpReply> retries;
    auto retryOnce = [&] {
        if (!owner->isFinished())
            retries << retrier.send(request);
        return owner->isFinished();
    };
    QTRY_VERIFY_WITH_TIMEOUT(retryOnce(), 20000);
    const HttpReply first = client.collect(owner);
    QVERIFY2(first.status == 201 || first.status == 202, first.describe().constData());
    const QString location = QString::fromUtf8(first.header("Location"));
    // A retry that finished before the owner's answer reached us was either told 409, or
    // came after the gateway had recorded the owner's answer (another connection may be
    // written first) and replays that same payment, flagged as a replay.
    for (const HttpReply &r : std::as_const(retries)) {
        if (r.finishedAtMs >= first.finishedAtMs)
            continue;
        if (r.status == 409) {
            ONCEPAY_VERIFY_PROBLEM(r, 409, QStringLiteral("idempotency-key-in-use"));
            continue;
        }
        QVERIFY2(r.status == 201 || r.status == 202, r.describe().constData());
        QVERIFY2(r.replayed(), r.describe().constData());
        QCOMPARE(QString::fromUtf8(r.header("Location")), location);
    }
    // Retries keep coming while it resolves; none of them may charge again.
    auto settled = [&] {
        const HttpReply r = retrier.send(request);
        if (r.status != 409 && r.status != 201 && r.status != 202)
            QTest::qFail(r.describe().constData(), __FILE__, __LINE__);
        return client.get(location).object().value(QStringLiteral("status")).toString()
            == QStringLiteral("succeeded");
    };
    QTRY_VERIFY_WITH_TIMEOUT(settled(), 20000);
    QVERIFY(setAcquirer(client, QStringLiteral("normal"), 0));
    const Charges charges = acquirerCharges(client, key);
    QVERIFY2(charges.ok, charges.raw.constData());
    QCOMPARE(charges.succeeded, 1);
    QCOMPARE(charges.rows.size(), 1);
    const HttpReply replay = retrier.send(request);
    ONCEPAY_VERIFY_STATUS(replay, 201);
    QVERIFY(replay.replayed());
}

QTEST_GUILESS_MAIN(TestConcurrency)
#include "tst_concurrency.moc"
