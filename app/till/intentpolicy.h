#pragma once

#include "tillerror.h"

#include "gatewayclient.h"
#include "intent.h"

#include <QRandomGenerator>

namespace OncePay {

// Exponential backoff with full jitter: a uniform delay in [0, min(cap, base * 2^attempt)].
// Retry-After, when the gateway gives one, is a floor, itself no higher than kMaxRetryAfterMs.
constexpr qint64 kMaxRetryAfterMs = 60'000;
qint64 backoffDelayMs(int attempt, qint64 baseMs, qint64 capMs, QRandomGenerator &rng, qint64 retryAfterMs = -1);

// What the till does with one answer (DESIGN.md "The intent on the till"): the rules as data,
// so they are tested as a table.
struct Decision
{
    enum class Next {
        Settle,   // final state reached
        RetryPost,   // send the same request again (same key) after a delay
        Poll,   // ask for the payment again after a delay
        Resolve,   // the outcome is unknown: ask by key first
        Hold,   // wait for a person (needs attention) or for a new token (401)
    };
    IntentState state = IntentState::Queued;
    Next next = Next::RetryPost;
    qint64 retryAfterMs = -1;   // from the gateway; the delay is backoff with this as a floor
    bool connectivityLost = false;
    bool pauseQueue = false;   // 401: nothing more goes out until the token changes
    QString problem;   // for the cashier when not settled well
};

// An answer to POST /v1/payments.
Decision classifyPost(const GatewayResult &result);
// An answer to GET /v1/payments?idempotency_key= or GET /v1/payments/{id}.
Decision classifyLookup(const GatewayResult &result);
// The state a gateway payment status means on the till.
IntentState stateForPaymentStatus(const QString &status);

// An answer to POST /v1/payments/{id}/refunds. Unlike a payment's, a 500 (outcome-unknown) or
// a 5xx from something in front of the gateway leaves the refund `unknown`, asked about by key
// before it is sent again; only the gateway's own "nothing happened" answers (502
// acquirer-unavailable, 503 store-unavailable, 429) send it again at once.
Decision classifyRefundPost(const GatewayResult &result);
// An answer to GET /v1/refunds?idempotency_key= or GET /v1/refunds/{id}: 404 means the gateway
// never executed the key, so it is sent again with the same key.
Decision classifyRefundLookup(const GatewayResult &result);
// The state a gateway refund status (processing, succeeded, failed) means on the till.
IntentState stateForRefundStatus(const QString &status);

// The merchant's store-and-forward limits for card payments taken while offline.
struct OfflineLimits
{
    qint64 maxSingleAmount = 0;   // minor units; 0: no limit
    qint64 maxTotalAmount = 0;   // minor units of what may wait at once; 0: no limit
    qint64 maxAgeMs = 0;   // age of the oldest waiting payment; 0: no limit
};
// None when allowed, else which limit refuses it.
TillError offlineRefusal(const OfflineLimits &limits, const Money &amount, qint64 waitingTotal, qint64 oldestWaitingAgeMs);

}   // namespace OncePay
