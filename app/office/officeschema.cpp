#include "office/officeschema.h"

namespace OncePay::Office::OfficeSchema {

namespace {

// $INT is the 64-bit integer type, $CLUSTERED the clause that keeps a table in its primary key's
// order (SQLite's WITHOUT ROWID; PostgreSQL has none).
void migrate(SqlTx &tx, int from, bool postgres)
{
    const auto ddl = [&](const char *sql) {
        tx.exec(QString::fromLatin1(sql)
                    .replace(QLatin1String("$INT"), postgres ? QLatin1String("BIGINT") : QLatin1String("INTEGER"))
                    .replace(QLatin1String("$CLUSTERED"), postgres ? QLatin1String("") : QLatin1String(" WITHOUT ROWID")));
    };
    if (from < 1) {
        ddl("CREATE TABLE merchants (merchant TEXT PRIMARY KEY, created_at $INT NOT NULL)");
        ddl("CREATE TABLE stores (merchant TEXT NOT NULL REFERENCES merchants (merchant), store TEXT NOT NULL,"
            " created_at $INT NOT NULL, PRIMARY KEY (merchant, store))$CLUSTERED");
        ddl("CREATE TABLE tills (merchant TEXT NOT NULL, store TEXT NOT NULL, till TEXT NOT NULL,"
            " created_at $INT NOT NULL, PRIMARY KEY (merchant, store, till),"
            " FOREIGN KEY (merchant, store) REFERENCES stores (merchant, store))$CLUSTERED");
        // Tokens are kept as their SHA-256 digests only. An owner's empty store: every store.
        ddl("CREATE TABLE tokens (token_hash TEXT PRIMARY KEY, role TEXT NOT NULL CHECK (role IN ('till','owner')),"
            " merchant TEXT NOT NULL REFERENCES merchants (merchant), store TEXT NOT NULL DEFAULT '',"
            " till TEXT NOT NULL DEFAULT '', created_at $INT NOT NULL)");
        // Each event once, by its key; its data whole, and beside it the fields the reports read
        // (at_ms for a day's range in any time zone, the sale's or refund's state, staff,
        // currency, number and amount). Lines and tenders stay in data (json_each / jsonb).
        ddl("CREATE TABLE events (merchant TEXT NOT NULL, store TEXT NOT NULL, till TEXT NOT NULL,"
            " seq $INT NOT NULL, kind TEXT NOT NULL, at TEXT NOT NULL, at_ms $INT NOT NULL,"
            " fingerprint TEXT NOT NULL, data TEXT NOT NULL, received_at $INT NOT NULL,"
            " state TEXT, staff TEXT, currency TEXT, number TEXT, amount $INT,"
            " PRIMARY KEY (merchant, store, till, seq))$CLUSTERED");
        ddl("CREATE INDEX events_by_time ON events (merchant, at_ms)");
        // The last batch each till had refused, for the gaps report: seq-gap with the batch's first
        // seq and the one expected, or event-mismatch with the seq stored differently.
        ddl("CREATE TABLE refusals (merchant TEXT NOT NULL, store TEXT NOT NULL, till TEXT NOT NULL,"
            " problem TEXT NOT NULL, seq $INT NOT NULL, expected_seq $INT, refusals $INT NOT NULL,"
            " first_at $INT NOT NULL, last_at $INT NOT NULL, PRIMARY KEY (merchant, store, till))$CLUSTERED");
    }
}

}   // namespace

void migrateSqlite(SqlTx &tx, int fromVersion)
{
    migrate(tx, fromVersion, false);
}

void migratePostgres(SqlTx &tx, int fromVersion)
{
    migrate(tx, fromVersion, true);
}

}   // namespace OncePay::Office::OfficeSchema
