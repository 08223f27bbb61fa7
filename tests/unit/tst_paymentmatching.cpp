// Reconciliation as a table: the till's intents and the gateway's listed payments against the
// findings (kind, key, what to do), for every kind, cash, declined and needs-attention intents,
// currency differences and duplicates; and the gateway's list page as parsed.
#include "paymentmatching.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace OncePay;
using Kind = PaymentMatch::Kind;
using Action = PaymentMatch::Action;

Q_DECLARE_METATYPE(OncePay::GatewayPayment)

namespace {

Intent intent(const QString &key, IntentState state, qint64 amount = 1999, const QString &currency = QStringLiteral("CNY"),
    const QString &method = QStringLiteral("tok_visa"), const QString &order = {})
{
    static qint64 nextId = 0;
    Intent i;
    i.id = ++nextId;
    i.key = key;
    i.orderId = order.isEmpty() ? QStringLiteral("ord-") + key : order;
    i.amount = Money(amount, currency);
    i.paymentMethod = method;
    i.state = state;
    return i;
}

Intent cash(const QString &key, qint64 amount = 500)
{
    Intent i = intent(key, IntentState::Succeeded, amount, QStringLiteral("CNY"), QString());
    i.tender = Tender::Cash;
    return i;
}

Intent refund(const QString &key, const QString &paymentKey, IntentState state)
{
    Intent i = intent(key, state, 500, QStringLiteral("CNY"), QString(), QStringLiteral("ord-") + paymentKey);
    i.kind = IntentKind::Refund;
    i.paymentKey = paymentKey;
    i.paymentId = QStringLiteral("pay_") + paymentKey;
    return i;
}

QJsonObject paymentJson(const QString &key, const QString &status, qint64 amount, const QString &currency, const QString &order)
{
    return QJsonObject{{QStringLiteral("id"), QStringLiteral("pay_") + key},
        {QStringLiteral("object"), QStringLiteral("payment")},
        {QStringLiteral("amount"), amount},
        {QStringLiteral("currency"), currency},
        {QStringLiteral("status"), status},
        {QStringLiteral("order_id"), order.isEmpty() ? QStringLiteral("ord-") + key : order},
        {QStringLiteral("terminal_id"), QStringLiteral("till-1")},
        {QStringLiteral("idempotency_key"), key}};
}

GatewayPayment payment(const QString &key, const QString &status, qint64 amount = 1999,
    const QString &currency = QStringLiteral("CNY"), const QString &order = {})
{
    return GatewayPayment::fromJson(paymentJson(key, status, amount, currency, order));
}

// "kind key action", the way the rows below read.
QStringList describe(const QList<PaymentMatch> &findings)
{
    QStringList out;
    for (const PaymentMatch &f : findings)
        out << QStringLiteral("%1 %2 %3").arg(paymentMatchKindName(f.kind), f.key, paymentMatchActionName(f.action));
    return out;
}

}   // namespace

class TestPaymentMatching final : public QObject
{
    Q_OBJECT

private slots:
    void findings_data();
    void findings();
    void findingCarriesBothSides();
    void pageFromJson();
    void names();
};

