#include "gateway/steps/recoveryworker.h"

#include "gateway/paymentlog.h"
#include "gateway/steps/paymentsteps.h"
#include "gateway/steps/refundsteps.h"
#include "gateway/store/timedreply.h"

#include <memory>
#include <utility>

namespace OncePay::Gateway {

RecoveryWorker::RecoveryWorker(const PaymentConfig &config, GatewayStore *store, PaymentSteps *payments,
    RefundSteps *refunds, Metrics *metrics, QObject *parent)
    : QObject(parent)
    , m_leaseMs(config.leaseMs)
    , m_store(store)
    , m_steps(payments)
    , m_refunds(refunds)
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
    recoverPayments([this](int payments) {
        recoverRefunds([this, payments](int refunds) {
            m_running = false;
            emit runFinished(payments + refunds);
        });
    });
}

void RecoveryWorker::forEach(int count, const std::function<void(int, Finished)> &start, const std::function<void(int)> &done)
{
    if (count == 0)
        return done(0);
    auto pending = std::make_shared<int>(count);
    auto resolved = std::make_shared<int>(0);
    for (int i = 0; i < count; ++i) {
        start(i, [this, pending, resolved, done](bool didResolve) {
            if (didResolve) {
                ++*resolved;
                m_metrics->count("oncepay_recovery_resolved_total");
            }
            if (--*pending == 0)
                done(*resolved);
        });
    }
}

void RecoveryWorker::recoverPayments(const std::function<void(int)> &done)
{
    m_store->takeRecoveryWork(m_leaseMs, 200, this, timedReply<QList<RecoveryItem>>(m_metrics, [this, done](bool ok, const QString &, QList<RecoveryItem> items) {
        if (!ok)
            items.clear();
        forEach(
            int(items.size()), [this, items](int i, const Finished &finished) {
                recover(items[i], finished);
            },
            done);
    }));
}

void RecoveryWorker::recoverRefunds(const std::function<void(int)> &done)
{
    m_store->takeRefundRecoveryWork(m_leaseMs, 200, this, timedReply<QList<Refund>>(m_metrics, [this, done](bool ok, const QString &, QList<Refund> refunds) {
        if (!ok)
            refunds.clear();
        forEach(
            int(refunds.size()), [this, refunds](int i, const Finished &finished) {
                recoverRefund(refunds[i], finished);
            },
            done);
    }));
}

void RecoveryWorker::recover(const RecoveryItem &item, const Finished &finished)
{
    const Payment &p = item.payment;
    m_metrics->count("oncepay_lease_takeovers_total", "by=\"recovery\"");
    auto finishWith = [finished](bool resolved) {
        return [finished, resolved](bool, const QString &, StepWrite w) {
            finished(resolved && w == StepWrite::Written);
        };
    };
    if (m_steps->acquirerCallInFlight(p.id)) {
        // Our own call is still out; its answer (or its deadline) settles it.
        m_store->releaseLease(LeasedRow::of(p), this, timedReply<StepWrite>(m_metrics, finishWith(false)));
        return;
    }
    if (p.step == PaymentStep::Claimed) {
        // The acquirer was never called (the step is recorded before any call, under the
        // lease that recovery now holds): give the key back.
        m_store->releaseClaim(LeasedRow::of(p), false, this, timedReply<StepWrite>(m_metrics, finishWith(true)));
        return;
    }
    // Resume as a request would, answering nobody: ask the acquirer by key; a key it never saw
    // is charged with the same key (idempotent there), never released.
    auto once = std::make_shared<bool>(false);
    qCInfo(lcPayments) << "recovery: resuming payment" << p.id << "lease generation" << p.leaseGeneration;
    m_steps->resumeForRecovery(p, [finished, once](const Http::HttpAnswer &a) {
        if (std::exchange(*once, true))
            return;
        finished(a.status == 201 || a.status == 402);
    });
}

void RecoveryWorker::recoverRefund(const Refund &r, const Finished &finished)
{
    m_metrics->count("oncepay_lease_takeovers_total", "by=\"recovery\"");
    auto finishWith = [finished](bool resolved) {
        return [finished, resolved](bool, const QString &, StepWrite w) {
            finished(resolved && w == StepWrite::Written);
        };
    };
    if (m_refunds->acquirerCallInFlight(r.id)) {
        m_store->releaseLease(LeasedRow::of(r), this, timedReply<StepWrite>(m_metrics, finishWith(false)));
        return;
    }
    if (r.step == PaymentStep::Claimed) {
        // Never sent: the key and the reserved amount go back.
        m_store->releaseClaim(LeasedRow::of(r), false, this, timedReply<StepWrite>(m_metrics, finishWith(true)));
        return;
    }
    auto once = std::make_shared<bool>(false);
    qCInfo(lcPayments) << "recovery: resuming refund" << r.id << "lease generation" << r.leaseGeneration;
    m_refunds->resumeForRecovery(r, [finished, once](const Http::HttpAnswer &a) {
        if (std::exchange(*once, true))
            return;
        finished(a.status == 201 || a.status == 402);
    });
}

}   // namespace OncePay::Gateway
