// Tenancy: keys, payments, lookups, refunds and listings are scoped to the merchant; a
// foreign payment answers 404 exactly like a missing one.
#include "gatewayapi.h"
#include "gatewayprocess.h"

#include <QtTest>

using namespace GatewayApi;

class TestTenancy final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void sameKeyTwoMerchants_data();
    void sameKeyTwoMerchants();
    void foreignPaymentIsNotFound_data();
    void foreignPaymentIsNotFound();
    void listingIsMerchantScoped();
    void simulationIsMerchantScoped();

private:
    GatewayProcess m_gateway;
    HttpClient m_demo;
    HttpClient m_other;
    QString m_demoPaymentId;
};

void TestTenancy::initTestCase()
{
    QVERIFY2(m_gateway.start(), m_gateway.failureMessage().constData());
    m_demo.setBaseUrl(m_gateway.baseUrl());
    m_other.setBaseUrl(m_gateway.baseUrl());
    m_other.setToken(kOther);
    const HttpReply r = pay(m_demo, uniqueKey(QStringLiteral("demo")), paymentBody(5000));
    ONCEPAY_VERIFY_STATUS(r, 201);
    m_demoPaymentId = r.object().value(QStringLiteral("id")).toString();
}

void TestTenancy::cleanup()
{
    QVERIFY2(m_gateway.isRunning(), m_gateway.failureMessage().constData());
}

void TestTenancy::sameKeyTwoMerchants_data()
{
    QTest::addColumn<QByteArray>("otherBody");
    QTest::newRow("same body") << paymentBody(1999);
    QTest::newRow("different body") << paymentBody(42, QStringLiteral("tok_mastercard"), QStringLiteral("ord-x"));
}

void TestTenancy::sameKeyTwoMerchants()
{
    QFETCH(QByteArray, otherBody);
    const QString key = uniqueKey(QStringLiteral("shared"));
    const HttpReply demo = pay(m_demo, key, paymentBody(1999));
    ONCEPAY_VERIFY_STATUS(demo, 201);
    // Neither a replay nor a 422: the other merchant's key space is its own.
    const HttpReply other = pay(m_other, key, otherBody);
    ONCEPAY_VERIFY_STATUS(other, 201);
    QVERIFY(!other.replayed());
    const QString demoId = demo.object().value(QStringLiteral("id")).toString();
    const QString otherId = other.object().value(QStringLiteral("id")).toString();
    QVERIFY(demoId != otherId);
    QCOMPARE(other.object().value(QStringLiteral("amount")), QJsonDocument::fromJson(otherBody).object().value(QStringLiteral("amount")));

    const HttpReply demoByKey = m_demo.get(QStringLiteral("/v1/payments?idempotency_key=") + key);
    ONCEPAY_VERIFY_STATUS(demoByKey, 200);
    QCOMPARE(demoByKey.object().value(QStringLiteral("id")).toString(), demoId);
    const HttpReply otherByKey = m_other.get(QStringLiteral("/v1/payments?idempotency_key=") + key);
    ONCEPAY_VERIFY_STATUS(otherByKey, 200);
    QCOMPARE(otherByKey.object().value(QStringLiteral("id")).toString(), otherId);

    // The bank charged each merchant once, and each sees only its own charge.
    const Charges demoCharges = acquirerCharges(m_demo, key);
    const Charges otherCharges = acquirerCharges(m_other, key);
    QVERIFY2(demoCharges.ok && demoCharges.rows.size() == 1 && demoCharges.succeeded == 1, demoCharges.raw.constData());
    QVERIFY2(otherCharges.ok && otherCharges.rows.size() == 1 && otherCharges.succeeded == 1, otherCharges.raw.constData());
    QCOMPARE(otherCharges.rows.first().toObject().value(QStringLiteral("amount")),
        other.object().value(QStringLiteral("amount")));
    HttpClient anonymous(m_gateway.baseUrl(), {});
    ONCEPAY_VERIFY_PROBLEM(anonymous.get(QStringLiteral("/v1/_sim/acquirer/charges?idempotency_key=") + key), 401,
        QStringLiteral("unauthorized"));

    // Each replays its own.
    const HttpReply demoAgain = pay(m_demo, key, paymentBody(1999));
    QVERIFY(demoAgain.replayed());
    QCOMPARE(demoAgain.body, demo.body);
    const HttpReply otherAgain = pay(m_other, key, otherBody);
    QVERIFY(otherAgain.replayed());
    QCOMPARE(otherAgain.body, other.body);
}

void TestTenancy::foreignPaymentIsNotFound_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("pathTemplate");   // %1: the id of a payment
    QTest::newRow("get") << QByteArray("GET") << QStringLiteral("/v1/payments/%1");
    QTest::newRow("refund") << QByteArray("POST") << QStringLiteral("/v1/payments/%1/refunds");
}

