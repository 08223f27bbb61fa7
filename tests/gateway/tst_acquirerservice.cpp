// oncepay-acquirer as its own process: two gateways share its ledger and modes, payments
// through --acquirer keep every outcome of API.md, the acquirer down or killed mid-call never
// charges twice, and the acquirer's own HTTP API and command line reject bad input.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "pipeline.h"

#include <QtTest>

using namespace GatewayApi;

Q_DECLARE_METATYPE(GatewayProcess::Program)

class TestAcquirerService final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void gatewaysShareLedgerAndModes();
    void outcomes_data();
    void outcomes();
    void acquirerDownThenRetryExecutesOnce();
    void refundsCrossTheWire();
    void killedMidCall_data();
    void killedMidCall();
    void badCommandLines_data();
    void badCommandLines();
    void acquirerApiRejectsBadInput_data();
    void acquirerApiRejectsBadInput();
    void acquirerApiChargesOncePerKey();
    void reversalPassesTheCharge();
    void refundInAnotherCurrencyIsRefused();
    void acquirerFramesEveryRequestWithOneParser();
    void headAnswersAsGetDoes();
    void lengthsCountCodePoints();

private:
    bool startGateway(GatewayProcess &gateway);
    // The payment of `key` as gateway 1 reports it, "" when there is none.
    QString paymentStatus(const QString &key);

    GatewayProcess m_acquirer{GatewayProcess::Program::Acquirer};
    GatewayProcess m_gateway1;
    GatewayProcess m_gateway2;
    HttpClient m_till1;   // gateway 1, merchant demo
    HttpClient m_till2{QUrl(), kTill2};   // gateway 2, merchant demo
    HttpClient m_other{QUrl(), kOther};   // gateway 1, merchant other
    HttpClient m_bank{QUrl(), QByteArray()};   // the acquirer itself
};

bool TestAcquirerService::startGateway(GatewayProcess &gateway)
{
    // A short deadline so that recovery may settle a payment the acquirer never saw.
    return gateway.start({QStringLiteral("--acquirer"), m_acquirer.baseUrl().toString(),
        QStringLiteral("--acquirer-timeout"), QStringLiteral("2s"),
        QStringLiteral("--recovery-interval"), QStringLiteral("200ms")});
}

void TestAcquirerService::initTestCase()
{
    QVERIFY2(m_acquirer.start(), m_acquirer.failureMessage().constData());
    m_acquirer.setListenPort(m_acquirer.port());   // restarts come back where the gateways call
    QVERIFY2(startGateway(m_gateway1), m_gateway1.failureMessage().constData());
    QVERIFY2(startGateway(m_gateway2), m_gateway2.failureMessage().constData());
    m_till1.setBaseUrl(m_gateway1.baseUrl());
    m_other.setBaseUrl(m_gateway1.baseUrl());
    m_till2.setBaseUrl(m_gateway2.baseUrl());
    m_bank.setBaseUrl(m_acquirer.baseUrl());
}

void TestAcquirerService::cleanup()
{
    if (!m_acquirer.isRunning())
        QVERIFY2(m_acquirer.start(), m_acquirer.failureMessage().constData());
    QVERIFY2(m_gateway1.isRunning(), m_gateway1.failureMessage().constData());
    QVERIFY2(m_gateway2.isRunning(), m_gateway2.failureMessage().constData());
    QVERIFY(setAcquirer(m_till1, QStringLiteral("normal"), 0));
    QVERIFY(setAcquirer(m_other, QStringLiteral("normal"), 0));
}

QString TestAcquirerService::paymentStatus(const QString &key)
{
    const HttpReply r = m_till1.get(QStringLiteral("/v1/payments?idempotency_key=") + key);
    return r.status == 200 ? r.object().value(QStringLiteral("status")).toString() : QString();
}

void TestAcquirerService::gatewaysShareLedgerAndModes()
{
    const QString key1 = uniqueKey(QStringLiteral("shared1"));
    const QString key2 = uniqueKey(QStringLiteral("shared2"));
    ONCEPAY_VERIFY_STATUS(pay(m_till1, key1), 201);
    ONCEPAY_VERIFY_STATUS(pay(m_till2, key2), 201);

    // One ledger, whichever gateway is asked.
    const Charges seenBy1 = acquirerCharges(m_till1, QString());
    const Charges seenBy2 = acquirerCharges(m_till2, QString());
    QVERIFY2(seenBy1.ok && seenBy2.ok, seenBy1.raw + seenBy2.raw);
    QCOMPARE(seenBy1.rows, seenBy2.rows);
    QCOMPARE(acquirerCharges(m_till2, key1).rows.size(), 1);
    QCOMPARE(acquirerCharges(m_till1, key2).rows.size(), 1);

    // A mode set through gateway 1 applies to payments through gateway 2.
    QVERIFY(setAcquirer(m_till1, QStringLiteral("decline_all"), 0));
    const HttpReply mode = m_till2.get(QStringLiteral("/v1/_sim/acquirer"));
    ONCEPAY_VERIFY_STATUS(mode, 200);
    QCOMPARE(mode.object().value(QStringLiteral("mode")).toString(), QStringLiteral("decline_all"));
    ONCEPAY_VERIFY_PROBLEM(pay(m_till2, uniqueKey(QStringLiteral("shared3"))), 402, QStringLiteral("card-declined"));

    // Another merchant sees neither demo's ledger nor its modes.
    const HttpReply otherMode = m_other.get(QStringLiteral("/v1/_sim/acquirer"));
    QCOMPARE(otherMode.object().value(QStringLiteral("mode")).toString(), QStringLiteral("normal"));
    const Charges otherLedger = acquirerCharges(m_other, QString());
    QVERIFY2(otherLedger.ok, otherLedger.raw);
    for (const QJsonValue &row : otherLedger.rows) {
        const QString key = row.toObject().value(QStringLiteral("idempotency_key")).toString();
        QVERIFY2(key != key1 && key != key2, qPrintable(key));
    }
    QCOMPARE(acquirerCharges(m_other, key1).rows.size(), 0);
    ONCEPAY_VERIFY_STATUS(pay(m_other, uniqueKey(QStringLiteral("shared-other"))), 201);
}

