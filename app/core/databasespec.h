#pragma once

#include "sqlbatchworker.h"

#include <QString>

#include <optional>

namespace OncePay {

// Where a server's store lives, as its --db option says: "postgresql://USER:PASS@HOST:PORT/DBNAME"
// (or postgres://) selects PostgreSQL; anything else is a SQLite file. The gateway and the office
// read the option the same way.
struct DatabaseSpec
{
    SqlBatchWorker::Driver driver = SqlBatchWorker::Driver::Sqlite;
    QString path;   // SQLite file, or PostgreSQL database name
    QString hostName;   // PostgreSQL
    int port = 5432;
    QString userName;
    QString password;

    bool isPostgres() const { return driver == SqlBatchWorker::Driver::PostgreSql; }
    // nullopt and `error` set for a malformed PostgreSQL URL.
    static std::optional<DatabaseSpec> parse(const QString &spec, QString *error);
    // Copies the connection's fields into a worker's options.
    void applyTo(SqlBatchWorker::Options &options) const;
};

}   // namespace OncePay