void TestPaymentMatching::findings_data()
{
    QTest::addColumn<QList<Intent>>("intents");
    QTest::addColumn<QList<GatewayPayment>>("payments");
    QTest::addColumn<QStringList>("expected");
    const QString ok = QStringLiteral("succeeded");
    const QString declined = QStringLiteral("declined");
    const QString processing = QStringLiteral("processing");
    using S = IntentState;

    QTest::newRow("nothing on either side") << QList<Intent>{} << QList<GatewayPayment>{} << QStringList{};

    // Matched: the gateway's status means the till's state, for the same amount.
    QTest::newRow("matched succeeded") << QList<Intent>{intent(QStringLiteral("k1"), S::Succeeded)}
                                       << QList<GatewayPayment>{payment(QStringLiteral("k1"), ok)}
                                       << QStringList{QStringLiteral("matched k1 none")};
    QTest::newRow("matched declined") << QList<Intent>{intent(QStringLiteral("k1"), S::Declined)}
                                      << QList<GatewayPayment>{payment(QStringLiteral("k1"), declined)}
                                      << QStringList{QStringLiteral("matched k1 none")};
    QTest::newRow("matched processing") << QList<Intent>{intent(QStringLiteral("k1"), S::Processing)}
                                        << QList<GatewayPayment>{payment(QStringLiteral("k1"), processing)}
                                        << QStringList{QStringLiteral("matched k1 none")};
    QTest::newRow("refunded is a succeeded sale")
        << QList<Intent>{intent(QStringLiteral("k1"), S::Succeeded), intent(QStringLiteral("k2"), S::Succeeded)}
        << QList<GatewayPayment>{payment(QStringLiteral("k1"), QStringLiteral("refunded")),
               payment(QStringLiteral("k2"), QStringLiteral("partially_refunded"))}
        << QStringList{QStringLiteral("matched k1 none"), QStringLiteral("matched k2 none")};

    // Only on the till: expected unless the gateway answered for it.
    QTest::newRow("only local, settled at the gateway")
        << QList<Intent>{intent(QStringLiteral("k1"), S::Succeeded), intent(QStringLiteral("k2"), S::Declined),
               intent(QStringLiteral("k3"), S::Processing)}
        << QList<GatewayPayment>{}
        << QStringList{QStringLiteral("only_local k1 investigate"), QStringLiteral("only_local k2 investigate"),
               QStringLiteral("only_local k3 investigate")};
    QTest::newRow("only local, not sent or never executed")
        << QList<Intent>{intent(QStringLiteral("k1"), S::Queued), intent(QStringLiteral("k2"), S::Sending),
               intent(QStringLiteral("k3"), S::Unknown)}
        << QList<GatewayPayment>{}
        << QStringList{QStringLiteral("only_local k1 sync"), QStringLiteral("only_local k2 sync"),
               QStringLiteral("only_local k3 sync")};
    QTest::newRow("only local, needs attention") << QList<Intent>{intent(QStringLiteral("k1"), S::NeedsAttention)}
                                                 << QList<GatewayPayment>{}
                                                 << QStringList{QStringLiteral("only_local k1 none")};

    // Cash never goes to the gateway; a payment with a cash intent's key is not the cash sale.
    QTest::newRow("cash") << QList<Intent>{cash(QStringLiteral("c1")), intent(QStringLiteral("k1"), S::Succeeded)}
                          << QList<GatewayPayment>{payment(QStringLiteral("k1"), ok)}
                          << QStringList{QStringLiteral("only_local c1 none"), QStringLiteral("matched k1 none")};
    QTest::newRow("cash key on the gateway") << QList<Intent>{cash(QStringLiteral("c1"))}
                                             << QList<GatewayPayment>{payment(QStringLiteral("c1"), ok, 500)}
                                             << QStringList{QStringLiteral("only_local c1 none"),
                                                    QStringLiteral("only_on_gateway c1 investigate")};

    // Only on the gateway: money moved that the till does not know about.
    QTest::newRow("only on the gateway")
        << QList<Intent>{intent(QStringLiteral("k1"), S::Succeeded)}
        << QList<GatewayPayment>{payment(QStringLiteral("x1"), ok), payment(QStringLiteral("k1"), ok),
               payment(QStringLiteral("x2"), declined)}
        << QStringList{QStringLiteral("matched k1 none"), QStringLiteral("only_on_gateway x1 investigate"),
               QStringLiteral("only_on_gateway x2 investigate")};

    // Amounts: minor units and currency both count.
    QTest::newRow("different amount") << QList<Intent>{intent(QStringLiteral("k1"), S::Succeeded, 1999)}
                                      << QList<GatewayPayment>{payment(QStringLiteral("k1"), ok, 2999)}
                                      << QStringList{QStringLiteral("different_amount k1 investigate")};
    QTest::newRow("different currency") << QList<Intent>{intent(QStringLiteral("k1"), S::Succeeded, 1999, QStringLiteral("CNY"))}
                                        << QList<GatewayPayment>{payment(QStringLiteral("k1"), ok, 1999, QStringLiteral("USD"))}
                                        << QStringList{QStringLiteral("different_amount k1 investigate")};
    QTest::newRow("JPY has no minor unit") << QList<Intent>{intent(QStringLiteral("k1"), S::Succeeded, 1200, QStringLiteral("JPY"))}
                                           << QList<GatewayPayment>{payment(QStringLiteral("k1"), ok, 1200, QStringLiteral("JPY"))}
                                           << QStringList{QStringLiteral("matched k1 none")};

    // States: a till behind the gateway syncs; a final state the gateway contradicts is for a person.
    QTest::newRow("till behind: unknown, queued, sending, processing")
        << QList<Intent>{intent(QStringLiteral("k1"), S::Unknown), intent(QStringLiteral("k2"), S::Queued),
               intent(QStringLiteral("k3"), S::Sending), intent(QStringLiteral("k4"), S::Processing)}
        << QList<GatewayPayment>{payment(QStringLiteral("k1"), ok), payment(QStringLiteral("k2"), declined),
               payment(QStringLiteral("k3"), processing), payment(QStringLiteral("k4"), ok)}
        << QStringList{QStringLiteral("different_state k1 sync"), QStringLiteral("different_state k2 sync"),
               QStringLiteral("different_state k3 sync"), QStringLiteral("different_state k4 sync")};
    QTest::newRow("declined on the till, charged at the gateway")
        << QList<Intent>{intent(QStringLiteral("k1"), S::Declined)}
        << QList<GatewayPayment>{payment(QStringLiteral("k1"), ok)}
        << QStringList{QStringLiteral("different_state k1 investigate")};
    QTest::newRow("succeeded on the till, declined at the gateway")
        << QList<Intent>{intent(QStringLiteral("k1"), S::Succeeded)}
        << QList<GatewayPayment>{payment(QStringLiteral("k1"), declined)}
        << QStringList{QStringLiteral("different_state k1 investigate")};
    QTest::newRow("succeeded on the till, still processing at the gateway")
        << QList<Intent>{intent(QStringLiteral("k1"), S::Succeeded)}
        << QList<GatewayPayment>{payment(QStringLiteral("k1"), processing)}
        << QStringList{QStringLiteral("different_state k1 investigate")};
    QTest::newRow("needs attention on the till, a payment at the gateway")
        << QList<Intent>{intent(QStringLiteral("k1"), S::NeedsAttention)}
        << QList<GatewayPayment>{payment(QStringLiteral("k1"), ok)}
        << QStringList{QStringLiteral("different_state k1 investigate")};
    QTest::newRow("amount and state both differ")
        << QList<Intent>{intent(QStringLiteral("k1"), S::Unknown, 1999)}
        << QList<GatewayPayment>{payment(QStringLiteral("k1"), ok, 999)}
        << QStringList{QStringLiteral("different_amount k1 investigate"), QStringLiteral("different_state k1 sync")};

    // Voided: cancelled before it was ever sent, nothing at the gateway. Refunds are not
    // payments: never a finding, whatever their state; a refunded payment still matches.
    QTest::newRow("voided, never sent") << QList<Intent>{intent(QStringLiteral("k1"), S::Voided)}
                                        << QList<GatewayPayment>{} << QStringList{QStringLiteral("only_local k1 none")};
    QTest::newRow("refunds left out, refunded payment matches")
        << QList<Intent>{intent(QStringLiteral("k1"), S::Succeeded), refund(QStringLiteral("r1"), QStringLiteral("k1"), S::Succeeded),
               refund(QStringLiteral("r2"), QStringLiteral("k1"), S::Unknown)}
        << QList<GatewayPayment>{payment(QStringLiteral("k1"), QStringLiteral("partially_refunded"))}
        << QStringList{QStringLiteral("matched k1 none")};

    // Duplicates: a page listed twice after a fail-over counts once, as last listed; a key twice
    // in the journal counts once; a sale's declined intent and its new one are two keys.
    QTest::newRow("payment listed twice, last one counts")
        << QList<Intent>{intent(QStringLiteral("k1"), S::Succeeded)}
        << QList<GatewayPayment>{payment(QStringLiteral("k1"), processing), payment(QStringLiteral("k1"), ok)}
        << QStringList{QStringLiteral("matched k1 none")};
    QTest::newRow("unknown payment listed twice")
        << QList<Intent>{}
        << QList<GatewayPayment>{payment(QStringLiteral("x1"), ok), payment(QStringLiteral("x2"), ok),
               payment(QStringLiteral("x1"), ok)}
        << QStringList{QStringLiteral("only_on_gateway x2 investigate"), QStringLiteral("only_on_gateway x1 investigate")};
    QTest::newRow("key twice in the journal")
        << QList<Intent>{intent(QStringLiteral("k1"), S::Succeeded), intent(QStringLiteral("k1"), S::Succeeded)}
        << QList<GatewayPayment>{payment(QStringLiteral("k1"), ok)}
        << QStringList{QStringLiteral("matched k1 none")};
    QTest::newRow("declined then paid again: two keys of one sale")
        << QList<Intent>{intent(QStringLiteral("k1"), S::Declined, 1999, QStringLiteral("CNY"), QStringLiteral("tok_chargeDeclined"), QStringLiteral("ord-1")),
               intent(QStringLiteral("k2"), S::Succeeded, 1999, QStringLiteral("CNY"), QStringLiteral("tok_visa"), QStringLiteral("ord-1"))}
        << QList<GatewayPayment>{payment(QStringLiteral("k1"), declined, 1999, QStringLiteral("CNY"), QStringLiteral("ord-1")),
               payment(QStringLiteral("k2"), ok, 1999, QStringLiteral("CNY"), QStringLiteral("ord-1"))}
        << QStringList{QStringLiteral("matched k1 none"), QStringLiteral("matched k2 none")};
}

