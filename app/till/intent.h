#pragma once

#include "money.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QtGlobal>

#include <optional>

namespace OncePay {

// The states of a payment intent on the till (DESIGN.md "The intent on the till").
enum class IntentState {
    Queued,   // stored with its key; not sent yet, or waiting for its next try
    Sending,   // a request with the key is on the wire
    Processing,   // the gateway said 202 or 409: it owns the outcome
    Unknown,   // the request may have reached the gateway, no answer came
    Succeeded,   // the gateway's payment succeeded
    Declined,   // final decline; a new intent (new key) may follow for the same sale
    NeedsAttention,   // a 4xx that retrying cannot fix; never retried automatically
    Voided,   // cancelled on the till while queued and never sent; final, it never goes out
};

QString intentStateName(IntentState state);   // "queued", ... as stored
QList<IntentState> allIntentStates();
std::optional<IntentState> intentStateFromName(const QString &name);
bool isFinal(IntentState state);   // succeeded, declined, needs_attention, voided
// The sale cannot be paid again while its intent is in one of these states.
bool locksSale(IntentState state);   // sending, processing, unknown, queued

// What an intent asks of the gateway: money in (a payment of a sale) or money back (a refund of
// one of the till's payments). Both are business intents with a key of their own, in one queue.
enum class IntentKind {
    Payment,
    Refund
};
QString intentKindName(IntentKind kind);   // "payment", "refund" as stored
std::optional<IntentKind> intentKindFromName(const QString &name);

// How the customer pays. Cash never goes to the gateway: its intent is final when created.
enum class Tender {
    Card,
    Cash
};
QString tenderName(Tender tender);   // "card", "cash" as stored
std::optional<Tender> tenderFromName(const QString &name);

// One payment or refund intent as the journal keeps it.
struct Intent
{
    qint64 id = 0;
    QString key;   // the Idempotency-Key, created with the intent, never changed
    IntentKind kind = IntentKind::Payment;
    QString orderId;   // a refund's is its payment's
    Money amount;   // a refund's: what goes back, in its payment's currency
    Tender tender = Tender::Card;
    QString paymentMethod;   // the card's token (tok_visa ...) sent to the gateway; empty for cash and refunds
    IntentState state = IntentState::Queued;
    // The gateway's payment: a payment's own, once known; a refund's is the payment it refunds
    // (known when the refund is created: only a card payment the gateway settled is refunded).
    QString paymentId;
    QString gatewayStatus;   // the gateway's own status word, once known
    QString declineCode;
    // From the gateway's payment (API.md card, authorization_code), for the receipt: empty until
    // the acquirer answered; a declined card has its brand and last four but no code.
    QString cardBrand;   // "visa", "mastercard", "unionpay", ...
    QString cardLast4;
    QString authorizationCode;
    int attempts = 0;
    qint64 nextAttemptAt = 0;   // epoch ms; 0 = now
    QString lastProblem;   // human-readable, from the gateway's problem detail or the transport
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    // The cashier served the next customer before this payment was final (epoch ms, 0: not).
    // A payment declined after that is an alert until the cashier acknowledges it.
    qint64 customerLeftAt = 0;
    qint64 acknowledgedAt = 0;
    // A refund: the key of the payment intent it refunds, the gateway's refund (re_...) once
    // known, and the cashier's reason (sent to the gateway; may be empty).
    QString paymentKey;
    QString refundId;
    QString reason;
    // A payment: what its succeeded refunds gave back, in minor units of `amount` (API.md's
    // amount_refunded, kept by the journal with each refund that succeeds).
    qint64 amountRefunded = 0;
    // A card part of a sale the cashier gave up ("the customer pays another way", epoch ms; 0:
    // not). It is still resolved with the gateway; charged, the till refunds it by itself.
    qint64 givenUpAt = 0;
    // The short number of its sale ("1-000123", SaleBook), read with the intent; empty for an
    // order that is not a sale (stored before sales existed, or by a script with an order id).
    QString saleNumber;
    // Who stored it (the person signed in; empty on a till without staff) and the manager who
    // approved it on the spot, if it needed one (issue 23).
    QString staff = {};
    QString approvedBy = {};

    bool isValid() const { return id > 0; }
    // What people read for its sale: the short number, else the order id.
    QString saleLabel() const { return saleNumber.isEmpty() ? orderId : saleNumber; }
    bool isCash() const { return tender == Tender::Cash; }
    // A wallet payment (issue 26): a card-like tender the gateway takes, whose paymentMethod is
    // "wallet:<the customer's payment code>"; its brand ("wechat", "alipay") is kept in cardBrand.
    bool isWallet() const { return paymentMethod.startsWith(QLatin1String("wallet:")); }
    QString walletCode() const { return isWallet() ? paymentMethod.mid(7) : QString(); }
    bool isRefund() const { return kind == IntentKind::Refund; }
};

// A payment the cashier must see after the counter: needs_attention (never retried by itself),
// a refund the till made by itself that the bank declined (autoRefundKey), or declined late:
// after a failed try, or more than lateDeclineMs after it was stored (it waited offline or
// unanswered, the sale was left as "waiting" and the customer may be gone).
// IntentJournal::Query::needsAttention selects the same intents in SQL.
constexpr qint64 lateDeclineMs = 10'000;
bool needsCashierAttention(const Intent &intent);

// One try at the gateway, for the timeline.
struct Attempt
{
    enum class Kind {
        Post,   // POST /v1/payments (a refund: /v1/payments/{id}/refunds) with the intent's key
        Lookup,   // GET /v1/payments?idempotency_key= (/v1/refunds?...): did the gateway see this key?
        Poll,   // GET /v1/payments/{id} (/v1/refunds/{id}): one the gateway is processing
    };
    // How the try ended, as the client saw it (GatewayResult::Transport).
    enum class Transport {
        Answered,   // an HTTP status came back (httpStatus)
        NotSent,   // refused or unreachable before the request was written
        AnswerLost,   // written, then no answer (timeout, reset): the gateway may have acted
    };

    qint64 id = 0;
    QString key;
    Kind kind = Kind::Post;
    qint64 startedAt = 0;
    qint64 endedAt = 0;
    Transport transport = Transport::Answered;
    QString outcome;   // for people and logs: "201 succeeded", "no answer after sending: ..."
    int httpStatus = 0;   // 0: no HTTP answer
    bool replayed = false;
    qint64 latencyMs = 0;
};

QString attemptKindName(Attempt::Kind kind);   // "post", "lookup", "poll" as stored
std::optional<Attempt::Kind> attemptKindFromName(const QString &name);
QString attemptTransportName(Attempt::Transport transport);   // "answered", "not_sent", "answer_lost"
std::optional<Attempt::Transport> attemptTransportFromName(const QString &name);

// One line of the append-only journal of state changes.
struct JournalEntry
{
    qint64 id = 0;
    QString key;
    qint64 at = 0;
    QString fromState;
    QString toState;
    QString detail;
};

}   // namespace OncePay

Q_DECLARE_METATYPE(OncePay::Intent)
