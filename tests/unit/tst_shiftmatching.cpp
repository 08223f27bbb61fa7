// A shift's reconciliation as a table: the shift's intents, the gateway's payments and refunds and
// the acquirer's ledgers against the rows (subject, finding, key, what to do, the bank's column);
// and every row says what to do in words.
#include "shiftmatching.h"

#include <QJsonArray>
#include <QTest>

using namespace OncePay;
using Kind = ShiftFinding::Kind;
using Action = ShiftFinding::Action;

Q_DECLARE_METATYPE(OncePay::ShiftMatchInput)

namespace {

Intent payment(const char *keyText, IntentState state, qint64 amount = 1000, Tender tender = Tender::Card)
{
    static qint64 nextId = 0;
    const QString key = QString::fromUtf8(keyText);
    Intent i;
    i.id = ++nextId;
    i.key = key;
    i.orderId = QStringLiteral("ord-") + key;
    i.amount = Money(amount, QStringLiteral("CNY"));
    i.tender = tender;
    i.state = state;
    if (tender == Tender::Card && (state == IntentState::Succeeded || state == IntentState::Declined))
        i.paymentId = QStringLiteral("pay_") + key;
    return i;
}

Intent refunded(Intent p, qint64 amountRefunded)
{
    p.amountRefunded = amountRefunded;
    return p;
}

Intent refund(const char *key, const char *paymentKeyText, IntentState state, qint64 amount = 400,
    Tender tender = Tender::Card)
{
    const QString paymentKey = QString::fromUtf8(paymentKeyText);
    Intent i = payment(key, state, amount, tender);
    i.kind = IntentKind::Refund;
    i.paymentKey = paymentKey;
    i.paymentId = tender == Tender::Card ? QStringLiteral("pay_") + paymentKey : QString();
    i.orderId = QStringLiteral("ord-") + paymentKey;
    return i;
}

GatewayPayment gatewayPayment(const char *keyText, const char *status, qint64 amount = 1000, qint64 amountRefunded = 0)
{
    const QString key = QString::fromUtf8(keyText);
    return GatewayPayment::fromJson({{QStringLiteral("id"), QStringLiteral("pay_") + key},
        {QStringLiteral("idempotency_key"), key},
        {QStringLiteral("order_id"), QStringLiteral("ord-") + key},
        {QStringLiteral("terminal_id"), QStringLiteral("till-1")},
        {QStringLiteral("amount"), amount},
        {QStringLiteral("currency"), QStringLiteral("CNY")},
        {QStringLiteral("status"), QString::fromUtf8(status)},
        {QStringLiteral("amount_refunded"), amountRefunded}});
}

GatewayRefund gatewayRefund(const char *keyText, const char *paymentKey, const char *status, qint64 amount = 400)
{
    const QString key = QString::fromUtf8(keyText);
    return GatewayRefund::fromJson({{QStringLiteral("id"), QStringLiteral("re_") + key},
        {QStringLiteral("idempotency_key"), key},
        {QStringLiteral("payment_id"), QStringLiteral("pay_") + QString::fromUtf8(paymentKey)},
        {QStringLiteral("amount"), amount},
        {QStringLiteral("currency"), QStringLiteral("CNY")},
        {QStringLiteral("status"), QString::fromUtf8(status)}});
}

// "key:n:amount,..." -> the bank's moves by key.
QHash<QString, BankMoves> bank(const char *specText)
{
    const QString spec = QString::fromUtf8(specText);
    QHash<QString, BankMoves> out;
    for (const QString &entry : spec.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList f = entry.split(QLatin1Char(':'));
        out.insert(f.at(0), {f.at(1).toInt(), f.at(2).toLongLong()});
    }
    return out;
}

QStringList specs(std::initializer_list<const char *> lines)
{
    QStringList out;
    for (const char *l : lines)
        out << QString::fromUtf8(l);
    return out;
}

// "subject finding key action bank", the way the rows below read.
QStringList describe(const QList<ShiftFinding> &findings)
{
    QStringList out;
    for (const ShiftFinding &f : findings) {
        out << QStringLiteral("%1 %2 %3 %4 %5").arg(shiftSubjectName(f.subject), paymentMatchKindName(f.kind), f.key, shiftActionName(f.action), shiftBankName(f.bank));
    }
    return out;
}

// A card part given up and charged late, the cash the customer paid instead, and the till's own
// refund of the card part, which the bank declined (issue 35).
ShiftMatchInput owedInput()
{
    ShiftMatchInput in;
    in.intents = {payment("given", IntentState::Succeeded, 450), payment("cashpart", IntentState::Succeeded, 450, Tender::Cash),
        refund("auto-ref-given", "given", IntentState::Declined, 450)};
    in.payments = {gatewayPayment("given", "succeeded", 450)};
    in.refunds = {gatewayRefund("auto-ref-given", "given", "failed", 450)};
    in.bankCharges = bank("given:1:450");
    in.bankRefunds = bank("");
    return in;
}

}   // namespace

