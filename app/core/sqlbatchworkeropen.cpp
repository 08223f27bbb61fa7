// SqlBatchWorker's connection: opening the SQLite file or the PostgreSQL database on the
// worker's thread, migrating its schema, and closing it (sqlbatchworker.cpp runs the units).
#include "sqlbatchworker.h"

#include "privatefiles.h"

#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>

namespace OncePay {

namespace {

// The code of the one refusal the worker makes itself (no database uses it): the file is not ours.
QString foreignFileCode()
{
    return QStringLiteral("oncepay:foreign-file");
}

}   // namespace

void SqlBatchWorker::applySqliteFile(QSqlDatabase &db, const QString &connectOptions) const
{
    if (m_options.sqliteVfs.isEmpty()) {
        db.setDatabaseName(m_options.path);
        db.setConnectOptions(connectOptions);
        return;
    }
    // The path goes into a URI: '?' and '#' would end it, '%' starts an escape.
    QString path = m_options.path;
    path.replace(QLatin1Char('%'), QStringLiteral("%25")).replace(QLatin1Char('?'), QStringLiteral("%3f")).replace(QLatin1Char('#'), QStringLiteral("%23"));
    db.setDatabaseName(QStringLiteral("file:%1?vfs=%2").arg(path, m_options.sqliteVfs));
    db.setConnectOptions(connectOptions.isEmpty() ? QStringLiteral("QSQLITE_OPEN_URI") : connectOptions + QStringLiteral(";QSQLITE_OPEN_URI"));
}

bool SqlBatchWorker::openConnection(QString *error)
{
    if (ownerOnlyFile()) {
        // Another account could replace the file there, or make its -wal before SQLite does.
        const QString folder = QFileInfo(m_options.path).absolutePath();
        if (PrivateFiles::othersMayWrite(folder)) {
            *error = QStringLiteral("cannot open %1: other accounts may write in its folder; make it yours alone with chmod 700 %2")
                         .arg(m_options.path, folder);
            return false;
        }
        if (QString why; !PrivateFiles::createFile(m_options.path, &why)) {
            *error = QStringLiteral("cannot open %1: %2").arg(m_options.path, why);
            return false;
        }
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(isPostgres() ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE"),
        m_options.connectionName);
    db.setDatabaseName(m_options.path);
    if (isPostgres()) {
        db.setHostName(m_options.hostName);
        db.setPort(m_options.port);
        db.setUserName(m_options.userName);
        db.setPassword(m_options.password);
        db.setConnectOptions(QStringLiteral("connect_timeout=5;application_name=oncepay"));
    } else {
        applySqliteFile(db, QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1%2").arg(m_options.busyTimeoutMs).arg(m_options.readOnly ? QStringLiteral(";QSQLITE_OPEN_READONLY") : QString()));
    }
    if (!db.open()) {
        const QString where = isPostgres()
            ? QStringLiteral("postgresql://%1@%2:%3/%4").arg(m_options.userName, m_options.hostName).arg(m_options.port).arg(m_options.path)
            : m_options.path;
        *error = QStringLiteral("cannot open %1: %2").arg(where, db.lastError().text());
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_options.connectionName);
        return false;
    }
    return true;
}

void SqlBatchWorker::openInThread(bool *ok, QString *error)
{
    if (!openConnection(error)) {
        *ok = false;
        return;
    }
    m_tx = std::make_unique<SqlTx>(m_options.connectionName, isPostgres());
    try {
        if (isPostgres()) {
            // Every commit waits for the WAL to reach the disk, whatever the server's default.
            m_tx->exec(QStringLiteral("SET synchronous_commit = on")).finish();
            m_tx->exec(QStringLiteral("SET lock_timeout = %1").arg(m_options.busyTimeoutMs)).finish();
            migratePostgres();
        } else {
            migrateSqlite();
        }
        // Migrations may have changed the schema: statements prepared before are stale.
        m_tx->clearCache();
        // Ours, now that it is known to be (another program's file keeps its permissions).
        if (ownerOnlyFile())
            PrivateFiles::narrowDatabase(m_options.path);
    } catch (const SqlError &e) {
        *error = QStringLiteral("%1: %2").arg(m_options.path, e.message());
        if (e.code() == foreignFileCode()) {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_openFailure = OpenFailure::ForeignFile;
        }
        *ok = false;
        closeInThread();
        return;
    }
    *ok = true;
}

void SqlBatchWorker::migratePostgres()
{
    // Several instances may start on a new database at once: the advisory lock (held until
    // the commit) lets exactly one of them migrate; the others then find the version current.
    m_tx->exec(QStringLiteral("BEGIN"));
    try {
        m_tx->exec(QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(m_options.applicationId)).finish();
        m_tx->exec(QStringLiteral("CREATE TABLE IF NOT EXISTS oncepay_schema (version INTEGER NOT NULL)")).finish();
        QSqlQuery &v = m_tx->exec(QStringLiteral("SELECT version FROM oncepay_schema"));
        const bool hasRow = v.next();
        const int current = hasRow ? v.value(0).toInt() : 0;
        v.finish();
        if (current > m_options.schemaVersion)
            throw SqlError(QStringLiteral("schema version %1 is newer than this program's %2")
                               .arg(current)
                               .arg(m_options.schemaVersion));
        if (current < m_options.schemaVersion && m_options.migrate) {
            m_options.migrate(*m_tx, current);
            m_tx->exec(hasRow ? QStringLiteral("UPDATE oncepay_schema SET version = ?")
                              : QStringLiteral("INSERT INTO oncepay_schema (version) VALUES (?)"),
                    {m_options.schemaVersion})
                .finish();
        }
        m_tx->exec(QStringLiteral("COMMIT"));
    } catch (const SqlError &) {
        QSqlQuery(QSqlDatabase::database(m_options.connectionName, false)).exec(QStringLiteral("ROLLBACK"));
        throw;
    }
}

void SqlBatchWorker::migrateSqlite()
{
    if (m_options.applicationId != 0) {
        // Before anything writes (even the switch to WAL): is this file ours?
        QSqlQuery &id = m_tx->exec(QStringLiteral("PRAGMA application_id"));
        const qint32 stamp = id.next() ? id.value(0).toInt() : 0;
        id.finish();
        QSqlQuery &tables = m_tx->exec(QStringLiteral(
                                           "SELECT COUNT(*), COUNT(CASE WHEN type = 'table' AND name = ? THEN 1 END) FROM sqlite_master"),
            {m_options.markerTable});
        const int objects = tables.next() ? tables.value(0).toInt() : 0;
        const bool marked = tables.value(1).toInt() > 0;
        tables.finish();
        if ((stamp != 0 && stamp != m_options.applicationId) || (stamp == 0 && objects > 0 && !marked))
            throw SqlError(QStringLiteral("the file belongs to another program (it is not a file of this kind)"), foreignFileCode());
        if (m_options.readOnly && !marked)
            throw SqlError(QStringLiteral("the file holds no data of this kind yet"));
    }
    if (m_options.readOnly) {
        QSqlQuery &v = m_tx->exec(QStringLiteral("PRAGMA user_version"));
        const int version = v.next() ? v.value(0).toInt() : 0;
        v.finish();
        if (version != m_options.schemaVersion)
            throw SqlError(QStringLiteral("the file is of schema version %1 and this program reads version %2 only;"
                                          " open it once with a program that may change it to upgrade it")
                               .arg(version)
                               .arg(m_options.schemaVersion));
        return;
    }
    QSqlQuery &mode = m_tx->exec(QStringLiteral("PRAGMA journal_mode=WAL"));
    if (!mode.next() || mode.value(0).toString().compare(QLatin1String("wal"), Qt::CaseInsensitive) != 0)
        throw SqlError(QStringLiteral("the database refused WAL mode"));
    mode.finish();
    m_tx->exec(m_options.synchronousFull ? QStringLiteral("PRAGMA synchronous=FULL")
                                         : QStringLiteral("PRAGMA synchronous=NORMAL"));
    m_tx->exec(QStringLiteral("PRAGMA foreign_keys=ON"));
    for (const QString &pragma : m_options.extraPragmas)
        m_tx->exec(QStringLiteral("PRAGMA ") + pragma).finish();
    // The WAL keeps its high-water size unless told otherwise.
    m_tx->exec(QStringLiteral("PRAGMA journal_size_limit=%1").arg(32 * 1024 * 1024)).finish();
    QSqlQuery &v = m_tx->exec(QStringLiteral("PRAGMA user_version"));
    const int version = v.next() ? v.value(0).toInt() : 0;
    v.finish();
    if (version > m_options.schemaVersion)
        throw SqlError(QStringLiteral("schema version %1 is newer than this program's %2")
                           .arg(version)
                           .arg(m_options.schemaVersion));
    if (version < m_options.schemaVersion && m_options.migrate) {
        m_tx->exec(QStringLiteral("BEGIN IMMEDIATE"));
        try {
            // Another process may have migrated the file between the read above and this lock
            // (two programs opening a new file at once): read the version again under the lock.
            QSqlQuery &locked = m_tx->exec(QStringLiteral("PRAGMA user_version"));
            const int current = locked.next() ? locked.value(0).toInt() : 0;
            locked.finish();
            if (current >= m_options.schemaVersion && m_options.applicationId != 0)
                m_tx->exec(QStringLiteral("PRAGMA application_id=%1").arg(m_options.applicationId));
            if (current < m_options.schemaVersion) {
                m_options.migrate(*m_tx, current);
                if (m_options.applicationId != 0)
                    m_tx->exec(QStringLiteral("PRAGMA application_id=%1").arg(m_options.applicationId));
                // PRAGMA takes no bound parameters; the value is our own integer.
                m_tx->exec(QStringLiteral("PRAGMA user_version=%1").arg(m_options.schemaVersion));
            }
            m_tx->exec(QStringLiteral("COMMIT"));
        } catch (const SqlError &) {
            QSqlQuery(QSqlDatabase::database(m_options.connectionName, false)).exec(QStringLiteral("ROLLBACK"));
            throw;
        }
    }
}

void SqlBatchWorker::closeInThread()
{
    m_tx.reset();
    {
        QSqlDatabase db = QSqlDatabase::database(m_options.connectionName, false);
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(m_options.connectionName);
}

}   // namespace OncePay
