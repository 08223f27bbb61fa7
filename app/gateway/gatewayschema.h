#pragma once

#include "sqlbatchworker.h"

#include <QString>

namespace OncePay::Gateway {

// The gateway's schema and its versioned migrations, one text for SQLite and PostgreSQL.
void migrateSqlite(SqlTx &tx, int from);
void migratePostgres(SqlTx &tx, int from);

// The clock leases are measured on. SQLite: this machine's boot-time clock, which never jumps
// and counts suspended time, with the boot's id, since every process on one SQLite file runs
// on this machine; a lease stamped in another boot has lapsed. PostgreSQL: the database's
// clock, the one clock every instance shares.
struct LeaseClock
{
    QString boot;
    qint64 now = 0;
};
LeaseClock leaseClock(SqlTx &tx, bool postgres);

} // namespace OncePay::Gateway
