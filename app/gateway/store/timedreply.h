#pragma once

#include "gateway/store/gatewaystore.h"
#include "gateway/metrics.h"
#include "gateway/paymentlog.h"

#include <QElapsedTimer>

#include <utility>

namespace OncePay::Gateway {

// Wraps a store reply so that the time the store took lands in the store latency histogram
// and a failure is logged, before `reply` sees the answer.
template <typename T>
GatewayStore::Reply<T> timedReply(Metrics *metrics, GatewayStore::Reply<T> reply)
{
    QElapsedTimer timer;
    timer.start();
    return [metrics, timer, reply = std::move(reply)](bool ok, const QString &error, T value) {
        metrics->observeStoreLatency(timer.nsecsElapsed() / 1000);
        if (!ok)
            qCWarning(lcPayments) << "store failed:" << error;
        reply(ok, error, std::move(value));
    };
}

}   // namespace OncePay::Gateway
