#include "shiftfinding.h"

#include "shiftreport.h"

namespace OncePay {

namespace {

QJsonValue moneyJson(const Money &m)
{
    return m.isValid() ? QJsonValue(m.minorUnits()) : QJsonValue(QJsonValue::Null);
}

// The value of `values` whose name is `name`.
template <typename E, typename NameOf>
std::optional<E> byName(const QString &name, std::initializer_list<E> values, NameOf nameOf)
{
    for (E e : values) {
        if (nameOf(e) == name)
            return e;
    }
    return std::nullopt;
}

}   // namespace

QString shiftSubjectName(ShiftFinding::Subject subject)
{
    switch (subject) {
    case ShiftFinding::Subject::Payment:
        return QStringLiteral("payment");
    case ShiftFinding::Subject::Refund:
        return QStringLiteral("refund");
    case ShiftFinding::Subject::RefundTotal:
        return QStringLiteral("refund_total");
    }
    return {};
}

QString shiftBankName(ShiftFinding::Bank bank)
{
    switch (bank) {
    case ShiftFinding::Bank::NotAsked:
        return QStringLiteral("not_asked");
    case ShiftFinding::Bank::Agrees:
        return QStringLiteral("agrees");
    case ShiftFinding::Bank::Missing:
        return QStringLiteral("missing");
    case ShiftFinding::Bank::Unexpected:
        return QStringLiteral("unexpected");
    case ShiftFinding::Bank::MoreThanOnce:
        return QStringLiteral("more_than_once");
    case ShiftFinding::Bank::OtherAmount:
        return QStringLiteral("other_amount");
    }
    return {};
}

QString shiftActionName(ShiftFinding::Action action)
{
    switch (action) {
    case ShiftFinding::Action::None:
        return QStringLiteral("none");
    case ShiftFinding::Action::Sync:
        return QStringLiteral("sync");
    case ShiftFinding::Action::Investigate:
        return QStringLiteral("investigate");
    }
    return {};
}

std::optional<ShiftFinding> ShiftFinding::fromJson(const QJsonObject &o)
{
    using S = Subject;
    using K = Kind;
    using B = Bank;
    using A = Action;
    const auto subject = byName(o.value(QStringLiteral("subject")).toString(), {S::Payment, S::Refund, S::RefundTotal}, shiftSubjectName);
    const auto kind = byName(o.value(QStringLiteral("finding")).toString(),
        {K::Matched, K::OnlyLocal, K::OnlyOnGateway, K::DifferentAmount, K::DifferentState}, paymentMatchKindName);
    const auto action = byName(o.value(QStringLiteral("action")).toString(), {A::None, A::Sync, A::Investigate}, shiftActionName);
    const auto bank = byName(o.value(QStringLiteral("bank")).toString(),
        {B::NotAsked, B::Agrees, B::Missing, B::Unexpected, B::MoreThanOnce, B::OtherAmount}, shiftBankName);
    const auto tender = tenderFromName(o.value(QStringLiteral("tender")).toString());
    if (!subject || !kind || !action || !bank || !tender)
        return std::nullopt;
    ShiftFinding f;
    f.subject = *subject;
    f.kind = *kind;
    f.action = *action;
    f.bank = *bank;
    f.tender = *tender;
    f.key = o.value(QStringLiteral("key")).toString();
    f.orderId = o.value(QStringLiteral("order_id")).toString();
    f.saleNumber = o.value(QStringLiteral("sale")).toString();
    f.paymentId = o.value(QStringLiteral("payment_id")).toString();
    f.refundId = o.value(QStringLiteral("refund_id")).toString();
    f.localState = intentStateFromName(o.value(QStringLiteral("till_state")).toString());
    const QString currency = o.value(QStringLiteral("currency")).toString();
    auto money = [&o, &currency](const char *name) {
        const QJsonValue v = o.value(QLatin1String(name));
        return v.isDouble() ? Money(v.toInteger(), currency) : Money();
    };
    f.localAmount = money("till_amount");
    f.gatewayStatus = o.value(QStringLiteral("gateway_status")).toString();
    f.gatewayAmount = money("gateway_amount");
    if (o.value(QStringLiteral("bank_amount")).isDouble())
        f.bankAmount = o.value(QStringLiteral("bank_amount")).toInteger();
    f.bankMoves = o.value(QStringLiteral("bank_moves")).toInt();
    f.owed = money("owed");
    f.paymentKey = o.value(QStringLiteral("payment_key")).toString();
    return f;
}

QJsonObject ShiftFinding::toJson() const
{
    QJsonObject o{
        {QStringLiteral("subject"), shiftSubjectName(subject)},
        {QStringLiteral("finding"), paymentMatchKindName(kind)},
        {QStringLiteral("action"), shiftActionName(action)},
        {QStringLiteral("key"), key},
        {QStringLiteral("order_id"), orderId},
        {QStringLiteral("tender"), tenderName(tender)},
        {QStringLiteral("payment_id"), paymentId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(paymentId)},
        {QStringLiteral("till_state"), localState ? QJsonValue(intentStateName(*localState)) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("till_amount"), moneyJson(localAmount)},
        {QStringLiteral("gateway_status"), gatewayStatus.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(gatewayStatus)},
        {QStringLiteral("gateway_amount"), moneyJson(gatewayAmount)},
        {QStringLiteral("bank"), shiftBankName(bank)},
        {QStringLiteral("bank_amount"), bankAmount ? QJsonValue(*bankAmount) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("bank_moves"), bankMoves},
        {QStringLiteral("currency"), localAmount.isValid() ? localAmount.currency() : gatewayAmount.currency()},
        {QStringLiteral("to_do"), advice()},
    };
    if (!refundId.isEmpty())
        o.insert(QStringLiteral("refund_id"), refundId);
    if (!saleNumber.isEmpty())
        o.insert(QStringLiteral("sale"), saleNumber);
    if (owed.isValid()) {
        o.insert(QStringLiteral("owed"), owed.minorUnits());
        o.insert(QStringLiteral("payment_key"), paymentKey);
    }
    return o;
}

QString ShiftFinding::findingText() const
{
    const ShiftFinding &f = *this;
    using Kind = ShiftFinding::Kind;
    if (f.subject == ShiftFinding::Subject::RefundTotal)
        return f.kind == Kind::Matched ? tr("refunded amounts agree") : tr("refunded amounts differ");
    if (f.owed.isValid())
        return tr("refund owed to the customer");
    switch (f.kind) {
    case Kind::Matched:
        return tr("matched");
    case Kind::OnlyLocal:
        // Cash never goes to the gateway: it is counted in the drawer, not "missing" anywhere.
        if (f.tender == Tender::Cash)
            return tr("cash, in the drawer");
        if (f.localState == IntentState::Voided)
            return tr("voided on the till");
        if (f.action == ShiftFinding::Action::Sync)
            return tr("not at the server yet");
        return tr("only on the till");
    case Kind::OnlyOnGateway:
        return tr("only on the server");
    case Kind::DifferentAmount:
        return tr("different amount");
    case Kind::DifferentState:
        return tr("different state");
    }
    return {};
}

QString ShiftFinding::bankText() const
{
    const ShiftFinding &f = *this;
    const bool refund = f.subject != ShiftFinding::Subject::Payment;
    switch (f.bank) {
    case ShiftFinding::Bank::NotAsked:
        return QStringLiteral("–");
    case ShiftFinding::Bank::Agrees:
        if (f.bankMoves == 0)
            return refund ? tr("nothing refunded") : tr("nothing charged");
        return refund ? tr("refunded once") : tr("charged once");
    case ShiftFinding::Bank::Missing:
        return refund ? tr("no refund at the bank") : tr("no charge at the bank");
    case ShiftFinding::Bank::Unexpected:
        return refund ? tr("refunded by the bank") : tr("charged by the bank");
    case ShiftFinding::Bank::MoreThanOnce:
        return (refund ? tr("refunded %1 times") : tr("charged %1 times")).arg(f.bankMoves);
    case ShiftFinding::Bank::OtherAmount:
        return tr("another amount at the bank");
    }
    return {};
}

QString ShiftFinding::advice() const
{
    const ShiftFinding &f = *this;
    using Kind = ShiftFinding::Kind;
    using Bank = ShiftFinding::Bank;
    const bool refund = f.subject != ShiftFinding::Subject::Payment;
    if (f.action == ShiftFinding::Action::None) {
        if (f.tender == Tender::Cash)
            return refund ? tr("Nothing: a cash refund, from the drawer.") : tr("Nothing: cash, counted in the drawer.");
        if (f.localState == IntentState::Voided)
            return tr("Nothing: voided before it was sent.");
        if (f.kind == Kind::OnlyLocal)
            return tr("Nothing: it never reached the gateway.");
        return tr("Nothing to do.");
    }
    if (f.action == ShiftFinding::Action::Sync) {
        return refund ? tr("Wait: the till is still asking the gateway about this refund with the same key; close the shift once it is final, or note it.")
                      : tr("Wait: the till is still asking the gateway about this payment with the same key; close the shift once it is final, or note it.");
    }
    // Investigate: say what is wrong with the money, most serious first.
    if (f.bank == Bank::MoreThanOnce)
        return refund ? tr("Call support: the bank gave money back more than once for one refund.")
                      : tr("Call support: the bank charged the customer more than once for one payment.");
    if (f.bank == Bank::Missing)
        return refund ? tr("Call support: the bank has no refund that the till or the gateway says was made; the customer may not have their money back.")
                      : tr("Call support: the bank has no charge for a payment the till or the gateway says is paid.");
    if (f.bank == Bank::Unexpected)
        return refund ? tr("Call support: the bank refunded money that the till does not count as refunded.")
                      : tr("Call support: the bank charged the customer for a payment the till does not count as paid; it may have to be refunded.");
    if (f.bank == Bank::OtherAmount)
        return tr("Call support: the bank moved another amount than the till recorded.");
    if (f.owed.isValid())
        return ShiftReport::owedAdvice(f.owed, f.paymentKey);
    switch (f.kind) {
    case Kind::OnlyLocal:
        return refund ? tr("Call support: the gateway has no record of a refund the till says it answered.")
                      : tr("Call support: the gateway has no record of a payment the till says it answered.");
    case Kind::OnlyOnGateway:
        return refund ? tr("Call support: money was given back on the gateway without this till's journal; find out who refunded it.")
                      : tr("Call support: the gateway has a payment this till's journal does not know; check whether the customer was charged.");
    case Kind::DifferentAmount:
        return f.subject == ShiftFinding::Subject::RefundTotal
            ? tr("Call support: the refunded amount on the gateway is not what the till's refunds add up to.")
            : tr("Call support: the gateway's amount is not the till's; the customer may have paid another amount.");
    case Kind::DifferentState:
        return tr("Call support: the gateway's outcome is not what the till recorded (%1 on the gateway).").arg(f.gatewayStatus);
    case Kind::Matched:
        break;
    }
    return tr("Call support: look into it.");
}

}   // namespace OncePay