void TestAcquirerService::outcomes_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("finalStatus");   // "" : no payment stays
    QTest::addColumn<int>("charged");   // rows in the acquirer's ledger
    QTest::addColumn<QString>("last4");   // the card the acquirer names, over HTTP
    QTest::newRow("approved") << QStringLiteral("tok_visa") << 201 << QStringLiteral("succeeded") << 1
                              << QStringLiteral("4242");
    QTest::newRow("declined") << QStringLiteral("tok_chargeDeclined") << 402 << QStringLiteral("declined") << 1
                              << QStringLiteral("0002");
    QTest::newRow("answer lost after charge") << QStringLiteral("tok_timeoutAfterCharge") << 202
                                              << QStringLiteral("succeeded") << 1 << QStringLiteral("0077");
    QTest::newRow("refused before charge") << QStringLiteral("tok_errorBeforeCharge") << 502 << QString() << 0
                                           << QString();
}

void TestAcquirerService::outcomes()
{
    QFETCH(QString, token);
    QFETCH(int, status);
    QFETCH(QString, finalStatus);
    QFETCH(int, charged);
    QFETCH(QString, last4);
    const QString key = uniqueKey(QStringLiteral("outcome"));
    const HttpReply r = pay(m_till1, key, paymentBody(1999, token));
    ONCEPAY_VERIFY_STATUS(r, status);
    if (status == 502)
        ONCEPAY_VERIFY_PROBLEM(r, 502, QStringLiteral("acquirer-unavailable"));
    // A lost answer is resolved by the gateway's recovery, asking the acquirer by key.
    QTRY_COMPARE_WITH_TIMEOUT(paymentStatus(key), finalStatus, 15000);
    const Charges c = acquirerCharges(m_till2, key);
    QVERIFY2(c.ok, c.raw);
    QCOMPARE(c.rows.size(), charged);
    if (finalStatus.isEmpty())
        return;
    // The card and the authorization code crossed from the acquirer's process, on the charge's
    // answer or on the lookup by key that resolved a lost one.
    const HttpReply p = m_till1.get(QStringLiteral("/v1/payments?idempotency_key=") + key);
    ONCEPAY_VERIFY_STATUS(p, 200);
    const QJsonObject payment = p.object();
    QCOMPARE(payment.value(QStringLiteral("card")).toObject().value(QStringLiteral("brand")).toString(),
        QStringLiteral("visa"));
    QCOMPARE(payment.value(QStringLiteral("card")).toObject().value(QStringLiteral("last4")).toString(), last4);
    const QJsonValue code = payment.value(QStringLiteral("authorization_code"));
    if (finalStatus == QLatin1String("succeeded")) {
        QCOMPARE(code.toString().size(), 6);
        QCOMPARE(c.rows.first().toObject().value(QStringLiteral("authorization_code")), code);
    } else {
        QVERIFY2(code.isNull(), p.body.constData());
    }
}

