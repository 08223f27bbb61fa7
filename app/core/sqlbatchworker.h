#pragma once

#include <QHash>
#include <QList>
#include <QLoggingCategory>
#include <QObject>
#include <QPointer>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

class QSqlDatabase;

namespace OncePay {

class CompletionRelay;

Q_DECLARE_LOGGING_CATEGORY(lcSql)

// A failed statement inside a unit of work; thrown to roll that unit's savepoint back.
class SqlError final : public std::runtime_error
{
public:
    enum class Stage {
        Execute,
        Prepare
    };
    explicit SqlError(const QString &message, QString code = {}, Stage stage = Stage::Execute)
        : std::runtime_error(message.toStdString())
        , m_code(std::move(code))
        , m_stage(stage) {}
    QString message() const { return QString::fromStdString(what()); }
    // The database's own error code (PostgreSQL: the SQLSTATE); empty when the driver made the
    // error itself, e.g. because the connection went away.
    QString code() const { return m_code; }
    // Prepare: the statement failed before it ran, so it changed nothing whatever the cause.
    Stage stage() const { return m_stage; }

private:
    QString m_code;
    Stage m_stage = Stage::Execute;
};

// The handle a unit of work gets: prepared, cached, bound statements on the worker's connection.
class SqlTx final
{
public:
    // `prepareOnlyWithBinds`: statements without parameters run unprepared. PostgreSQL cannot
    // PREPARE utility statements (BEGIN, SAVEPOINT, SET, LOCK), which QPSQL would otherwise do.
    explicit SqlTx(const QString &connectionName, bool prepareOnlyWithBinds = false)
        : m_connectionName(connectionName)
        , m_prepareOnlyWithBinds(prepareOnlyWithBinds) {}
    ~SqlTx();
    // Prepares `sql` once per connection, binds `binds` by position, executes; throws SqlError.
    QSqlQuery &exec(const QString &sql, const QVariantList &binds = {});
    int numRowsAffected(const QString &sql, const QVariantList &binds = {});
    void clearCache();

private:
    QString m_connectionName;
    bool m_prepareOnlyWithBinds = false;
    QHash<QString, QSqlQuery *> m_cache;
    std::unique_ptr<QSqlQuery> m_direct;
};

// Runs units of work against one database connection (SQLite, or PostgreSQL through QPSQL) on
// a thread of its own, and groups every unit that arrived while the previous batch was
// committing into one transaction: one fsync for many requests (group commit), each unit
// isolated by a savepoint.
//
// The threads are std::threads and every hand-off between them is a std::mutex and
// condition variable (completions go back through CompletionRelay), so that ThreadSanitizer
// sees all of their ordering: the suites that use this class run under it in CI.
class SqlBatchWorker final
{
public:
    using Migration = std::function<void(SqlTx &tx, int fromVersion)>;
    using Work = std::function<void(SqlTx &tx)>;
    using Done = std::function<void(bool ok, const QString &error)>;
    // How a unit ended. Unknown: the connection was lost while COMMIT was on its way (PostgreSQL),
    // so the unit may have been written; a caller that promises "nothing happened" must not.
    enum class Commit {
        Done,
        Failed,
        Unknown
    };
    using Completion = std::function<void(Commit commit, const QString &error)>;

    enum class Driver {
        Sqlite,
        PostgreSql
    };

    struct Options
    {
        Driver driver = Driver::Sqlite;
        QString path;   // SQLite: the file; PostgreSQL: the database name
        QString hostName;   // PostgreSQL only
        int port = 5432;
        QString userName;
        QString password;
        QString connectionName;
        int schemaVersion = 1;
        Migration migrate;   // runs in one transaction with user_version bumped after it
        int busyTimeoutMs = 2000;
        // PostgreSQL: keep 1. Units of one batch hold each other's row locks until the commit,
        // so two instances batching the same keys in another order would deadlock; PostgreSQL
        // groups the commits of concurrent connections by itself.
        int maxBatch = 256;
        bool synchronousFull = true;
        // > 0: also checkpoint the WAL from a connection on another thread at this interval, so
        // that the automatic checkpoint inside a commit (which stalls every request of its batch)
        // finds almost everything copied already. The writer keeps its automatic checkpoint:
        // only a checkpoint that catches up completely lets the next commit restart the WAL.
        int checkpointIntervalMs = 0;
        QStringList extraPragmas;   // e.g. "max_page_count=64" (tests fill the disk this way)
        // Stamped into a new file (PRAGMA application_id). A file with another stamp, or an
        // unstamped file that already holds tables, belongs to another program: refused untouched.
        qint32 applicationId = 0;
        QString markerTable;   // an unstamped file with this table is ours (made before stamping)
        // SQLite only: opens an existing file read-only (SQLITE_OPEN_READONLY). Nothing is migrated
        // or written; a file of an older schema is refused (its owner upgrades it), and work runs
        // in plain read transactions. Any write a unit tries fails in SQLite itself.
        bool readOnly = false;
        // SQLite on the real disk, not read-only: the file is made 0600 before SQLite first opens
        // it (its -wal and -shm follow), and once it has proved to be ours, an existing one and
        // its side files lose the group's and others' permissions (PrivateFiles); a folder other
        // accounts may write is refused. The till's databases are one account's.
        bool ownerOnly = false;
        // SQLite only: the VFS the file is opened through (a URI with vfs=NAME). Empty: the
        // operating system's. The simulator's disk (tests/sim CrashVfs) is one.
        QString sqliteVfs{};
        // Where units run. OwnThread: the worker's thread, as described above. CallerThread: the
        // thread that calls start(), from its event loop: submit() queues the unit and posts one
        // event that runs what is queued by then as a batch, and each completion is called there
        // directly, in order. No thread, no checkpointer: the simulator runs a whole world on one
        // thread this way (docs/simulation.md). start() and submit() on that thread only.
        enum class Threading {
            OwnThread,
            CallerThread
        };
        Threading threading{Threading::OwnThread};
    };

