#include "gateway/store/retentionsweeper.h"

#include "gateway/paymentlog.h"
#include "gateway/store/timedreply.h"
#include "timeutil.h"

namespace OncePay::Gateway {

RetentionSweeper::RetentionSweeper(qint64 retentionMs, GatewayStore *store, Metrics *metrics, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_metrics(metrics)
{
    m_timer.setInterval(int(qBound<qint64>(qint64(200), retentionMs / 10, qint64(60000))));
    connect(&m_timer, &QTimer::timeout, this, &RetentionSweeper::sweep);
}

void RetentionSweeper::start()
{
    m_timer.start();
}

void RetentionSweeper::stop()
{
    m_timer.stop();
}

void RetentionSweeper::sweep()
{
    m_store->sweepExpiredRecords(nowMs(), 5000, this, timedReply<int>(m_metrics, [this](bool ok, const QString &, int n) {
        if (ok && n > 0) {
            m_metrics->count("oncepay_retention_swept_total", {}, n);
            qCDebug(lcPayments) << "retention: deleted" << n << "expired response records";
        }
    }));
}

}   // namespace OncePay::Gateway
