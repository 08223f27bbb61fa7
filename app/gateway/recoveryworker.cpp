#include "recoveryworker.h"

#include "paymentlog.h"
#include "paymentsteps.h"
#include "timedreply.h"

#include <memory>
#include <utility>

namespace OncePay::Gateway {

RecoveryWorker::RecoveryWorker(const PaymentConfig &config, GatewayStore *store, PaymentSteps *steps,
                               Metrics *metrics, QObject *parent)
    : QObject(parent)
    , m_leaseMs(config.leaseMs)
    , m_store(store)
    , m_steps(steps)
    , m_metrics(metrics)
{
    m_timer.setInterval(int(qBound<qint64>(qint64(50), config.recoveryIntervalMs, qint64(3600000))));
    connect(&m_timer, &QTimer::timeout, this, &RecoveryWorker::run);
}

void RecoveryWorker::start()
{
    m_timer.start();
    run();
}

void RecoveryWorker::stop()
{
    m_timer.stop();
}

void RecoveryWorker::run()
{
    if (m_running)
        return;
    m_running = true;
    m_metrics->count("oncepay_recovery_runs_total");
    m_store->takeRecoveryWork(m_leaseMs, 200, this, timedReply<QList<RecoveryItem>>(m_metrics, [this](
                                                        bool ok, const QString &, QList<RecoveryItem> items) {
        m_running = false;
        if (!ok || items.isEmpty()) {
            emit runFinished(0);
            return;
        }
        auto pending = std::make_shared<int>(int(items.size()));
        auto resolved = std::make_shared<int>(0);
        for (const RecoveryItem &item : items) {
            recover(item, [this, pending, resolved](bool didResolve) {
                if (didResolve) {
                    ++*resolved;
                    m_metrics->count("oncepay_recovery_resolved_total");
                }
                if (--*pending == 0)
                    emit runFinished(*resolved);
            });
        }
    }));
}

void RecoveryWorker::recover(const RecoveryItem &item, std::function<void(bool)> finished)
{
    const Payment &p = item.payment;
    m_metrics->count("oncepay_lease_takeovers_total", "by=\"recovery\"");
    auto finishWith = [finished](bool resolved) {
        return [finished, resolved](bool, const QString &, StepWrite w) { finished(resolved && w == StepWrite::Written); };
    };
    if (m_steps->acquirerCallInFlight(p.id)) {
        // Our own call is still out; its answer (or its deadline) settles it.
        m_store->releaseLease(p, this, timedReply<StepWrite>(m_metrics, finishWith(false)));
        return;
    }
    if (p.step == PaymentStep::Claimed) {
        // The acquirer was never called (the step is recorded before any call, under the
        // lease that recovery now holds): give the key back.
        m_store->releaseClaim(p, false, this, timedReply<StepWrite>(m_metrics, finishWith(true)));
        return;
    }
    // Resume as a request would, answering nobody: ask the acquirer by key; a key it never saw
    // is charged with the same key (idempotent there), never released.
    auto once = std::make_shared<bool>(false);
    qCInfo(lcPayments) << "recovery: resuming payment" << p.id << "lease generation" << p.leaseGeneration;
    m_steps->resumeForRecovery(p, [finished, once](const HttpAnswer &a) {
        if (std::exchange(*once, true))
            return;
        finished(a.status == 201 || a.status == 402);
    });
}

} // namespace OncePay::Gateway
