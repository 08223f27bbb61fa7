#pragma once

#include <QString>
#include <QStringList>

// The database a gateway under test runs on, for the backend the test run asks for:
// a SQLite file in `dir` (default), or, with ONCEPAY_TEST_BACKEND=postgresql, a fresh
// database of its own on the server that ONCEPAY_TEST_PG_URL names
// (postgresql://USER:PASS@HOST:PORT/DB, an account allowed to CREATE DATABASE), dropped
// again when the object goes. The acquirer's ledger is a file in `dir` either way.
// Several gateway processes given the same TestDatabase are instances of one gateway.
class TestDatabase final
{
public:
    explicit TestDatabase(const QString &dir);
    ~TestDatabase();
    TestDatabase(const TestDatabase &) = delete;
    TestDatabase &operator=(const TestDatabase &) = delete;

    static bool postgresRequested();
    bool isPostgres() const { return m_postgres; }
    bool ok() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }

    QString dbArg() const;   // the value of --db
    QString sqlitePath() const;   // the SQLite file (SQLite backend only)
    QString acquirerDbPath() const;
    // --db, and --acquirer-db unless the gateway is to use an acquirer service.
    QStringList gatewayArgs(bool embeddedAcquirer = true) const
    {
        QStringList args{QStringLiteral("--db"), dbArg()};
        if (embeddedAcquirer)
            args << QStringLiteral("--acquirer-db") << acquirerDbPath();
        return args;
    }

    // Opens a QSqlDatabase connection of the test process's own on the gateway's database,
    // registered under `connectionName`. False and error() when it cannot.
    bool connect(const QString &connectionName, QString *error) const;

private:
    QString m_dir;
    bool m_postgres = false;
    QString m_pgName;
    QString m_adminUrl;
    QString m_error;
};

// Holds the gateway's store locked from a second connection until release(): BEGIN EXCLUSIVE
// plus a write on SQLite, LOCK TABLE ... ACCESS EXCLUSIVE on PostgreSQL. Every statement of
// the gateway then waits for its busy/lock timeout and fails.
class StoreLock final
{
public:
    // `pgTables`: the tables locked on PostgreSQL (the gateway's by default; the office's are
    // "events, tokens, tills").
    explicit StoreLock(const TestDatabase &db, const QString &pgTables = QStringLiteral("payments, idempotency_records, refunds"));
    ~StoreLock();
    StoreLock(const StoreLock &) = delete;
    StoreLock &operator=(const StoreLock &) = delete;
    bool ok() const { return m_ok; }
    QString error() const { return m_error; }
    bool release();

private:
    bool exec(const QString &sql);

    QString m_name;
    QString m_error;
    bool m_ok = false;
};
