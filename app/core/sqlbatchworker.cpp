#include "sqlbatchworker.h"

#include "completionrelay.h"

#include <QMetaObject>
#include <QSqlDatabase>
#include <QSqlError>

#include <pthread.h>

namespace OncePay {

Q_LOGGING_CATEGORY(lcSql, "oncepay.core.sql", QtInfoMsg)

SqlTx::~SqlTx()
{
    clearCache();
}

void SqlTx::clearCache()
{
    qDeleteAll(m_cache);
    m_cache.clear();
    m_direct.reset();
}

QSqlQuery &SqlTx::exec(const QString &sql, const QVariantList &binds)
{
    if (m_prepareOnlyWithBinds && binds.isEmpty()) {
        if (!m_direct)
            m_direct = std::make_unique<QSqlQuery>(QSqlDatabase::database(m_connectionName, false));
        m_direct->finish();
        if (!m_direct->exec(sql))
            throw SqlError(m_direct->lastError().text(), m_direct->lastError().nativeErrorCode());
        return *m_direct;
    }
    QSqlQuery *q = m_cache.value(sql);
    if (!q) {
        q = new QSqlQuery(QSqlDatabase::database(m_connectionName, false));
        if (!q->prepare(sql)) {
            const QSqlError err = q->lastError();
            delete q;
            throw SqlError(QStringLiteral("prepare failed: %1 [%2]").arg(err.text(), sql), err.nativeErrorCode(),
                SqlError::Stage::Prepare);
        }
        m_cache.insert(sql, q);
    }
    q->finish();
    for (int i = 0; i < binds.size(); ++i)
        q->bindValue(i, binds.at(i));
    if (!q->exec())
        throw SqlError(q->lastError().text(), q->lastError().nativeErrorCode());
    return *q;
}

int SqlTx::numRowsAffected(const QString &sql, const QVariantList &binds)
{
    return exec(sql, binds).numRowsAffected();
}

SqlBatchWorker::SqlBatchWorker(Options options)
    : m_options(std::move(options))
{
}

SqlBatchWorker::~SqlBatchWorker()
{
    stop();
}

bool SqlBatchWorker::start(QString *error)
{
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        if (m_run != Run::NotStarted) {
            if (error)
                *error = QStringLiteral("%1: the worker was started before").arg(m_options.path);
            return false;
        }
        m_run = Run::Opening;
    }
    if (onCallerThread())
        return startOnCallerThread(error);
    m_thread = std::thread([this] {
        run();
    });
    std::unique_lock<std::mutex> lock(m_mutex);
    m_wake.wait(lock, [this] {
        return m_run != Run::Opening;
    });
    if (error)
        *error = m_openError;
    const bool ok = m_openOk;
    lock.unlock();
    if (ok && m_options.checkpointIntervalMs > 0 && !isPostgres())
        m_checkpointThread = std::thread([this] {
            checkpointLoop();
        });
    return ok;
}

bool SqlBatchWorker::startOnCallerThread(QString *error)
{
    bool ok = false;
    QString why;
    openInThread(&ok, &why);
    std::lock_guard<std::mutex> lock(m_mutex);
    m_openOk = ok;
    m_openError = why;
    if (!ok && m_openFailure == OpenFailure::None)
        m_openFailure = OpenFailure::Other;
    m_run = ok ? Run::Running : Run::Stopped;
    m_callerContext = std::make_unique<QObject>();
    if (error)
        *error = why;
    return ok;
}

// CallerThread: one posted event runs what was queued by the time it runs, as one batch (up to
// maxBatch; the rest gets the next event), then calls each completion whose context still exists.
void SqlBatchWorker::runQueuedOnCallerThread()
{
    QList<Item> batch;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_runPosted = false;
        const qsizetype n = qMin<qsizetype>(m_queue.size(), m_options.maxBatch);
        batch = m_queue.mid(0, n);
        m_queue.remove(0, n);
        if (!m_queue.isEmpty() && m_run == Run::Running) {
            m_runPosted = true;
            QMetaObject::invokeMethod(
                m_callerContext.get(), [this] {
                    runQueuedOnCallerThread();
                },
                Qt::QueuedConnection);
        }
    }
    if (batch.isEmpty())
        return;
    runBatch(batch);
    for (Item &item : batch) {
        if (item.context && item.done)
            item.done(item.commit(), item.error);
    }
}

SqlBatchWorker::OpenFailure SqlBatchWorker::openFailure() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_openFailure;
}

