#pragma once

#include "gateway/acquirer/acquirer.h"
#include "gateway/acquirer/acquirersimulation.h"
#include "sqlbatchworker.h"

#include <QHash>

#include <memory>

namespace OncePay::Gateway {

// The simulated bank. It keeps its own ledger in its own SQLite file, outside the gateway's
// transactions, and is idempotent by (merchant, key): charging a key twice charges once.
// Test tokens and the simulation mode decide the outcome.
class AcquirerSimulator final : public Acquirer
    , public AcquirerSimulation
{
    Q_OBJECT

public:
    using Mode = SimulationState::Mode;

    // `keyMemoryMs`: how long it remembers an idempotency key, as a real acquirer does for a
    // window (0: forever). A key it forgot charges or refunds again.
    explicit AcquirerSimulator(const QString &ledgerPath, qint64 keyMemoryMs = 0, QObject *parent = nullptr);
    ~AcquirerSimulator() override;

    // Before open(): the ledger on another SQLite VFS, its units run where `threading` says (the
    // simulator's bank: its disk, its one thread). By default the real file, a thread of its own.
    void placeLedger(const QString &sqliteVfs, SqlBatchWorker::Options::Threading threading);

    bool open(QString *error) override;
    void close() override;
    qint64 ledgerCommits() const override { return m_worker ? m_worker->batchesCommitted() : 0; }
    qint64 ledgerUnits() const override { return m_worker ? m_worker->unitsCommitted() : 0; }

    static bool isKnownToken(const QString &token);
    // Whether the answer to this charge is lost on its way back (tok_timeoutAfterCharge, or the
    // merchant's mode is timeout_after_charge), whether it charges now or charged before.
    bool losesAnswer(const ChargeRequest &request) const;
    // The same for a refund: the merchant's mode is timeout_after_charge.
    bool losesRefundAnswer(const QString &merchant) const;

    // The latency of the merchant's mode applies before the bank acts.
    void charge(const ChargeRequest &request, QObject *context, AnswerCallback done) override;
    void lookup(const QString &merchant, const QString &key, QObject *context, AnswerCallback done) override;
    void reverse(const QString &merchant, const QString &key, QObject *context, AnswerCallback done) override;
    void refund(const RefundCall &call, QObject *context, AnswerCallback done) override;
    void lookupRefund(const QString &merchant, const QString &key, QObject *context, AnswerCallback done) override;
    AcquirerSimulation *simulated() override { return this; }
    void ledger(const QString &merchant, const QString &key, QObject *context, LedgerCallback done) override;
    void refundLedger(const QString &merchant, const QString &chargeKey, QObject *context,
        RefundLedgerCallback done) override;
    void simulation(const QString &merchant, QObject *context, SimulationCallback done) override;
    void setSimulation(const QString &merchant, const SimulationState &state, QObject *context,
        SimulationCallback done) override;

private:
    void execute(const ChargeRequest &request, Mode mode, int confirmMs, QObject *context, AnswerCallback done);
    void executeReversal(const QString &merchant, const QString &key, Mode mode, QObject *context, AnswerCallback done);
    void executeRefund(const RefundCall &call, Mode mode, QObject *context, AnswerCallback done);
    // Runs `work` after the merchant's simulated latency, with the mode it had on arrival.
    void afterLatency(const QString &merchant, QObject *context, std::function<void(Mode, QObject *)> work);

    // The binds of kRemembered for a key: merchant, key and the window it is remembered for.
    QVariantList remembered(const QString &merchant, const QString &key) const;

    std::unique_ptr<SqlBatchWorker> m_worker;
    QString m_sqliteVfs;
    SqlBatchWorker::Options::Threading m_threading = SqlBatchWorker::Options::Threading::OwnThread;
    QString m_path;
    qint64 m_keyMemoryMs = 0;
    QHash<QString, SimulationState> m_simulation;   // per merchant; absent: normal, no latency
};

}   // namespace OncePay::Gateway