// Refunds go to the acquirer's process with their own key: approved, declined by the bank's own
// bound, answer lost then resolved by asking it; its refund ledger is the one every gateway shows.
void TestAcquirerService::refundsCrossTheWire()
{
    const QString payKey = uniqueKey(QStringLiteral("charge"));
    const HttpReply paid = pay(m_till1, payKey, paymentBody(2000));
    ONCEPAY_VERIFY_STATUS(paid, 201);
    const QString id = paid.object().value(QStringLiteral("id")).toString();
    ONCEPAY_VERIFY_STATUS(refund(m_till1, id, uniqueKey(QStringLiteral("re")), 500), 201);

    QVERIFY(setAcquirer(m_till1, QStringLiteral("timeout_after_charge")));
    const QString lostKey = uniqueKey(QStringLiteral("lost"));
    const HttpReply lost = refund(m_till1, id, lostKey, 700);
    ONCEPAY_VERIFY_STATUS(lost, 202);
    QVERIFY(setAcquirer(m_till1, QStringLiteral("normal")));
    const QString lostId = lost.object().value(QStringLiteral("id")).toString();
    QTRY_COMPARE_WITH_TIMEOUT(m_till1.get(QStringLiteral("/v1/refunds/") + lostId).object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"), 15000);

    QVERIFY(setAcquirer(m_till1, QStringLiteral("decline_all")));
    ONCEPAY_VERIFY_PROBLEM(refund(m_till1, id, uniqueKey(QStringLiteral("no")), 100), 402, QStringLiteral("refund-declined"));
    QVERIFY(setAcquirer(m_till1, QStringLiteral("normal")));

    // The second gateway shows the same ledger: two refunds of this charge, 1200 in all.
    const AcquirerRefunds bank = acquirerRefunds(m_till2, payKey);
    QVERIFY2(bank.ok && bank.succeeded == 2 && bank.declined == 1 && bank.refunded == 1200, bank.raw.constData());
    QCOMPARE(bank.keys.count(lostKey), 1);
    QCOMPARE(m_till1.get(QStringLiteral("/v1/payments/") + id).object().value(QStringLiteral("amount_refunded")).toInteger(),
        1200);
}

void TestAcquirerService::acquirerDownThenRetryExecutesOnce()
{
    QVERIFY(m_acquirer.terminate());
    const QString key = uniqueKey(QStringLiteral("down"));
    // Connection refused: nothing can have reached the acquirer, the key is released.
    ONCEPAY_VERIFY_PROBLEM(pay(m_till1, key), 502, QStringLiteral("acquirer-unavailable"));
    QCOMPARE(paymentStatus(key), QString());

    QVERIFY2(m_acquirer.start(), m_acquirer.failureMessage().constData());
    QCOMPARE(m_acquirer.baseUrl().port(), m_bank.baseUrl().port());
    const HttpReply retry = pay(m_till1, key);
    ONCEPAY_VERIFY_STATUS(retry, 201);
    QVERIFY(!retry.replayed());
    const Charges c = acquirerCharges(m_till2, key);
    QVERIFY2(c.ok, c.raw);
    QCOMPARE(c.rows.size(), 1);
    QCOMPARE(c.succeeded, 1);
}

void TestAcquirerService::killedMidCall_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<int>("latencyMs");   // holds the charge before the bank acts
    QTest::addColumn<QString>("killWhen");   // the acquirer's log line, %1 the key
    QTest::addColumn<QString>("finalStatus");
    QTest::addColumn<int>("charged");
    // Killed before the bank acted: nothing charged. The payment may have reached the acquirer,
    // so it is never released or declined on a guess: recovery asks by key, finds nothing, and
    // resumes the charge with the same key (API.md promises 6 and 8): one charge.
    QTest::newRow("killed holding the charge") << QStringLiteral("tok_visa") << 60000
                                               << QStringLiteral("charge received: merchant \"demo\" key \"%1\"")
                                               << QStringLiteral("succeeded") << 1;
    // Killed after charging with the answer lost: the ledger survives, recovery finds it.
    QTest::newRow("killed after charging") << QStringLiteral("tok_timeoutAfterCharge") << 0
                                           << QStringLiteral("charge \"%1\" answer dropped")
                                           << QStringLiteral("succeeded") << 1;
}

void TestAcquirerService::killedMidCall()
{
    QFETCH(QString, token);
    QFETCH(int, latencyMs);
    QFETCH(QString, killWhen);
    QFETCH(QString, finalStatus);
    QFETCH(int, charged);
    QVERIFY(setAcquirer(m_till1, QStringLiteral("normal"), latencyMs));
    const QString key = uniqueKey(QStringLiteral("kill"));
    QNetworkReply *pending = m_till1.start({"POST", QStringLiteral("/v1/payments"), paymentBody(1999, token),
        keyHeader(key)});
    // The acquirer logs each charge it receives and each answer it drops: kill it right then.
    QTRY_VERIFY_WITH_TIMEOUT(m_acquirer.stderrText().contains(killWhen.arg(key)), 10000);
    m_acquirer.kill9();
    const HttpReply r = m_till1.collect(pending);
    // The call may have reached the bank: never 503 ("nothing happened") and never a final answer
    // the gateway cannot know.
    QVERIFY2(r.status == 202 || (r.status >= 500 && r.status != 503), r.describe().constData());

    QVERIFY2(m_acquirer.start(), m_acquirer.failureMessage().constData());
    QTRY_COMPARE_WITH_TIMEOUT(paymentStatus(key), finalStatus, 20000);
    const Charges c = acquirerCharges(m_till2, key);
    QVERIFY2(c.ok, c.raw);
    QCOMPARE(c.rows.size(), charged);
    // Asked again, both gateways agree with the ledger.
    const HttpReply byKey = m_till2.get(QStringLiteral("/v1/payments?idempotency_key=") + key);
    QVERIFY2(byKey.status == 200 || byKey.status == 404, byKey.describe().constData());
}