class TestShiftMatching final : public QObject
{
    Q_OBJECT

private slots:
    void rows_data();
    void rows();
    void everyRowSaysWhatToDo();
    void countsAndJson();
    void aRefundTheTillOwesSaysWhatToDo();
};

void TestShiftMatching::rows_data()
{
    QTest::addColumn<ShiftMatchInput>("input");
    QTest::addColumn<QStringList>("expected");
    using S = IntentState;

    ShiftMatchInput agree;
    agree.intents = {payment("p1", S::Succeeded), payment("p2", S::Succeeded, 500, Tender::Cash), payment("p3", S::Declined),
        payment("p4", S::Voided)};
    agree.payments = {gatewayPayment("p1", "succeeded"), gatewayPayment("p3", "declined")};
    QTest::newRow("all agree, no bank") << agree
                                        << specs({"payment matched p1 none not_asked", "payment only_local p2 none not_asked",
                                               "payment matched p3 none not_asked", "payment only_local p4 none not_asked"});

    ShiftMatchInput bankAgrees = agree;
    bankAgrees.bankCharges = bank("p1:1:1000");
    bankAgrees.bankRefunds = bank("");
    QTest::newRow("the bank charged once") << bankAgrees
                                           << specs({"payment matched p1 none agrees", "payment only_local p2 none not_asked",
                                                  "payment matched p3 none agrees", "payment only_local p4 none agrees"});

    ShiftMatchInput differ;
    differ.intents = {payment("wait", S::Unknown), payment("lost", S::Succeeded), payment("amount", S::Succeeded, 1000),
        payment("state", S::Declined), payment("queued", S::Queued)};
    differ.payments = {gatewayPayment("wait", "succeeded"), gatewayPayment("amount", "succeeded", 1200),
        gatewayPayment("state", "succeeded"), gatewayPayment("stranger", "succeeded")};
    QTest::newRow("differences with the gateway") << differ
                                                  << specs({"payment only_local lost investigate not_asked", "payment different_amount amount investigate not_asked",
                                                         "payment different_state state investigate not_asked",
                                                         "payment only_on_gateway stranger investigate not_asked",
                                                         "payment different_state wait sync not_asked", "payment only_local queued sync not_asked"});

    ShiftMatchInput bankDiffers;
    bankDiffers.intents = {payment("twice", S::Succeeded), payment("missing", S::Succeeded), payment("declined", S::Declined),
        payment("other", S::Succeeded), payment("waiting", S::Processing)};
    bankDiffers.payments = {gatewayPayment("twice", "succeeded"), gatewayPayment("missing", "succeeded"),
        gatewayPayment("declined", "declined"), gatewayPayment("other", "succeeded"),
        gatewayPayment("waiting", "processing")};
    bankDiffers.bankCharges = bank("twice:2:2000,declined:1:1000,other:1:999,waiting:1:1000");
    bankDiffers.bankRefunds = bank("");
    QTest::newRow("the bank disagrees") << bankDiffers
                                        << specs({"payment matched twice investigate more_than_once", "payment matched missing investigate missing",
                                               "payment matched declined investigate unexpected", "payment matched other investigate other_amount",
                                               "payment matched waiting none agrees"});

    ShiftMatchInput refunds;
    refunds.intents = {refunded(payment("p1", S::Succeeded), 400), refund("r1", "p1", S::Succeeded),
        payment("p2", S::Succeeded, 500, Tender::Cash), refund("r2", "p2", S::Succeeded, 500, Tender::Cash),
        refund("r3", "old", S::Unknown), refund("r4", "p1", S::Voided)};
    refunds.refundedPayments = {refunded(payment("old", S::Succeeded), 0)};
    refunds.payments = {gatewayPayment("p1", "partially_refunded", 1000, 400)};
    refunds.otherPayments = {gatewayPayment("old", "partially_refunded", 1000, 400)};
    refunds.refunds = {gatewayRefund("r1", "p1", "succeeded"), gatewayRefund("r3", "old", "succeeded"),
        gatewayRefund("r9", "p1", "succeeded", 100)};
    refunds.bankCharges = bank("p1:1:1000");
    refunds.bankRefunds = bank("r1:1:400,r3:1:400,r9:1:100");
    QTest::newRow("refunds by key and refunded totals") << refunds
                                                        << specs({"refund only_on_gateway r9 investigate agrees", "refund different_state r3 sync agrees",
                                                               "refund_total different_amount old sync not_asked", "payment matched p1 none agrees",
                                                               "payment only_local p2 none not_asked", "refund matched r1 none agrees",
                                                               "refund only_local r2 none not_asked", "refund only_local r4 none agrees",
                                                               "refund_total matched p1 none not_asked"});

    ShiftMatchInput refundMissing;
    refundMissing.intents = {refunded(payment("p1", S::Succeeded), 400), refund("r1", "p1", S::Succeeded)};
    refundMissing.payments = {gatewayPayment("p1", "succeeded", 1000, 0)};
    refundMissing.bankCharges = bank("p1:1:1000");
    refundMissing.bankRefunds = bank("");
    // Issue 35: the till's own refund of a card part charged after it was given up (the customer
    // paid cash) was declined, as the gateway and the bank agree: nothing says "matched" to that.
    QTest::newRow("a refund the till owes") << owedInput()
                                            << specs({"refund matched auto-ref-given investigate agrees", "payment matched given none agrees",
                                                   "payment only_local cashpart none not_asked", "refund_total matched given none not_asked"});

    QTest::newRow("a refund the gateway and the bank never made") << refundMissing
                                                                  << specs({"refund only_local r1 investigate missing", "refund_total different_amount p1 investigate not_asked",
                                                                         "payment matched p1 none agrees"});
}