void TestPaymentMatching::findings()
{
    QFETCH(QList<Intent>, intents);
    QFETCH(QList<GatewayPayment>, payments);
    QFETCH(QStringList, expected);
    QCOMPARE(describe(matchPayments(intents, payments)), expected);
}

void TestPaymentMatching::findingCarriesBothSides()
{
    const Intent local = intent(QStringLiteral("k1"), IntentState::Unknown, 1999, QStringLiteral("CNY"),
        QStringLiteral("tok_visa"), QStringLiteral("ord-7"));
    const QList<PaymentMatch> both = matchPayments({local}, {payment(QStringLiteral("k1"), QStringLiteral("succeeded"), 2500)});
    QCOMPARE(both.size(), 2);
    for (const PaymentMatch &f : both) {
        QCOMPARE(f.key, QStringLiteral("k1"));
        QCOMPARE(f.orderId, QStringLiteral("ord-7"));
        QCOMPARE(f.paymentId, QStringLiteral("pay_k1"));
        QVERIFY(f.localState == IntentState::Unknown);
        QCOMPARE(f.gatewayStatus, QStringLiteral("succeeded"));
        QCOMPARE(f.localAmount, Money(1999, QStringLiteral("CNY")));
        QCOMPARE(f.gatewayAmount, Money(2500, QStringLiteral("CNY")));
    }

    const PaymentMatch onlyLocal = matchPayments({local}, {}).value(0);
    QCOMPARE(onlyLocal.kind, Kind::OnlyLocal);
    QVERIFY(onlyLocal.gatewayStatus.isEmpty());
    QVERIFY(!onlyLocal.gatewayAmount.isValid());

    const PaymentMatch onlyRemote = matchPayments({}, {payment(QStringLiteral("x"), QStringLiteral("declined"), 700)}).value(0);
    QCOMPARE(onlyRemote.kind, Kind::OnlyOnGateway);
    QVERIFY(!onlyRemote.localState);
    QVERIFY(!onlyRemote.localAmount.isValid());
    QCOMPARE(onlyRemote.orderId, QStringLiteral("ord-x"));
    QCOMPARE(onlyRemote.gatewayAmount, Money(700, QStringLiteral("CNY")));
}