void SqlBatchWorker::checkpointLoop()
{
    const QString name = m_options.connectionName + QStringLiteral("-ckpt");
    pthread_setname_np(pthread_self(), name.left(15).toLocal8Bit().constData());
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        applySqliteFile(db, QString());
        if (!db.open()) {
            qCWarning(lcSql) << name << "checkpointer cannot open the database:" << db.lastError().text();
        } else {
            QSqlQuery q(db);
            const auto interval = std::chrono::milliseconds(m_options.checkpointIntervalMs);
            std::unique_lock<std::mutex> lock(m_mutex);
            while (!m_checkpointWake.wait_for(lock, interval, [this] {
                return m_checkpointStop;
            })) {
                lock.unlock();
                // PASSIVE never waits for the writer: it copies what it can and fsyncs the database file.
                if (!q.exec(QStringLiteral("PRAGMA wal_checkpoint(PASSIVE)")))
                    qCWarning(lcSql) << name << "checkpoint failed:" << q.lastError().text();
                q.finish();
                lock.lock();
            }
        }
    }
    QSqlDatabase::removeDatabase(name);
}

void SqlBatchWorker::stop()
{
    if (m_checkpointThread.joinable()) {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_checkpointStop = true;
        }
        m_checkpointWake.notify_all();
        m_checkpointThread.join();
    }
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_run == Run::NotStarted)
            m_run = Run::Stopped;
        if (m_run == Run::Stopped)
            return;
        m_run = Run::Stopping;   // the queue is finished first: accepted work is not dropped
    }
    if (onCallerThread()) {
        for (;;) {
            {
                std::lock_guard<std::mutex> lock(m_mutex);
                if (m_queue.isEmpty()) {
                    m_run = Run::Stopped;
                    break;
                }
                m_runPosted = true;   // the posted event, if any, finds nothing to do
            }
            runQueuedOnCallerThread();
        }
        m_callerContext.reset();
        closeInThread();
        return;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void SqlBatchWorker::run()
{
    pthread_setname_np(pthread_self(), m_options.connectionName.left(15).toLocal8Bit().constData());
    bool ok = false;
    QString error;
    openInThread(&ok, &error);
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_openOk = ok;
        m_openError = error;
        if (!ok && m_openFailure == OpenFailure::None)
            m_openFailure = OpenFailure::Other;
        if (m_run == Run::Opening)
            m_run = Run::Running;
    }
    m_wake.notify_all();
    for (;;) {
        QList<Item> batch;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait(lock, [this] {
                return !m_queue.isEmpty() || m_run == Run::Stopping;
            });
            if (m_queue.isEmpty()) {
                m_run = Run::Stopped;
                break;
            }
            const qsizetype n = qMin<qsizetype>(m_queue.size(), m_options.maxBatch);
            batch = m_queue.mid(0, n);
            m_queue.remove(0, n);
        }
        runBatch(batch);
        for (Item &item : batch)
            complete(item);
    }
    closeInThread();
}

void SqlBatchWorker::submit(Work work, QObject *context, Done done)
{
    submitChecked(std::move(work), context, [done = std::move(done)](Commit commit, const QString &error) {
        done(commit == Commit::Done, error);
    });
}

bool SqlBatchWorker::sqliteCommitMayHaveHappened(const QString &resultCode)
{
    bool isNumber = false;
    const int primary = resultCode.toInt(&isNumber) & 0xff;   // extended codes keep the primary in the low byte
    constexpr int sqliteBusy = 5;
    constexpr int sqliteLocked = 6;
    return !isNumber || (primary != sqliteBusy && primary != sqliteLocked);
}

bool SqlBatchWorker::commitMayHaveHappened(const QString &sqlState)
{
    // An error the server answered with (a lock timeout 55P03, a serialization failure 40001, a
    // constraint 23...) means the statement, or the transaction at COMMIT, was rolled back. No
    // SQLSTATE (libpq's own "server closed the connection"), 08 (connection), 57 (the server
    // shutting down or crashing, which may come in place of the answer), 58 (system) and XX
    // (internal): the answer was lost, not necessarily the work.
    static const QStringList lost{QStringLiteral("08"), QStringLiteral("57"), QStringLiteral("58"),
        QStringLiteral("XX")};
    return sqlState.size() != 5 || lost.contains(sqlState.left(2));
}

