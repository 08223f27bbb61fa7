// The acquirer's own rules (API.md "The acquirer as its own service", issue 35), asked of
// oncepay-acquirer directly and through a gateway that calls it: a key is one request (another
// amount, currency, card or charge under it is refused, 409, nothing moves); money goes back
// once (a refunded charge is never reversed, a reversed one never refunded); a wallet code pays
// once whatever became of its charge. Where the acquirer refuses, the gateway records the truth:
// never "reversed" for a charge that stands, never "succeeded" with another request's outcome.
// The gateway's store on both backends (tst_acquirerledger_pg); it runs no recovery of its own
// (an hour), so that only the test's requests drive its payments.
#include "gatewayapi.h"
#include "gatewayprocess.h"

#include <QtTest>

using namespace GatewayApi;

class TestAcquirerLedger final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void keyReplayedWithAnotherRequestIsRefused_data();
    void keyReplayedWithAnotherRequestIsRefused();
    void moneyGoesBackOnce();
    void walletCodePaysOnceWhateverBecameOfIt();
    void gatewayKeepsAChargeTheAcquirerWouldNotReverse();
    void gatewayRefundOfAReversedChargeFails();
    void gatewayNeverTakesAnotherRequestsOutcome();

private:
    // POSTs `body` to the acquirer's `path` (/v1/charges, /v1/refunds, /v1/reversals).
    HttpReply atBank(const char *path, const QJsonObject &body);
    QJsonObject charge(const QString &key, qint64 amount, const QString &token) const;
    QJsonObject refundCall(const QString &key, const QString &chargeKey, qint64 amount) const;
    QString bankStatusOf(const QString &key);   // the charge's status in the acquirer's ledger

    GatewayProcess m_acquirer{GatewayProcess::Program::Acquirer};
    GatewayProcess m_gateway;
    HttpClient m_till;   // the gateway, merchant demo
    HttpClient m_bank{QUrl(), QByteArray()};   // the acquirer itself
    QString m_merchant = QStringLiteral("demo");
};

void TestAcquirerLedger::initTestCase()
{
    QVERIFY2(m_acquirer.start(), m_acquirer.failureMessage().constData());
    QVERIFY2(m_gateway.start({QStringLiteral("--acquirer"), m_acquirer.baseUrl().toString(), QStringLiteral("--acquirer-timeout"),
                 QStringLiteral("2s"), QStringLiteral("--recovery-interval"), QStringLiteral("1h")}),
        m_gateway.failureMessage().constData());
    m_till.setBaseUrl(m_gateway.baseUrl());
    m_bank.setBaseUrl(m_acquirer.baseUrl());
}

HttpReply TestAcquirerLedger::atBank(const char *path, const QJsonObject &body)
{
    return m_bank.post(QString::fromLatin1(path), QJsonDocument(body).toJson(QJsonDocument::Compact));
}

QJsonObject TestAcquirerLedger::charge(const QString &key, qint64 amount, const QString &token) const
{
    return {{QStringLiteral("merchant"), m_merchant}, {QStringLiteral("key"), key}, {QStringLiteral("amount"), amount},
        {QStringLiteral("currency"), QStringLiteral("CNY")}, {QStringLiteral("token"), token}};
}

QJsonObject TestAcquirerLedger::refundCall(const QString &key, const QString &chargeKey, qint64 amount) const
{
    return {{QStringLiteral("merchant"), m_merchant}, {QStringLiteral("key"), key}, {QStringLiteral("charge_key"), chargeKey},
        {QStringLiteral("amount"), amount}, {QStringLiteral("currency"), QStringLiteral("CNY")}};
}

QString TestAcquirerLedger::bankStatusOf(const QString &key)
{
    const Charges c = acquirerCharges(m_till, key);
    return c.ok && c.rows.size() == 1 ? c.rows.first().toObject().value(QStringLiteral("status")).toString() : QString::fromLatin1(c.raw);
}

void TestAcquirerLedger::keyReplayedWithAnotherRequestIsRefused_data()
{
    QTest::addColumn<bool>("isRefund");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QJsonValue>("value");
    QTest::newRow("charge: another amount") << false << QStringLiteral("amount") << QJsonValue(1001);
    QTest::newRow("charge: another currency") << false << QStringLiteral("currency") << QJsonValue(QStringLiteral("USD"));
    QTest::newRow("charge: another card") << false << QStringLiteral("token") << QJsonValue(QStringLiteral("tok_mastercard"));
    QTest::newRow("charge: a wallet code") << false << QStringLiteral("token") << QJsonValue(QStringLiteral("wallet:") + walletCode("12", 0));
    QTest::newRow("refund: another amount") << true << QStringLiteral("amount") << QJsonValue(301);
    QTest::newRow("refund: another charge") << true << QStringLiteral("charge_key") << QJsonValue();   // a second charge
}

