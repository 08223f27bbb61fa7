// Wallet payments (API.md "Wallet payments", issue 26): the customer's one-time payment code,
// charged once or given up, never both. The gateway follows a payment waiting for the customer
// by asking the acquirer (recovery, every 300 ms here), and past --wallet-confirm-timeout (2 s
// here) gives it up. Where the gateway must not learn of a confirmation before the cashier gives
// up, a gateway without recovery of its own (an hour) is used: only the test's requests drive it.
// The acquirer's ledger is the ground truth throughout. Both backends (tst_wallet_pg).
#include "gatewayapi.h"
#include "gatewayprocess.h"

#include <QtTest>

using namespace GatewayApi;

namespace {

const QStringList kArgs{QStringLiteral("--recovery-interval"), QStringLiteral("300ms"), QStringLiteral("--claim-lease"),
    QStringLiteral("1s"), QStringLiteral("--wallet-confirm-timeout"), QStringLiteral("2s")};
const QStringList kNoRecovery{QStringLiteral("--recovery-interval"), QStringLiteral("1h"), QStringLiteral("--claim-lease"),
    QStringLiteral("1s"), QStringLiteral("--wallet-confirm-timeout"), QStringLiteral("2s")};

}   // namespace

class TestWallet final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void approvedAtOnce_data();
    void approvedAtOnce();
    void invalidRequests_data();
    void invalidRequests();
    void declinedCodes();
    void codeIsSingleUse();
    void codeIsSingleUseAfterACancel();
    void confirmedOnThePhone();
    void neverConfirmedIsGivenUpAtTheTimeout();
    void cancelledByTheCashier();
    void cancelRejections();
    void lateConfirmationIsReversed();
    void killedWhileGivingUp_data();
    void killedWhileGivingUp();

private:
    HttpReply cancel(HttpClient &client, const QString &paymentId, const QString &key, const QByteArray &body = "{}");
    bool setConfirmMs(HttpClient &client, int ms);
    // POSTs a wallet payment the customer has not confirmed yet: its id once the answer is 202
    // processing; empty otherwise (the answer in a warning).
    static QString startWaiting(HttpClient &client, const QString &key, const QByteArray &body);

    GatewayProcess m_gateway;
    HttpClient m_client;
};

void TestWallet::initTestCase()
{
    QVERIFY2(m_gateway.start(kArgs), m_gateway.failureMessage().constData());
    m_client.setBaseUrl(m_gateway.baseUrl());
}

void TestWallet::cleanup()
{
    QVERIFY(setAcquirer(m_client, QStringLiteral("normal")));
    QVERIFY(setConfirmMs(m_client, 5000));
    QVERIFY2(m_gateway.isRunning(), m_gateway.failureMessage().constData());
}

QString TestWallet::startWaiting(HttpClient &client, const QString &key, const QByteArray &body)
{
    const HttpReply r = pay(client, key, body);
    if (r.status != 202 || r.object().value(QStringLiteral("status")).toString() != QLatin1String("processing")) {
        qWarning("not waiting for the customer: %s", r.describe().constData());
        return {};
    }
    return r.object().value(QStringLiteral("id")).toString();
}

HttpReply TestWallet::cancel(HttpClient &client, const QString &paymentId, const QString &key, const QByteArray &body)
{
    return client.post(QStringLiteral("/v1/payments/%1/cancel").arg(paymentId), body, keyHeader(key));
}

bool TestWallet::setConfirmMs(HttpClient &client, int ms)
{
    const HttpReply r = client.put(QStringLiteral("/v1/_sim/acquirer"), "{\"wallet_confirm_ms\":" + QByteArray::number(ms) + '}');
    return r.status == 200 && r.object().value(QStringLiteral("wallet_confirm_ms")).toInt() == ms;
}

void TestWallet::approvedAtOnce_data()
{
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("brand");
    QTest::newRow("wechat, last digit 0") << walletCode("13", 0) << QStringLiteral("wechat");
    QTest::newRow("wechat, last digit 9") << walletCode("10", 9) << QStringLiteral("wechat");
    QTest::newRow("alipay, last digit 5") << walletCode("28", 5) << QStringLiteral("alipay");
    QTest::newRow("alipay, prefix 30") << walletCode("30", 7) << QStringLiteral("alipay");
}

