#include "testdatabase.h"

#include <QAtomicInt>
#include <QCoreApplication>
#include <QDir>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <QUuid>

namespace {

QAtomicInt g_connections;

QString connectionName(const char *prefix)
{
    return QStringLiteral("%1-%2").arg(QLatin1String(prefix)).arg(g_connections.fetchAndAddRelaxed(1));
}

// Opens `url` (postgresql://USER:PASS@HOST:PORT/DB) as QPSQL connection `name`, `dbName` overriding DB.
bool openPostgres(const QString &name, const QString &url, const QString &dbName, QString *error)
{
    const QUrl u(url);
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
    db.setHostName(u.host());
    db.setPort(u.port(5432));
    db.setUserName(u.userName(QUrl::FullyDecoded));
    db.setPassword(u.password(QUrl::FullyDecoded));
    db.setDatabaseName(dbName.isEmpty() ? u.path().mid(1) : dbName);
    if (db.open())
        return true;
    *error = QStringLiteral("cannot connect to %1@%2:%3: %4")
                 .arg(u.userName(), u.host())
                 .arg(u.port(5432))
                 .arg(db.lastError().text());
    return false;
}

bool adminExec(const QString &adminUrl, const QString &sql, QString *error)
{
    const QString name = connectionName("pg-admin");
    bool ok = false;
    {
        if (openPostgres(name, adminUrl, {}, error)) {
            QSqlQuery q(QSqlDatabase::database(name, false));
            ok = q.exec(sql);
            if (!ok)
                *error = sql + QStringLiteral(": ") + q.lastError().text();
            QSqlDatabase::database(name, false).close();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}

}   // namespace

bool TestDatabase::postgresRequested()
{
    return qEnvironmentVariable("ONCEPAY_TEST_BACKEND") == QLatin1String("postgresql");
}

TestDatabase::TestDatabase(const QString &dir)
    : m_dir(dir)
    , m_postgres(postgresRequested())
{
    if (!m_postgres)
        return;
    m_adminUrl = qEnvironmentVariable("ONCEPAY_TEST_PG_URL");
    if (m_adminUrl.isEmpty()) {
        m_error = QStringLiteral("ONCEPAY_TEST_BACKEND=postgresql needs ONCEPAY_TEST_PG_URL "
                                 "(scripts/test starts a PostgreSQL server and sets it)");
        return;
    }
    m_pgName = QStringLiteral("oncepay_t_") + QUuid::createUuid().toString(QUuid::Id128).left(16);
    QString error;
    if (!adminExec(m_adminUrl, QStringLiteral("CREATE DATABASE %1").arg(m_pgName), &error))
        m_error = error;
}

TestDatabase::~TestDatabase()
{
    if (m_postgres && ok()) {
        QString error;
        adminExec(m_adminUrl, QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_pgName), &error);
    }
}

QString TestDatabase::sqlitePath() const
{
    return QDir(m_dir).filePath(QStringLiteral("gateway.db"));
}

QString TestDatabase::dbArg() const
{
    if (!m_postgres)
        return sqlitePath();
    QUrl u(m_adminUrl);
    u.setPath(QLatin1Char('/') + m_pgName);
    return u.toString();
}

QString TestDatabase::acquirerDbPath() const
{
    return QDir(m_dir).filePath(QStringLiteral("gateway.acquirer.db"));
}

bool TestDatabase::connect(const QString &name, QString *error) const
{
    if (m_postgres)
        return openPostgres(name, m_adminUrl, m_pgName, error);
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(sqlitePath());
    if (db.open())
        return true;
    *error = db.lastError().text();
    return false;
}

StoreLock::StoreLock(const TestDatabase &db, const QString &pgTables)
    : m_name(connectionName("store-lock"))
{
    if (!db.connect(m_name, &m_error))
        return;
    if (db.isPostgres()) {
        m_ok = exec(QStringLiteral("BEGIN"))
            && exec(QStringLiteral("LOCK TABLE %1 IN ACCESS EXCLUSIVE MODE").arg(pgTables));
    } else {
        m_ok = exec(QStringLiteral("BEGIN EXCLUSIVE"))
            && exec(QStringLiteral("CREATE TABLE test_store_lock (x INTEGER)"))
            && exec(QStringLiteral("INSERT INTO test_store_lock VALUES (1)"));
    }
}

StoreLock::~StoreLock()
{
    release();
    QSqlDatabase::removeDatabase(m_name);
}

bool StoreLock::release()
{
    if (!QSqlDatabase::contains(m_name))
        return true;
    bool ok = true;
    {
        QSqlDatabase db = QSqlDatabase::database(m_name, false);
        if (db.isOpen()) {
            ok = exec(QStringLiteral("ROLLBACK"));
            db.close();
        }
    }
    return ok;
}

bool StoreLock::exec(const QString &sql)
{
    QSqlQuery q(QSqlDatabase::database(m_name, false));
    if (q.exec(sql))
        return true;
    m_error = sql + QStringLiteral(": ") + q.lastError().text();
    return false;
}
