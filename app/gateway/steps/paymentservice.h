#pragma once

#include "gateway/acquirer/acquirer.h"
#include "gateway/store/gatewaystore.h"
#include "http/httpanswer.h"
#include "gateway/metrics.h"
#include "gateway/paymentconfig.h"
#include "gateway/steps/paymentsteps.h"
#include "gateway/steps/recoveryworker.h"
#include "gateway/steps/refundsteps.h"
#include "gateway/store/retentionsweeper.h"

#include <QObject>

#include <functional>

namespace OncePay::Gateway {

// What the routes ask of payments and refunds, on top of the store and the acquirer: the
// payment steps (PaymentSteps), the refund steps (RefundSteps), reads, and the background
// work (RecoveryWorker, RetentionSweeper). Lives on the HTTP thread; never blocks it.
class PaymentService final : public QObject
{
    Q_OBJECT

public:
    using Config = PaymentConfig;
    using Respond = std::function<void(const Http::HttpAnswer &)>;

    PaymentService(Config config, GatewayStore *store, Acquirer *acquirer, Metrics *metrics,
        QObject *parent = nullptr);

    void start();   // recovery now and periodically, retention sweeps
    void stop();

    void createPayment(const Caller &caller, const QString &key, const QByteArray &fingerprint,
        Payment fields, const Respond &respond);
    void cancelPayment(const Caller &caller, const QString &key, const QByteArray &fingerprint,
        const QString &paymentId, const Respond &respond);
    void createRefund(const Caller &caller, const QString &key, const QByteArray &fingerprint,
        Refund fields, const Respond &respond);
    void getRefund(const Caller &caller, const QString &id, const Respond &respond);
    void getRefundByKey(const Caller &caller, const QString &key, const Respond &respond);
    void listRefunds(const Caller &caller, const QString &paymentId, const Respond &respond);
    void getPayment(const Caller &caller, const QString &id, const Respond &respond);
    void getPaymentByKey(const Caller &caller, const QString &key, const Respond &respond);
    void listPayments(ListQuery query, const Respond &respond);
    // GET /healthz: ready only when the store answers a transaction; else 503.
    void readiness(const Respond &respond);

private:
    template <typename T>
    GatewayStore::Reply<T> timed(GatewayStore::Reply<T> reply);

    Config m_config;   // the acquirer timeout bounded by the lease
    GatewayStore *m_store;
    Metrics *m_metrics;
    PaymentSteps m_payments;
    RefundSteps m_refunds;
    RecoveryWorker m_recovery;
    RetentionSweeper m_retention;
};

}   // namespace OncePay::Gateway