void TestWallet::approvedAtOnce()
{
    QFETCH(QString, code);
    QFETCH(QString, brand);
    const QString key = uniqueKey(QStringLiteral("w"));
    const HttpReply r = pay(m_client, key, walletBody(code));
    ONCEPAY_VERIFY_STATUS(r, 201);
    const QJsonObject p = r.object();
    QVERIFY2(paymentMismatch(p).isEmpty(), paymentMismatch(p).constData());
    QCOMPARE(p.value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    QCOMPARE(p.value(QStringLiteral("payment_method")).toString(), QStringLiteral("wallet"));
    QCOMPARE(p.value(QStringLiteral("wallet")).toObject().value(QStringLiteral("brand")).toString(), brand);
    QVERIFY(p.value(QStringLiteral("card")).isNull());
    QVERIFY(!p.value(QStringLiteral("authorization_code")).toString().isEmpty());
    // The code is the customer's: never echoed.
    QVERIFY2(!r.body.contains(code.toLatin1()), r.body.constData());

    const HttpReply again = pay(m_client, key, walletBody(code));
    ONCEPAY_VERIFY_STATUS(again, 201);
    QVERIFY(again.replayed());
    QCOMPARE(again.body, r.body);
    const Charges ledger = acquirerCharges(m_client, key);
    QVERIFY(ledger.ok);
    QCOMPARE(ledger.succeeded, 1);
    QCOMPARE(int(ledger.rows.size()), 1);
    QVERIFY(ledger.rows.at(0).toObject().value(QStringLiteral("card")).isNull());
}

void TestWallet::invalidRequests_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("field");
    const QByteArray head = R"({"amount":500,"currency":"CNY","order_id":"ord-w",)";
    QTest::newRow("no code") << head + R"("payment_method":"wallet"})" << QStringLiteral("wallet_code");
    QTest::newRow("17 digits") << head + R"("payment_method":"wallet","wallet_code":"13456789012345678"})" << QStringLiteral("wallet_code");
    QTest::newRow("19 digits") << head + R"("payment_method":"wallet","wallet_code":"1345678901234567890"})" << QStringLiteral("wallet_code");
    QTest::newRow("prefix 16") << head + R"("payment_method":"wallet","wallet_code":"164567890123456780"})" << QStringLiteral("wallet_code");
    QTest::newRow("prefix 24") << head + R"("payment_method":"wallet","wallet_code":"244567890123456780"})" << QStringLiteral("wallet_code");
    QTest::newRow("letters") << head + R"("payment_method":"wallet","wallet_code":"13456789012345678x"})" << QStringLiteral("wallet_code");
    QTest::newRow("a number") << head + R"("payment_method":"wallet","wallet_code":134567890123456780})" << QStringLiteral("wallet_code");
    QTest::newRow("code with a card") << head + R"("payment_method":"tok_visa","wallet_code":"134567890123456780"})" << QStringLiteral("wallet_code");
    // The gateway's own form of a wallet payment is not a method a client names (issue 35).
    QTest::newRow("internal wallet:<code>") << head + R"("payment_method":"wallet:134567890123456780"})" << QStringLiteral("payment_method");
    QTest::newRow("internal form and a code") << head + R"("payment_method":"wallet:134567890123456780","wallet_code":"134567890123456780"})"
                                              << QStringLiteral("payment_method");
}

void TestWallet::invalidRequests()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, field);
    const QString key = uniqueKey(QStringLiteral("bad"));
    const HttpReply r = pay(m_client, key, body);
    ONCEPAY_VERIFY_PROBLEM(r, 400, QStringLiteral("validation-failed"));
    QVERIFY2(r.body.contains(field.toLatin1()), r.body.constData());
    // Nothing was recorded for the key: the corrected request executes.
    ONCEPAY_VERIFY_STATUS(pay(m_client, key, walletBody(walletCode("12", 0), 500)), 201);
}

