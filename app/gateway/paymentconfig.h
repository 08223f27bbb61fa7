#pragma once

#include <QString>
#include <QtGlobal>

namespace OncePay::Gateway {

// How the payment service runs: leases, retention, the acquirer's deadline, the recovery
// period, and the demo's fault hooks. PaymentService bounds the acquirer timeout by the lease
// before any part sees it.
struct PaymentConfig
{
    qint64 leaseMs = 30'000;
    qint64 retentionMs = 24 * 3600 * 1000LL;
    qint64 acquirerTimeoutMs = 10'000;
    qint64 recoveryIntervalMs = 5'000;
    // How long the acquirer remembers an idempotency key (API.md promise 11): past it, a record
    // the acquirer says it does not know is never called again but left for review.
    qint64 acquirerKeyWindowMs = 24 * 3600 * 1000LL;
    // A wallet payment whose customer has not confirmed within this time of its creation is
    // given up at the acquirer (API.md "Wallet payments", --wallet-confirm-timeout).
    qint64 walletConfirmTimeoutMs = 60'000;
    QString faultKillAt;   // test hook: SIGKILL ourselves at this step (demo only)
    QString faultPauseAt;   // test hook: SIGSTOP ourselves at this step (demo only): a real stall
};

}   // namespace OncePay::Gateway
