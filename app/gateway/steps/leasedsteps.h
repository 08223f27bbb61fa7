#pragma once

#include "gateway/acquirer/acquirer.h"
#include "gateway/acquirer/acquirerdeadlines.h"
#include "gateway/steps/faultpoints.h"
#include "gateway/store/gatewaystore.h"
#include "gateway/answers.h"
#include "gateway/metrics.h"
#include "gateway/paymentconfig.h"
#include "gateway/store/timedreply.h"

#include <QHash>
#include <QObject>
#include <QSet>

#include <functional>

namespace OncePay::Gateway {

// The steps after a claim, once for every kind of money movement, each written under the
// holder's fenced lease:
//
//   acquirer_called, recorded before the call (only under a live lease)
//   -> the acquirer's answer to the call with the record's own key
//   -> settled with the recorded answer (201 / 402), or 202 while the outcome is unknown;
//
// and what a holder that is not the first does: ask the acquirer by key before anything else,
// call again only within the acquirer's key window (past it, a person reviews it), answer from
// the store when fenced, give the key back only when nothing can have moved. A request or a
// recovery run drives them. Lives on the HTTP thread; never blocks it.
//
// What differs between payments and refunds is a `Kind` (PaymentKind, RefundKind below): the
// record and its settlement, the store's and the acquirer's calls, the answer, the metric labels,
// the fault points and the words of the log. Nothing else may differ.
template <typename Kind>
class LeasedSteps : public QObject
{
public:
    using Record = typename Kind::Record;
    using Respond = std::function<void(const Http::HttpAnswer &)>;

    LeasedSteps(const PaymentConfig &config, GatewayStore *store, Acquirer *acquirer, Metrics *metrics,
        QObject *parent = nullptr);

    // Recovery took `record`'s lease over: resume as a request would; nobody waits for the
    // answer (`respond` learns how it ended, and a recorded 202 is kept).
    void resumeForRecovery(const Record &record, Respond respond);
    // Our own call to the acquirer for this record is still out.
    bool acquirerCallInFlight(const QString &id) const { return m_callsInFlight.contains(id); }

protected:
    // One holder of a record's lease: a request, or a recovery run. Carries what every step
    // needs to write under the lease and to answer.
    struct Work
    {
        Record record;   // with the lease generation held
        Respond respond;
        bool recovery = false;   // keep a recorded 202; nobody waits for the answer
        bool firstCall = false;   // this holder moved the step from claimed: no earlier call exists
        // A cancel request drives it (POST /v1/payments/{id}/cancel): fenced, it answers 409 for
        // its own key, never the payment's stored answer.
        bool cancelRequest = false;
        // On the monotonic clock: until when the lease is certainly still held, counted from
        // before the write that renewed it (acquirer_called) was sent. 0: not yet known.
        qint64 leaseHeldUntil = 0;
    };

    // After a claim: the first holder calls, a holder taking over resumes.
    void callAcquirer(Work work);
    // The claim itself failed (a full disk, a lock, a lost connection). An earlier request with
    // the key may already have moved money, so the answer comes from what the store holds for
    // the key, read on its own (a full disk still reads): 503, "nothing will happen" (promise
    // 10), only when the store answered that it holds nothing (found by oncepay-sim, seed 15).
    // A store that cannot be read at all, or a claim whose COMMIT answer was lost, cannot tell
    // whether a record that recovery will still send to the acquirer exists: 500
    // outcome-unknown (promise 7; tst_storeunavailable unreadableAfterTheCall).
    void answerFailedClaim(const Record &draft, bool commitUnknown, const Respond &respond);
    // What the store holds for the record's key, answered: a replay, 422, 409 while a holder
    // works; `unreadable` when the store cannot be read, `nothingStored` when it holds nothing.
    void answerFromStore(const Record &record, const Respond &respond, const Http::HttpAnswer &unreadable,
        const Http::HttpAnswer &nothingStored);
    void resume(Work work);
    // The record was given up (a wallet payment's cancel reason is recorded, under the lease
    // held): reverse it at the acquirer, then settle what the reversal says. Asked again by
    // whoever holds it next when the answer is lost.
    void reverseAndSettle(Work work);
    // An outcome was recorded and is about to be answered (not for a recovery run, nor a 202).
    virtual void settledForClient(const Work &, const typename Kind::Settlement &) {}

