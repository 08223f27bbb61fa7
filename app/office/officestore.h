#pragma once

#include "databasespec.h"
#include "office/officereports.h"
#include "office/officetypes.h"
#include "sqlbatchworker.h"

#include <QAtomicInteger>
#include <QObject>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace OncePay::Office {

// The office's store: one SQLite file in WAL mode with synchronous=FULL, whose one writer
// commits the batches that arrive together in one transaction (group commit); or one PostgreSQL
// database shared by several office instances (a pool of connections, a batch per transaction).
// A batch of events is one unit: all of it is stored, or none of it.
class OfficeStore final
{
public:
    struct Options
    {
        DatabaseSpec db;
        int busyTimeoutMs = 2000;
        int connections = 8;   // PostgreSQL pool size (SQLite always uses one writer)
    };
    using Commit = SqlBatchWorker::Commit;
    template <typename R>
    using Reply = std::function<void(Commit commit, const QString &error, R value)>;

    explicit OfficeStore(Options options);
    ~OfficeStore();
    OfficeStore(const OfficeStore &) = delete;
    OfficeStore &operator=(const OfficeStore &) = delete;

    bool open(QString *error);
    void close();
    bool isPostgres() const { return m_options.db.isPostgres(); }

    // Applies `batch` for `till` (its merchant, store and till) as OFFICE.md says: each event once
    // by (merchant, store, till, seq), replays counted, a gap or a mismatch refusing the whole batch.
    void applyBatch(const OfficeCaller &till, const EventBatch &batch, QObject *context, Reply<BatchOutcome> reply);
    // Notes a refused batch for the gaps report (best effort: a failure is only logged).
    void recordRefusal(const OfficeCaller &till, const BatchOutcome &refused, QObject *context);

    struct Position
    {
        QString store;
        qint64 lastSeq = 0;
    };
    // The last seq of each till numbered `till` in the merchant's stores (in `store` only, unless
    // empty): none when the office has no such till.
    void positions(const QString &merchant, const QString &store, const QString &till, QObject *context,
        Reply<QList<Position>> reply);
    // The reports' reads (docs/office.md, "Reports"). The sale and refund events of the merchant
    // whose `at` is in [fromMs, toMs), of one store or till unless empty, in time order.
    using StoredEvent = OfficeReports::StoredEvent;
    void reportEvents(const QString &merchant, const QString &store, const QString &till, qint64 fromMs, qint64 toMs,
        QObject *context, Reply<QList<StoredEvent>> reply);
    // Each shift event in [fromMs, toMs) with the sale and refund events of its till since that
    // till's previous shift event.
    struct ShiftEvents
    {
        StoredEvent shift;
        QList<StoredEvent> events;
    };
    void shiftEvents(const QString &merchant, const QString &store, qint64 fromMs, qint64 toMs, QObject *context,
        Reply<QList<ShiftEvents>> reply);
    // Every till of the merchant (of one store unless empty): its last event and its last refused batch.
    struct TillState
    {
        QString store;
        QString till;
        qint64 createdAt = 0;
        qint64 lastSeq = 0;   // 0: nothing received yet
        QString lastAt;
        qint64 lastAtMs = 0;
        qint64 lastReceivedAt = 0;
        QString problem;   // empty: no batch of this till was ever refused
        qint64 refusedSeq = 0;
        qint64 expectedSeq = 0;
        qint64 refusals = 0;
        qint64 refusedAt = 0;
    };
    void tillStates(const QString &merchant, const QString &store, QObject *context, Reply<QList<TillState>> reply);
    // The caller a token's digest belongs to, or nullopt.
    void findToken(const QString &tokenHash, QObject *context, Reply<std::optional<OfficeCaller>> reply);
    void ping(QObject *context, Reply<bool> reply);

    // Setting up (the commands and --demo). Each waits for its transaction, running an event loop.
    // The merchant, the store and the till are made as needed; a till token writes that till only.
    bool addTillToken(const QString &merchant, const QString &store, const QString &till, const QByteArray &token,
        QString *error);
    // An owner of every store (empty `store`) or of one.
    bool addOwnerToken(const QString &merchant, const QString &store, const QByteArray &token, QString *error);
    // The merchant the commands use when none is named: the only one there is, `fallback` in an
    // empty store; nullopt (and `error`) when there are several.
    std::optional<QString> soleMerchant(const QString &fallback, QString *error);

private:
    template <typename R>
    void transact(QObject *context, std::function<R(SqlTx &)> work, Reply<R> reply);
    template <typename R>
    bool transactNow(std::function<R(SqlTx &)> work, R *result, QString *error);

    Options m_options;
    std::vector<std::unique_ptr<SqlBatchWorker>> m_workers;
    QAtomicInteger<quint32> m_next = 0;
};

}   // namespace OncePay::Office
