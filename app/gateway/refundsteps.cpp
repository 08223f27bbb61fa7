#include "refundsteps.h"

#include "paymentlog.h"
#include "timedreply.h"
#include "timeutil.h"

#include <QDateTime>

#include <utility>

namespace OncePay::Gateway {

namespace {

HttpAnswer notRefundable(const QString &message)
{
    Problem p = Problem::make(400, QStringLiteral("validation-failed"), QStringLiteral("Validation failed"), message);
    p.errors.append({QStringLiteral("amount"), message});
    return HttpAnswer::problem(p);
}
} // namespace

RefundSteps::RefundSteps(const PaymentConfig &config, GatewayStore *store, Acquirer *acquirer, Metrics *metrics,
                         QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_store(store)
    , m_acquirer(acquirer)
    , m_metrics(metrics)
    , m_deadlines(config.acquirerTimeoutMs)
    , m_faults(config.faultKillAt, config.faultPauseAt)
{
}

template <typename T>
GatewayStore::Reply<T> RefundSteps::timed(GatewayStore::Reply<T> reply)
{
    return timedReply<T>(m_metrics, std::move(reply));
}

void RefundSteps::answerNothing(const Work &work, const HttpAnswer &answer) const
{
    work.respond(work.recovery ? HttpAnswer{} : answer);
}

void RefundSteps::createRefund(const Caller &caller, const QString &key, const QByteArray &fingerprint,
                               Refund fields, Respond respond)
{
    const qint64 now = nowMs();
    fields.id = newResourceId("re_");
    fields.terminalId = caller.terminal;
    fields.status = RefundStatus::Processing;
    fields.step = PaymentStep::Claimed;
    fields.createdAt = fields.updatedAt = now;
    const RefundClaim claim{caller.merchant, key, fingerprint, fields, m_config.leaseMs};
    m_store->claimRefund(claim, this, timed<RefundClaimOutcome>([this, respond](bool ok, const QString &,
                                                                                RefundClaimOutcome o) {
        if (!ok)
            return respond(Answers::storeUnavailable());   // nothing was claimed, nothing executed
        using Kind = RefundClaimOutcome::Kind;
        switch (o.kind) {
        case Kind::Claimed:
            m_faults.reach("refund_after_claim");
            return callAcquirer({o.refund, respond, false, true});
        case Kind::Resume:
            qCInfo(lcPayments) << "resuming refund" << o.refund.id << "at step" << paymentStepName(o.refund.step)
                               << "lease generation" << o.refund.leaseGeneration;
            m_metrics->count("oncepay_lease_takeovers_total", "by=\"request\"");
            return resume({o.refund, respond, false, false});
        case Kind::Replay:
            m_metrics->count("oncepay_idempotent_replays_total");
            return respond(HttpAnswer::fromStored(o.response).markReplayed());
        case Kind::ReplayCurrent:
            m_metrics->count("oncepay_idempotent_replays_total");
            return respond(HttpAnswer::forRefund(o.refund).markReplayed());
        case Kind::InProgress:
        case Kind::Gone:
            m_metrics->count("oncepay_idempotency_conflicts_total");
            return respond(Answers::keyInUse());
        case Kind::Mismatch:
            m_metrics->count("oncepay_idempotency_mismatches_total");
            return respond(Answers::keyReused());
        case Kind::PaymentNotFound:
            return respond(Answers::notFound(QStringLiteral("No such payment.")));
        case Kind::NotRefundable:
            return respond(notRefundable(o.message));
        }
    }));
}

void RefundSteps::callAcquirer(Work work)
{
    // Recorded before the call, under a live lease only: after a crash or a takeover,
    // acquirer_called means "ask the acquirer first", and a holder paused past its lease stops.
    m_store->markRefundAcquirerCalled(work.refund, m_config.leaseMs, nowMs(), this,
                                      timed<StepWrite>([this, work](bool ok, const QString &, StepWrite w) mutable {
        if (!ok) {
            // Not called by us; but a step that may have been written (the answer to COMMIT was
            // lost) is resumed as acquirer_called: never 503 then (promise 10).
            return answerNothing(work, w == StepWrite::Unconfirmed ? Answers::outcomeUnknown()
                                                                   : Answers::storeUnavailable());
        }
        if (w == StepWrite::Fenced)
            return answerFenced(work);
        m_faults.reach("refund_after_mark_called");
        work.refund.step = PaymentStep::AcquirerCalled;
        send(std::move(work));
    }));
}

void RefundSteps::send(Work work)
{
    const Refund &r = work.refund;
    m_metrics->count("oncepay_acquirer_calls_total", "kind=\"refund\",outcome=\"sent\"");
    m_callsInFlight.insert(r.id);
    const std::shared_ptr<bool> answered = m_deadlines.start([this, work] {
        settle(work, {AcquirerAnswer::Kind::AnswerLost, {}, QStringLiteral("acquirer timeout")});
    });
    const RefundCall call{r.merchant, r.idempotencyKey, r.chargeKey, r.amount, r.currency};
    m_acquirer->refund(call, this, [this, work, answered](const AcquirerAnswer &a) {
        m_callsInFlight.remove(work.refund.id);
        m_metrics->count("oncepay_acquirer_calls_total", "kind=\"refund\",outcome=\"" + a.metricsLabel() + '"');
        if (*answered)
            return;   // too late: answered 202, recovery asks the acquirer
        *answered = true;
        m_faults.reach("refund_after_acquirer");
        settle(work, a);
    });
}

void RefundSteps::resume(Work work)
{
    if (work.refund.step == PaymentStep::Claimed) {
        // The previous holder never recorded a call and no longer can: nobody called the acquirer.
        work.firstCall = true;
        return callAcquirer(std::move(work));
    }
    // The acquirer may have refunded: ask it by the refund's key before anything else.
    m_metrics->count("oncepay_acquirer_calls_total", "kind=\"refund_lookup\",outcome=\"sent\"");
    m_acquirer->lookupRefund(work.refund.merchant, work.refund.idempotencyKey, this, [this, work](const AcquirerAnswer &a) {
        m_metrics->count("oncepay_acquirer_calls_total", "kind=\"refund_lookup\",outcome=\"" + a.metricsLabel() + '"');
        if (a.kind == AcquirerAnswer::Kind::NotFound)
            return callAgainIfRemembered(work);
        if (a.kind == AcquirerAnswer::Kind::AnswerLost || a.kind == AcquirerAnswer::Kind::Refused) {
            // Could not ask: give the lease back so that the next retry or recovery asks again.
            m_store->releaseRefundLease(work.refund, this, timed<StepWrite>([this, work](bool, const QString &, StepWrite) {
                answerNothing(work, Answers::outcomeUnknown());
            }));
            return;
        }
        settle(work, a);
    });
}

void RefundSteps::callAgainIfRemembered(Work work)
{
    // As for payments: within the acquirer's key window the same key refunds at most once; past
    // it the acquirer may have forgotten a refund it made, and a person settles it (promise 11).
    Refund review = work.refund;
    review.needsReview = true;
    review.updatedAt = nowMs();
    const HttpAnswer answer = HttpAnswer::forRefund(review);   // 202 processing, needs_review
    m_store->checkRefundKeyWindow(review, m_config.acquirerKeyWindowMs, answer.toStored(), m_config.retentionMs, this,
                                  timed<KeyWindow>([this, work, answer](bool ok, const QString &, KeyWindow w) {
        if (!ok) {
            m_store->releaseRefundLease(work.refund, this, timed<StepWrite>([this, work](bool, const QString &, StepWrite) {
                answerNothing(work, Answers::outcomeUnknown());
            }));
            return;
        }
        switch (w) {
        case KeyWindow::Within:
            return callAcquirer(work);
        case KeyWindow::Fenced:
            return answerFenced(work);
        case KeyWindow::Review:
            qCWarning(lcPayments) << "refund" << work.refund.id << "is older than the acquirer's key window and"
                                  << "unknown to it: left for review (oncepay-gateway review)";
            m_metrics->count("oncepay_needs_review_total", "kind=\"refund\"");
            return answerNothing(work, answer);
        }
    }));
}

void RefundSteps::releaseRefused(Work work, const HttpAnswer &refused, qint64 firstTryAt)
{
    m_store->releaseRefundClaim(work.refund, true, this, timed<StepWrite>([this, work, refused, firstTryAt](
                                                              bool ok, const QString &, StepWrite w) {
        if (ok && w == StepWrite::Fenced)
            return answerFenced(work);
        if (ok)
            return answerNothing(work, refused);
        // Not released: the record still says acquirer_called and recovery would refund after the
        // lease; 502 would promise that nothing happens (promise 10). Keep trying while the
        // client waits, then 500 outcome-unknown.
        const qint64 waited = QDateTime::currentMSecsSinceEpoch() - firstTryAt;
        m_metrics->count("oncepay_release_retries_total");
        if (waited >= m_config.acquirerTimeoutMs)
            answerNothing(work, Answers::outcomeUnknown());
        if (waited >= m_config.leaseMs) {
            qCWarning(lcPayments) << "refund" << work.refund.id << "refused, but its claim could not be released;"
                                  << "left to recovery";
            return;
        }
        QTimer::singleShot(200, this, [this, work, refused, firstTryAt] { releaseRefused(work, refused, firstTryAt); });
    }));
}

void RefundSteps::answerFenced(const Work &work)
{
    const Refund &r = work.refund;
    qCWarning(lcPayments) << "refund" << r.id << "lease generation" << r.leaseGeneration
                          << "was taken over: answering from the store";
    m_metrics->count("oncepay_lease_fenced_total");
    if (work.recovery)
        return work.respond(HttpAnswer{});
    m_store->storedRefundAnswer(r.merchant, r.idempotencyKey, r.fingerprint, this,
                                timed<RefundClaimOutcome>([respond = work.respond](bool ok, const QString &,
                                                                                   RefundClaimOutcome o) {
        if (!ok)
            return respond(Answers::outcomeUnknown());
        switch (o.kind) {
        case RefundClaimOutcome::Kind::Replay:
            return respond(HttpAnswer::fromStored(o.response).markReplayed());
        case RefundClaimOutcome::Kind::ReplayCurrent:
            return respond(HttpAnswer::forRefund(o.refund).markReplayed());
        case RefundClaimOutcome::Kind::Mismatch:
            return respond(Answers::keyReused());
        default:
            // The new holder is working, or released a claim nobody had executed: retry.
            return respond(Answers::keyInUse());
        }
    }));
}

void RefundSteps::settle(Work work, const AcquirerAnswer &answer)
{
    Refund &refund = work.refund;
    switch (answer.kind) {
    case AcquirerAnswer::Kind::Refused: {
        if (!work.firstCall) {
            // An earlier holder's call may still reach the acquirer: the refund and its
            // reservation are kept and recovery goes on asking, so money can still move: 500,
            // never 502 (promise 10).
            m_store->releaseRefundLease(refund, this, timed<StepWrite>([this, work](bool, const QString &, StepWrite) {
                answerNothing(work, Answers::outcomeUnknown());
            }));
            return;
        }
        // Nothing moved and no other call exists: give the key and the reserved amount back,
        // so that a retry executes again (not recorded).
        const HttpAnswer refused = Answers::acquirerUnavailable(
            QStringLiteral("The acquirer refused the refund before acting: %1").arg(answer.error));
        releaseRefused(std::move(work), refused, QDateTime::currentMSecsSinceEpoch());
        return;
    }
    case AcquirerAnswer::Kind::NotFound:
        Q_UNREACHABLE();
        return;
    case AcquirerAnswer::Kind::Approved:
        refund.status = RefundStatus::Succeeded;
        break;
    case AcquirerAnswer::Kind::Declined:
        refund.status = RefundStatus::Failed;
        refund.failureCode = answer.declineCode.isEmpty() ? QStringLiteral("refund_declined") : answer.declineCode;
        break;
    case AcquirerAnswer::Kind::AnswerLost:
        refund.status = RefundStatus::Processing;
        break;
    }
    const qint64 now = nowMs();
    refund.updatedAt = now;
    if (refund.status != RefundStatus::Processing)
        refund.step = PaymentStep::Settled;
    const HttpAnswer answerToSend = HttpAnswer::forRefund(refund);
    const RefundSettlement s{refund.merchant, refund.idempotencyKey, refund.id, refund.paymentId,
                             refund.leaseGeneration, refund.amount, refund.status, refund.failureCode, now,
                             answerToSend.toStored(), m_config.retentionMs, work.recovery};
    writeSettlement(std::move(work), s, answerToSend, QDateTime::currentMSecsSinceEpoch());
}

void RefundSteps::writeSettlement(Work work, const RefundSettlement &s, const HttpAnswer &answer, qint64 firstTryAt)
{
    m_store->settleRefund(s, this, timed<StepWrite>([this, work, s, answer, firstTryAt](
                                                        bool ok, const QString &, StepWrite w) mutable {
        if (!ok) {
            // The acquirer may have refunded: never 503 (promise 7). Keep trying to record the
            // outcome; after a lease's time recovery takes over.
            const qint64 waited = QDateTime::currentMSecsSinceEpoch() - firstTryAt;
            m_metrics->count("oncepay_settle_retries_total");
            if (waited >= m_config.acquirerTimeoutMs)
                answerNothing(work, Answers::outcomeUnknown());
            if (waited >= m_config.leaseMs) {
                qCWarning(lcPayments) << "refund" << s.refundId << "outcome not recorded; left to recovery";
                return;
            }
            QTimer::singleShot(200, this, [this, work, s, answer, firstTryAt] {
                writeSettlement(work, s, answer, firstTryAt);
            });
            return;
        }
        if (w == StepWrite::Fenced)
            return answerFenced(work);
        m_faults.reach("refund_after_settle");
        work.respond(answer);
    }));
}

void RefundSteps::resumeForRecovery(const Refund &refund, Respond respond)
{
    resume({refund, std::move(respond), true, false});
}

} // namespace OncePay::Gateway