void TestAcquirerLedger::keyReplayedWithAnotherRequestIsRefused()
{
    QFETCH(bool, isRefund);
    QFETCH(QString, field);
    QFETCH(QJsonValue, value);
    const QString chargeKey = uniqueKey(QStringLiteral("first"));
    ONCEPAY_VERIFY_STATUS(atBank("/v1/charges", charge(chargeKey, 1000, QStringLiteral("tok_visa"))), 200);
    const char *path = isRefund ? "/v1/refunds" : "/v1/charges";
    const QJsonObject first = isRefund ? refundCall(uniqueKey(QStringLiteral("re")), chargeKey, 300) : charge(chargeKey, 1000, QStringLiteral("tok_visa"));
    if (value.isNull()) {   // another charge of the same merchant to refund
        value = uniqueKey(QStringLiteral("second"));
        ONCEPAY_VERIFY_STATUS(atBank("/v1/charges", charge(value.toString(), 1000, QStringLiteral("tok_visa"))), 200);
    }
    const HttpReply answered = atBank(path, first);
    ONCEPAY_VERIFY_STATUS(answered, 200);
    QCOMPARE(answered.object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));

    // The legitimate retry (the same request after a lost answer) answers what it did then.
    const HttpReply retry = atBank(path, first);
    ONCEPAY_VERIFY_STATUS(retry, 200);
    QCOMPARE(retry.object(), answered.object());
    // Another request under the key: refused, nothing moves, the first stays as it was.
    QJsonObject other = first;
    other.insert(field, value);
    ONCEPAY_VERIFY_PROBLEM(atBank(path, other), 409, QStringLiteral("key-reused"));
    const HttpReply again = atBank(path, first);
    ONCEPAY_VERIFY_STATUS(again, 200);
    QCOMPARE(again.object(), answered.object());
    const Charges charges = acquirerCharges(m_till, chargeKey);
    QVERIFY2(charges.ok && charges.rows.size() == 1 && charges.succeeded == 1, charges.raw.constData());
    QCOMPARE(charges.rows.first().toObject().value(QStringLiteral("amount")).toInteger(), 1000);
    QCOMPARE(charges.rows.first().toObject().value(QStringLiteral("currency")).toString(), QStringLiteral("CNY"));
    if (isRefund) {
        const AcquirerRefunds ofCharge = acquirerRefunds(m_till, chargeKey);
        QVERIFY2(ofCharge.succeeded == 1 && ofCharge.refunded == 300, ofCharge.raw.constData());
        if (field == QLatin1String("charge_key"))
            QCOMPARE(acquirerRefunds(m_till, value.toString()).rows.size(), 0);
    }
    // A key is a merchant's own (as at the gateway): another merchant's same key is another charge.
    if (!isRefund) {
        QJsonObject elsewhere = other;
        elsewhere.insert(QStringLiteral("merchant"), QStringLiteral("other"));
        const HttpReply theirs = atBank(path, elsewhere);
        ONCEPAY_VERIFY_STATUS(theirs, 200);
        QCOMPARE(theirs.object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    }
}

void TestAcquirerLedger::moneyGoesBackOnce()
{
    // Issue 35: charge 1000, refund 600, reversal: the reversal handed back the whole 1000 on
    // top of the 600. A charge refunded in part or in whole stands; a reversed one is not refunded.
    const QString key = uniqueKey(QStringLiteral("refunded"));
    const QJsonObject reversal{{QStringLiteral("merchant"), m_merchant}, {QStringLiteral("key"), key}};
    ONCEPAY_VERIFY_STATUS(atBank("/v1/charges", charge(key, 1000, QStringLiteral("wallet:") + walletCode("13", 0))), 200);
    ONCEPAY_VERIFY_STATUS(atBank("/v1/refunds", refundCall(uniqueKey(QStringLiteral("re")), key, 600)), 200);
    ONCEPAY_VERIFY_PROBLEM(atBank("/v1/reversals", reversal), 409, QStringLiteral("charge-refunded"));
    QCOMPARE(bankStatusOf(key), QStringLiteral("succeeded"));
    // The rest can still be refunded, and then it is refunded in whole: still never reversed.
    ONCEPAY_VERIFY_STATUS(atBank("/v1/refunds", refundCall(uniqueKey(QStringLiteral("re")), key, 400)), 200);
    ONCEPAY_VERIFY_PROBLEM(atBank("/v1/reversals", reversal), 409, QStringLiteral("charge-refunded"));
    QCOMPARE(bankStatusOf(key), QStringLiteral("succeeded"));
    const AcquirerRefunds back = acquirerRefunds(m_till, key);
    QVERIFY2(back.succeeded == 2 && back.refunded == 1000, back.raw.constData());

    // Reversed first: a refund is refused and not recorded (its key stays unknown).
    const QString reversedKey = uniqueKey(QStringLiteral("reversed"));
    ONCEPAY_VERIFY_STATUS(atBank("/v1/charges", charge(reversedKey, 1000, QStringLiteral("wallet:") + walletCode("28", 0))), 200);
    const HttpReply undone = atBank("/v1/reversals", {{QStringLiteral("merchant"), m_merchant}, {QStringLiteral("key"), reversedKey}});
    ONCEPAY_VERIFY_STATUS(undone, 200);
    QCOMPARE(undone.object().value(QStringLiteral("status")).toString(), QStringLiteral("reversed"));
    const QString refundKey = uniqueKey(QStringLiteral("re"));
    ONCEPAY_VERIFY_PROBLEM(atBank("/v1/refunds", refundCall(refundKey, reversedKey, 600)), 409, QStringLiteral("charge-reversed"));
    QCOMPARE(acquirerRefunds(m_till, reversedKey).rows.size(), 0);
    ONCEPAY_VERIFY_STATUS(m_bank.get(QStringLiteral("/v1/refunds?merchant=demo&key=") + refundKey), 404);
    QCOMPARE(bankStatusOf(reversedKey), QStringLiteral("reversed"));
}

