#pragma once

#include "sqlbatchworker.h"

namespace OncePay::Office::OfficeSchema {

// The office's tables, one schema for SQLite and PostgreSQL (docs/office.md, "The store").
constexpr int version = 1;
void migrateSqlite(SqlTx &tx, int fromVersion);
void migratePostgres(SqlTx &tx, int fromVersion);

}   // namespace OncePay::Office::OfficeSchema
