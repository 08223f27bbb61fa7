#pragma once

#include "gateway/gatewaytypes.h"

#include <QObject>
#include <QString>

#include <functional>
#include <utility>

namespace OncePay::Gateway {

struct ChargeRequest
{
    QString merchant;
    QString key;   // the gateway passes the payment's idempotency key down
    qint64 amount = 0;
    QString currency;
    QString token;
    // The gateway's deadline for this call, ending before its lease does (0: the client's own
    // timeout). A client that queues requests gives up one whose bytes have not left by then.
    qint64 timeoutMs = 0;
};

// A refund against a charge, with the refund's own key: idempotent by (merchant, key) like a
// charge, and bounded by the bank itself (never more than the charge, in total).
struct RefundCall
{
    QString merchant;
    QString key;   // the refund's idempotency key
    QString chargeKey;   // the payment's key: the charge to refund
    qint64 amount = 0;
    QString currency;
    qint64 timeoutMs = 0;   // as in ChargeRequest
};

struct AcquirerAnswer
{
    enum class Kind {
        Approved,
        Declined,
        AnswerLost,   // the request may have been executed but no answer came back
        Refused,   // refused before charging: nothing happened
        NotFound,   // lookup: the acquirer never saw this key
        // A wallet payment: the customer has not confirmed on the phone yet. Nothing is kept
        // until they do; the gateway asks again, and gives it up (reverse) past its timeout.
        Pending,
        // A wallet payment given up at the acquirer (reverse): never charged, or charged and
        // undone. Money is not kept either way.
        Reversed,
        // Refused, and nothing moved for this request, because of what the acquirer already
        // holds (declineCode says what): "key_reused", the key was sent before with another
        // request (it keeps what it did with that one); "charge_refunded", a reversal of a charge
        // refunded in part or in whole (it stands); "charge_reversed", a refund of a reversed charge.
        Conflict,
    };
    AcquirerAnswer() = default;
    AcquirerAnswer(Kind kind, QString declineCode, QString error, Card card = {}, QString authorizationCode = {})
        : kind(kind)
        , declineCode(std::move(declineCode))
        , error(std::move(error))
        , card(std::move(card))
        , authorizationCode(std::move(authorizationCode))
    {
    }

    // Refused, nothing moved: what the acquirer holds for the request forbids it (Conflict).
    static AcquirerAnswer conflict(const char *code, const char *why);

    // The outcome as the acquirer-calls metrics label it: "approved", "answer_lost", ...
    QByteArray metricsLabel() const;

    Kind kind = Kind::AnswerLost;
    // Declined: why (a charge: "card_declined", ...; a refund: "refund_declined",
    // "charge_not_found", "amount_exceeds_charge"). Conflict: what the acquirer holds.
    QString declineCode;
    QString error;
    // Approved and Declined: the card the acquirer charged (or declined); Approved: its
    // authorization code. The receipt prints both.
    Card card;
    QString authorizationCode;
};

class AcquirerSimulation;

// The bank as the gateway sees it: idempotent by (merchant, key), with a ledger of its own
// outside the gateway's transactions. What an adapter for an acquirer implements: the money
// calls below, nothing else (docs/architecture.md, "Adding an acquirer"). Embedded
// (AcquirerSimulator), the simulator as a separate service reached over HTTP (HttpAcquirer), or
// an adapter for a real acquirer's protocol; the payment service cannot tell them apart.
// Every callback runs on `context`'s thread and is dropped when `context` is gone.
class Acquirer : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;
    using AnswerCallback = std::function<void(const AcquirerAnswer &)>;

    virtual bool open(QString *error) = 0;
    virtual void close() = 0;

    // Charges once per (merchant, key); a key seen before answers what it answered then, and
    // the key with another amount, currency or payment method is a Conflict ("key_reused").
    virtual void charge(const ChargeRequest &request, QObject *context, AnswerCallback done) = 0;
    // What the acquirer knows of a key; NotFound when it never charged it; AnswerLost when it
    // could not be asked.
    virtual void lookup(const QString &merchant, const QString &key, QObject *context, AnswerCallback done) = 0;

    // Refunds once per (merchant, key): Approved (the money went back), Declined (the bank
    // would not: unknown or declined charge, more than the charge in total), Refused (nothing
    // happened), AnswerLost (it may have refunded), Conflict (nothing moved: the key was used for
    // another refund, or the charge was reversed). A key seen before answers what it did then.
    virtual void refund(const RefundCall &call, QObject *context, AnswerCallback done) = 0;
    // Gives up a wallet payment by its key, once however often asked: Reversed when nothing is
    // kept (never charged, or charged and undone: the charge's row reads `reversed`), Declined
    // when the charge had been declined anyway, Conflict ("charge_refunded") when money went back
    // on the charge already (it stands, nothing moves), Refused / AnswerLost as for a charge. A
    // charge with the key arriving after the reversal is never made.
    virtual void reverse(const QString &merchant, const QString &key, QObject *context, AnswerCallback done) = 0;
    // What the acquirer knows of a refund's key; NotFound when it never refunded with it.
    virtual void lookupRefund(const QString &merchant, const QString &key, QObject *context, AnswerCallback done) = 0;

    // The simulated bank's ledgers and modes (the demo's /v1/_sim/acquirer), where this acquirer
    // is the simulator; null for a real acquirer.
    virtual AcquirerSimulation *simulated() { return nullptr; }
};

}   // namespace OncePay::Gateway