void TestShiftMatching::rows()
{
    QFETCH(ShiftMatchInput, input);
    QFETCH(QStringList, expected);
    QCOMPARE(describe(matchShift(input)), expected);
}

void TestShiftMatching::everyRowSaysWhatToDo()
{
    ShiftMatchInput in;
    in.intents = {payment("ok", IntentState::Succeeded), payment("cash", IntentState::Succeeded, 1, Tender::Cash),
        payment("wait", IntentState::Queued), payment("twice", IntentState::Succeeded),
        refund("r", "ok", IntentState::Succeeded)};
    in.payments = {gatewayPayment("ok", "succeeded"), gatewayPayment("twice", "succeeded"), gatewayPayment("x", "succeeded")};
    in.bankCharges = bank("ok:1:1000,twice:2:2000,x:1:1000");
    in.bankRefunds = bank("");
    const QList<ShiftFinding> rows = matchShift(in);
    QSet<QString> advice;
    for (const ShiftFinding &f : rows) {
        QVERIFY2(!f.advice().isEmpty() && !f.findingText().isEmpty() && !f.bankText().isEmpty(), qPrintable(f.key));
        advice.insert(f.advice());
    }
    QVERIFY(advice.size() >= 5);   // not one sentence for everything
    auto row = [&](const QString &key) {
        return *std::find_if(rows.cbegin(), rows.cend(), [&](const ShiftFinding &f) {
            return f.key == key;
        });
    };
    QVERIFY2(row(QStringLiteral("twice")).advice().contains(QLatin1String("more than once")), qPrintable(row(QStringLiteral("twice")).advice()));
    QVERIFY(row(QStringLiteral("cash")).advice().contains(QLatin1String("drawer")));
    QVERIFY(row(QStringLiteral("wait")).advice().startsWith(QLatin1String("Wait")));
    QVERIFY(row(QStringLiteral("x")).advice().contains(QLatin1String("does not know")));
    QCOMPARE(row(QStringLiteral("ok")).bankText(), QStringLiteral("charged once"));
    QCOMPARE(row(QStringLiteral("twice")).bankText(), QStringLiteral("charged 2 times"));
    QCOMPARE(row(QStringLiteral("r")).bankText(), QStringLiteral("no refund at the bank"));
}

