#include "paymentsteps.h"

#include "paymentlog.h"
#include "timedreply.h"
#include "timeutil.h"

#include <QDateTime>

#include <optional>
#include <utility>

namespace OncePay::Gateway {

PaymentSteps::PaymentSteps(const PaymentConfig &config, GatewayStore *store, Acquirer *acquirer, Metrics *metrics,
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
GatewayStore::Reply<T> PaymentSteps::timed(GatewayStore::Reply<T> reply)
{
    return timedReply<T>(m_metrics, std::move(reply));
}

void PaymentSteps::createPayment(const Caller &caller, const QString &key, const QByteArray &fingerprint,
                                 Payment fields, Respond respond)
{
    const qint64 now = nowMs();
    fields.id = newResourceId("pay_");
    fields.merchant = caller.merchant;
    fields.terminalId = caller.terminal;
    fields.idempotencyKey = key;
    fields.fingerprint = fingerprint;
    fields.status = PaymentStatus::Processing;
    fields.step = PaymentStep::Claimed;
    fields.createdAt = fields.updatedAt = now;
    if (const std::optional<ReplayCache::Answer> cached = m_replays.lookup(caller.merchant, key, now)) {
        if (cached->fingerprint != fingerprint) {
            m_metrics->count("oncepay_idempotency_mismatches_total");
            return respond(Answers::keyReused());
        }
        m_metrics->count("oncepay_idempotent_replays_total");
        return respond(HttpAnswer::fromStored(cached->response).markReplayed());
    }
    const PaymentClaim claim{caller.merchant, key, fingerprint, fields, m_config.leaseMs};

    m_store->claimPayment(claim, this, timed<ClaimOutcome>([this, respond, merchant = caller.merchant, key, fingerprint](
                                                               bool ok, const QString &, ClaimOutcome o) {
        if (!ok)
            return respond(Answers::storeUnavailable());   // nothing was claimed, nothing executed
        switch (o.kind) {
        case ClaimOutcome::Kind::Claimed:
            m_faults.reach("after_claim");
            callAcquirer({o.payment, respond, false, true});
            return;
        case ClaimOutcome::Kind::Resume:
            qCInfo(lcPayments) << "resuming payment" << o.payment.id << "at step" << paymentStepName(o.payment.step)
                               << "lease generation" << o.payment.leaseGeneration;
            m_metrics->count("oncepay_lease_takeovers_total", "by=\"request\"");
            resume({o.payment, respond, false, false});
            return;
        case ClaimOutcome::Kind::Replay:
            m_metrics->count("oncepay_idempotent_replays_total");
            m_replays.remember(merchant, key, fingerprint, o.response, o.responseExpiresAt);
            respond(HttpAnswer::fromStored(o.response).markReplayed());
            return;
        case ClaimOutcome::Kind::ReplayCurrent:
            m_metrics->count("oncepay_idempotent_replays_total");
            respond(HttpAnswer::forPayment(o.payment).markReplayed());
            return;
        case ClaimOutcome::Kind::InProgress:
        case ClaimOutcome::Kind::Gone:
            m_metrics->count("oncepay_idempotency_conflicts_total");
            respond(Answers::keyInUse());
            return;
        case ClaimOutcome::Kind::Mismatch:
            m_metrics->count("oncepay_idempotency_mismatches_total");
            respond(Answers::keyReused());
            return;
        }
    }));
}

void PaymentSteps::callAcquirer(Work work)
{
    // Recorded before the call, and only under a live lease: after a crash or a takeover,
    // 'acquirer_called' means "ask the bank first", and a holder paused past its lease stops here.
    m_store->markAcquirerCalled(work.payment, m_config.leaseMs, nowMs(), this,
                                timed<StepWrite>([this, work](bool ok, const QString &, StepWrite w) mutable {
        if (!ok) {
            // Not called by us. A recovery run leaves the payment to the next run. A step that may
            // have been written (the answer to COMMIT was lost) says acquirer_called to whoever
            // resumes it: 503 would promise that nothing happens (promise 10; tst_storeunavailable
            // commitReplyLost fails with 503 here).
            const HttpAnswer answer = w == StepWrite::Unconfirmed ? Answers::outcomeUnknown()
                                                                  : Answers::storeUnavailable();
            return work.respond(work.recovery ? HttpAnswer{} : answer);
        }
        if (w == StepWrite::Fenced)
            return answerFenced(work);
        m_faults.reach("after_mark_called");
        work.payment.step = PaymentStep::AcquirerCalled;
        charge(std::move(work));
    }));
}

void PaymentSteps::charge(Work work)
{
    const Payment &payment = work.payment;
    m_metrics->count("oncepay_acquirer_calls_total", "kind=\"charge\",outcome=\"sent\"");
    m_acquirerCallsInFlight.insert(payment.id);
    const std::shared_ptr<bool> answered = m_deadlines.start([this, work] {
        settle(work, {AcquirerAnswer::Kind::AnswerLost, {}, QStringLiteral("acquirer timeout")});
    });
    const ChargeRequest rq{payment.merchant, payment.idempotencyKey, payment.amount, payment.currency,
                           payment.paymentMethod};
    m_acquirer->charge(rq, this, [this, work, answered](const AcquirerAnswer &a) {
        m_acquirerCallsInFlight.remove(work.payment.id);
        m_metrics->count("oncepay_acquirer_calls_total", "kind=\"charge\",outcome=\"" + a.metricsLabel() + '"');
        if (*answered)
            return;   // too late: the payment was answered 202 and recovery will ask the bank
        *answered = true;
        m_faults.reach("after_acquirer");
        settle(work, a);
    });
}

void PaymentSteps::resume(Work work)
{
    if (work.payment.step == PaymentStep::Claimed) {
        // The previous holder never recorded a call, and can no longer (its generation is
        // stale): nobody has called the acquirer for this key.
        work.firstCall = true;
        return callAcquirer(std::move(work));
    }
    // The acquirer may have charged: ask it by key before anything else.
    m_metrics->count("oncepay_acquirer_calls_total", "kind=\"lookup\",outcome=\"sent\"");
    m_acquirer->lookup(work.payment.merchant, work.payment.idempotencyKey, this, [this, work](const AcquirerAnswer &a) {
        m_metrics->count("oncepay_acquirer_calls_total", "kind=\"lookup\",outcome=\"" + a.metricsLabel() + '"');
        if (a.kind == AcquirerAnswer::Kind::NotFound)
            return callAgainIfRemembered(work);
        if (a.kind == AcquirerAnswer::Kind::AnswerLost || a.kind == AcquirerAnswer::Kind::Refused) {
            // Could not ask. Give the lease back so that the next retry or recovery asks again.
            m_store->releaseLease(work.payment, this, timed<StepWrite>([work](bool, const QString &, StepWrite) {
                work.respond(work.recovery ? HttpAnswer{} : Answers::outcomeUnknown());
            }));
            return;
        }
        settle(work, a);
    });
}

void PaymentSteps::callAgainIfRemembered(Work work)
{
    // The acquirer does not know the key. Within its memory a call with the same key charges at
    // most once, even if an earlier call is still on its way. Past it, a charge it made may have
    // been forgotten: a second call could charge twice, so a person settles it (promise 11).
    Payment review = work.payment;
    review.needsReview = true;
    review.updatedAt = nowMs();
    const HttpAnswer answer = HttpAnswer::forPayment(review);   // 202 processing, needs_review
    m_store->checkKeyWindow(review, m_config.acquirerKeyWindowMs, answer.toStored(), m_config.retentionMs, this,
                            timed<KeyWindow>([this, work, answer](bool ok, const QString &, KeyWindow w) {
        if (!ok) {
            m_store->releaseLease(work.payment, this, timed<StepWrite>([work](bool, const QString &, StepWrite) {
                work.respond(work.recovery ? HttpAnswer{} : Answers::outcomeUnknown());
            }));
            return;
        }
        switch (w) {
        case KeyWindow::Within:
            return callAcquirer(work);
        case KeyWindow::Fenced:
            return answerFenced(work);
        case KeyWindow::Review:
            qCWarning(lcPayments) << "payment" << work.payment.id << "is older than the acquirer's key window and"
                                  << "unknown to it: left for review (oncepay-gateway review)";
            m_metrics->count("oncepay_needs_review_total", "kind=\"payment\"");
            return work.respond(work.recovery ? HttpAnswer{} : answer);
        }
    }));
}

void PaymentSteps::answerFenced(const Work &work)
{
    const Payment &p = work.payment;
    qCWarning(lcPayments) << "payment" << p.id << "lease generation" << p.leaseGeneration
                          << "was taken over: answering from the store";
    m_metrics->count("oncepay_lease_fenced_total");
    if (work.recovery)
        return work.respond(HttpAnswer{});
    m_store->storedAnswer(p.merchant, p.idempotencyKey, p.fingerprint, this,
                          timed<ClaimOutcome>([respond = work.respond](bool ok, const QString &, ClaimOutcome o) {
        if (!ok)
            return respond(Answers::outcomeUnknown());
        switch (o.kind) {
        case ClaimOutcome::Kind::Replay:
            return respond(HttpAnswer::fromStored(o.response).markReplayed());
        case ClaimOutcome::Kind::ReplayCurrent:
            return respond(HttpAnswer::forPayment(o.payment).markReplayed());
        case ClaimOutcome::Kind::Mismatch:
            return respond(Answers::keyReused());
        case ClaimOutcome::Kind::Claimed:
        case ClaimOutcome::Kind::Resume:
        case ClaimOutcome::Kind::InProgress:
        case ClaimOutcome::Kind::Gone:
            // The new holder is working, or released a claim nobody had executed: retry.
            return respond(Answers::keyInUse());
        }
    }));
}

void PaymentSteps::releaseRefused(Work work, const HttpAnswer &refused, qint64 firstTryAt)
{
    m_store->releaseClaim(work.payment, true, this, timed<StepWrite>([this, work, refused, firstTryAt](
                                                         bool ok, const QString &, StepWrite w) {
        if (ok && w == StepWrite::Fenced)
            return answerFenced(work);
        if (ok)
            return work.respond(work.recovery ? HttpAnswer{} : refused);
        // Not released: the record still says acquirer_called, and recovery would call the
        // acquirer again after the lease. 502 would promise that nothing happens (promise 10):
        // keep trying while the client waits, then 500 outcome-unknown (tst_stalls
        // refusedWhileStoreLocked fails with 502 here).
        const qint64 waited = QDateTime::currentMSecsSinceEpoch() - firstTryAt;
        m_metrics->count("oncepay_release_retries_total");
        if (waited >= m_config.acquirerTimeoutMs)
            work.respond(work.recovery ? HttpAnswer{} : Answers::outcomeUnknown());
        if (waited >= m_config.leaseMs) {
            qCWarning(lcPayments) << "payment" << work.payment.id << "refused, but its claim could not be released;"
                                  << "left to recovery";
            return;
        }
        QTimer::singleShot(200, this, [this, work, refused, firstTryAt] { releaseRefused(work, refused, firstTryAt); });
    }));
}

void PaymentSteps::settle(Work work, const AcquirerAnswer &answer)
{
    Payment &payment = work.payment;
    switch (answer.kind) {
    case AcquirerAnswer::Kind::Refused: {
        if (!work.firstCall) {
            // An earlier holder's call may still reach the acquirer: the payment is kept and
            // recovery goes on asking, so money can still move. 500, never 502 (promise 10);
            // tst_crash takeoverMeetsRefusingAcquirer fails with 502 here.
            m_store->releaseLease(payment, this, timed<StepWrite>([work](bool, const QString &, StepWrite) {
                work.respond(work.recovery ? HttpAnswer{} : Answers::outcomeUnknown());
            }));
            return;
        }
        // Nothing was charged and no other call exists: give the key back so that a retry
        // executes again (not recorded).
        const HttpAnswer refused = Answers::acquirerUnavailable(
            QStringLiteral("The acquirer refused the payment before charging: %1").arg(answer.error));
        releaseRefused(std::move(work), refused, QDateTime::currentMSecsSinceEpoch());
        return;
    }
    case AcquirerAnswer::Kind::NotFound:
        Q_UNREACHABLE();
        return;
    case AcquirerAnswer::Kind::Approved:
        payment.status = PaymentStatus::Succeeded;
        payment.card = answer.card;
        payment.authorizationCode = answer.authorizationCode;
        break;
    case AcquirerAnswer::Kind::Declined:
        payment.status = PaymentStatus::Declined;
        payment.declineCode = answer.declineCode;
        payment.card = answer.card;
        break;
    case AcquirerAnswer::Kind::AnswerLost:
        payment.status = PaymentStatus::Processing;
        break;
    }
    const qint64 now = nowMs();
    payment.updatedAt = now;
    if (payment.status != PaymentStatus::Processing)
        payment.step = PaymentStep::Settled;
    const HttpAnswer answerToSend = HttpAnswer::forPayment(payment);
    const Settlement s{payment.merchant, payment.idempotencyKey, payment.id, payment.leaseGeneration,
                       payment.status, payment.declineCode, now, answerToSend.toStored(), m_config.retentionMs,
                       work.recovery, payment.card, payment.authorizationCode};
    writeSettlement(std::move(work), s, answerToSend, QDateTime::currentMSecsSinceEpoch());
}

void PaymentSteps::writeSettlement(Work work, const Settlement &s, const HttpAnswer &answer, qint64 firstTryAt)
{
    m_store->settlePayment(s, this, timed<StepWrite>([this, work, s, answer, firstTryAt](
                                                         bool ok, const QString &, StepWrite w) mutable {
        if (!ok) {
            // The acquirer may have charged: never 503 (promise 7). Keep trying to record the
            // outcome; the client is told 500 outcome-unknown once it has waited long enough,
            // and after a lease's time recovery (here or on another instance) takes over.
            const qint64 waited = QDateTime::currentMSecsSinceEpoch() - firstTryAt;
            m_metrics->count("oncepay_settle_retries_total");
            if (waited >= m_config.acquirerTimeoutMs)
                work.respond(work.recovery ? HttpAnswer{} : Answers::outcomeUnknown());
            if (waited >= m_config.leaseMs) {
                qCWarning(lcPayments) << "payment" << s.paymentId << "outcome not recorded; left to recovery";
                return;
            }
            QTimer::singleShot(200, this, [this, work, s, answer, firstTryAt] {
                writeSettlement(work, s, answer, firstTryAt);
            });
            return;
        }
        if (w == StepWrite::Fenced)
            return answerFenced(work);
        if (!s.recovery && answer.status != 202)
            m_replays.remember(s.merchant, s.key, work.payment.fingerprint, s.response, s.now + s.retentionMs);
        m_faults.reach("after_settle");
        work.respond(answer);
    }));
}

void PaymentSteps::resumeForRecovery(const Payment &payment, Respond respond)
{
    resume({payment, std::move(respond), true, false});
}

} // namespace OncePay::Gateway
