#pragma once

#include "gateway/gatewaytypes.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

namespace OncePay::Gateway {

// Asks to own (merchant, key) for a new payment described by `draft`. The lease is measured
// by the store, on its own clock, from the moment the claim executes.
struct PaymentClaim
{
    QString merchant;
    QString key;
    QByteArray fingerprint;
    Payment draft;   // id, fields, status processing, step claimed
    qint64 leaseMs = 0;
};

struct ClaimOutcome
{
    enum class Kind {
        Claimed,   // this request owns the key: execute the payment
        Resume,   // an expired lease was taken over: resume from payment.step
        Replay,   // finished: send `response` again
        ReplayCurrent,   // finished while the outcome was unknown (202), or the record expired:
            // answer from the payment's current state
        InProgress,   // another holder owns the key right now: 409
        Mismatch,   // same key, different request (or a refund's key): 422
        Gone,   // nothing is stored for the key (a fenced holder's claim was released)
    };
    Kind kind = Kind::InProgress;
    Payment payment;   // Claimed, Resume: carries the lease generation now held
    StoredResponse response;
    qint64 responseExpiresAt = 0;   // Replay: when the recorded response stops being replayed
    // Only with ok = false: the connection was lost while COMMIT was on its way (PostgreSQL), so
    // the claim may have been written and its outcome is unknown (API.md promise 10). Any other
    // failure wrote nothing. The same in RefundClaimOutcome and CancelOutcome.
    bool commitUnknown = false;
};

// The result of a write of a step made under a lease.
enum class StepWrite {
    Written,   // done, under the lease
    Fenced,   // matched no row: the lease was taken over (or lapsed); stop, answer from the store
    // Only with ok = false: the database lost the connection while COMMIT was on its way, so the
    // step may have been written (API.md promise 10). Any other failure wrote nothing.
    Unconfirmed,
};

// Resuming a record whose acquirer call may have happened, the acquirer said it does not know
// the key (API.md promise 11).
enum class KeyWindow {
    Within,   // younger than the acquirer's key window: calling again with the key is safe
    Review,   // older: marked needs_review under the lease, its 202 recorded; nobody calls again
    Fenced,   // the lease was taken over
};

// A reply's value when the unit's COMMIT answer was lost (ok = false): a step write becomes
// Unconfirmed, a claim's outcome gets commitUnknown; other values carry nothing.
template <typename T, typename = void>
struct CarriesCommitUnknown : std::false_type
{
};
template <typename T>
struct CarriesCommitUnknown<T, std::void_t<decltype(std::declval<T &>().commitUnknown)>> : std::true_type
{
};

template <typename T>
void markCommitUnknown(T &value)
{
    if constexpr (std::is_same_v<T, StepWrite>)
        value = StepWrite::Unconfirmed;
    else if constexpr (CarriesCommitUnknown<T>::value)
        value.commitUnknown = true;
}

template <typename T>
void markCommitUnknown(std::optional<T> &value)
{
    if constexpr (CarriesCommitUnknown<T>::value) {
        value.emplace();
        value->commitUnknown = true;
    }
}

// The records a person settles with the acquirer (`oncepay-gateway review`).
struct ReviewList
{
    QList<Payment> payments;
    QList<Refund> refunds;
};

// What `oncepay-gateway review --resolve` asked for, and how it ended.
struct ReviewResolution
{
    enum class Kind {
        Resolved,   // written through the fenced step, as recovery writes
        NotFound,   // no payment or refund with that id
        NotInReview,   // it does not need review (settled, or still being resolved by the gateway)
        Busy,   // a live lease is held on it right now: try again
        BadOutcome,   // the outcome does not fit (a payment: succeeded|declined; a refund: succeeded|failed)
    };
    Kind kind = Kind::NotFound;
    QString object;   // "payment" or "refund"
    QJsonObject resource;   // Resolved: the settled payment or refund
};

struct Settlement
{
    QString merchant;
    QString key;
    QString paymentId;
    qint64 leaseGeneration = 0;
    PaymentStatus status = PaymentStatus::Processing;   // processing: outcome unknown
    QString declineCode;
    qint64 now = 0;   // wall clock, for updated_at
    StoredResponse response;   // what is recorded for replay
    qint64 retentionMs = 0;
    // Recovery: keep a recorded 202 as it is (its replay answers the payment's current state).
    bool recovery = false;
    Card card;   // what the acquirer answered; empty while the outcome is unknown
    QString authorizationCode;
    // A wallet payment given up (declined with its cancel reason): the cancels waiting on it
    // (POST /v1/payments/{id}/cancel, their records in progress) are answered 200 with this body
    // (the payment) in the same transaction. Empty otherwise.
    QByteArray cancelAnswerBody;
};

// POST /v1/payments/{id}/cancel (API.md "Wallet payments"): the cancel's own key, in the one key
// space of payments and refunds, and the payment it gives up.
struct CancelClaim
{
    QString merchant;
    QString key;
    QByteArray fingerprint;
    QString paymentId;
    qint64 leaseMs = 0;
    qint64 now = 0;   // the record's created_at
};

struct CancelOutcome
{
    enum class Kind {
        // The payment's lease is this request's now (a new generation: whoever held it is
        // fenced), its cancel reason recorded and the key's record in progress: reverse it.
        Cancelling,
        Replay,   // the key's recorded answer
        Mismatch,   // 422: another request's key
        PaymentNotFound,   // 404, nothing recorded
        NotCancellable,   // 400, nothing recorded: `message` says why
        // The key's cancel is recorded in progress but the payment has ended meanwhile: answer
        // from `payment` (not recorded).
        Ended,
    };
    Kind kind = Kind::PaymentNotFound;
    Payment payment;   // Cancelling (with the lease generation held), Ended
    StoredResponse response;
    QString message;
    bool commitUnknown = false;   // as in ClaimOutcome
};

// Asks to own (merchant, key) for a new refund of `draft.paymentId`: in one transaction the
// key is claimed, the payment checked and the amount reserved against what remains (refunds
// still processing count), and the refund row written at step claimed under a lease.
struct RefundClaim
{
    QString merchant;
    QString key;
    QByteArray fingerprint;
    Refund draft;   // id, payment id, amount, reason, terminal, timestamps
    qint64 leaseMs = 0;
};

struct RefundClaimOutcome
{
    enum class Kind {
        Claimed,   // this request owns the key: call the acquirer
        Resume,   // an expired lease was taken over: resume from refund.step
        Replay,   // finished: send `response` again
        ReplayCurrent,   // finished while the outcome was unknown (202), or the record expired
        InProgress,   // 409
        Mismatch,   // 422: another request, or a payment's key
        Gone,   // nothing is stored for the key (a fenced holder's claim was released)
        PaymentNotFound,   // 404, nothing recorded
        NotRefundable,   // 400, nothing recorded: `message` says why
    };
    Kind kind = Kind::InProgress;
    Refund refund;   // Claimed, Resume (with the lease generation held), ReplayCurrent
    StoredResponse response;
    QString message;
    bool commitUnknown = false;   // as in ClaimOutcome
};

struct RefundSettlement
{
    QString merchant;
    QString key;
    QString refundId;
    QString paymentId;
    qint64 leaseGeneration = 0;
    qint64 amount = 0;
    RefundStatus status = RefundStatus::Processing;   // processing: outcome unknown
    QString failureCode;
    qint64 now = 0;
    StoredResponse response;
    qint64 retentionMs = 0;
    bool recovery = false;   // keep a recorded 202 as it is
};

// GET /v1/payments/{id}/refunds: whether the payment exists, and its refunds oldest first.
struct RefundList
{
    bool paymentFound = false;
    QList<Refund> refunds;
};

struct ListQuery
{
    QString merchant;
    QString terminalId;   // empty: every terminal
    qint64 createdAfter = -1;   // epoch ms, -1: no bound
    qint64 afterSeq = 0;   // cursor
    int limit = 100;
};

struct RecoveryItem
{
    Payment payment;   // with the lease generation recovery now holds
    bool recordCompleted = false;   // true: the client was answered 202; false: an orphaned claim
};

// The gateway's storage, narrow and asynchronous: every call is executed on the store's own
// thread(s) and answered on `context`'s thread. SQLite and PostgreSQL implement it (the same
// SqlGatewayStore with two dialects) and nothing above it changes.
//
// Leases (API.md promises 6 and 8): a claim holds a lease with a generation. Every takeover
// increments the generation; every write of a step names the generation it was made under
// and matches no row once another holder took over. Lease times are read from the store's
// clock (a monotonic clock of this machine for SQLite, the database's clock for PostgreSQL)
// when the unit executes, never from the caller's wall clock.
class GatewayStore
{
public:
    template <typename T>
    using Reply = std::function<void(bool ok, const QString &error, T value)>;