void TestAcquirerService::badCommandLines_data()
{
    QTest::addColumn<GatewayProcess::Program>("program");
    QTest::addColumn<QStringList>("args");
    using P = GatewayProcess::Program;
    const QString listen = QStringLiteral("--listen");
    const QString any = QStringLiteral("127.0.0.1:0");
    const QString db = QStringLiteral("--db");
    const QString path = QStringLiteral("DB");   // replaced by a path in a temporary dir
    QTest::newRow("acquirer: unknown option") << P::Acquirer << QStringList{listen, any, db, path, QStringLiteral("--x")};
    QTest::newRow("acquirer: positional") << P::Acquirer << QStringList{listen, any, db, path, QStringLiteral("extra")};
    QTest::newRow("acquirer: no --db") << P::Acquirer << QStringList{listen, any};
    QTest::newRow("acquirer: --db without value") << P::Acquirer << QStringList{listen, any, db};
    QTest::newRow("acquirer: listen without port") << P::Acquirer << QStringList{listen, QStringLiteral("127.0.0.1"), db, path};
    QTest::newRow("acquirer: listen garbage") << P::Acquirer << QStringList{listen, QStringLiteral("no where:x"), db, path};
    QTest::newRow("acquirer: port too big") << P::Acquirer << QStringList{listen, QStringLiteral("127.0.0.1:70000"), db, path};
    QTest::newRow("acquirer: host name") << P::Acquirer << QStringList{listen, QStringLiteral("bank.example:7070"), db, path};
    const QString acquirer = QStringLiteral("--acquirer");
    const QStringList gateway{listen, any, db, path, QStringLiteral("--demo")};
    QTest::newRow("gateway: --acquirer not http") << P::Gateway << gateway + QStringList{acquirer, QStringLiteral("ftp://127.0.0.1:7070")};
    QTest::newRow("gateway: --acquirer without port") << P::Gateway << gateway + QStringList{acquirer, QStringLiteral("http://127.0.0.1")};
    QTest::newRow("gateway: --acquirer without host") << P::Gateway << gateway + QStringList{acquirer, QStringLiteral("http://:7070")};
    QTest::newRow("gateway: --acquirer with a path") << P::Gateway << gateway + QStringList{acquirer, QStringLiteral("http://127.0.0.1:7070/bank")};
    QTest::newRow("gateway: --acquirer and --acquirer-db") << P::Gateway
                                                           << gateway + QStringList{acquirer, QStringLiteral("http://127.0.0.1:7070"), QStringLiteral("--acquirer-db"), QStringLiteral("x.db")};
}

void TestAcquirerService::badCommandLines()
{
    QFETCH(GatewayProcess::Program, program);
    QFETCH(QStringList, args);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    args.replaceInStrings(QRegularExpression(QStringLiteral("^DB$")), dir.filePath(QStringLiteral("bad.db")));
    QProcess p;
    p.start(GatewayProcess::binaryPath(program), args);
    QVERIFY(p.waitForStarted(10000));
    QVERIFY2(p.waitForFinished(10000) || (p.kill(), p.waitForFinished(), false), "kept running with a bad command line");
    const QByteArray err = p.readAllStandardError().trimmed();
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QVERIFY2(p.exitCode() != 0, err.constData());
    QVERIFY2(!err.isEmpty() && !err.contains('\n'), err.constData());
    QVERIFY(!p.readAllStandardOutput().contains("listening on"));
}

