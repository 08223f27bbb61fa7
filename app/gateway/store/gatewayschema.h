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
// The clock a record's age is counted on (the acquirer's key window, promise 11): PostgreSQL's
// own wall clock; for SQLite this machine's, the one every process on the file runs on.
qint64 storeWallClock(SqlTx &tx, bool postgres);

}   // namespace OncePay::Gateway