void TestTenancy::foreignPaymentIsNotFound()
{
    QFETCH(QByteArray, method);
    QFETCH(QString, pathTemplate);
    const QByteArray body = method == "POST" ? QByteArray(R"({"amount":100})") : QByteArray();
    auto send = [&](const QString &id) {
        return m_other.send({method, pathTemplate.arg(id), body, keyHeader(uniqueKey(QStringLiteral("r")))});
    };
    const HttpReply foreign = send(m_demoPaymentId);
    const HttpReply missing = send(QStringLiteral("pay_doesnotexist0000"));
    ONCEPAY_VERIFY_PROBLEM(foreign, 404, QStringLiteral("not-found"));
    ONCEPAY_VERIFY_PROBLEM(missing, 404, QStringLiteral("not-found"));
    // Exactly like a missing one: nothing tells a foreign id from an unknown one.
    QCOMPARE(foreign.object().value(QStringLiteral("title")), missing.object().value(QStringLiteral("title")));
    QCOMPARE(QString(foreign.object().value(QStringLiteral("detail")).toString()).replace(m_demoPaymentId, QStringLiteral("ID")),
        QString(missing.object().value(QStringLiteral("detail")).toString()).replace(QStringLiteral("pay_doesnotexist0000"), QStringLiteral("ID")));

    // And the owner still sees its payment untouched (the foreign refund did nothing).
    const HttpReply mine = m_demo.get(QStringLiteral("/v1/payments/") + m_demoPaymentId);
    ONCEPAY_VERIFY_STATUS(mine, 200);
    QCOMPARE(mine.object().value(QStringLiteral("amount_refunded")).toInteger(), 0);
    QCOMPARE(mine.object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
}

void TestTenancy::listingIsMerchantScoped()
{
    // Both merchants have a terminal called till-1.
    const HttpReply otherPayment = pay(m_other, uniqueKey(QStringLiteral("list")), paymentBody(77));
    ONCEPAY_VERIFY_STATUS(otherPayment, 201);
    const QString otherId = otherPayment.object().value(QStringLiteral("id")).toString();
    const HttpReply demoList = m_demo.get(QStringLiteral("/v1/payments?terminal_id=till-1&limit=500"));
    ONCEPAY_VERIFY_STATUS(demoList, 200);
    const HttpReply otherList = m_other.get(QStringLiteral("/v1/payments?terminal_id=till-1&limit=500"));
    ONCEPAY_VERIFY_STATUS(otherList, 200);
    QStringList demoIds, otherIds;
    const QJsonArray demoData = demoList.object().value(QStringLiteral("data")).toArray();
    for (const auto &p : demoData)
        demoIds << p.toObject().value(QStringLiteral("id")).toString();
    const QJsonArray otherData = otherList.object().value(QStringLiteral("data")).toArray();
    for (const auto &p : otherData)
        otherIds << p.toObject().value(QStringLiteral("id")).toString();
    QVERIFY(demoIds.contains(m_demoPaymentId));
    QVERIFY(!demoIds.contains(otherId));
    QVERIFY(otherIds.contains(otherId));
    QVERIFY(!otherIds.contains(m_demoPaymentId));
}

// Issue 11: one demo merchant's faults never reach another's payments or refunds, and each
// sees its own ledgers only (the embedded acquirer; tst_acquirerservice does the service).
void TestTenancy::simulationIsMerchantScoped()
{
    QVERIFY(setAcquirer(m_demo, QStringLiteral("decline_all")));
    const HttpReply otherMode = m_other.get(QStringLiteral("/v1/_sim/acquirer"));
    ONCEPAY_VERIFY_STATUS(otherMode, 200);
    QCOMPARE(otherMode.object().value(QStringLiteral("mode")).toString(), QStringLiteral("normal"));
    const QString otherKey = uniqueKey(QStringLiteral("scoped"));
    const HttpReply paid = pay(m_other, otherKey, paymentBody(500));
    ONCEPAY_VERIFY_STATUS(paid, 201);
    ONCEPAY_VERIFY_STATUS(refund(m_other, paid.object().value(QStringLiteral("id")).toString(),
                              uniqueKey(QStringLiteral("scoped-re")), 100),
        201);
    const QString demoKey = uniqueKey(QStringLiteral("scoped"));
    ONCEPAY_VERIFY_PROBLEM(pay(m_demo, demoKey, paymentBody(500)), 402, QStringLiteral("card-declined"));
    QVERIFY(setAcquirer(m_demo, QStringLiteral("normal")));
    // Ledgers: each merchant's own rows only.
    QCOMPARE(acquirerCharges(m_demo, otherKey).rows.size(), 0);
    QCOMPARE(acquirerCharges(m_other, demoKey).rows.size(), 0);
    QCOMPARE(acquirerRefunds(m_demo, otherKey).rows.size(), 0);
    const AcquirerRefunds mine = acquirerRefunds(m_other, otherKey);
    QVERIFY2(mine.ok && mine.succeeded == 1, mine.raw.constData());
}

QTEST_GUILESS_MAIN(TestTenancy)
#include "tst_tenancy.moc"