void TestAcquirerService::acquirerApiRejectsBadInput_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("contentType");   // "" : none sent
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("slug");
    const QByteArray json = "application/json";
    const QString charges = QStringLiteral("/v1/charges");
    const QString validation = QStringLiteral("validation-failed");
    auto charge = [](const char *field, const char *value) {
        QJsonObject o{{QStringLiteral("merchant"), QStringLiteral("demo")}, {QStringLiteral("key"), QStringLiteral("k-1")},
            {QStringLiteral("amount"), 100}, {QStringLiteral("currency"), QStringLiteral("CNY")},
            {QStringLiteral("token"), QStringLiteral("tok_visa")}};
        if (value)
            o.insert(QLatin1String(field), QJsonDocument::fromJson(value).object().value(QStringLiteral("v")));
        else
            o.remove(QLatin1String(field));
        return QJsonDocument(o).toJson(QJsonDocument::Compact);
    };
    QTest::newRow("charge: broken JSON") << QByteArray("POST") << charges << QByteArray("{\"merchant\":") << json << 400 << validation;
    QTest::newRow("charge: not an object") << QByteArray("POST") << charges << QByteArray("[1]") << json << 400 << validation;
    QTest::newRow("charge: empty object") << QByteArray("POST") << charges << QByteArray("{}") << json << 400 << validation;
    QTest::newRow("charge: no merchant") << QByteArray("POST") << charges << charge("merchant", nullptr) << json << 400 << validation;
    QTest::newRow("charge: no key") << QByteArray("POST") << charges << charge("key", nullptr) << json << 400 << validation;
    QTest::newRow("charge: no token") << QByteArray("POST") << charges << charge("token", nullptr) << json << 400 << validation;
    QTest::newRow("charge: bad key") << QByteArray("POST") << charges << charge("key", "{\"v\":\"a b\"}") << json << 400 << validation;
    QTest::newRow("charge: fractional amount") << QByteArray("POST") << charges << charge("amount", "{\"v\":1.5}") << json << 400 << validation;
    QTest::newRow("charge: amount as text") << QByteArray("POST") << charges << charge("amount", "{\"v\":\"100\"}") << json << 400 << validation;
    QTest::newRow("charge: unknown currency") << QByteArray("POST") << charges << charge("currency", "{\"v\":\"XXX\"}") << json << 400 << validation;
    QTest::newRow("charge: unknown field") << QByteArray("POST") << charges << charge("extra", "{\"v\":1}") << json << 400 << validation;
    QTest::newRow("charge: no content type") << QByteArray("POST") << charges << charge("x", nullptr) << QByteArray() << 415
                                             << QStringLiteral("unsupported-media-type");
    QTest::newRow("charge: unknown token refused") << QByteArray("POST") << charges << charge("token", "{\"v\":\"tok_nope\"}")
                                                   << json << 502 << QStringLiteral("acquirer-refused");
    QTest::newRow("lookup: no merchant") << QByteArray("GET") << QStringLiteral("/v1/charges?key=k-1") << QByteArray() << QByteArray() << 400 << validation;
    QTest::newRow("lookup: no key") << QByteArray("GET") << QStringLiteral("/v1/charges?merchant=demo") << QByteArray() << QByteArray() << 400 << validation;
    QTest::newRow("lookup: never charged") << QByteArray("GET") << QStringLiteral("/v1/charges?merchant=demo&key=never-seen")
                                           << QByteArray() << QByteArray() << 404 << QStringLiteral("not-found");
    QTest::newRow("ledger: no merchant") << QByteArray("GET") << QStringLiteral("/v1/ledger") << QByteArray() << QByteArray() << 400 << validation;
    QTest::newRow("ledger: bad key") << QByteArray("GET") << QStringLiteral("/v1/ledger?merchant=demo&key=%20") << QByteArray() << QByteArray() << 400 << validation;
    QTest::newRow("simulation: unknown mode") << QByteArray("PUT") << QStringLiteral("/v1/simulation?merchant=demo")
                                              << QByteArray("{\"mode\":\"sideways\"}") << json << 400 << validation;
    QTest::newRow("simulation: latency too high") << QByteArray("PUT") << QStringLiteral("/v1/simulation?merchant=demo")
                                                  << QByteArray("{\"mode\":\"normal\",\"latency_ms\":99999999}") << json << 400 << validation;
    QTest::newRow("simulation: broken JSON") << QByteArray("PUT") << QStringLiteral("/v1/simulation?merchant=demo")
                                             << QByteArray("{mode}") << json << 400 << validation;
    QTest::newRow("simulation: no merchant") << QByteArray("PUT") << QStringLiteral("/v1/simulation")
                                             << QByteArray("{\"mode\":\"normal\"}") << json << 400 << validation;
    QTest::newRow("wrong method") << QByteArray("DELETE") << charges << QByteArray() << QByteArray() << 405
                                  << QStringLiteral("method-not-allowed");
    QTest::newRow("unknown route") << QByteArray("GET") << QStringLiteral("/v1/payments") << QByteArray() << QByteArray() << 404
                                   << QStringLiteral("not-found");
}

void TestAcquirerService::acquirerApiRejectsBadInput()
{
    QFETCH(QByteArray, method);
    QFETCH(QString, path);
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, contentType);
    QFETCH(int, status);
    QFETCH(QString, slug);
    // An empty value removes the client's default Content-Type.
    const HttpReply r = m_bank.send({method, path, body, {{"Content-Type", contentType}}});
    ONCEPAY_VERIFY_PROBLEM(r, status, slug);
    // Nothing was charged for merchant demo with the key the bodies use.
    const HttpReply ledger = m_bank.get(QStringLiteral("/v1/ledger?merchant=demo&key=k-1"));
    ONCEPAY_VERIFY_STATUS(ledger, 200);
    QCOMPARE(ledger.object().value(QStringLiteral("data")).toArray().size(), 0);
}

