#pragma once

#include "intent.h"
#include "money.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace OncePay {

// Payment matching: the till's payments against the gateway's list, key by key (pure; what
// `oncepay-ctl reconcile` prints). Shift matching (shiftmatching.h) builds on it for one shift;
// the shift check (shiftcheck.h) fetches what that compares and runs it.

// One payment of the gateway's list (API.md, GET /v1/payments?terminal_id=&cursor=): the fields
// reconciliation compares, and the object as the gateway listed it.
struct GatewayPayment
{
    QString id;
    QString idempotencyKey;
    QString orderId;
    QString terminalId;
    Money amount;
    QString status;   // the gateway's word: processing, succeeded, declined, refunded, ...
    QJsonObject json;

    static GatewayPayment fromJson(const QJsonObject &object);
};

// One page of that list: its payments (oldest first) and the cursor of the next page, empty on the last.
struct GatewayPaymentPage
{
    QList<GatewayPayment> payments;
    QString nextCursor;

    static GatewayPaymentPage fromJson(const QJsonObject &page);
};

// What reconciliation says about one key: the till's intent and the gateway's payment for it.
struct PaymentMatch
{
    enum class Kind {
        Matched,   // both sides agree
        OnlyLocal,   // an intent the gateway has no payment for
        OnlyOnGateway,   // a payment the till's journal has no intent for
        DifferentAmount,   // the same key, another amount or currency
        DifferentState,   // the same key, the till's state is not what the gateway's status means
    };
    enum class Action {
        None,   // nothing to do: they agree, or nothing was ever due at the gateway (cash, refused, not sent yet)
        Sync,   // the till has not learnt the outcome yet: `oncepay-ctl sync` asks the gateway with the same key
        Investigate,   // a person looks: money may have moved without the till knowing, or not as the till says
    };

    Kind kind = Kind::Matched;
    Action action = Action::None;
    QString key;
    QString orderId;
    QString paymentId;   // the gateway's, when it has one
    std::optional<IntentState> localState;   // none: only on the gateway
    QString gatewayStatus;   // empty: only on the till
    Money localAmount;   // invalid: only on the gateway
    Money gatewayAmount;   // invalid: only on the till
};

QString paymentMatchKindName(PaymentMatch::Kind kind);   // "matched", "only_local", ...
QString paymentMatchActionName(PaymentMatch::Action action);   // "none", "sync", "investigate"

// The till's journal against the gateway's list, by idempotency key: one finding per key, and a
// second one when a key differs in both amount and state. Intents come first in their order, then
// the gateway's payments that no intent has, in the list's order. A payment listed more than once
// (a page fetched again after a fail-over) counts once, as last listed. Cash intents never go to
// the gateway: they are found only local, with nothing to do; so are voided ones. Refund intents
// are not payments and are left out (no finding).
QList<PaymentMatch> matchPayments(const QList<Intent> &intents, const QList<GatewayPayment> &payments);

}   // namespace OncePay
