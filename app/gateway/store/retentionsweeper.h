#pragma once

#include "gateway/store/gatewaystore.h"
#include "gateway/metrics.h"

#include <QObject>
#include <QTimer>

namespace OncePay::Gateway {

// Retention: every tenth of the retention period (bounded to 0.2 s .. 60 s), deletes recorded
// answers past their retention, a batch at a time. Payments and refunds keep their keys forever.
// Lives on the HTTP thread.
class RetentionSweeper final : public QObject
{
    Q_OBJECT

public:
    RetentionSweeper(qint64 retentionMs, GatewayStore *store, Metrics *metrics, QObject *parent = nullptr);

    void start();   // the first sweep one interval from now
    void stop();
    void sweep();

private:
    GatewayStore *m_store;
    Metrics *m_metrics;
    QTimer m_timer;
};

}   // namespace OncePay::Gateway