void TestAcquirerService::reversalPassesTheCharge()
{
    // A wallet payment given up while its charge is still on the way to the bank: the reversal
    // arrives first, and the charge arriving after it is never made (issue 26).
    const QString key = uniqueKey(QStringLiteral("passed"));
    const QByteArray reversal = QJsonDocument(QJsonObject{{QStringLiteral("merchant"), QStringLiteral("wallets")},
                                                  {QStringLiteral("key"), key}})
                                    .toJson(QJsonDocument::Compact);
    const HttpReply reversed = m_bank.post(QStringLiteral("/v1/reversals"), reversal);
    ONCEPAY_VERIFY_STATUS(reversed, 200);
    QCOMPARE(reversed.object().value(QStringLiteral("status")).toString(), QStringLiteral("reversed"));
    const QJsonObject charge{{QStringLiteral("merchant"), QStringLiteral("wallets")}, {QStringLiteral("key"), key},
        {QStringLiteral("amount"), 800}, {QStringLiteral("currency"), QStringLiteral("CNY")},
        {QStringLiteral("token"), QStringLiteral("wallet:134567890123456780")}};
    const HttpReply late = m_bank.post(QStringLiteral("/v1/charges"), QJsonDocument(charge).toJson(QJsonDocument::Compact));
    ONCEPAY_VERIFY_STATUS(late, 200);
    QCOMPARE(late.object().value(QStringLiteral("status")).toString(), QStringLiteral("reversed"));
    const HttpReply ledger = m_bank.get(QStringLiteral("/v1/ledger?merchant=wallets&key=") + key);
    ONCEPAY_VERIFY_STATUS(ledger, 200);
    QCOMPARE(ledger.object().value(QStringLiteral("data")).toArray().size(), 0);
    const HttpReply lookup = m_bank.get(QStringLiteral("/v1/charges?merchant=wallets&key=") + key);
    ONCEPAY_VERIFY_STATUS(lookup, 200);
    QCOMPARE(lookup.object().value(QStringLiteral("status")).toString(), QStringLiteral("reversed"));
    // Asked again, the same answer: once per key.
    const HttpReply twice = m_bank.post(QStringLiteral("/v1/reversals"), reversal);
    ONCEPAY_VERIFY_STATUS(twice, 200);
    QCOMPARE(twice.object(), reversed.object());
    ONCEPAY_VERIFY_PROBLEM(m_bank.post(QStringLiteral("/v1/reversals"), R"({"merchant":"wallets"})"), 400,
        QStringLiteral("validation-failed"));
}

void TestAcquirerService::acquirerApiChargesOncePerKey()
{
    const QString key = uniqueKey(QStringLiteral("direct"));
    const QJsonObject charge{{QStringLiteral("merchant"), QStringLiteral("direct")}, {QStringLiteral("key"), key},
        {QStringLiteral("amount"), 500}, {QStringLiteral("currency"), QStringLiteral("JPY")},
        {QStringLiteral("token"), QStringLiteral("tok_insufficientFunds")}};
    const QByteArray body = QJsonDocument(charge).toJson(QJsonDocument::Compact);
    const HttpReply first = m_bank.post(QStringLiteral("/v1/charges"), body);
    ONCEPAY_VERIFY_STATUS(first, 200);
    QCOMPARE(first.object().value(QStringLiteral("status")).toString(), QStringLiteral("declined"));
    QCOMPARE(first.object().value(QStringLiteral("decline_code")).toString(), QStringLiteral("insufficient_funds"));
    // A declined card is named; only an approved charge has an authorization code.
    QCOMPARE(first.object().value(QStringLiteral("card")).toObject().value(QStringLiteral("last4")).toString(),
        QStringLiteral("9995"));
    QVERIFY(first.object().value(QStringLiteral("authorization_code")).isNull());
    const HttpReply again = m_bank.post(QStringLiteral("/v1/charges"), body);
    ONCEPAY_VERIFY_STATUS(again, 200);
    QCOMPARE(again.object(), first.object());

    const HttpReply lookup = m_bank.get(QStringLiteral("/v1/charges?merchant=direct&key=") + key);
    ONCEPAY_VERIFY_STATUS(lookup, 200);
    QCOMPARE(lookup.object().value(QStringLiteral("idempotency_key")).toString(), key);
    QCOMPARE(lookup.object().value(QStringLiteral("amount")).toInteger(), 500);
    QCOMPARE(lookup.object().value(QStringLiteral("status")).toString(), QStringLiteral("declined"));
    QCOMPARE(lookup.object().value(QStringLiteral("card")), first.object().value(QStringLiteral("card")));

    // An approved charge: the code it issued is the one a lookup by key returns.
    const QString approvedKey = uniqueKey(QStringLiteral("direct-ok"));
    QJsonObject approved = charge;
    approved.insert(QStringLiteral("merchant"), QStringLiteral("direct-approved"));
    approved.insert(QStringLiteral("key"), approvedKey);
    approved.insert(QStringLiteral("token"), QStringLiteral("tok_unionpay"));
    const HttpReply ok = m_bank.post(QStringLiteral("/v1/charges"), QJsonDocument(approved).toJson(QJsonDocument::Compact));
    ONCEPAY_VERIFY_STATUS(ok, 200);
    QCOMPARE(ok.object().value(QStringLiteral("card")).toObject().value(QStringLiteral("brand")).toString(),
        QStringLiteral("unionpay"));
    const QString code = ok.object().value(QStringLiteral("authorization_code")).toString();
    static const QRegularExpression authorizationShape(QStringLiteral("^[0-9A-Z]{6}$"));
    QVERIFY2(authorizationShape.match(code).hasMatch(), ok.body.constData());
    const HttpReply okLookup = m_bank.get(QStringLiteral("/v1/charges?merchant=direct-approved&key=") + approvedKey);
    ONCEPAY_VERIFY_STATUS(okLookup, 200);
    QCOMPARE(okLookup.object().value(QStringLiteral("authorization_code")).toString(), code);
    const HttpReply ledger = m_bank.get(QStringLiteral("/v1/ledger?merchant=direct"));
    ONCEPAY_VERIFY_STATUS(ledger, 200);
    QCOMPARE(ledger.object().value(QStringLiteral("data")).toArray().size(), 1);
    // Another merchant never sees it.
    ONCEPAY_VERIFY_STATUS(m_bank.get(QStringLiteral("/v1/charges?merchant=demo&key=") + key), 404);
}