void TestShiftMatching::countsAndJson()
{
    ShiftMatchInput in;
    in.intents = {payment("a", IntentState::Succeeded), payment("b", IntentState::Queued)};
    in.payments = {gatewayPayment("a", "succeeded")};
    const QList<ShiftFinding> rows = matchShift(in);
    const QJsonObject counts = shiftFindingCounts(rows);
    QCOMPARE(counts.value(QStringLiteral("findings")).toObject().value(QStringLiteral("matched")).toInt(), 1);
    QCOMPARE(counts.value(QStringLiteral("findings")).toObject().value(QStringLiteral("only_local")).toInt(), 1);
    QCOMPARE(counts.value(QStringLiteral("actions")).toObject().value(QStringLiteral("sync")).toInt(), 1);
    const QJsonObject json = rows.constFirst().toJson();
    QCOMPARE(json.value(QStringLiteral("key")).toString(), QStringLiteral("b"));
    QCOMPARE(json.value(QStringLiteral("finding")).toString(), QStringLiteral("only_local"));
    QCOMPARE(json.value(QStringLiteral("till_state")).toString(), QStringLiteral("queued"));
    QVERIFY(json.value(QStringLiteral("gateway_status")).isNull());
    QCOMPARE(json.value(QStringLiteral("bank")).toString(), QStringLiteral("not_asked"));
    QVERIFY(json.value(QStringLiteral("to_do")).toString().startsWith(QLatin1String("Wait")));
}

void TestShiftMatching::aRefundTheTillOwesSaysWhatToDo()
{
    const QList<ShiftFinding> rows = matchShift(owedInput());
    const ShiftFinding &owed = rows.constFirst();
    QCOMPARE(owed.key, QStringLiteral("auto-ref-given"));
    QCOMPARE(owed.owed, Money(450, QStringLiteral("CNY")));
    QCOMPARE(owed.findingText(), QStringLiteral("refund owed to the customer"));
    QVERIFY2(owed.advice().contains(QStringLiteral("¥4.50")) && owed.advice().contains(QLatin1String("in cash"))
            && owed.advice().contains(QLatin1String("given")),
        qPrintable(owed.advice()));
    const QJsonObject json = owed.toJson();
    QCOMPARE(json.value(QStringLiteral("owed")).toInteger(), qint64(450));
    QCOMPARE(json.value(QStringLiteral("payment_key")).toString(), QStringLiteral("given"));
    QCOMPARE(json.value(QStringLiteral("to_do")).toString(), owed.advice());

    // Refunded again by a person: nothing is owed, and the declined refund is history.
    ShiftMatchInput again = owedInput();
    Intent person = refund("ref-again", "given", IntentState::Succeeded, 450);
    again.intents.append(person);
    again.intents[0].amountRefunded = 450;
    again.payments = {gatewayPayment("given", "refunded", 450, 450)};
    again.refunds.append(gatewayRefund("ref-again", "given", "succeeded", 450));
    again.bankRefunds = bank("ref-again:1:450");
    for (const ShiftFinding &f : matchShift(again))
        QVERIFY2(!f.needsAction() && !f.owed.isValid(), qPrintable(f.key + QLatin1Char(' ') + f.advice()));
}

QTEST_GUILESS_MAIN(TestShiftMatching)
#include "tst_shiftmatching.moc"
