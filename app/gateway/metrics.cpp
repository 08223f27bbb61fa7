#include "gateway/metrics.h"

namespace OncePay::Gateway {

namespace {
const QMap<QByteArray, QByteArray> kHelp{
    {"oncepay_http_requests_total", "HTTP requests by route and status."},
    {"oncepay_idempotent_replays_total", "Answers replayed for a finished Idempotency-Key."},
    {"oncepay_idempotency_conflicts_total", "409 answers: the key was in use."},
    {"oncepay_idempotency_mismatches_total", "422 answers: the key was reused for another request."},
    {"oncepay_acquirer_calls_total", "Calls to the acquirer by kind and outcome."},
    {"oncepay_recovery_runs_total", "Runs of the recovery worker."},
    {"oncepay_recovery_resolved_total", "Payments resolved by the recovery worker."},
    {"oncepay_retention_swept_total", "Expired response records deleted."},
    {"oncepay_store_commits_total", "Durable commits (one fsync each) by store."},
    {"oncepay_store_units_total", "Units of work carried by those commits (group commit) by store."},
};
}   // namespace

QByteArray label(const char *name, const QString &value)
{
    QByteArray v = value.toUtf8();
    v.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
    return QByteArray(name) + "=\"" + v + '"';
}

void Metrics::count(const QByteArray &name, const QByteArray &labels, qint64 by)
{
    m_counters[name][labels] += by;
}

void Metrics::setGauge(const QByteArray &name, const QByteArray &labels, qint64 value)
{
    m_counters[name][labels] = value;
}

void Metrics::observeStoreLatency(qint64 us)
{
    for (size_t i = 0; i < kBucketsUs.size(); ++i) {
        if (us <= kBucketsUs[i])
            ++m_buckets[i];
    }
    ++m_latencyCount;
    m_latencySumUs += us;
}

QByteArray Metrics::render() const
{
    QByteArray out;
    for (auto it = m_counters.cbegin(); it != m_counters.cend(); ++it) {
        out += "# HELP " + it.key() + ' ' + kHelp.value(it.key(), "Counter.") + '\n';
        out += "# TYPE " + it.key() + " counter\n";
        for (auto s = it.value().cbegin(); s != it.value().cend(); ++s) {
            out += it.key();
            if (!s.key().isEmpty())
                out += '{' + s.key() + '}';
            out += ' ' + QByteArray::number(s.value()) + '\n';
        }
    }
    out += "# HELP oncepay_store_latency_seconds Time from submitting store work to its committed answer.\n"
           "# TYPE oncepay_store_latency_seconds histogram\n";
    for (size_t i = 0; i < kBucketsUs.size(); ++i) {
        out += "oncepay_store_latency_seconds_bucket{le=\"" + QByteArray::number(double(kBucketsUs[i]) / 1e6)
            + "\"} " + QByteArray::number(m_buckets[i]) + '\n';
    }
    out += "oncepay_store_latency_seconds_bucket{le=\"+Inf\"} " + QByteArray::number(m_latencyCount) + '\n';
    out += "oncepay_store_latency_seconds_sum " + QByteArray::number(double(m_latencySumUs) / 1e6) + '\n';
    out += "oncepay_store_latency_seconds_count " + QByteArray::number(m_latencyCount) + '\n';
    return out;
}

}   // namespace OncePay::Gateway
