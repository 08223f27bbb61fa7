#include "gateway/steps/leasedsteps.h"

#include "gateway/answers.h"
#include "gateway/paymentlog.h"
#include "timeutil.h"
#include "world.h"

#include <QDateTime>
#include <QTimer>

#include <utility>

namespace OncePay::Gateway {

void PaymentKind::apply(Payment &p, const AcquirerAnswer &a)
{
    switch (a.kind) {
    case AcquirerAnswer::Kind::Approved:
        p.status = PaymentStatus::Succeeded;
        p.card = a.card;
        p.authorizationCode = a.authorizationCode;
        break;
    case AcquirerAnswer::Kind::Declined:
        p.status = PaymentStatus::Declined;
        p.declineCode = a.declineCode;
        p.card = a.card;
        break;
    case AcquirerAnswer::Kind::Conflict:
        // The acquirer holds the key for another request ("key_reused") and will never charge
        // it for this one: nothing was charged for this payment, nor will be.
        p.status = PaymentStatus::Declined;
        p.declineCode = a.declineCode;
        break;
    case AcquirerAnswer::Kind::Reversed:
        // Given up: nothing kept, whether it was never charged or charged and undone.
        p.status = PaymentStatus::Declined;
        p.declineCode = p.cancelReason.isEmpty() ? QStringLiteral("cancelled") : p.cancelReason;
        p.card = {};
        p.authorizationCode.clear();
        break;
    case AcquirerAnswer::Kind::AnswerLost:
    case AcquirerAnswer::Kind::Refused:
    case AcquirerAnswer::Kind::NotFound:
    case AcquirerAnswer::Kind::Pending:
        p.status = PaymentStatus::Processing;
        break;
    }
}

Settlement PaymentKind::settlement(const Payment &p, const Http::HttpAnswer &answer, qint64 now, qint64 retentionMs,
    bool recovery)
{
    Settlement s{p.merchant, p.idempotencyKey, p.id, p.leaseGeneration, p.status, p.declineCode, now,
        Answers::toStored(answer), retentionMs, recovery, p.card, p.authorizationCode, {}};
    // The cancels waiting on it: 200, the payment, however it ended (a reversal the acquirer
    // refused leaves it succeeded).
    if (p.status != PaymentStatus::Processing && givenUp(p))
        s.cancelAnswerBody = Http::HttpAnswer::json(200, p.toJson()).body;
    return s;
}

void RefundKind::apply(Refund &r, const AcquirerAnswer &a)
{
    switch (a.kind) {
    case AcquirerAnswer::Kind::Approved:
        r.status = RefundStatus::Succeeded;
        break;
    case AcquirerAnswer::Kind::Declined:
    case AcquirerAnswer::Kind::Conflict:
        // Conflict: the key was used for another refund, or the charge was reversed; nothing
        // moved for this refund, nor will: failed, its reservation goes back.
        r.status = RefundStatus::Failed;
        r.failureCode = a.declineCode.isEmpty() ? QStringLiteral("refund_declined") : a.declineCode;
        break;
    case AcquirerAnswer::Kind::AnswerLost:
    case AcquirerAnswer::Kind::Refused:
    case AcquirerAnswer::Kind::NotFound:
    case AcquirerAnswer::Kind::Pending:
    case AcquirerAnswer::Kind::Reversed:
        r.status = RefundStatus::Processing;   // never a refund's answer: asked again
        break;
    }
}

RefundSettlement RefundKind::settlement(const Refund &r, const Http::HttpAnswer &answer, qint64 now, qint64 retentionMs,
    bool recovery)
{
    return {r.merchant, r.idempotencyKey, r.id, r.paymentId, r.leaseGeneration, r.amount, r.status,
        r.failureCode, now, Answers::toStored(answer), retentionMs, recovery};
}

template <typename Kind>
LeasedSteps<Kind>::LeasedSteps(const PaymentConfig &config, GatewayStore *store, Acquirer *acquirer,
    Metrics *metrics, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_store(store)
    , m_acquirer(acquirer)
    , m_metrics(metrics)
    , m_faults(config.faultKillAt, config.faultPauseAt)
    , m_deadlines(config.acquirerTimeoutMs)
{
}

template <typename Kind>
void LeasedSteps<Kind>::reach(const char *step)
{
    m_faults.reach((QByteArray(Kind::faultPrefix) + step).constData());
}

template <typename Kind>
QByteArray LeasedSteps<Kind>::acquirerLabel(const char *call, const QByteArray &outcome) const
{
    return "kind=\"" + QByteArray(call) + "\",outcome=\"" + outcome + '"';
}

template <typename Kind>
void LeasedSteps<Kind>::answerNothing(const Work &work, const Http::HttpAnswer &answer)
{
    work.respond(work.recovery ? Http::HttpAnswer{} : answer);
}

template <typename Kind>
void LeasedSteps<Kind>::resumeForRecovery(const Record &record, Respond respond)
{
    resume({record, std::move(respond), true, false});
}

template <typename Kind>
void LeasedSteps<Kind>::callAcquirer(Work work)
{
    // Recorded before the call, and only under a live lease: after a crash or a takeover,
    // acquirer_called means "ask the acquirer first", and a holder paused past its lease stops here.
    const bool calledBefore = work.record.step == PaymentStep::AcquirerCalled;
    // The store starts the renewed lease when the write executes, never before this instant.
    const qint64 askedAt = monotonicMs();
    m_store->markAcquirerCalled(LeasedRow::of(work.record), m_config.leaseMs, nowMs(), this,
        timed<StepWrite>([this, work, calledBefore, askedAt](bool ok, const QString &, StepWrite w) mutable {
            if (!ok) {
                // Not called by us. A recovery run leaves the record to the next run. 503 would
                // promise that nothing happens (promise 10), true only of a claim nobody called
                // for: recovery releases it. A record an earlier holder called for (a takeover
                // calling again after "not found") stays acquirer_called, and the next holder
                // asks and calls again (the simulator's seed 500; tst_stalls
                // storeLockedBeforeCallingAgain fails with 503 here). So may a step whose COMMIT
                // answer was lost (tst_commitlost_pg).
                if (calledBefore)
                    return releaseLeaseAndAnswerUnknown(work);
                return answerNothing(work, w == StepWrite::Unconfirmed ? Answers::outcomeUnknown() : Answers::storeUnavailable());
            }
            if (w == StepWrite::Fenced)
                return answerFenced(work);
            work.leaseHeldUntil = askedAt + m_config.leaseMs;
            reach("after_mark_called");
            work.record.step = PaymentStep::AcquirerCalled;
            call(std::move(work));
        }));
}

template <typename Kind>
void LeasedSteps<Kind>::call(Work work)
{
    // A holder paused past its lease (a stopped process, a VM frozen, a store that answered late)
    // may have been taken over: the new holder found nothing at the acquirer and called. If the
    // acquirer has forgotten that key by the time this call arrives, it would charge twice; so
    // nothing leaves once the lease may be over, checked here on the monotonic clock, the last
    // instant before the call is handed to the acquirer's client. The store answers instead
    // (promise 8; tst_stalls pausedBeforeTheCall). docs/architecture.md says what window is left.
    const qint64 left = work.leaseHeldUntil - monotonicMs() - leaseMargin();
    if (left <= 0) {
        qCWarning(lcPayments) << Kind::noun << work.record.id << "lease generation" << work.record.leaseGeneration
                              << "may have lapsed before the acquirer call: not calling";
        return answerFenced(work);
    }
    const qint64 timeoutMs = qMin(m_config.acquirerTimeoutMs, left);
    m_metrics->count("oncepay_acquirer_calls_total", acquirerLabel(Kind::callMetric, "sent"));
    m_callsInFlight.insert(work.record.id);
    auto lost = [this, work] {
        settle(work, {AcquirerAnswer::Kind::AnswerLost, {}, QStringLiteral("acquirer timeout")});
    };
    const std::shared_ptr<bool> answered = m_deadlines.start(std::move(lost), timeoutMs);
    Kind::call(m_acquirer, work.record, timeoutMs, this, [this, work, answered](const AcquirerAnswer &a) {
        m_callsInFlight.remove(work.record.id);
        m_metrics->count("oncepay_acquirer_calls_total", acquirerLabel(Kind::callMetric, a.metricsLabel()));
        if (*answered)
            return;   // too late: answered 202, and recovery will ask the acquirer
        *answered = true;
        reach("after_acquirer");
        settle(work, a);
    });
}

template <typename Kind>
void LeasedSteps<Kind>::resume(Work work)
{
    if (Kind::givenUp(work.record))
        return reverseAndSettle(std::move(work));
    if (work.record.step == PaymentStep::Claimed) {
        // The previous holder never recorded a call, and can no longer (its generation is
        // stale): nobody has called the acquirer for this key.
        work.firstCall = true;
        return callAcquirer(std::move(work));
    }
    // The acquirer may have moved the money: ask it by key before anything else.
    m_metrics->count("oncepay_acquirer_calls_total", acquirerLabel(Kind::lookupMetric, "sent"));
    Kind::lookup(m_acquirer, work.record, this, [this, work](const AcquirerAnswer &a) {
        m_metrics->count("oncepay_acquirer_calls_total", acquirerLabel(Kind::lookupMetric, a.metricsLabel()));
        if (a.kind == AcquirerAnswer::Kind::NotFound)
            return callAgainIfRemembered(work);
        if (a.kind == AcquirerAnswer::Kind::AnswerLost || a.kind == AcquirerAnswer::Kind::Refused)
            return releaseLeaseAndAnswerUnknown(work);   // could not ask: the next retry or recovery asks again
        settle(work, a);
    });
}

template <typename Kind>
void LeasedSteps<Kind>::reverseAndSettle(Work work)
{
    m_metrics->count("oncepay_acquirer_calls_total", acquirerLabel("reversal", "sent"));
    const std::shared_ptr<bool> answered = m_deadlines.start([this, work] {
        releaseLeaseAndAnswerUnknown(work);   // the reversal's answer is late: asked again later
    });
    Kind::reverse(m_acquirer, work.record, this, [this, work, answered](const AcquirerAnswer &a) {
        m_metrics->count("oncepay_acquirer_calls_total", acquirerLabel("reversal", a.metricsLabel()));
        if (std::exchange(*answered, true))
            return;
        reach("after_reversal");
        if (a.kind == AcquirerAnswer::Kind::Reversed || a.kind == AcquirerAnswer::Kind::Declined)
            return settle(work, a);
        if (a.kind == AcquirerAnswer::Kind::Conflict)
            return settleAsCharged(std::move(work));
        // Not reversed, or not known to be: the reason stays recorded, and the next holder (a
        // retry, recovery) reverses again. Money may still move: never "nothing happened".
        releaseLeaseAndAnswerUnknown(work);
    });
}

template <typename Kind>
void LeasedSteps<Kind>::settleAsCharged(Work work)
{
    // The acquirer refused the reversal: money went back on the charge already (a refund made
    // at the bank), so the charge stands and nothing moved. Recorded as reversed (declined) it
    // would say the customer has everything back, which is false. It ends as the acquirer has
    // it, asked by key; while that cannot be learnt it stays given up and is asked again.
    m_metrics->count("oncepay_acquirer_calls_total", acquirerLabel(Kind::lookupMetric, "sent"));
    Kind::lookup(m_acquirer, work.record, this, [this, work](const AcquirerAnswer &a) {
        m_metrics->count("oncepay_acquirer_calls_total", acquirerLabel(Kind::lookupMetric, a.metricsLabel()));
        qCWarning(lcPayments) << Kind::noun << work.record.id << "could not be reversed: the acquirer keeps its charge"
                              << "(money went back on it already); the acquirer says" << a.metricsLabel();
        if (a.kind == AcquirerAnswer::Kind::Approved || a.kind == AcquirerAnswer::Kind::Declined)
            return settle(work, a);
        releaseLeaseAndAnswerUnknown(work);
    });
}

template <typename Kind>
bool LeasedSteps<Kind>::waitedTooLong(const Record &record)
{
    if (!Kind::mayTimeOut(record))
        return false;
    const qint64 monotonic = monotonicMs();
    const qint64 limit = m_config.walletConfirmTimeoutMs;
    if (m_waitingSince.size() > 10'000) {   // payments that ended elsewhere: forgotten after a while
        m_waitingSince.removeIf([monotonic, limit](const QHash<QString, qint64>::iterator &it) {
            return monotonic - it.value() > 4 * limit;
        });
    }
    qint64 seen = m_waitingSince.value(record.id, -1);
    if (seen < 0) {
        seen = monotonic;
        m_waitingSince.insert(record.id, seen);
    }
    const qint64 sinceCreated = nowMs() - record.createdAt;
    return (sinceCreated >= 0 && sinceCreated >= limit) || monotonic - seen >= limit;
}

template <typename Kind>
void LeasedSteps<Kind>::giveUp(Work work, const QString &reason)
{
    m_waitingSince.remove(work.record.id);
    qCInfo(lcPayments) << Kind::noun << work.record.id << "given up:" << reason;
    work.record.updatedAt = nowMs();
    m_store->requestCancel(LeasedRow::of(work.record), reason, this, timed<StepWrite>([this, work, reason](bool ok, const QString &, StepWrite w) mutable {
        if (!ok)
            return releaseLeaseAndAnswerUnknown(work);
        if (w == StepWrite::Fenced)
            return answerFenced(work);
        Kind::markGivenUp(work.record, reason);
        reverseAndSettle(std::move(work));
    }));
}

template <typename Kind>
void LeasedSteps<Kind>::releaseLeaseAndAnswerUnknown(const Work &work)
{
    // Money may still move (an earlier call may still reach the acquirer, or it could not be
    // asked): the record is kept as it is and the lease ended early, so that the next retry or
    // recovery run asks at once. 500 outcome-unknown, never a "nothing happened" (promise 10).
    m_store->releaseLease(LeasedRow::of(work.record), this, timed<StepWrite>([work](bool, const QString &, StepWrite) {
        answerNothing(work, Answers::outcomeUnknown());
    }));
}

template <typename Kind>
void LeasedSteps<Kind>::callAgainIfRemembered(Work work)
{
    // The acquirer does not know the key. Within its memory a call with the same key moves money
    // at most once, even if an earlier call is still on its way. Past it, something it did may
    // have been forgotten: a second call could do it twice, so a person settles it (promise 11).
    Record review = work.record;
    review.needsReview = true;
    review.updatedAt = nowMs();
    const Http::HttpAnswer answer = Kind::answerFor(review);   // 202 processing, needs_review
    m_store->checkKeyWindow(LeasedRow::of(review), m_config.acquirerKeyWindowMs, Answers::toStored(answer), m_config.retentionMs, this,
        timed<KeyWindow>([this, work, answer](bool ok, const QString &, KeyWindow w) {
            if (!ok)
                return releaseLeaseAndAnswerUnknown(work);
            switch (w) {
            case KeyWindow::Within:
                reach("before_call_again");
                return callAcquirer(work);
            case KeyWindow::Fenced:
                return answerFenced(work);
            case KeyWindow::Review:
                qCWarning(lcPayments) << Kind::noun << work.record.id << "is older than the acquirer's key window and"
                                      << "unknown to it: left for review (oncepay-gateway review)";
                m_metrics->count("oncepay_needs_review_total", "kind=\"" + QByteArray(Kind::noun) + '"');
                return answerNothing(work, answer);
            }
        }));
}

template <typename Kind>
void LeasedSteps<Kind>::answerFromStore(const Record &record, const Respond &respond, const Http::HttpAnswer &unreadable,
    const Http::HttpAnswer &nothingStored)
{
    using Outcome = typename Kind::StoredOutcome;
    Kind::storedAnswer(m_store, record, this, timed<Outcome>([respond, unreadable, nothingStored](bool ok, const QString &, Outcome o) {
        if (!ok)
            return respond(unreadable);
        switch (o.kind) {
        case Outcome::Kind::Replay:
            return respond(Answers::fromStored(o.response).markReplayed());
        case Outcome::Kind::ReplayCurrent:
            return respond(Kind::answerFor(Kind::recordOf(o)).markReplayed());
        case Outcome::Kind::Mismatch:
            return respond(Answers::keyReused());
        case Outcome::Kind::InProgress:
            return respond(Answers::keyInUse());
        default:
            return respond(nothingStored);
        }
    }));
}

template <typename Kind>
void LeasedSteps<Kind>::answerFailedClaim(const Record &draft, bool commitUnknown, const Respond &respond)
{
    if (commitUnknown)
        return respond(Answers::outcomeUnknown());
    answerFromStore(draft, respond, Answers::outcomeUnknown(), Answers::storeUnavailable());
}

template <typename Kind>
void LeasedSteps<Kind>::answerFenced(const Work &work)
{
    const Record &r = work.record;
    qCWarning(lcPayments) << Kind::noun << r.id << "lease generation" << r.leaseGeneration
                          << "was taken over: answering from the store";
    m_metrics->count("oncepay_lease_fenced_total");
    if (work.recovery)
        return work.respond(Http::HttpAnswer{});
    if (work.cancelRequest)
        return work.respond(Answers::keyInUse());   // another holder drives it now: ask again
    // Unreadable: the outcome is unknown. Nothing stored: the new holder released a claim nobody
    // had executed: retry.
    answerFromStore(r, work.respond, Answers::outcomeUnknown(), Answers::keyInUse());
}

template <typename Kind>
void LeasedSteps<Kind>::releaseRefused(Work work, const Http::HttpAnswer &refused, qint64 firstTryAt)
{
    m_store->releaseClaim(LeasedRow::of(work.record), true, this, timed<StepWrite>([this, work, refused, firstTryAt](bool ok, const QString &, StepWrite w) {
        if (ok && w == StepWrite::Fenced)
            return answerFenced(work);
        if (ok)
            return answerNothing(work, refused);
        // Not released: the record still says acquirer_called, and recovery would call the
        // acquirer again after the lease. 502 would promise that nothing happens (promise 10):
        // keep trying while the client waits, then 500 outcome-unknown (tst_stalls
        // refusedWhileStoreLocked fails with 502 here).
        const qint64 waited = nowMs() - firstTryAt;
        m_metrics->count("oncepay_release_retries_total");
        if (waited >= m_config.acquirerTimeoutMs)
            answerNothing(work, Answers::outcomeUnknown());
        if (waited >= m_config.leaseMs) {
            qCWarning(lcPayments) << Kind::noun << work.record.id << "refused, but its claim could not be released;"
                                  << "left to recovery";
            return;
        }
        QTimer::singleShot(200, this, [this, work, refused, firstTryAt] {
            releaseRefused(work, refused, firstTryAt);
        });
    }));
}

template <typename Kind>
void LeasedSteps<Kind>::settle(Work work, const AcquirerAnswer &answer)
{
    Record &record = work.record;
    switch (answer.kind) {
    case AcquirerAnswer::Kind::Refused: {
        if (!work.firstCall) {
            // An earlier holder's call may still reach the acquirer: the record (and a refund's
            // reservation) is kept and recovery goes on asking, so money can still move. 500,
            // never 502 (promise 10); tst_crash takeoverMeetsRefusingAcquirer fails with 502 here.
            return releaseLeaseAndAnswerUnknown(work);
        }
        // Nothing moved and no other call exists: give the key (and a refund's reservation)
        // back, so that a retry executes again (not recorded).
        const Http::HttpAnswer refused = Answers::acquirerUnavailable(QString::fromLatin1(Kind::refusedWords).arg(answer.error));
        releaseRefused(std::move(work), refused, nowMs());
        return;
    }
    case AcquirerAnswer::Kind::NotFound:
        Q_UNREACHABLE();
        return;
    case AcquirerAnswer::Kind::Pending:
        // The customer has not confirmed yet. Past the gateway's patience it is given up at the
        // acquirer (a holder that gave it up already never gets here: it reverses).
        if (!Kind::givenUp(record) && waitedTooLong(record))
            return giveUp(std::move(work), QStringLiteral("wallet_timeout"));
        Kind::apply(record, answer);
        break;
    case AcquirerAnswer::Kind::Approved:
    case AcquirerAnswer::Kind::Declined:
    case AcquirerAnswer::Kind::AnswerLost:
    case AcquirerAnswer::Kind::Reversed:
    case AcquirerAnswer::Kind::Conflict:   // nothing moved for this record, nor will (apply)
        Kind::apply(record, answer);
        break;
    }
    const qint64 now = nowMs();
    record.updatedAt = now;
    if (!Kind::isProcessing(record))
        record.step = PaymentStep::Settled;
    const Http::HttpAnswer answerToSend = Kind::answerFor(record);
    const typename Kind::Settlement s = Kind::settlement(record, answerToSend, now, m_config.retentionMs, work.recovery);
    writeSettlement(std::move(work), s, answerToSend, nowMs());
}

template <typename Kind>
void LeasedSteps<Kind>::writeSettlement(Work work, const typename Kind::Settlement &s, const Http::HttpAnswer &answer,
    qint64 firstTryAt)
{
    Kind::settle(m_store, s, this, timed<StepWrite>([this, work, s, answer, firstTryAt](bool ok, const QString &, StepWrite w) mutable {
        if (!ok) {
            // The acquirer may have moved the money: never 503 (promise 7). Keep trying to record
            // the outcome; the client is told 500 outcome-unknown once it has waited long enough,
            // and after a lease's time recovery (here or on another instance) takes over.
            const qint64 waited = nowMs() - firstTryAt;
            m_metrics->count("oncepay_settle_retries_total");
            if (waited >= m_config.acquirerTimeoutMs)
                answerNothing(work, Answers::outcomeUnknown());
            if (waited >= m_config.leaseMs) {
                qCWarning(lcPayments) << Kind::noun << work.record.id << "outcome not recorded; left to recovery";
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
            settledForClient(work, s);
        reach("after_settle");
        work.respond(answer);
    }));
}

template class LeasedSteps<PaymentKind>;
template class LeasedSteps<RefundKind>;

}   // namespace OncePay::Gateway