void SqlBatchWorker::submitChecked(Work work, QObject *context, Completion done, bool singleStatement)
{
    // The relay is chosen here, on the caller's thread, which is where a relay for a context
    // on it is made: a thread then uses an object it made itself.
    CompletionRelay *relay = onCallerThread() ? nullptr : CompletionRelay::forContext(context);
    Item item{std::move(work), context, std::move(done), relay, false, false, singleStatement, {}};
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_run == Run::Opening || m_run == Run::Running) {
            m_queue.append(std::move(item));
            if (!onCallerThread()) {
                m_wake.notify_one();
            } else if (!m_runPosted) {
                m_runPosted = true;
                QMetaObject::invokeMethod(
                    m_callerContext.get(), [this] {
                        runQueuedOnCallerThread();
                    },
                    Qt::QueuedConnection);
            }
            return;
        }
    }
    item.error = QStringLiteral("the database is not open");
    complete(item);
}

void SqlBatchWorker::complete(Item &item)
{
    if (!item.context || !item.done)
        return;
    if (item.relay) {
        item.relay->post(item.context, [done = std::move(item.done), commit = item.commit(), error = item.error] {
            done(commit, error);
        });
        return;
    }
    // A context on a third thread, submitted from another: Qt's own queue (correct, but its
    // ordering is invisible to ThreadSanitizer). Nothing in OncePay submits so.
    QMetaObject::invokeMethod(
        item.context.data(), [done = std::move(item.done), commit = item.commit(), error = item.error] {
            done(commit, error);
        },
        Qt::QueuedConnection);
}

// A SQLite batch that failed as a whole (its COMMIT, or its savepoints after a full disk or an
// I/O error) committed nothing, and failed every unit in it, also one that would have succeeded
// alone: a read, or a write that still fits. Each runs again in a transaction of its own, so
// that a gateway can still read what it holds for a key on a full disk (oncepay-sim, seed 141).
void SqlBatchWorker::runEachAlone(QList<Item> &batch, bool batchMayHaveCommitted)
{
    for (Item &item : batch) {
        // A unit the failed batch may have committed stays unknown unless its own run commits
        // (whose frames then replace the batch's in the WAL).
        const bool mayBeCommitted = batchMayHaveCommitted && item.ok;
        item.ok = false;
        item.commitUnknown = false;
        item.error.clear();
        QList<Item> one;
        one.append(std::move(item));
        runBatch(one);
        item = std::move(one.first());
        if (!item.ok && mayBeCommitted)
            item.commitUnknown = true;
    }
}

