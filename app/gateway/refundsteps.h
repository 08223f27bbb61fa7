#pragma once

#include "gatewaystore.h"
#include "httpanswer.h"
#include "metrics.h"

#include <QObject>

#include <functional>

namespace OncePay::Gateway {

// A refund: claim of the key, bound check, refund row, payment update and the recorded answer
// are one transaction of the store (no acquirer call, so no lease); this maps its outcome to
// the answer. Lives on the HTTP thread.
class RefundSteps final : public QObject
{
    Q_OBJECT

public:
    using Respond = std::function<void(const HttpAnswer &)>;

    RefundSteps(qint64 retentionMs, GatewayStore *store, Metrics *metrics, QObject *parent = nullptr);

    void createRefund(const Caller &caller, const QString &key, const QByteArray &fingerprint, Refund fields,
                      Respond respond);

private:
    qint64 m_retentionMs;
    GatewayStore *m_store;
    Metrics *m_metrics;
};

} // namespace OncePay::Gateway
