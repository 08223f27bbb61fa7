#pragma once

#include "gateway/store/gatewaystore.h"
#include "gateway/metrics.h"
#include "gateway/paymentconfig.h"

#include <QObject>
#include <QTimer>

#include <functional>

namespace OncePay::Gateway {

class PaymentSteps;
class RefundSteps;

// Recovery: now and every interval, takes over the payments and refunds whose outcome is
// unknown and whose lease has lapsed (exactly one worker of all instances gets each) and
// resolves them: a claim the acquirer was never called for gives its key back (a refund's, its
// reserved amount too); any other asks the acquirer by key and settles, through the payment or
// refund steps. Lives on the HTTP thread.
class RecoveryWorker final : public QObject
{
    Q_OBJECT

public:
    RecoveryWorker(const PaymentConfig &config, GatewayStore *store, PaymentSteps *payments, RefundSteps *refunds,
        Metrics *metrics, QObject *parent = nullptr);

    void start();   // a run now, then one per interval
    void stop();
    void run();   // one run, unless one is running

signals:
    void runFinished(int resolved);

private:
    using Finished = std::function<void(bool resolved)>;
    void recoverPayments(const std::function<void(int resolved)> &done);
    void recoverRefunds(const std::function<void(int resolved)> &done);
    void recover(const RecoveryItem &item, const Finished &finished);
    void recoverRefund(const Refund &refund, const Finished &finished);
    // Calls `done` with how many of `count` items resolved once every `start(i, finished)` finished.
    void forEach(int count, const std::function<void(int, Finished)> &start, const std::function<void(int)> &done);

    qint64 m_leaseMs;
    GatewayStore *m_store;
    PaymentSteps *m_steps;
    RefundSteps *m_refunds;
    Metrics *m_metrics;
    QTimer m_timer;
    bool m_running = false;
};

}   // namespace OncePay::Gateway