void SqlBatchWorker::runBatch(QList<Item> &batch)
{
    auto failAll = [&batch](const QString &error) {
        for (Item &item : batch) {
            item.ok = false;
            item.error = error;
        }
    };
    if (!m_tx && !isPostgres()) {
        failAll(QStringLiteral("the database is not open"));
        return;
    }
    // One statement on PostgreSQL: its own transaction, no BEGIN and COMMIT round trips.
    const bool autocommit = isPostgres() && batch.size() == 1 && batch.first().singleStatement;
    try {
        if (isPostgres() && (!m_tx || !QSqlDatabase::database(m_options.connectionName, false).isOpen())) {
            // The server went away and came back (restart, failover): connect again.
            m_tx.reset();
            QSqlDatabase::removeDatabase(m_options.connectionName);
            QString error;
            if (!openConnection(&error))
                throw SqlError(error);
            m_tx = std::make_unique<SqlTx>(m_options.connectionName, isPostgres());
            m_tx->exec(QStringLiteral("SET synchronous_commit = on")).finish();
            m_tx->exec(QStringLiteral("SET lock_timeout = %1").arg(m_options.busyTimeoutMs)).finish();
        }
        // IMMEDIATE: SQLite takes the write lock now, not at the first write (no upgrade deadlock).
        if (!autocommit)
            m_tx->exec(isPostgres() || m_options.readOnly ? QStringLiteral("BEGIN") : QStringLiteral("BEGIN IMMEDIATE"));
    } catch (const SqlError &e) {
        qCWarning(lcSql) << m_options.connectionName << "cannot begin a transaction:" << e.message();
        if (isPostgres() && m_tx) {
            // Most likely the server connection is gone: the next batch connects again.
            m_tx->clearCache();
            QSqlDatabase::database(m_options.connectionName, false).close();
        }
        failAll(e.message());
        return;
    }
    if (batch.size() == 1) {
        // A batch of one needs no savepoint: the transaction is the unit (two round trips
        // fewer, which is most of the saving on PostgreSQL, where every batch is one unit).
        Item &item = batch.first();
        try {
            item.work(*m_tx);
        } catch (const SqlError &e) {
            if (autocommit) {
                // The statement was its own transaction: as for a COMMIT, a lost connection
                // leaves its outcome unknown.
                item.commitUnknown = e.stage() == SqlError::Stage::Execute && commitMayHaveHappened(e.code());
                qCWarning(lcSql) << m_options.connectionName << "statement failed:" << e.message()
                                 << (item.commitUnknown ? "(it may have been committed)" : "");
                if (item.commitUnknown) {
                    m_tx->clearCache();
                    QSqlDatabase::database(m_options.connectionName, false).close();
                }
                failAll(e.message());
                return;
            }
            qCWarning(lcSql) << m_options.connectionName << "unit rolled back:" << e.message();
            QSqlQuery(QSqlDatabase::database(m_options.connectionName, false)).exec(QStringLiteral("ROLLBACK"));
            failAll(e.message());
            return;
        }
        item.ok = true;
        if (autocommit) {
            std::lock_guard<std::mutex> lock(m_mutex);
            ++m_batches;
            ++m_units;
            return;
        }
    } else {
        for (Item &item : batch) {
            try {
                m_tx->exec(QStringLiteral("SAVEPOINT unit"));
                try {
                    item.work(*m_tx);
                    m_tx->exec(QStringLiteral("RELEASE unit"));
                    item.ok = true;
                } catch (const SqlError &e) {
                    item.ok = false;
                    item.error = e.message();
                    qCWarning(lcSql) << m_options.connectionName << "unit rolled back:" << e.message();
                    m_tx->exec(QStringLiteral("ROLLBACK TO unit"));
                    m_tx->exec(QStringLiteral("RELEASE unit"));
                }
            } catch (const SqlError &e) {
                // The savepoint machinery itself failed: the transaction cannot be trusted. After some
                // errors (disk full, I/O) SQLite has already rolled the whole transaction back, so
                // "no such savepoint" follows; the unit's own error is then the cause to report.
                qCWarning(lcSql) << m_options.connectionName << "batch aborted:" << e.message();
                const QString cause = item.error.isEmpty() ? e.message() : item.error;
                QSqlQuery(QSqlDatabase::database(m_options.connectionName, false)).exec(QStringLiteral("ROLLBACK"));
                if (!isPostgres())
                    return runEachAlone(batch);
                failAll(cause);
                return;
            }
        }
    }
    try {
        m_tx->exec(QStringLiteral("COMMIT"));
    } catch (const SqlError &e) {
        // PostgreSQL's COMMIT may have been committed by the server when only its answer was lost
        // (API.md promise 10). SQLite's happens in this process, but not always all or nothing: a
        // write that fails while the WAL frames go out (a full disk, an I/O error) can come after
        // the commit frame itself was written (SQLite pads the last frame to the sector), and a
        // crash before the next commit brings the transaction back when the WAL is recovered
        // (oncepay-sim seed 370: a cancel answered 503 on a full disk came back after the
        // machine's crash and was reversed). Only SQLite's "busy" and "locked" say for certain
        // that nothing was written. The units that got as far as COMMIT say so; each is run again
        // alone first, as before, and one whose own COMMIT succeeds is known (its frames replace
        // the failed batch's).
        const bool unknown = isPostgres() ? commitMayHaveHappened(e.code()) : sqliteCommitMayHaveHappened(e.code());
        qCWarning(lcSql) << m_options.connectionName << "commit failed:" << e.message()
                         << (unknown ? "(it may have been committed)" : "");
        for (Item &item : batch)
            item.commitUnknown = unknown && item.ok;
        if (unknown && isPostgres()) {
            // The connection is gone or cannot be trusted: the next batch connects again.
            m_tx->clearCache();
            QSqlDatabase::database(m_options.connectionName, false).close();
        } else {
            QSqlQuery(QSqlDatabase::database(m_options.connectionName, false)).exec(QStringLiteral("ROLLBACK"));
            if (!isPostgres() && batch.size() > 1)
                return runEachAlone(batch, unknown);
        }
        failAll(e.message());
        return;
    }
    std::lock_guard<std::mutex> lock(m_mutex);
    ++m_batches;
    m_units += batch.size();
}

qint64 SqlBatchWorker::batchesCommitted() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_batches;
}

qint64 SqlBatchWorker::unitsCommitted() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_units;
}

}   // namespace OncePay
