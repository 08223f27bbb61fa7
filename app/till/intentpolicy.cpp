#include "intentpolicy.h"

#include <QCoreApplication>

#include <iterator>

namespace OncePay {

qint64 backoffDelayMs(int attempt, qint64 baseMs, qint64 capMs, QRandomGenerator &rng, qint64 retryAfterMs)
{
    const int shift = qBound(0, attempt, 30);
    const qint64 ceiling = qMin(capMs, baseMs << shift);
    const qint64 jittered = ceiling > 0 ? qint64(rng.bounded(quint64(ceiling) + 1)) : 0;
    // The gateway's Retry-After is honoured up to a minute: no wait is ever longer than that or
    // the cap, so a longer one the engine finds is a wall clock that was set back
    // (SyncEngine::schedule).
    return qMax(jittered, qMin(retryAfterMs, kMaxRetryAfterMs));
}

IntentState stateForPaymentStatus(const QString &status)
{
    if (status == QLatin1String("succeeded") || status == QLatin1String("refunded")
        || status == QLatin1String("partially_refunded"))
        return IntentState::Succeeded;
    if (status == QLatin1String("declined"))
        return IntentState::Declined;
    return IntentState::Processing;
}

namespace {

QString problemText(const GatewayResult &r)
{
    if (r.problem && !r.problem->detail.isEmpty())
        return r.problem->detail;
    if (r.problem)
        return r.problem->title;
    return QStringLiteral("HTTP %1").arg(r.status);
}

// A decision about an HTTP answer, with the gateway's Retry-After and problem text.
Decision answered(const GatewayResult &r, IntentState state, Decision::Next next, bool pauseQueue = false)
{
    Decision d;
    d.state = state;
    d.next = next;
    d.pauseQueue = pauseQueue;
    d.retryAfterMs = r.retryAfterMs;
    d.problem = problemText(r);
    return d;
}

Decision transportDecision(const GatewayResult &r)
{
    Decision d;
    d.connectivityLost = true;
    d.problem = r.transportError;
    if (r.transport == GatewayResult::Transport::LostAfterSend) {
        d.state = IntentState::Unknown;
        d.next = Decision::Next::Resolve;
    } else {
        d.state = IntentState::Queued;
        d.next = Decision::Next::RetryPost;
    }
    return d;
}

}   // namespace

Decision classifyPost(const GatewayResult &r)
{
    if (!r.answered())
        return transportDecision(r);
    Decision d;
    d.retryAfterMs = r.retryAfterMs;
    const int s = r.status;
    if (s == 201 || s == 200 || s == 402 || s == 202) {
        const QString status = r.payment().value(QStringLiteral("status")).toString();
        d.state = s == 402 ? IntentState::Declined : stateForPaymentStatus(status);
        d.next = d.state == IntentState::Processing ? Decision::Next::Poll : Decision::Next::Settle;
        if (d.state == IntentState::Declined)
            d.problem = problemText(r);
        return d;
    }
    using N = Decision::Next;
    if (s == 409) {   // the gateway is still executing this key: ask again with the same key
        d.state = IntentState::Processing;
        d.next = N::RetryPost;
        return d;
    }
    if (s == 401)
        return answered(r, IntentState::Queued, N::Hold, true);
    if (s == 429 || s >= 500)
        return answered(r, IntentState::Queued, N::RetryPost);
    // 400, 403, 404, 413, 415, 422 and anything else a retry cannot fix.
    return answered(r, IntentState::NeedsAttention, N::Hold);
}

Decision classifyLookup(const GatewayResult &r)
{
    if (!r.answered()) {
        Decision d = transportDecision(r);
        d.state = IntentState::Unknown;   // still unknown: ask again
        d.next = Decision::Next::Resolve;
        return d;
    }
    Decision d;
    d.retryAfterMs = r.retryAfterMs;
    if (r.status == 200) {
        d.state = stateForPaymentStatus(r.payment().value(QStringLiteral("status")).toString());
        d.next = d.state == IntentState::Processing ? Decision::Next::Poll : Decision::Next::Settle;
        if (d.state == IntentState::Declined)
            d.problem = r.payment().value(QStringLiteral("decline_code")).toString();
        return d;
    }
    if (r.status == 404) {
        // The gateway never executed this key (or gave it back): sending it again is safe.
        d.state = IntentState::Queued;
        d.next = Decision::Next::RetryPost;
        return d;
    }
    if (r.status == 401)
        return answered(r, IntentState::Unknown, Decision::Next::Hold, true);
    return answered(r, IntentState::Unknown, Decision::Next::Resolve);
}

IntentState stateForRefundStatus(const QString &status)
{
    if (status == QLatin1String("succeeded"))
        return IntentState::Succeeded;
    if (status == QLatin1String("failed"))
        return IntentState::Declined;   // final: nothing was given back
    return IntentState::Processing;   // processing, or a word the till does not know: ask again
}

namespace {

// One row of a refund's decision table: an HTTP status and what the till does with it.
struct AnswerRule
{
    int status;
    IntentState state;
    Decision::Next next;
    bool pauseQueue = false;
    bool fromGatewayOnly = false;   // only the gateway's own problem document; a bare one came from a proxy
};

using N = Decision::Next;
using S = IntentState;

// POST /v1/payments/{id}/refunds, for the statuses that carry no refund (201/202/402 do: the
// refund's own status decides). Not listed: another 4xx needs a person (400 more than remains or
// not refundable, 404 no such payment, 413, 415, 422 key reused); another 5xx (500
// outcome-unknown, 504, a proxy's 502/503) may have executed: ask by key.
constexpr AnswerRule kRefundPostRules[] = {
    {409, S::Processing, N::RetryPost},   // this key is executing at the gateway: again later, same key
    {401, S::Queued, N::Hold, true},   // the token: the whole queue waits, nothing dropped
    {429, S::Queued, N::RetryPost},   // rejected before execution, not recorded
    {502, S::Queued, N::RetryPost, false, true},   // acquirer-unavailable: nothing happened, not recorded
    {503, S::Queued, N::RetryPost, false, true},   // store-unavailable: nothing happened
};

// GET /v1/refunds?idempotency_key= and GET /v1/refunds/{id}, when no refund came back. Not
// listed: still unknown, ask again.
constexpr AnswerRule kRefundLookupRules[] = {
    {404, S::Queued, N::RetryPost},   // never executed (or given back): send it again, same key
    {401, S::Unknown, N::Hold, true},
};

const AnswerRule *findRule(const AnswerRule *begin, const AnswerRule *end, const GatewayResult &r)
{
    for (const AnswerRule *rule = begin; rule != end; ++rule) {
        if (rule->status == r.status && (!rule->fromGatewayOnly || r.problem))
            return rule;
    }
    return nullptr;
}

// A 200/201/202 refund, or a 402 refund-declined: its own status decides.
Decision byRefundStatus(const GatewayResult &r)
{
    Decision d;
    d.retryAfterMs = r.retryAfterMs;
    const QJsonObject refund = r.refund();
    d.state = r.status == 402 ? IntentState::Declined : stateForRefundStatus(refund.value(QStringLiteral("status")).toString());
    d.next = d.state == IntentState::Processing ? N::Poll : N::Settle;
    if (d.state == IntentState::Declined)
        d.problem = r.problem ? problemText(r) : refund.value(QStringLiteral("failure_code")).toString();
    return d;
}

}   // namespace

Decision classifyRefundPost(const GatewayResult &r)
{
    if (!r.answered())
        return transportDecision(r);
    if (r.status == 200 || r.status == 201 || r.status == 202 || r.status == 402)
        return byRefundStatus(r);
    if (const AnswerRule *rule = findRule(std::begin(kRefundPostRules), std::end(kRefundPostRules), r)) {
        Decision d = answered(r, rule->state, rule->next, rule->pauseQueue);
        if (rule->state == IntentState::Processing)
            d.problem.clear();   // waiting, not a problem
        return d;
    }
    if (r.status >= 500)
        return answered(r, IntentState::Unknown, N::Resolve);
    return answered(r, IntentState::NeedsAttention, N::Hold);
}

Decision classifyRefundLookup(const GatewayResult &r)
{
    if (!r.answered()) {
        Decision d = transportDecision(r);
        d.state = IntentState::Unknown;
        d.next = N::Resolve;
        return d;
    }
    if (r.status == 200)
        return byRefundStatus(r);
    if (const AnswerRule *rule = findRule(std::begin(kRefundLookupRules), std::end(kRefundLookupRules), r)) {
        Decision d = answered(r, rule->state, rule->next, rule->pauseQueue);
        if (rule->state == IntentState::Queued)
            d.problem.clear();   // the gateway never executed it: nothing to tell the cashier
        return d;
    }
    return answered(r, IntentState::Unknown, N::Resolve);
}

TillError offlineRefusal(const OfflineLimits &limits, const Money &amount, qint64 waitingTotal, qint64 oldestWaitingAgeMs)
{
    using K = TillError::Kind;
    if (limits.maxSingleAmount > 0 && amount.minorUnits() > limits.maxSingleAmount)
        return TillError(K::OfflineAmountLimit, {Money(limits.maxSingleAmount, amount.currency()).toDecimalString(), amount.currency()});
    if (limits.maxTotalAmount > 0 && waitingTotal + amount.minorUnits() > limits.maxTotalAmount)
        return TillError(K::OfflineTotalLimit, {Money(limits.maxTotalAmount, amount.currency()).toDecimalString(), amount.currency()});
    if (limits.maxAgeMs > 0 && oldestWaitingAgeMs > limits.maxAgeMs)
        return TillError(K::OfflineTooLong, {QString::number(limits.maxAgeMs / 60000)});
    return {};
}

}   // namespace OncePay