    virtual ~GatewayStore() = default;

    virtual bool open(QString *error) = 0;
    virtual void close() = 0;

    // Durable commits so far and the units of work they carried (group commit at work).
    struct Stats
    {
        qint64 commits = 0;
        qint64 units = 0;
    };
    virtual Stats stats() const = 0;

    virtual void claimPayment(const PaymentClaim &claim, QObject *context, Reply<ClaimOutcome> reply) = 0;
    // What a holder that finds itself fenced answers: the stored record (Replay, ReplayCurrent),
    // InProgress while another holder works, Mismatch, or Gone. Never takes anything over.
    virtual void storedAnswer(const QString &merchant, const QString &key, const QByteArray &fingerprint,
        QObject *context, Reply<ClaimOutcome> reply) = 0;
    virtual void settlePayment(const Settlement &settlement, QObject *context, Reply<StepWrite> reply) = 0;

    virtual void findPayment(const QString &merchant, const QString &id, QObject *context, Reply<Payment> reply) = 0;
    virtual void findPaymentByKey(const QString &merchant, const QString &key, QObject *context, Reply<Payment> reply) = 0;
    virtual void listPayments(const ListQuery &query, QObject *context, Reply<QList<Payment>> reply) = 0;

    // The writes of a lease holder that are the same for a payment and a refund (LeasedRow::of
    // either), each made only under the lease of `row.generation`; the store knows what the
    // row's kind touches beside it.
    //
    // "About to call the acquirer": records step acquirer_called and renews the lease, only
    // while the lease is still live.
    virtual void markAcquirerCalled(const LeasedRow &row, qint64 leaseMs, qint64 now, QObject *context,
        Reply<StepWrite> reply) = 0;
    // Gives the key back: only for a row the acquirer has certainly not acted on (still at step
    // claimed, or refused on its only call). A refund's reservation goes back with it.
    virtual void releaseClaim(const LeasedRow &row, bool acquirerRefused, QObject *context, Reply<StepWrite> reply) = 0;
    // Ends the lease early so that the next retry or recovery run may take over at once.
    virtual void releaseLease(const LeasedRow &row, QObject *context, Reply<StepWrite> reply) = 0;
    // The acquirer does not know the row's key (held under its lease, at acquirer_called).
    // Within `windowMs` of the row's creation, on the store's clock: Within, nothing written. Older:
    // needs_review set, the lease ended and the key's record completed with `response` (a 202).
    virtual void checkKeyWindow(const LeasedRow &row, qint64 windowMs, const StoredResponse &response,
        qint64 retentionMs, QObject *context, Reply<KeyWindow> reply) = 0;

