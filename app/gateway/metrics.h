#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QtGlobal>

#include <array>

namespace OncePay::Gateway {

// Counters and one latency histogram, rendered in the Prometheus text format.
// Used from the HTTP thread only.
class Metrics final
{
public:
    void count(const QByteArray &name, const QByteArray &labels = {}, qint64 by = 1);
    void observeStoreLatency(qint64 microseconds);
    QByteArray render() const;
    // Gauges read when rendering (values owned elsewhere).
    void setGauge(const QByteArray &name, const QByteArray &labels, qint64 value);

private:
    QMap<QByteArray, QMap<QByteArray, qint64>> m_counters;   // name -> labels -> value
    static constexpr std::array<qint64, 10> kBucketsUs{100, 250, 500, 1000, 2500, 5000, 10000, 25000, 100000, 1000000};
    std::array<qint64, kBucketsUs.size()> m_buckets{};
    qint64 m_latencyCount = 0;
    qint64 m_latencySumUs = 0;
};

QByteArray label(const char *name, const QString &value);

}   // namespace OncePay::Gateway
