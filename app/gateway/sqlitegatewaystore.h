#pragma once

#include "gatewaystore.h"
#include "sqlbatchworker.h"

#include <memory>

namespace OncePay::Gateway {

// GatewayStore on one SQLite file in WAL mode with synchronous=FULL; requests that arrive
// together share one commit (SqlBatchWorker).
class SqliteGatewayStore final : public GatewayStore
{
public:
    struct Options
    {
        QString path;
        int busyTimeoutMs = 2000;
    };
    explicit SqliteGatewayStore(Options options);
    ~SqliteGatewayStore() override;

    bool open(QString *error) override;
    void close() override;
    Stats stats() const override;

    void claimPayment(const PaymentClaim &claim, QObject *context, Reply<ClaimOutcome> reply) override;
    void markAcquirerCalled(const QString &paymentId, qint64 now, QObject *context, Reply<bool> reply) override;
    void settlePayment(const Settlement &settlement, QObject *context, Reply<bool> reply) override;
    void releaseClaim(const QString &merchant, const QString &key, const QString &paymentId,
                      QObject *context, Reply<bool> reply) override;
    void findPayment(const QString &merchant, const QString &id, QObject *context, Reply<Payment> reply) override;
    void findPaymentByKey(const QString &merchant, const QString &key, QObject *context, Reply<Payment> reply) override;
    void listPayments(const ListQuery &query, QObject *context, Reply<QList<Payment>> reply) override;
    void createRefund(const RefundRequest &request, QObject *context, Reply<RefundOutcome> reply) override;
    void takeRecoveryWork(qint64 now, qint64 leaseMs, int limit, QObject *context,
                          Reply<QList<RecoveryItem>> reply) override;
    void sweepExpiredRecords(qint64 now, int limit, QObject *context, Reply<int> reply) override;

    static constexpr int schemaVersion = 1;

private:
    Options m_options;
    std::unique_ptr<SqlBatchWorker> m_worker;
};

} // namespace OncePay::Gateway