// A refund moves money back in its charge's currency only (issue 19): 500 USD against a CNY
// charge is refused (400, nothing refunded); the same in CNY is refunded.
void TestAcquirerService::refundInAnotherCurrencyIsRefused()
{
    const QString chargeKey = uniqueKey(QStringLiteral("cur"));
    const QJsonObject charge{{QStringLiteral("merchant"), QStringLiteral("currency")}, {QStringLiteral("key"), chargeKey},
        {QStringLiteral("amount"), 1000}, {QStringLiteral("currency"), QStringLiteral("CNY")},
        {QStringLiteral("token"), QStringLiteral("tok_visa")}};
    const HttpReply charged = m_bank.post(QStringLiteral("/v1/charges"), QJsonDocument(charge).toJson(QJsonDocument::Compact));
    ONCEPAY_VERIFY_STATUS(charged, 200);
    QCOMPARE(charged.object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    auto refundIn = [&](const QString &currency, const QString &key) {
        const QJsonObject refund{{QStringLiteral("merchant"), QStringLiteral("currency")}, {QStringLiteral("key"), key},
            {QStringLiteral("charge_key"), chargeKey}, {QStringLiteral("amount"), 500},
            {QStringLiteral("currency"), currency}};
        return m_bank.post(QStringLiteral("/v1/refunds"), QJsonDocument(refund).toJson(QJsonDocument::Compact));
    };
    const HttpReply foreign = refundIn(QStringLiteral("USD"), uniqueKey(QStringLiteral("re-usd")));
    ONCEPAY_VERIFY_PROBLEM(foreign, 400, QStringLiteral("validation-failed"));
    HttpReply ledger = m_bank.get(QStringLiteral("/v1/refund-ledger?merchant=currency&charge_key=") + chargeKey);
    ONCEPAY_VERIFY_STATUS(ledger, 200);
    QCOMPARE(ledger.object().value(QStringLiteral("data")).toArray().size(), 0);
    const HttpReply same = refundIn(QStringLiteral("CNY"), uniqueKey(QStringLiteral("re-cny")));
    ONCEPAY_VERIFY_STATUS(same, 200);
    QCOMPARE(same.object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    ledger = m_bank.get(QStringLiteral("/v1/refund-ledger?merchant=currency&charge_key=") + chargeKey);
    QCOMPARE(ledger.object().value(QStringLiteral("data")).toArray().size(), 1);
}

// oncepay-acquirer is served by the gateway's HTTP layer: "Content-Length: N, N" frames one
// body, and a pipelined charge with ambiguous framing (or a chunked HTTP/1.0 one) is refused,
// never executed.
void TestAcquirerService::acquirerFramesEveryRequestWithOneParser()
{
    auto chargeRequest = [](const QString &key, const QList<QByteArray> &framing, const QByteArray &bodyOverride = {}) {
        const QJsonObject charge{{QStringLiteral("merchant"), QStringLiteral("smuggle")}, {QStringLiteral("key"), key},
            {QStringLiteral("amount"), 700}, {QStringLiteral("currency"), QStringLiteral("CNY")},
            {QStringLiteral("token"), QStringLiteral("tok_visa")}};
        const QByteArray body = bodyOverride.isNull() ? QJsonDocument(charge).toJson(QJsonDocument::Compact) : bodyOverride;
        QByteArray out = "POST /v1/charges HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n";
        for (const QByteArray &line : framing.isEmpty() ? QList<QByteArray>{"Content-Length: " + QByteArray::number(body.size())}
                                                        : framing)
            out += line + "\r\n";
        return out + "\r\n" + body;
    };
    auto charged = [this](const QString &key) {
        return m_bank.get(QStringLiteral("/v1/charges?merchant=smuggle&key=") + key).status;
    };
    const QString outer = uniqueKey(QStringLiteral("outer"));
    const QString inner = uniqueKey(QStringLiteral("inner"));
    const QByteArray innerRequest = chargeRequest(inner, {});
    const QByteArray n = QByteArray::number(innerRequest.size());
    const PipelineResult listed = Pipeline::send(m_acquirer.port(), chargeRequest(outer, {"Content-Length: " + n + ", " + n}, innerRequest),
        {QString(), false, 1, 15000});
    QVERIFY2(listed.statuses() == QList<int>{400}, listed.describe().constData());
    QCOMPARE(charged(inner), 404);

    const QString first = uniqueKey(QStringLiteral("first"));
    const QString second = uniqueKey(QStringLiteral("second"));
    const PipelineResult smuggled = Pipeline::send(
        m_acquirer.port(), chargeRequest(first, {}) + chargeRequest(second, {"Content-Length: 5", "Transfer-Encoding: chunked"}));
    QVERIFY2(smuggled.statuses() == (QList<int>{200, 400}) && smuggled.closedByServer, smuggled.describe().constData());
    QCOMPARE(charged(first), 200);
    QCOMPARE(charged(second), 404);

    // RFC 9112 6.1: a chunked HTTP/1.0 charge that asks to keep the connection, then another: 400,
    // closed, neither charged.
    const QString http10 = uniqueKey(QStringLiteral("http10"));
    const QString after = uniqueKey(QStringLiteral("after-http10"));
    const QByteArray whole = chargeRequest(http10, {});
    const QByteArray body = whole.mid(whole.indexOf("\r\n\r\n") + 4);
    QByteArray head = chargeRequest(http10, {"Connection: keep-alive", "Transfer-Encoding: chunked"}, QByteArray(""));
    head.replace(" HTTP/1.1\r\n", " HTTP/1.0\r\n");
    const PipelineResult http10Chunked = Pipeline::send(m_acquirer.port(),
        head + QByteArray::number(body.size(), 16) + "\r\n" + body + "\r\n0\r\n\r\n" + chargeRequest(after, {}));
    QVERIFY2(http10Chunked.statuses() == QList<int>{400} && http10Chunked.closedByServer, http10Chunked.describe().constData());
    QCOMPARE(charged(http10), 404);
    QCOMPARE(charged(after), 404);
}

// API.md: lengths count Unicode code points. 500 emoji (1000 UTF-16 units) are a valid
// description, 501 are not; a merchant name of 64 emoji is one, of 65 is not.
void TestAcquirerService::lengthsCountCodePoints()
{
    const QString emoji = QString::fromUcs4(U"\U0001F600");
    QCOMPARE(emoji.size(), 2);
    QJsonObject body = QJsonDocument::fromJson(paymentBody(1234)).object();
    body.insert(QStringLiteral("description"), emoji.repeated(500));
    const HttpReply ok = pay(m_till1, uniqueKey(QStringLiteral("emoji")), QJsonDocument(body).toJson(QJsonDocument::Compact));
    ONCEPAY_VERIFY_STATUS(ok, 201);
    body.insert(QStringLiteral("description"), emoji.repeated(501));
    const HttpReply tooLong = pay(m_till1, uniqueKey(QStringLiteral("emoji")), QJsonDocument(body).toJson(QJsonDocument::Compact));
    ONCEPAY_VERIFY_PROBLEM(tooLong, 400, QStringLiteral("validation-failed"));

    const QString merchant64 = QString::fromLatin1(QUrl::toPercentEncoding(emoji.repeated(64)));
    ONCEPAY_VERIFY_STATUS(m_bank.get(QStringLiteral("/v1/ledger?merchant=") + merchant64), 200);
    const QString merchant65 = QString::fromLatin1(QUrl::toPercentEncoding(emoji.repeated(65)));
    ONCEPAY_VERIFY_PROBLEM(m_bank.get(QStringLiteral("/v1/ledger?merchant=") + merchant65), 400,
        QStringLiteral("validation-failed"));
}

// RFC 9110 9.1 on the acquirer's own port too (issue 35): HEAD answers what GET does, without
// the body; a route that has no GET does not take it (405 lists what it takes).
void TestAcquirerService::headAnswersAsGetDoes()
{
    const QString path = QStringLiteral("/v1/ledger?merchant=demo");
    const HttpReply get = m_bank.get(path);
    ONCEPAY_VERIFY_STATUS(get, 200);
    const HttpReply head = m_bank.send({"HEAD", path, {}, {}});
    QCOMPARE(head.status, 200);
    QVERIFY(head.body.isEmpty());
    QCOMPARE(head.header("Content-Type"), get.header("Content-Type"));
    QVERIFY(!head.header("Content-Length").isEmpty());
    const HttpReply sim = m_bank.send({"HEAD", QStringLiteral("/v1/simulation?merchant=demo"), {}, {}});
    QCOMPARE(sim.status, 200);
    const HttpReply reversal = m_bank.send({"HEAD", QStringLiteral("/v1/reversals"), {}, {}});
    QCOMPARE(reversal.status, 405);
    const HttpReply charges = m_bank.send({"PUT", QStringLiteral("/v1/charges"), "{}", {{"Content-Type", "application/json"}}});
    ONCEPAY_VERIFY_STATUS(charges, 405);
    QVERIFY2(charges.header("Allow").contains("HEAD"), charges.header("Allow").constData());
}

QTEST_GUILESS_MAIN(TestAcquirerService)
#include "tst_acquirerservice.moc"
