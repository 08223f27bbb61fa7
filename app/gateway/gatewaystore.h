#pragma once

#include "gatewaytypes.h"

#include <QList>
#include <QObject>
#include <QString>

#include <functional>

namespace OncePay::Gateway {

// Asks to own (merchant, key) for a new payment described by `draft`.
struct PaymentClaim
{
    QString merchant;
    QString key;
    QByteArray fingerprint;
    Payment draft;       // id, fields, status processing, step claimed
    qint64 now = 0;
    qint64 leaseMs = 0;
};

struct ClaimOutcome
{
    enum class Kind {
        Claimed,        // this request owns the key: execute the payment
        Resume,         // a dead owner's lease was taken over: resume from payment.step
        Replay,         // finished: send `response` again
        ReplayCurrent,  // finished while the outcome was unknown (202), or the record expired:
                        // answer from the payment's current state
        InProgress,     // another request owns the key right now: 409
        Mismatch,       // same key, different request: 422
    };
    Kind kind = Kind::InProgress;
    Payment payment;
    StoredResponse response;
    qint64 responseExpiresAt = 0;   // Replay: when the recorded response stops being replayed
};

struct Settlement
{
    QString merchant;
    QString key;
    QString paymentId;
    QString status;           // processing (outcome unknown), succeeded or declined
    QString declineCode;
    qint64 now = 0;
    StoredResponse response;  // what is recorded for replay
    qint64 retentionMs = 0;
    // Recovery: settle only a payment still processing, and keep a recorded 202 as it is.
    bool recovery = false;
};

struct RefundRequest
{
    QString merchant;
    QString key;
    QByteArray fingerprint;
    Refund draft;
    qint64 now = 0;
    qint64 retentionMs = 0;
};

struct RefundOutcome
{
    enum class Kind { Created, Replay, InProgress, Mismatch, PaymentNotFound, NotRefundable };
    Kind kind = Kind::InProgress;
    StoredResponse response;
    QString message;          // why it is not refundable
};

struct ListQuery
{
    QString merchant;
    QString terminalId;       // empty: every terminal
    qint64 createdAfter = -1; // epoch ms, -1: no bound
    qint64 afterSeq = 0;      // cursor
    int limit = 100;
};

struct RecoveryItem
{
    Payment payment;
    bool recordCompleted = false;   // true: the client was answered 202; false: an orphaned claim
};

// The gateway's storage, narrow and asynchronous: every call is executed on the store's own
// thread (batched into durable transactions) and answered on `context`'s thread. A backend
// (SQLite now, PostgreSQL later) implements this and nothing above it changes.
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
    virtual void markAcquirerCalled(const QString &paymentId, qint64 now, QObject *context, Reply<bool> reply) = 0;
    virtual void settlePayment(const Settlement &settlement, QObject *context, Reply<bool> reply) = 0;
    // Gives the key back (the acquirer refused before charging, or never was called).
    virtual void releaseClaim(const QString &merchant, const QString &key, const QString &paymentId,
                              QObject *context, Reply<bool> reply) = 0;

    virtual void findPayment(const QString &merchant, const QString &id, QObject *context, Reply<Payment> reply) = 0;
    virtual void findPaymentByKey(const QString &merchant, const QString &key, QObject *context, Reply<Payment> reply) = 0;
    virtual void listPayments(const ListQuery &query, QObject *context, Reply<QList<Payment>> reply) = 0;

    // Claim, bound check, refund row, payment update and the recorded answer in one transaction.
    virtual void createRefund(const RefundRequest &request, QObject *context, Reply<RefundOutcome> reply) = 0;

    // Payments whose outcome is unknown and that no live request owns; orphaned claims are
    // taken over (their lease renewed) so that exactly one worker resolves each.
    virtual void takeRecoveryWork(qint64 now, qint64 leaseMs, int limit, QObject *context,
                                  Reply<QList<RecoveryItem>> reply) = 0;
    // Deletes finished response records past their retention; payments keep their keys forever.
    virtual void sweepExpiredRecords(qint64 now, int limit, QObject *context, Reply<int> reply) = 0;
};

} // namespace OncePay::Gateway
