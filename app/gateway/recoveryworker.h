#pragma once

#include "gatewaystore.h"
#include "metrics.h"
#include "paymentconfig.h"

#include <QObject>
#include <QTimer>

#include <functional>

namespace OncePay::Gateway {

class PaymentSteps;

// Recovery: now and every interval, takes over the payments whose outcome is unknown and whose
// lease has lapsed (exactly one worker of all instances gets each) and resolves them: a claim
// the acquirer was never called for gives its key back; any other asks the acquirer by key and
// settles, through the payment steps. Lives on the HTTP thread.
class RecoveryWorker final : public QObject
{
    Q_OBJECT

public:
    RecoveryWorker(const PaymentConfig &config, GatewayStore *store, PaymentSteps *steps, Metrics *metrics,
                   QObject *parent = nullptr);

    void start();   // a run now, then one per interval
    void stop();
    void run();     // one run, unless one is running

signals:
    void runFinished(int resolved);

private:
    void recover(const RecoveryItem &item, std::function<void(bool resolved)> finished);

    qint64 m_leaseMs;
    GatewayStore *m_store;
    PaymentSteps *m_steps;
    Metrics *m_metrics;
    QTimer m_timer;
    bool m_running = false;
};

} // namespace OncePay::Gateway