void TestPaymentMatching::pageFromJson()
{
    const QJsonObject first = paymentJson(QStringLiteral("k1"), QStringLiteral("succeeded"), 1999, QStringLiteral("CNY"), {});
    const QJsonObject second = paymentJson(QStringLiteral("k2"), QStringLiteral("declined"), 1200, QStringLiteral("JPY"), {});
    GatewayPaymentPage page = GatewayPaymentPage::fromJson(
        QJsonObject{{QStringLiteral("data"), QJsonArray{first, second}}, {QStringLiteral("next_cursor"), QStringLiteral("c2")}});
    QCOMPARE(page.nextCursor, QStringLiteral("c2"));
    QCOMPARE(page.payments.size(), 2);
    const GatewayPayment &p = page.payments.at(1);
    QCOMPARE(p.id, QStringLiteral("pay_k2"));
    QCOMPARE(p.idempotencyKey, QStringLiteral("k2"));
    QCOMPARE(p.orderId, QStringLiteral("ord-k2"));
    QCOMPARE(p.terminalId, QStringLiteral("till-1"));
    QCOMPARE(p.amount, Money(1200, QStringLiteral("JPY")));
    QCOMPARE(p.status, QStringLiteral("declined"));
    QCOMPARE(p.json, second);   // printed as the gateway listed it

    // The last page: next_cursor null; a page without data has no payments.
    page = GatewayPaymentPage::fromJson(QJsonObject{{QStringLiteral("data"), QJsonArray{}}, {QStringLiteral("next_cursor"), QJsonValue()}});
    QVERIFY(page.nextCursor.isEmpty());
    QVERIFY(page.payments.isEmpty());
    QVERIFY(GatewayPaymentPage::fromJson(QJsonObject{}).payments.isEmpty());
}

void TestPaymentMatching::names()
{
    QCOMPARE(paymentMatchKindName(Kind::Matched), QStringLiteral("matched"));
    QCOMPARE(paymentMatchKindName(Kind::OnlyLocal), QStringLiteral("only_local"));
    QCOMPARE(paymentMatchKindName(Kind::OnlyOnGateway), QStringLiteral("only_on_gateway"));
    QCOMPARE(paymentMatchKindName(Kind::DifferentAmount), QStringLiteral("different_amount"));
    QCOMPARE(paymentMatchKindName(Kind::DifferentState), QStringLiteral("different_state"));
    QCOMPARE(paymentMatchActionName(Action::None), QStringLiteral("none"));
    QCOMPARE(paymentMatchActionName(Action::Sync), QStringLiteral("sync"));
    QCOMPARE(paymentMatchActionName(Action::Investigate), QStringLiteral("investigate"));
}

QTEST_GUILESS_MAIN(TestPaymentMatching)
#include "tst_paymentmatching.moc"