    // A store reply whose latency is observed (and a failure logged) before it runs.
    template <typename T>
    GatewayStore::Reply<T> timed(GatewayStore::Reply<T> reply)
    {
        return timedReply<T>(m_metrics, std::move(reply));
    }
    void reach(const char *step);   // the kind's fault point of that name

    PaymentConfig m_config;
    GatewayStore *m_store;
    Acquirer *m_acquirer;
    Metrics *m_metrics;
    FaultPoints m_faults;

private:
    // Calls the acquirer, only while the lease is still held (promise 8), with a deadline that
    // ends before the lease does.
    void call(Work work);
    // How long before the lease ends a holder stops calling (the deadline timer's slack and the
    // clocks' drift): a tenth of the lease.
    qint64 leaseMargin() const { return qMax<qint64>(1, m_config.leaseMs / 10); }
    void callAgainIfRemembered(Work work);
    void releaseRefused(Work work, const Http::HttpAnswer &refused, qint64 firstTryAt);
    void releaseLeaseAndAnswerUnknown(const Work &work);
    void settle(Work work, const AcquirerAnswer &answer);
    // A wallet payment past its confirmation time: its reason recorded, then reversed.
    void giveUp(Work work, const QString &reason);
    // A reversal the acquirer refused (the charge was refunded): settled as the acquirer has it.
    void settleAsCharged(Work work);
    // Whether a record that may time out has waited past walletConfirmTimeoutMs: since its
    // creation on the wall clock, or since this process first saw it waiting on its monotonic
    // clock (a wall clock set back, or another machine's, never holds it for longer).
    bool waitedTooLong(const Record &record);
    void writeSettlement(Work work, const typename Kind::Settlement &s, const Http::HttpAnswer &answer, qint64 firstTryAt);
    void answerFenced(const Work &work);
    static void answerNothing(const Work &work, const Http::HttpAnswer &answer);
    QByteArray acquirerLabel(const char *call, const QByteArray &outcome) const;

    QSet<QString> m_callsInFlight;   // record ids
    QHash<QString, qint64> m_waitingSince;   // record id -> monotonicMs() when first seen waiting
    AcquirerDeadlines m_deadlines;
};

// A payment: charged by the acquirer, settled succeeded / declined.
struct PaymentKind
{
    using Record = Payment;
    using Settlement = Gateway::Settlement;
    using StoredOutcome = ClaimOutcome;
    static constexpr const char *noun = "payment";
    static constexpr const char *faultPrefix = "";   // after_claim, after_mark_called, ...
    static constexpr const char *callMetric = "charge";
    static constexpr const char *lookupMetric = "lookup";
    static constexpr const char *refusedWords = "The acquirer refused the payment before charging: %1";

    static Http::HttpAnswer answerFor(const Payment &p) { return Answers::forPayment(p); }
    static const Payment &recordOf(const ClaimOutcome &o) { return o.payment; }
    static bool isProcessing(const Payment &p) { return p.status == PaymentStatus::Processing; }
    // The acquirer's answer (Approved, Declined or AnswerLost) on the record.
    static void apply(Payment &p, const AcquirerAnswer &a);
    static Settlement settlement(const Payment &p, const Http::HttpAnswer &answer, qint64 now, qint64 retentionMs, bool recovery);