void TestWallet::declinedCodes()
{
    struct Case
    {
        const char *prefix;
        int outcome;
        const char *declineCode;
    };
    for (const Case &c : {Case{"11", 3, "insufficient_funds"}, Case{"26", 4, "code_expired"}}) {
        const QString key = uniqueKey(QStringLiteral("declined"));
        const HttpReply r = pay(m_client, key, walletBody(walletCode(c.prefix, c.outcome)));
        ONCEPAY_VERIFY_PROBLEM(r, 402, QStringLiteral("card-declined"));
        const QJsonObject p = paymentOf(r);
        QCOMPARE(p.value(QStringLiteral("decline_code")).toString(), QLatin1String(c.declineCode));
        QCOMPARE(p.value(QStringLiteral("status")).toString(), QStringLiteral("declined"));
        QVERIFY(p.value(QStringLiteral("authorization_code")).isNull());
        const Charges ledger = acquirerCharges(m_client, key);
        QVERIFY(ledger.ok);
        QCOMPARE(ledger.succeeded, 0);
        QCOMPARE(ledger.declined, 1);
    }
}

void TestWallet::codeIsSingleUse()
{
    // The cashier scans the same code again for another sale: the acquirer says it expired,
    // and the first payment stays the only charge.
    const QString code = walletCode("14", 0);
    const QString first = uniqueKey(QStringLiteral("once"));
    ONCEPAY_VERIFY_STATUS(pay(m_client, first, walletBody(code)), 201);
    const QString second = uniqueKey(QStringLiteral("twice"));
    const HttpReply r = pay(m_client, second, walletBody(code));
    ONCEPAY_VERIFY_PROBLEM(r, 402, QStringLiteral("card-declined"));
    QCOMPARE(paymentOf(r).value(QStringLiteral("decline_code")).toString(), QStringLiteral("code_expired"));
    QCOMPARE(acquirerCharges(m_client, first).succeeded, 1);
    QCOMPARE(acquirerCharges(m_client, second).succeeded, 0);
}

void TestWallet::codeIsSingleUseAfterACancel()
{
    // Issue 35: the cashier gives up a payment the customer never confirmed, then scans the same
    // code for a new try (the customer would confirm this one within 5 s). The acquirer
    // remembers every code it was shown, whatever became of its charge (given up here, so no
    // row in its ledger): expired, never charged.
    const QString code = walletCode("29", 1);
    const QString first = uniqueKey(QStringLiteral("given-up"));
    const QString id = startWaiting(m_client, first, walletBody(code));
    QVERIFY(!id.isEmpty());
    const HttpReply c = cancel(m_client, id, uniqueKey(QStringLiteral("cancel")));
    ONCEPAY_VERIFY_STATUS(c, 200);
    QCOMPARE(c.object().value(QStringLiteral("decline_code")).toString(), QStringLiteral("cancelled"));
    const QString second = uniqueKey(QStringLiteral("again"));
    const HttpReply r = pay(m_client, second, walletBody(code));
    ONCEPAY_VERIFY_PROBLEM(r, 402, QStringLiteral("card-declined"));
    QCOMPARE(paymentOf(r).value(QStringLiteral("decline_code")).toString(), QStringLiteral("code_expired"));
    QCOMPARE(acquirerCharges(m_client, second).succeeded, 0);
    QCOMPARE(int(acquirerCharges(m_client, first).rows.size()), 0);
}

