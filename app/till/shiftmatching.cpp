#include "shiftmatching.h"

#include "intentpolicy.h"
#include "sale.h"
#include "timeutil.h"

#include <QSet>

#include <algorithm>

namespace OncePay {

namespace {

using Kind = ShiftFinding::Kind;
using Bank = ShiftFinding::Bank;
using Action = ShiftFinding::Action;
using Subject = ShiftFinding::Subject;

Action toAction(PaymentMatch::Action a)
{
    switch (a) {
    case PaymentMatch::Action::None:
        return Action::None;
    case PaymentMatch::Action::Sync:
        return Action::Sync;
    case PaymentMatch::Action::Investigate:
        return Action::Investigate;
    }
    return Action::Investigate;
}

// The bank's verdict on one key: `moved` says whether the till or the gateway says money moved,
// `settled` whether the till knows the outcome (a till still waiting may see a charge first).
Bank bankVerdict(const std::optional<QHash<QString, BankMoves>> &ledger, const QString &key, bool moved, bool settled,
    qint64 amount, int *moves, std::optional<qint64> *bankAmount)
{
    if (!ledger)
        return Bank::NotAsked;
    const BankMoves m = ledger->value(key);
    *moves = m.succeeded;
    *bankAmount = m.amount;
    if (m.succeeded > 1)
        return Bank::MoreThanOnce;
    if (m.succeeded == 0)
        return moved ? Bank::Missing : Bank::Agrees;
    if (!moved)
        return settled ? Bank::Unexpected : Bank::Agrees;
    return m.amount == amount ? Bank::Agrees : Bank::OtherAmount;
}

void escalate(ShiftFinding &f)
{
    if (f.bank != Bank::NotAsked && f.bank != Bank::Agrees)
        f.action = Action::Investigate;
}

ShiftFinding fromIntent(Subject subject, const Intent &i)
{
    ShiftFinding f;
    f.subject = subject;
    f.key = i.key;
    f.orderId = i.orderId;
    f.saleNumber = i.saleNumber;
    f.paymentId = i.paymentId;
    f.refundId = i.refundId;
    f.tender = i.tender;
    f.localState = i.state;
    f.localAmount = i.amount;
    return f;
}

// A refund intent the gateway's refunds do not hold.
Action onlyLocalRefundAction(const Intent &refund)
{
    switch (refund.state) {
    case IntentState::Succeeded:
    case IntentState::Declined:
    case IntentState::Processing:
        return Action::Investigate;   // the gateway answered for it, so it must have it
    case IntentState::Queued:
    case IntentState::Sending:
    case IntentState::Unknown:
        return Action::Sync;
    case IntentState::NeedsAttention:
    case IntentState::Voided:
        return Action::None;   // never executed, or never sent
    }
    return Action::Investigate;
}

QList<ShiftFinding> paymentRows(const ShiftMatchInput &in)
{
    QList<Intent> payments;
    for (const Intent &i : in.intents) {
        if (!i.isRefund())
            payments.append(i);
    }
    QHash<QString, const Intent *> byKey;
    for (const Intent &i : std::as_const(payments))
        byKey.insert(i.key, &i);
    QList<ShiftFinding> rows;
    for (const PaymentMatch &r : matchPayments(payments, in.payments)) {
        const Intent *intent = byKey.value(r.key);
        ShiftFinding f = intent ? fromIntent(Subject::Payment, *intent) : ShiftFinding();
        f.subject = Subject::Payment;
        f.kind = r.kind;
        f.action = toAction(r.action);
        f.key = r.key;
        f.orderId = r.orderId;
        f.paymentId = r.paymentId;
        f.gatewayStatus = r.gatewayStatus;
        f.gatewayAmount = r.gatewayAmount;
        if (!intent || !intent->isCash()) {
            const bool localMoved = intent && intent->state == IntentState::Succeeded;
            const bool gatewayMoved = !r.gatewayStatus.isEmpty() && stateForPaymentStatus(r.gatewayStatus) == IntentState::Succeeded;
            const qint64 amount = intent ? intent->amount.minorUnits() : r.gatewayAmount.minorUnits();
            f.bank = bankVerdict(in.bankCharges, r.key, localMoved || gatewayMoved, !intent || isFinal(intent->state), amount,
                &f.bankMoves, &f.bankAmount);
            escalate(f);
        }
        // matchPayments() may give two rows for one key (amount and state): the bank's is told once.
        if (!rows.isEmpty() && rows.constLast().key == f.key && rows.constLast().subject == Subject::Payment
            && rows.constLast().bank == f.bank)
            f.bank = Bank::NotAsked;
        rows.append(f);
    }
    return rows;
}

QList<ShiftFinding> refundRows(const ShiftMatchInput &in)
{
    const QHash<QString, qint64> owed = refundsOwed(in.intents);
    QHash<QString, const GatewayRefund *> gatewayByKey;
    for (const GatewayRefund &r : in.refunds)
        gatewayByKey.insert(r.idempotencyKey, &r);
    QList<ShiftFinding> rows;
    QSet<QString> seen;
    for (const Intent &i : in.intents) {
        if (!i.isRefund() || seen.contains(i.key))
            continue;
        seen.insert(i.key);
        ShiftFinding f = fromIntent(Subject::Refund, i);
        if (i.isCash()) {
            f.kind = Kind::OnlyLocal;   // from the drawer: the gateway and the bank never see it
            rows.append(f);
            continue;
        }
        const GatewayRefund *g = gatewayByKey.value(i.key);
        bool gatewayMoved = false;
        if (!g) {
            f.kind = Kind::OnlyLocal;
            f.action = onlyLocalRefundAction(i);
        } else {
            f.refundId = g->id;
            f.gatewayStatus = g->status;
            f.gatewayAmount = g->amount;
            const IntentState gatewayState = stateForRefundStatus(g->status);
            gatewayMoved = gatewayState == IntentState::Succeeded;
            if (g->amount != i.amount) {
                f.kind = Kind::DifferentAmount;
                f.action = Action::Investigate;
            } else if (gatewayState != i.state) {
                f.kind = Kind::DifferentState;
                f.action = isFinal(i.state) ? Action::Investigate : Action::Sync;
            }
        }
        f.bank = bankVerdict(in.bankRefunds, i.key, i.state == IntentState::Succeeded || gatewayMoved, isFinal(i.state),
            i.amount.minorUnits(), &f.bankMoves, &f.bankAmount);
        escalate(f);
        // The till's own refund gave nothing back, as the gateway agrees: the customer paid twice
        // and the shop holds it. "Matched" is no comfort here: a person gives it back.
        if (const auto it = owed.constFind(i.key); it != owed.cend() && !gatewayMoved) {
            f.owed = Money(*it, i.amount.currency());
            f.paymentKey = i.paymentKey;
            f.action = Action::Investigate;
        }
        rows.append(f);
    }
    for (const GatewayRefund &g : in.refunds) {
        if (seen.contains(g.idempotencyKey))
            continue;
        seen.insert(g.idempotencyKey);
        ShiftFinding f;
        f.subject = Subject::Refund;
        f.kind = Kind::OnlyOnGateway;
        f.action = Action::Investigate;
        f.key = g.idempotencyKey;
        f.paymentId = g.paymentId;
        f.refundId = g.id;
        f.gatewayStatus = g.status;
        f.gatewayAmount = g.amount;
        f.bank = bankVerdict(in.bankRefunds, g.idempotencyKey, stateForRefundStatus(g.status) == IntentState::Succeeded, true,
            g.amount.minorUnits(), &f.bankMoves, &f.bankAmount);
        rows.append(f);
    }
    return rows;
}

// Each card payment with a refund in this shift: what the journal's succeeded refunds gave back
// (the payment intent's amount_refunded) against the gateway's amount_refunded.
QList<ShiftFinding> refundTotalRows(const ShiftMatchInput &in)
{
    QHash<QString, const Intent *> payments;
    for (const QList<Intent> *list : {&in.intents, &in.refundedPayments}) {
        for (const Intent &i : *list) {
            if (!i.isRefund())
                payments.insert(i.key, &i);
        }
    }
    QHash<QString, const GatewayPayment *> gateway;
    for (const QList<GatewayPayment> *list : {&in.payments, &in.otherPayments}) {
        for (const GatewayPayment &p : *list)
            gateway.insert(p.idempotencyKey, &p);
    }
    QStringList order;
    QSet<QString> open;   // payments with a refund the till has not settled yet
    for (const Intent &i : in.intents) {
        if (!i.isRefund() || i.isCash())
            continue;
        if (!order.contains(i.paymentKey))
            order.append(i.paymentKey);
        if (!isFinal(i.state))
            open.insert(i.paymentKey);
    }
    QList<ShiftFinding> rows;
    for (const QString &key : std::as_const(order)) {
        const Intent *payment = payments.value(key);
        const GatewayPayment *g = gateway.value(key);
        if (!payment || !g)
            continue;   // the payment's own row says what is missing
        ShiftFinding f = fromIntent(Subject::RefundTotal, *payment);
        f.localAmount = Money(payment->amountRefunded, payment->amount.currency());
        f.gatewayStatus = g->status;
        f.gatewayAmount = Money(g->json.value(QStringLiteral("amount_refunded")).toInteger(), g->amount.currency());
        if (f.localAmount != f.gatewayAmount) {
            f.kind = Kind::DifferentAmount;
            f.action = open.contains(key) ? Action::Sync : Action::Investigate;
        }
        rows.append(f);
    }
    return rows;
}

int rank(const ShiftFinding &f)
{
    switch (f.action) {
    case Action::Investigate:
        return 0;
    case Action::Sync:
        return 1;
    case Action::None:
        return 2;
    }
    return 0;
}

}   // namespace

GatewayRefund GatewayRefund::fromJson(const QJsonObject &o)
{
    GatewayRefund r;
    r.id = o.value(QStringLiteral("id")).toString();
    r.idempotencyKey = o.value(QStringLiteral("idempotency_key")).toString();
    r.paymentId = o.value(QStringLiteral("payment_id")).toString();
    r.amount = Money(o.value(QStringLiteral("amount")).toInteger(), o.value(QStringLiteral("currency")).toString());
    r.status = o.value(QStringLiteral("status")).toString();
    r.createdAt = fromRfc3339(o.value(QStringLiteral("created_at")).toString()).value_or(0);
    return r;
}

QList<ShiftFinding> matchShift(const ShiftMatchInput &in)
{
    QList<ShiftFinding> rows = paymentRows(in);
    rows += refundRows(in);
    rows += refundTotalRows(in);
    std::stable_sort(rows.begin(), rows.end(), [](const ShiftFinding &a, const ShiftFinding &b) {
        return rank(a) < rank(b);
    });
    return rows;
}

QJsonObject shiftFindingCounts(const QList<ShiftFinding> &findings)
{
    QJsonObject kinds;
    for (Kind k : {Kind::Matched, Kind::OnlyLocal, Kind::OnlyOnGateway, Kind::DifferentAmount, Kind::DifferentState})
        kinds.insert(paymentMatchKindName(k), 0);
    QJsonObject actions;
    for (Action a : {Action::None, Action::Sync, Action::Investigate})
        actions.insert(shiftActionName(a), 0);
    for (const ShiftFinding &f : findings) {
        const QString k = paymentMatchKindName(f.kind);
        kinds.insert(k, kinds.value(k).toInt() + 1);
        const QString a = shiftActionName(f.action);
        actions.insert(a, actions.value(a).toInt() + 1);
    }
    return {{QStringLiteral("findings"), kinds}, {QStringLiteral("actions"), actions}};
}

}   // namespace OncePay
