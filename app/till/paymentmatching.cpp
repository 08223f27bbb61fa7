#include "paymentmatching.h"

#include "intentpolicy.h"

#include <QHash>
#include <QJsonArray>
#include <QSet>

namespace OncePay {

GatewayPayment GatewayPayment::fromJson(const QJsonObject &object)
{
    GatewayPayment p;
    p.id = object.value(QStringLiteral("id")).toString();
    p.idempotencyKey = object.value(QStringLiteral("idempotency_key")).toString();
    p.orderId = object.value(QStringLiteral("order_id")).toString();
    p.terminalId = object.value(QStringLiteral("terminal_id")).toString();
    p.amount = Money(object.value(QStringLiteral("amount")).toInteger(), object.value(QStringLiteral("currency")).toString());
    p.status = object.value(QStringLiteral("status")).toString();
    p.json = object;
    return p;
}

GatewayPaymentPage GatewayPaymentPage::fromJson(const QJsonObject &page)
{
    GatewayPaymentPage p;
    const QJsonArray data = page.value(QStringLiteral("data")).toArray();
    p.payments.reserve(data.size());
    for (const QJsonValue &v : data)
        p.payments.append(GatewayPayment::fromJson(v.toObject()));
    p.nextCursor = page.value(QStringLiteral("next_cursor")).toString();
    return p;
}

QString paymentMatchKindName(PaymentMatch::Kind kind)
{
    switch (kind) {
    case PaymentMatch::Kind::Matched:
        return QStringLiteral("matched");
    case PaymentMatch::Kind::OnlyLocal:
        return QStringLiteral("only_local");
    case PaymentMatch::Kind::OnlyOnGateway:
        return QStringLiteral("only_on_gateway");
    case PaymentMatch::Kind::DifferentAmount:
        return QStringLiteral("different_amount");
    case PaymentMatch::Kind::DifferentState:
        return QStringLiteral("different_state");
    }
    return {};
}

QString paymentMatchActionName(PaymentMatch::Action action)
{
    switch (action) {
    case PaymentMatch::Action::None:
        return QStringLiteral("none");
    case PaymentMatch::Action::Sync:
        return QStringLiteral("sync");
    case PaymentMatch::Action::Investigate:
        return QStringLiteral("investigate");
    }
    return {};
}

namespace {

using Kind = PaymentMatch::Kind;
using Action = PaymentMatch::Action;

// An intent the gateway has no payment for.
Action onlyLocalAction(const Intent &intent)
{
    if (intent.isCash())
        return Action::None;   // cash never goes to the gateway
    switch (intent.state) {
    case IntentState::Succeeded:
    case IntentState::Declined:
    case IntentState::Processing:
        return Action::Investigate;   // the gateway answered for it, so its list must have it
    case IntentState::Queued:
    case IntentState::Sending:
    case IntentState::Unknown:
        return Action::Sync;   // not sent yet, or sent and never executed (a lookup answers 404)
    case IntentState::NeedsAttention:
        return Action::None;   // refused before it was executed: nothing is at the gateway
    case IntentState::Voided:
        return Action::None;   // cancelled on the till before it was ever sent
    }
    return Action::Investigate;
}

PaymentMatch finding(Kind kind, Action action, const Intent *intent, const GatewayPayment *payment)
{
    PaymentMatch f;
    f.kind = kind;
    f.action = action;
    if (intent) {
        f.key = intent->key;
        f.orderId = intent->orderId;
        f.paymentId = intent->paymentId;
        f.localState = intent->state;
        f.localAmount = intent->amount;
    }
    if (payment) {
        f.key = payment->idempotencyKey;
        if (f.orderId.isEmpty())
            f.orderId = payment->orderId;
        f.paymentId = payment->id;
        f.gatewayStatus = payment->status;
        f.gatewayAmount = payment->amount;
    }
    return f;
}

}   // namespace

QList<PaymentMatch> matchPayments(const QList<Intent> &intents, const QList<GatewayPayment> &payments)
{
    // The last listing of a key is the one that counts.
    QHash<QString, qsizetype> lastListed;
    for (qsizetype i = 0; i < payments.size(); ++i)
        lastListed.insert(payments.at(i).idempotencyKey, i);

    QList<PaymentMatch> findings;
    QSet<QString> seen;   // keys of non-cash intents, matched or not
    for (const Intent &intent : intents) {
        if (intent.isRefund())
            continue;   // refunds are not in the gateway's list of payments
        if (intent.isCash()) {
            findings.append(finding(Kind::OnlyLocal, Action::None, &intent, nullptr));
            continue;
        }
        if (seen.contains(intent.key))
            continue;
        seen.insert(intent.key);
        const auto it = lastListed.constFind(intent.key);
        if (it == lastListed.cend()) {
            findings.append(finding(Kind::OnlyLocal, onlyLocalAction(intent), &intent, nullptr));
            continue;
        }
        const GatewayPayment &payment = payments.at(*it);
        const bool sameAmount = intent.amount == payment.amount;
        const bool sameState = stateForPaymentStatus(payment.status) == intent.state;
        if (!sameAmount)
            findings.append(finding(Kind::DifferentAmount, Action::Investigate, &intent, &payment));
        if (!sameState) {
            // A till that has not settled the intent yet learns the gateway's state by syncing; a
            // final state on the till that the gateway contradicts is for a person.
            findings.append(finding(Kind::DifferentState, isFinal(intent.state) ? Action::Investigate : Action::Sync,
                &intent, &payment));
        }
        if (sameAmount && sameState)
            findings.append(finding(Kind::Matched, Action::None, &intent, &payment));
    }
    for (qsizetype i = 0; i < payments.size(); ++i) {
        const GatewayPayment &payment = payments.at(i);
        if (lastListed.value(payment.idempotencyKey) != i || seen.contains(payment.idempotencyKey))
            continue;
        findings.append(finding(Kind::OnlyOnGateway, Action::Investigate, nullptr, &payment));
    }
    return findings;
}

}   // namespace OncePay