void TestAcquirerLedger::walletCodePaysOnceWhateverBecameOfIt()
{
    // Each code is shown once under a key, its charge then ends as the row says, and the code
    // shown again under a new key is declined code_expired, never charged.
    struct Case
    {
        const char *what;
        int outcome;   // the code's last digit (API.md's table)
        bool reverse;   // given up at the acquirer after it was shown
        bool reverseFirst;   // given up before the charge arrived (it passed the charge)
    };
    const Case cases[] = {
        {"given up before the customer confirmed", 2, true, false},
        {"charged, then reversed", 0, true, false},
        {"declined", 3, false, false},
        {"passed by its reversal", 0, false, true},
    };
    for (const Case &c : cases) {
        const QString token = QStringLiteral("wallet:") + walletCode("11", c.outcome);
        const QString key = uniqueKey(QStringLiteral("shown"));
        const QJsonObject reversal{{QStringLiteral("merchant"), m_merchant}, {QStringLiteral("key"), key}};
        if (c.reverseFirst)
            ONCEPAY_VERIFY_STATUS(atBank("/v1/reversals", reversal), 200);
        ONCEPAY_VERIFY_STATUS(atBank("/v1/charges", charge(key, 800, token)), 200);
        if (c.reverse)
            ONCEPAY_VERIFY_STATUS(atBank("/v1/reversals", reversal), 200);
        const HttpReply again = atBank("/v1/charges", charge(uniqueKey(QStringLiteral("again")), 800, token));
        ONCEPAY_VERIFY_STATUS(again, 200);
        QVERIFY2(again.object().value(QStringLiteral("status")).toString() == QLatin1String("declined")
                && again.object().value(QStringLiteral("decline_code")).toString() == QLatin1String("code_expired"),
            (QByteArray(c.what) + ": " + again.body).constData());
    }
}