    static void settle(GatewayStore *s, const Settlement &st, QObject *c, GatewayStore::Reply<StepWrite> r)
    {
        s->settlePayment(st, c, std::move(r));
    }
    static void storedAnswer(GatewayStore *s, const Payment &p, QObject *c, GatewayStore::Reply<ClaimOutcome> r)
    {
        s->storedAnswer(p.merchant, p.idempotencyKey, p.fingerprint, c, std::move(r));
    }
    static void call(Acquirer *a, const Payment &p, qint64 timeoutMs, QObject *c, Acquirer::AnswerCallback done)
    {
        a->charge({p.merchant, p.idempotencyKey, p.amount, p.currency, p.paymentMethod, timeoutMs}, c, std::move(done));
    }
    static void lookup(Acquirer *a, const Payment &p, QObject *c, Acquirer::AnswerCallback done)
    {
        a->lookup(p.merchant, p.idempotencyKey, c, std::move(done));
    }
    // Wallet payments (API.md "Wallet payments"): given up once its reason is recorded; waiting
    // too long for the customer past the gateway's timeout.
    static bool givenUp(const Payment &p) { return !p.cancelReason.isEmpty(); }
    static void markGivenUp(Payment &p, const QString &reason)
    {
        if (p.cancelReason.isEmpty())   // the first reason recorded stays
            p.cancelReason = reason;
    }
    static bool mayTimeOut(const Payment &p) { return p.isWallet(); }
    static void reverse(Acquirer *a, const Payment &p, QObject *c, Acquirer::AnswerCallback done)
    {
        a->reverse(p.merchant, p.idempotencyKey, c, std::move(done));
    }
};

// A refund, with its own key, against the payment's charge: settled succeeded (the money went
// back) / failed (the acquirer declined, nothing moved; the reservation goes back).
struct RefundKind
{
    using Record = Refund;
    using Settlement = RefundSettlement;
    using StoredOutcome = RefundClaimOutcome;
    static constexpr const char *noun = "refund";
    static constexpr const char *faultPrefix = "refund_";   // refund_after_claim, ...
    static constexpr const char *callMetric = "refund";
    static constexpr const char *lookupMetric = "refund_lookup";
    static constexpr const char *refusedWords = "The acquirer refused the refund before acting: %1";

    static Http::HttpAnswer answerFor(const Refund &r) { return Answers::forRefund(r); }
    static const Refund &recordOf(const RefundClaimOutcome &o) { return o.refund; }
    static bool isProcessing(const Refund &r) { return r.status == RefundStatus::Processing; }
    static void apply(Refund &r, const AcquirerAnswer &a);
    static Settlement settlement(const Refund &r, const Http::HttpAnswer &answer, qint64 now, qint64 retentionMs, bool recovery);

    static void settle(GatewayStore *s, const Settlement &st, QObject *c, GatewayStore::Reply<StepWrite> rp)
    {
        s->settleRefund(st, c, std::move(rp));
    }
    static void storedAnswer(GatewayStore *s, const Refund &r, QObject *c, GatewayStore::Reply<RefundClaimOutcome> rp)
    {
        s->storedRefundAnswer(r.merchant, r.idempotencyKey, r.fingerprint, c, std::move(rp));
    }
    static void call(Acquirer *a, const Refund &r, qint64 timeoutMs, QObject *c, Acquirer::AnswerCallback done)
    {
        a->refund({r.merchant, r.idempotencyKey, r.chargeKey, r.amount, r.currency, timeoutMs}, c, std::move(done));
    }
    static void lookup(Acquirer *a, const Refund &r, QObject *c, Acquirer::AnswerCallback done)
    {
        a->lookupRefund(r.merchant, r.idempotencyKey, c, std::move(done));
    }
    // A refund is never given up: it is asked about until the acquirer answers.
    static bool givenUp(const Refund &) { return false; }
    static void markGivenUp(Refund &, const QString &) {}
    static bool mayTimeOut(const Refund &) { return false; }
    static void reverse(Acquirer *, const Refund &, QObject *, const Acquirer::AnswerCallback &done)
    {
        done({AcquirerAnswer::Kind::Refused, {}, QStringLiteral("a refund cannot be reversed")});
    }
};

extern template class LeasedSteps<PaymentKind>;
extern template class LeasedSteps<RefundKind>;

}   // namespace OncePay::Gateway