    // Wallet payments given up. A cancel request: its key claimed, the payment taken over and
    // its cancel reason ("cancelled", unless one is recorded already) written, in one
    // transaction. The gateway's own timeout: `reason` recorded under the lease of
    // `row.generation`, only while the payment is processing; a reason recorded before stays.
    virtual void claimCancel(const CancelClaim &claim, QObject *context, Reply<CancelOutcome> reply) = 0;
    virtual void requestCancel(const LeasedRow &row, const QString &reason, QObject *context, Reply<StepWrite> reply) = 0;

    // Refunds: the same steps and fenced lease as payments, on the refund's row. Settling a
    // refund moves its amount from reserved to refunded (succeeded) or back to what remains
    // (failed); releasing a claim gives the reservation back with the key.
    virtual void claimRefund(const RefundClaim &claim, QObject *context, Reply<RefundClaimOutcome> reply) = 0;
    virtual void storedRefundAnswer(const QString &merchant, const QString &key, const QByteArray &fingerprint,
        QObject *context, Reply<RefundClaimOutcome> reply) = 0;
    virtual void settleRefund(const RefundSettlement &settlement, QObject *context, Reply<StepWrite> reply) = 0;
    virtual void findRefund(const QString &merchant, const QString &id, QObject *context, Reply<Refund> reply) = 0;
    virtual void findRefundByKey(const QString &merchant, const QString &key, QObject *context, Reply<Refund> reply) = 0;
    virtual void listRefunds(const QString &merchant, const QString &paymentId, QObject *context,
        Reply<RefundList> reply) = 0;
    // Refunds whose outcome is unknown and whose lease has lapsed, taken over as for payments.
    virtual void takeRefundRecoveryWork(qint64 leaseMs, int limit, QObject *context, Reply<QList<Refund>> reply) = 0;

    // Payments whose outcome is unknown and whose lease has lapsed: each is taken over (a new
    // generation) so that exactly one worker, of all instances, resolves it.
    virtual void takeRecoveryWork(qint64 leaseMs, int limit, QObject *context, Reply<QList<RecoveryItem>> reply) = 0;
    // Deletes finished response records past their retention; payments keep their keys forever.
    virtual void sweepExpiredRecords(qint64 now, int limit, QObject *context, Reply<int> reply) = 0;
    // Review (promise 11): every payment and refund marked needs_review, oldest first; and a
    // person's outcome for one, written as recovery writes: the lease taken over (a new
    // generation, only when no live lease is held), then the settlement under it.
    virtual void listNeedsReview(QObject *context, Reply<ReviewList> reply) = 0;
    virtual void resolveReview(const QString &id, const QString &outcome, qint64 leaseMs, QObject *context,
        Reply<ReviewResolution> reply) = 0;
    // Readiness: one transaction as every unit runs it (SQLite: BEGIN IMMEDIATE, so a write lock
    // held elsewhere fails it after the busy timeout; PostgreSQL: a round trip to the server).
    virtual void ping(QObject *context, Reply<bool> reply) = 0;
};

}   // namespace OncePay::Gateway