void TestAcquirerLedger::gatewayKeepsAChargeTheAcquirerWouldNotReverse()
{
    // The customer confirmed on the phone (at once here) and the merchant refunded part of it at
    // the bank before the gateway heard; then the cashier gives the payment up. The acquirer
    // refuses the reversal: the charge stands. The gateway must not record the payment as
    // given up ("declined", nothing kept): it ends as the acquirer has it, succeeded, and the
    // cancel says so.
    const HttpReply confirmAtOnce = m_till.put(QStringLiteral("/v1/_sim/acquirer"), R"({"wallet_confirm_ms":0})");
    ONCEPAY_VERIFY_STATUS(confirmAtOnce, 200);
    const QString key = uniqueKey(QStringLiteral("kept"));
    const QByteArray body = walletBody(walletCode("14", 1), 1000);
    const HttpReply waiting = pay(m_till, key, body);
    ONCEPAY_VERIFY_STATUS(waiting, 202);
    ONCEPAY_VERIFY_STATUS(m_till.put(QStringLiteral("/v1/_sim/acquirer"), R"({"wallet_confirm_ms":5000})"), 200);
    const QString id = waiting.object().value(QStringLiteral("id")).toString();
    ONCEPAY_VERIFY_STATUS(atBank("/v1/refunds", refundCall(uniqueKey(QStringLiteral("at-bank")), key, 600)), 200);

    const QString cancelKey = uniqueKey(QStringLiteral("cancel"));
    const HttpReply c = m_till.post(QStringLiteral("/v1/payments/%1/cancel").arg(id), "{}", keyHeader(cancelKey));
    ONCEPAY_VERIFY_STATUS(c, 200);
    QCOMPARE(c.object().value(QStringLiteral("id")).toString(), id);
    QCOMPARE(c.object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    QCOMPARE(bankStatusOf(key), QStringLiteral("succeeded"));
    const AcquirerRefunds back = acquirerRefunds(m_till, key);
    QVERIFY2(back.succeeded == 1 && back.refunded == 600, back.raw.constData());
    // Settled for good: the payment, its key and the cancel's key all say so.
    QCOMPARE(m_till.get(QStringLiteral("/v1/payments/") + id).object().value(QStringLiteral("status")).toString(),
        QStringLiteral("succeeded"));
    const HttpReply byKey = pay(m_till, key, body);
    ONCEPAY_VERIFY_STATUS(byKey, 201);
    QCOMPARE(byKey.object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    const HttpReply replayed = m_till.post(QStringLiteral("/v1/payments/%1/cancel").arg(id), "{}", keyHeader(cancelKey));
    ONCEPAY_VERIFY_STATUS(replayed, 200);
    QVERIFY(replayed.replayed());
    QCOMPARE(replayed.body, c.body);
}

void TestAcquirerLedger::gatewayRefundOfAReversedChargeFails()
{
    // The charge was reversed at the bank after the gateway recorded it succeeded: a refund
    // through the gateway is refused there, nothing moved, so it fails and says why.
    const QString key = uniqueKey(QStringLiteral("paid"));
    const HttpReply paid = pay(m_till, key, walletBody(walletCode("26", 0), 1000));
    ONCEPAY_VERIFY_STATUS(paid, 201);
    const QString id = paid.object().value(QStringLiteral("id")).toString();
    ONCEPAY_VERIFY_STATUS(atBank("/v1/reversals", {{QStringLiteral("merchant"), m_merchant}, {QStringLiteral("key"), key}}), 200);
    const HttpReply r = refund(m_till, id, uniqueKey(QStringLiteral("re")), 500);
    ONCEPAY_VERIFY_PROBLEM(r, 402, QStringLiteral("refund-declined"));
    QCOMPARE(r.object().value(QStringLiteral("refund")).toObject().value(QStringLiteral("failure_code")).toString(),
        QStringLiteral("charge_reversed"));
    QCOMPARE(acquirerRefunds(m_till, key).rows.size(), 0);
    QCOMPARE(m_till.get(QStringLiteral("/v1/payments/") + id).object().value(QStringLiteral("amount_refunded")).toInteger(), 0);
}

void TestAcquirerLedger::gatewayNeverTakesAnotherRequestsOutcome()
{
    // The acquirer already holds the key for another request (here made at the bank directly;
    // in life, another system sharing the merchant's keys). The gateway's request is refused
    // there and can never move money under that key: declined / failed with key_reused, never
    // "succeeded" with the other request's outcome.
    const QString key = uniqueKey(QStringLiteral("taken"));
    ONCEPAY_VERIFY_STATUS(atBank("/v1/charges", charge(key, 1000, QStringLiteral("tok_visa"))), 200);
    const HttpReply r = pay(m_till, key, paymentBody(1999));
    ONCEPAY_VERIFY_PROBLEM(r, 402, QStringLiteral("card-declined"));
    QCOMPARE(paymentOf(r).value(QStringLiteral("decline_code")).toString(), QStringLiteral("key_reused"));
    const Charges charges = acquirerCharges(m_till, key);
    QVERIFY2(charges.rows.size() == 1 && charges.rows.first().toObject().value(QStringLiteral("amount")).toInteger() == 1000,
        charges.raw.constData());

    const QString payKey = uniqueKey(QStringLiteral("refundable"));
    const HttpReply paid = pay(m_till, payKey, paymentBody(2000));
    ONCEPAY_VERIFY_STATUS(paid, 201);
    const QString refundKey = uniqueKey(QStringLiteral("re-taken"));
    ONCEPAY_VERIFY_STATUS(atBank("/v1/refunds", refundCall(refundKey, payKey, 100)), 200);
    const HttpReply re = refund(m_till, paid.object().value(QStringLiteral("id")).toString(), refundKey, 300);
    ONCEPAY_VERIFY_PROBLEM(re, 402, QStringLiteral("refund-declined"));
    QCOMPARE(re.object().value(QStringLiteral("refund")).toObject().value(QStringLiteral("failure_code")).toString(),
        QStringLiteral("key_reused"));
    const AcquirerRefunds back = acquirerRefunds(m_till, payKey);
    QVERIFY2(back.succeeded == 1 && back.refunded == 100, back.raw.constData());
}

QTEST_GUILESS_MAIN(TestAcquirerLedger)
#include "tst_acquirerledger.moc"
