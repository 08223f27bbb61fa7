#pragma once

#include "gateway/store/gatewaystore.h"
#include "sqlbatchworker.h"

#include <QAtomicInteger>

#include <memory>
#include <optional>
#include <vector>

namespace OncePay::Gateway {

// GatewayStore on SQL: one SQLite file in WAL mode with synchronous=FULL (requests that arrive
// together share one commit), or one PostgreSQL database shared by any number of gateway
// instances (a pool of connections, one unit per transaction, synchronous_commit=on).
// The statements are the same for both; only the schema's types, the lease clock and the
// row-locking clause of the background work differ.
class SqlGatewayStore final : public GatewayStore
{
public:
    struct Options
    {
        SqlBatchWorker::Driver driver = SqlBatchWorker::Driver::Sqlite;
        QString path;   // SQLite file, or PostgreSQL database name
        QString hostName;   // PostgreSQL
        int port = 5432;
        QString userName;
        QString password;
        int busyTimeoutMs = 2000;   // SQLite busy timeout / PostgreSQL lock_timeout
        int connections = 8;   // PostgreSQL pool size (SQLite always uses one writer)
        // SQLite: ping() fails (the gateway is not ready), and a new key's claim is refused (503,
        // nothing recorded), while the file system holding the store has less free space than
        // this; 0: not checked. Keys already recorded are answered as ever.
        qint64 minFreeBytes = 64 * 1024 * 1024;
        // SQLite: the VFS the file lives on (the simulator's disk: no folder to check, the disk
        // itself says when it is full) and where the units run (SqlBatchWorker::Options).
        QString sqliteVfs{};
        SqlBatchWorker::Options::Threading threading{SqlBatchWorker::Options::Threading::OwnThread};
    };
    // "postgresql://USER:PASS@HOST:PORT/DBNAME" selects PostgreSQL; anything else is a SQLite
    // path. nullopt and `error` set for a malformed PostgreSQL URL.
    static std::optional<Options> fromSpec(const QString &spec, QString *error);

    explicit SqlGatewayStore(Options options);
    ~SqlGatewayStore() override;

    bool open(QString *error) override;
    void close() override;
    Stats stats() const override;

    void claimPayment(const PaymentClaim &claim, QObject *context, Reply<ClaimOutcome> reply) override;
    void storedAnswer(const QString &merchant, const QString &key, const QByteArray &fingerprint,
        QObject *context, Reply<ClaimOutcome> reply) override;
    void settlePayment(const Settlement &settlement, QObject *context, Reply<StepWrite> reply) override;
    void findPayment(const QString &merchant, const QString &id, QObject *context, Reply<Payment> reply) override;
    void ping(QObject *context, Reply<bool> reply) override;
    void findPaymentByKey(const QString &merchant, const QString &key, QObject *context, Reply<Payment> reply) override;
    void listPayments(const ListQuery &query, QObject *context, Reply<QList<Payment>> reply) override;
    void claimRefund(const RefundClaim &claim, QObject *context, Reply<RefundClaimOutcome> reply) override;
    void storedRefundAnswer(const QString &merchant, const QString &key, const QByteArray &fingerprint,
        QObject *context, Reply<RefundClaimOutcome> reply) override;
    void settleRefund(const RefundSettlement &settlement, QObject *context, Reply<StepWrite> reply) override;
    void findRefund(const QString &merchant, const QString &id, QObject *context, Reply<Refund> reply) override;
    void findRefundByKey(const QString &merchant, const QString &key, QObject *context, Reply<Refund> reply) override;
    void listRefunds(const QString &merchant, const QString &paymentId, QObject *context,
        Reply<RefundList> reply) override;
    void takeRefundRecoveryWork(qint64 leaseMs, int limit, QObject *context, Reply<QList<Refund>> reply) override;
    void takeRecoveryWork(qint64 leaseMs, int limit, QObject *context, Reply<QList<RecoveryItem>> reply) override;
    void sweepExpiredRecords(qint64 now, int limit, QObject *context, Reply<int> reply) override;

    void markAcquirerCalled(const LeasedRow &row, qint64 leaseMs, qint64 now, QObject *context,
        Reply<StepWrite> reply) override;
    void releaseClaim(const LeasedRow &row, bool acquirerRefused, QObject *context, Reply<StepWrite> reply) override;
    void releaseLease(const LeasedRow &row, QObject *context, Reply<StepWrite> reply) override;
    void checkKeyWindow(const LeasedRow &row, qint64 windowMs, const StoredResponse &response, qint64 retentionMs,
        QObject *context, Reply<KeyWindow> reply) override;
    void claimCancel(const CancelClaim &claim, QObject *context, Reply<CancelOutcome> reply) override;
    void requestCancel(const LeasedRow &row, const QString &reason, QObject *context, Reply<StepWrite> reply) override;
    void listNeedsReview(QObject *context, Reply<ReviewList> reply) override;
    void resolveReview(const QString &id, const QString &outcome, qint64 leaseMs, QObject *context,
        Reply<ReviewResolution> reply) override;

    static constexpr int schemaVersion = 6;

private:
    // `singleStatement`: `work` runs exactly one statement; on PostgreSQL it is sent alone, as a
    // transaction of its own (SqlBatchWorker::submitChecked).
    template <typename R>
    void transact(QObject *context, std::function<R(SqlTx &)> work, Reply<R> reply, bool singleStatement = false);
    bool isPostgres() const { return m_options.driver == SqlBatchWorker::Driver::PostgreSql; }

    Options m_options;
    std::vector<std::unique_ptr<SqlBatchWorker>> m_workers;
    QAtomicInteger<quint32> m_next = 0;
};

}   // namespace OncePay::Gateway