void TestWallet::confirmedOnThePhone()
{
    QVERIFY(setConfirmMs(m_client, 800));
    const QString key = uniqueKey(QStringLiteral("confirm"));
    const QByteArray body = walletBody(walletCode("15", 1));
    const QString id = startWaiting(m_client, key, body);
    QVERIFY(!id.isEmpty());
    QCOMPARE(acquirerCharges(m_client, key).succeeded, 0);   // waiting for the customer: nothing kept yet

    // The gateway asks the acquirer by key (never presents the code again) until the customer confirms.
    QTRY_COMPARE_WITH_TIMEOUT(m_client.get(QStringLiteral("/v1/payments/") + id).object().value(QStringLiteral("status")).toString(),
        QStringLiteral("succeeded"), 10000);
    const HttpReply r = pay(m_client, key, body);   // the till's retry with the same key
    ONCEPAY_VERIFY_STATUS(r, 201);
    QCOMPARE(r.object().value(QStringLiteral("id")).toString(), id);
    QCOMPARE(r.object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    const Charges ledger = acquirerCharges(m_client, key);
    QCOMPARE(int(ledger.rows.size()), 1);
    QCOMPARE(ledger.succeeded, 1);
}

void TestWallet::neverConfirmedIsGivenUpAtTheTimeout()
{
    const QString key = uniqueKey(QStringLiteral("never"));
    const QByteArray body = walletBody(walletCode("27", 2));
    const QString id = startWaiting(m_client, key, body);
    QVERIFY(!id.isEmpty());
    // Within the timeout it stays processing; past it the gateway reverses it at the acquirer.
    QTRY_COMPARE_WITH_TIMEOUT(m_client.get(QStringLiteral("/v1/payments/") + id).object().value(QStringLiteral("status")).toString(),
        QStringLiteral("declined"), 15000);
    const HttpReply r = pay(m_client, key, body);
    ONCEPAY_VERIFY_PROBLEM(r, 402, QStringLiteral("card-declined"));
    const QJsonObject p = paymentOf(r);
    QCOMPARE(p.value(QStringLiteral("id")).toString(), id);
    QCOMPARE(p.value(QStringLiteral("decline_code")).toString(), QStringLiteral("wallet_timeout"));
    const QJsonObject stored = m_client.get(QStringLiteral("/v1/payments/") + id).object();
    QCOMPARE(stored.value(QStringLiteral("status")).toString(), QStringLiteral("declined"));
    QCOMPARE(stored.value(QStringLiteral("decline_code")).toString(), QStringLiteral("wallet_timeout"));
    // Never charged: the reversal leaves no row.
    const Charges ledger = acquirerCharges(m_client, key);
    QVERIFY(ledger.ok);
    QCOMPARE(int(ledger.rows.size()), 0);
    // Given up is final: a cancel now is refused, and nothing is recorded for its key.
    const QString cancelKey = uniqueKey(QStringLiteral("cancel"));
    ONCEPAY_VERIFY_PROBLEM(cancel(m_client, id, cancelKey), 400, QStringLiteral("payment-not-cancellable"));
}

void TestWallet::cancelledByTheCashier()
{
    const QString key = uniqueKey(QStringLiteral("gaveup"));
    const QByteArray body = walletBody(walletCode("25", 2));
    const QString id = startWaiting(m_client, key, body);
    QVERIFY(!id.isEmpty());

    const QString cancelKey = uniqueKey(QStringLiteral("cancel"));
    const HttpReply c = cancel(m_client, id, cancelKey);
    ONCEPAY_VERIFY_STATUS(c, 200);
    QVERIFY2(paymentMismatch(c.object()).isEmpty(), paymentMismatch(c.object()).constData());
    QCOMPARE(c.object().value(QStringLiteral("id")).toString(), id);
    QCOMPARE(c.object().value(QStringLiteral("status")).toString(), QStringLiteral("declined"));
    QCOMPARE(c.object().value(QStringLiteral("decline_code")).toString(), QStringLiteral("cancelled"));
    QCOMPARE(c.object().value(QStringLiteral("wallet")).toObject().value(QStringLiteral("brand")).toString(), QStringLiteral("alipay"));
    QCOMPARE(int(acquirerCharges(m_client, key).rows.size()), 0);

    // Recorded and replayed like a payment; the payment's key answers the declined payment.
    const HttpReply again = cancel(m_client, id, cancelKey);
    ONCEPAY_VERIFY_STATUS(again, 200);
    QVERIFY(again.replayed());
    QCOMPARE(again.body, c.body);
    const HttpReply payment = pay(m_client, key, body);
    ONCEPAY_VERIFY_PROBLEM(payment, 402, QStringLiteral("card-declined"));
    QCOMPARE(paymentOf(payment).value(QStringLiteral("decline_code")).toString(), QStringLiteral("cancelled"));
    // The cancel's key is taken: not for a payment, nor for another payment's cancel.
    ONCEPAY_VERIFY_PROBLEM(pay(m_client, cancelKey, walletBody(walletCode("12", 0))), 422, QStringLiteral("idempotency-key-reused"));
}

void TestWallet::cancelRejections()
{
    // A card payment: not a wallet's to give up.
    const QString cardKey = uniqueKey(QStringLiteral("card"));
    const QString cardId = pay(m_client, cardKey, paymentBody(700)).object().value(QStringLiteral("id")).toString();
    QVERIFY(!cardId.isEmpty());
    const QString k1 = uniqueKey(QStringLiteral("cancel"));
    ONCEPAY_VERIFY_PROBLEM(cancel(m_client, cardId, k1), 400, QStringLiteral("payment-not-cancellable"));
    // A wallet payment already succeeded: refund it instead. Not recorded: the key stays free.
    const QString walletKey = uniqueKey(QStringLiteral("paid"));
    const QString paidId = pay(m_client, walletKey, walletBody(walletCode("13", 0))).object().value(QStringLiteral("id")).toString();
    const HttpReply paid = cancel(m_client, paidId, k1);
    ONCEPAY_VERIFY_PROBLEM(paid, 400, QStringLiteral("payment-not-cancellable"));
    QVERIFY2(paid.body.contains("refund"), paid.body.constData());
    QCOMPARE(acquirerCharges(m_client, walletKey).succeeded, 1);
    // Unknown payment: 404. The payment's own key as the cancel's: 422. A body other than {}: 400.
    ONCEPAY_VERIFY_PROBLEM(cancel(m_client, QStringLiteral("pay_unknown"), k1), 404, QStringLiteral("not-found"));
    const QString waitingKey = uniqueKey(QStringLiteral("waiting"));
    const QString waitingId = pay(m_client, waitingKey, walletBody(walletCode("10", 2))).object().value(QStringLiteral("id")).toString();
    ONCEPAY_VERIFY_PROBLEM(cancel(m_client, waitingId, waitingKey), 422, QStringLiteral("idempotency-key-reused"));
    ONCEPAY_VERIFY_PROBLEM(cancel(m_client, waitingId, k1, R"({"reason":"slow"})"), 400, QStringLiteral("validation-failed"));
    ONCEPAY_VERIFY_PROBLEM(m_client.post(QStringLiteral("/v1/payments/%1/cancel").arg(waitingId), "{}"), 400,
        QStringLiteral("idempotency-key-missing"));
    ONCEPAY_VERIFY_STATUS(m_client.get(QStringLiteral("/v1/payments/%1/cancel").arg(waitingId)), 405);
    // The same key, now on the waiting payment, executes: nothing was recorded before.
    ONCEPAY_VERIFY_STATUS(cancel(m_client, waitingId, k1), 200);
}

void TestWallet::lateConfirmationIsReversed()
{
    // The customer confirms on the phone just as the cashier gives up: the acquirer has charged,
    // the gateway has not heard of it yet. The cancel undoes the charge: money back, never kept
    // with the payment "declined".
    GatewayProcess gateway;
    QVERIFY2(gateway.start(kNoRecovery), gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    QVERIFY(setConfirmMs(client, 300));
    const QString key = uniqueKey(QStringLiteral("late"));
    const QString id = startWaiting(client, key, walletBody(walletCode("29", 1), 4200));
    QVERIFY(!id.isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(acquirerCharges(client, key).succeeded, 1, 10000);
    QCOMPARE(client.get(QStringLiteral("/v1/payments/") + id).object().value(QStringLiteral("status")).toString(),
        QStringLiteral("processing"));

    const HttpReply c = cancel(client, id, uniqueKey(QStringLiteral("cancel")));
    ONCEPAY_VERIFY_STATUS(c, 200);
    QCOMPARE(c.object().value(QStringLiteral("decline_code")).toString(), QStringLiteral("cancelled"));
    const Charges ledger = acquirerCharges(client, key);
    QCOMPARE(int(ledger.rows.size()), 1);
    QCOMPARE(ledger.rows.at(0).toObject().value(QStringLiteral("status")).toString(), QStringLiteral("reversed"));
    QCOMPARE(ledger.succeeded, 0);
    // Nothing to refund: the payment is declined and the charge undone.
    const HttpReply r = refund(client, id, uniqueKey(QStringLiteral("re")), 100);
    QVERIFY2(r.status == 400, r.describe().constData());
}

void TestWallet::killedWhileGivingUp_data()
{
    QTest::addColumn<QString>("step");
    QTest::addColumn<int>("confirmMs");
    QTest::addColumn<QString>("ledgerStatus");   // empty: no row (never charged)
    QTest::newRow("after the cancel's claim") << QStringLiteral("after_cancel_claim") << 60000 << QString();
    QTest::newRow("after the reversal, never charged") << QStringLiteral("after_reversal") << 60000 << QString();
    QTest::newRow("after the reversal of a charge") << QStringLiteral("after_reversal") << 200 << QStringLiteral("reversed");
}

void TestWallet::killedWhileGivingUp()
{
    QFETCH(QString, step);
    QFETCH(int, confirmMs);
    QFETCH(QString, ledgerStatus);
    GatewayProcess gateway;
    QVERIFY2(gateway.start(kNoRecovery, {{QStringLiteral("ONCEPAY_FAULT_KILL_AT"), step}}), gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    QVERIFY(setConfirmMs(client, confirmMs));
    const QString key = uniqueKey(QStringLiteral("crash"));
    const QByteArray body = walletBody(walletCode("12", 1));
    const QString id = startWaiting(client, key, body);
    QVERIFY(!id.isEmpty());
    if (!ledgerStatus.isEmpty())
        QTRY_COMPARE_WITH_TIMEOUT(acquirerCharges(client, key).succeeded, 1, 10000);

    const QString cancelKey = uniqueKey(QStringLiteral("cancel"));
    const HttpReply died = cancel(client, id, cancelKey);
    QVERIFY2(died.status == 0, ("the client got an answer although the gateway was to die at " + step.toUtf8() + "\n" + died.describe()).constData());
    QVERIFY2(gateway.waitForExit(10000), "the gateway did not die at the fault step");
    QCOMPARE(gateway.exitStatus(), QProcess::CrashExit);

    // Restarted on the same database: the cancel's retry finishes what the dead one began, once.
    QVERIFY2(gateway.restart(kNoRecovery), gateway.failureMessage().constData());
    HttpClient again(gateway.baseUrl());
    HttpReply c;
    QTRY_VERIFY_WITH_TIMEOUT((c = cancel(again, id, cancelKey), c.status != 409 && c.status != 500), 15000);
    ONCEPAY_VERIFY_STATUS(c, 200);
    QCOMPARE(c.object().value(QStringLiteral("decline_code")).toString(), QStringLiteral("cancelled"));
    const Charges ledger = acquirerCharges(again, key);
    QVERIFY(ledger.ok);
    QCOMPARE(ledger.succeeded, 0);
    if (ledgerStatus.isEmpty()) {
        QCOMPARE(int(ledger.rows.size()), 0);
    } else {
        QCOMPARE(int(ledger.rows.size()), 1);
        QCOMPARE(ledger.rows.at(0).toObject().value(QStringLiteral("status")).toString(), ledgerStatus);
    }
    // The payment's own key answers the same outcome.
    const HttpReply p = pay(again, key, body);
    ONCEPAY_VERIFY_PROBLEM(p, 402, QStringLiteral("card-declined"));
    QCOMPARE(paymentOf(p).value(QStringLiteral("decline_code")).toString(), QStringLiteral("cancelled"));
}

QTEST_GUILESS_MAIN(TestWallet)
#include "tst_wallet.moc"