    explicit SqlBatchWorker(Options options);
    ~SqlBatchWorker();
    SqlBatchWorker(const SqlBatchWorker &) = delete;
    SqlBatchWorker &operator=(const SqlBatchWorker &) = delete;

    // Starts the worker thread, which opens the database and migrates it; waits for the result.
    // Only called while starting up, never from a thread that must stay responsive.
    bool start(QString *error);
    // Why start() failed, for the words a caller shows: the file is another program's (it was
    // not changed), or anything else (`error` says what).
    enum class OpenFailure {
        None,
        ForeignFile,
        Other
    };
    OpenFailure openFailure() const;
    // Finishes the queued work, closes the connection and stops the thread.
    void stop();

    // Thread-safe. `done` runs on `context`'s thread after the batch committed (ok) or failed
    // (at once with an error when the worker is not running: never started, or stopped).
    void submit(Work work, QObject *context, Done done);
    // The same, telling a failed unit from one whose commit may have happened. A `singleStatement`
    // unit runs exactly one statement: on PostgreSQL it runs without BEGIN and COMMIT, as a
    // transaction of its own (one round trip instead of three); if the connection is lost while
    // it runs it may have been committed (Commit::Unknown). SQLite batches it like any other.
    void submitChecked(Work work, QObject *context, Completion done, bool singleStatement = false);

    // Convenience for work that produces a value.
    template <typename R>
    void transact(QObject *context, std::function<R(SqlTx &)> work, std::function<void(bool, const QString &, R)> done)
    {
        auto result = std::make_shared<R>();
        submit([work = std::move(work), result](SqlTx &tx) {
            *result = work(tx);
        },
            context, [done = std::move(done), result](bool ok, const QString &error) {
                done(ok, error, std::move(*result));
            });
    }

    template <typename R>
    void transactChecked(QObject *context, std::function<R(SqlTx &)> work,
        std::function<void(Commit, const QString &, R)> done, bool singleStatement = false)
    {
        auto result = std::make_shared<R>();
        submitChecked([work = std::move(work), result](SqlTx &tx) {
            *result = work(tx);
        },
            context, [done = std::move(done), result](Commit commit, const QString &error) {
                done(commit, error, std::move(*result));
            },
            singleStatement);
    }

    // Whether a COMMIT that failed with `sqlState` may still have been committed: yes unless the
    // server itself answered that it rolled the transaction back.
    static bool commitMayHaveHappened(const QString &sqlState);
    // SQLite: a COMMIT that failed with `resultCode` may still come back after a crash (anything
    // but busy or locked, see runBatch).
    static bool sqliteCommitMayHaveHappened(const QString &resultCode);

    qint64 batchesCommitted() const;
    qint64 unitsCommitted() const;

private:
    struct Item
    {
        Work work;
        QPointer<QObject> context;
        Completion done;
        CompletionRelay *relay = nullptr;   // serves the context's thread (chosen by the caller)
        bool ok = false;
        bool commitUnknown = false;   // failed at a COMMIT that may have been committed
        bool singleStatement = false;
        QString error;
        Commit commit() const { return ok ? Commit::Done : commitUnknown ? Commit::Unknown
                                                                         : Commit::Failed; }
    };

    void run();
    bool startOnCallerThread(QString *error);
    void runQueuedOnCallerThread();
    bool onCallerThread() const { return m_options.threading == Options::Threading::CallerThread; }
    void openInThread(bool *ok, QString *error);
    bool openConnection(QString *error);
    // SQLite: the database name and connect options, through Options::sqliteVfs when it is set.
    void applySqliteFile(QSqlDatabase &db, const QString &connectOptions) const;
    void migrateSqlite();
    void migratePostgres();
    bool isPostgres() const { return m_options.driver == Driver::PostgreSql; }
    bool ownerOnlyFile() const
    {
        return !isPostgres() && m_options.ownerOnly && !m_options.readOnly && m_options.sqliteVfs.isEmpty();
    }
    void closeInThread();
    void runBatch(QList<Item> &batch);
    void runEachAlone(QList<Item> &batch, bool batchMayHaveCommitted = false);
    static void complete(Item &item);
    void checkpointLoop();

    Options m_options;
    std::thread m_thread;
    std::unique_ptr<SqlTx> m_tx;   // touched only on m_thread
    std::thread m_checkpointThread;
    std::condition_variable m_checkpointWake;   // with m_mutex: stop checkpointing
    bool m_checkpointStop = false;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;   // work queued, opened, or stopping
    QList<Item> m_queue;
    enum class Run {
        NotStarted,
        Opening,
        Running,
        Stopping,
        Stopped
    } m_run = Run::NotStarted;
    bool m_openOk = false;
    QString m_openError;
    OpenFailure m_openFailure = OpenFailure::None;
    qint64 m_batches = 0;
    qint64 m_units = 0;
    // CallerThread: what the posted events run on, and whether one is on its way.
    std::unique_ptr<QObject> m_callerContext;
    bool m_runPosted = false;
};

}   // namespace OncePay
