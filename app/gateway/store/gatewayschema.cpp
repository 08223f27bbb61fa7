#include "gateway/store/gatewayschema.h"

#include "gateway/store/storeplacement.h"
#include "timeutil.h"
#include "world.h"

#include <QDateTime>
#include <QFile>
#include <QSqlQuery>

#include <ctime>

namespace OncePay::Gateway {

// The schema, written once for both databases: $BYTES is the binary type, $INT the 64-bit
// integer type, $SEQ the auto-increasing sequence column, $CLUSTERED the clause that makes a
// table clustered on its primary key (SQLite's WITHOUT ROWID; PostgreSQL has none).
static void migrate(SqlTx &tx, int from, bool postgres)
{
    const auto ddl = [&](const char *sql) {
        tx.exec(QString::fromLatin1(sql)
                    .replace(QLatin1String("$BYTES"), postgres ? QLatin1String("BYTEA") : QLatin1String("BLOB"))
                    .replace(QLatin1String("$INT"), postgres ? QLatin1String("BIGINT") : QLatin1String("INTEGER"))
                    .replace(QLatin1String("$SEQ"), postgres ? QLatin1String("BIGSERIAL PRIMARY KEY") : QLatin1String("INTEGER PRIMARY KEY AUTOINCREMENT"))
                    .replace(QLatin1String("$CLUSTERED"), postgres ? QLatin1String("") : QLatin1String(" WITHOUT ROWID")));
    };
    if (from < 1) {
        // Response records live as long as the retention; payments keep their key forever.
        ddl("CREATE TABLE idempotency_records ("
            " merchant TEXT NOT NULL, idem_key TEXT NOT NULL, fingerprint $BYTES NOT NULL,"
            " state TEXT NOT NULL CHECK (state IN ('in_progress','completed')),"
            " lease_expires_at $INT NOT NULL DEFAULT 0, resource_id TEXT,"
            " response_status INTEGER, response_body $BYTES, response_location TEXT, response_type TEXT,"
            " created_at $INT NOT NULL, expires_at $INT,"
            " PRIMARY KEY (merchant, idem_key))$CLUSTERED");
        ddl("CREATE INDEX idempotency_records_expiry ON idempotency_records (expires_at) WHERE state = 'completed'");
        ddl("CREATE TABLE payments ("
            " seq $SEQ, id TEXT NOT NULL UNIQUE,"
            " merchant TEXT NOT NULL, terminal_id TEXT NOT NULL, idem_key TEXT NOT NULL,"
            " fingerprint $BYTES NOT NULL, amount $INT NOT NULL, currency TEXT NOT NULL,"
            " order_id TEXT NOT NULL, payment_method TEXT NOT NULL, description TEXT, metadata TEXT,"
            " status TEXT NOT NULL, step TEXT NOT NULL, decline_code TEXT,"
            " amount_refunded $INT NOT NULL DEFAULT 0,"
            " created_at $INT NOT NULL, updated_at $INT NOT NULL,"
            " UNIQUE (merchant, idem_key))");
        ddl("CREATE INDEX payments_by_merchant ON payments (merchant, seq)");
        ddl("CREATE INDEX payments_processing ON payments (status) WHERE status = 'processing'");
        ddl("CREATE TABLE refunds ("
            " id TEXT PRIMARY KEY, payment_id TEXT NOT NULL REFERENCES payments (id),"
            " merchant TEXT NOT NULL, idem_key TEXT NOT NULL, fingerprint $BYTES NOT NULL,"
            " amount $INT NOT NULL, reason TEXT, status TEXT NOT NULL, created_at $INT NOT NULL,"
            " UNIQUE (merchant, idem_key))");
    }
    if (from < 2) {
        // v2: the lease moves to the payment row, with a generation that fences old holders.
        // Claims in flight during the upgrade start expired: they are taken over and resumed.
        ddl("ALTER TABLE payments ADD COLUMN lease_generation $INT NOT NULL DEFAULT 0");
        ddl("ALTER TABLE payments ADD COLUMN lease_boot TEXT NOT NULL DEFAULT ''");
        ddl("ALTER TABLE payments ADD COLUMN lease_expires_at $INT NOT NULL DEFAULT 0");
    }
    if (from < 3) {
        // v3: what the acquirer answered about the card (API.md: card, authorization_code), for
        // the receipt. Rows settled before read null: nothing is made up for them.
        ddl("ALTER TABLE payments ADD COLUMN card_brand TEXT");
        ddl("ALTER TABLE payments ADD COLUMN card_last4 TEXT");
        ddl("ALTER TABLE payments ADD COLUMN authorization_code TEXT");
    }
    if (from < 4) {
        // v4: refunds go through the acquirer with the steps and fenced lease of a payment. A
        // refund still processing reserves its amount on the payment (amount_refund_pending),
        // so that two refunds racing past what remains cannot both be sent. Refunds made before
        // were executed in the gateway's transaction: they read as settled.
        ddl("ALTER TABLE payments ADD COLUMN amount_refund_pending $INT NOT NULL DEFAULT 0");
        ddl("ALTER TABLE refunds ADD COLUMN terminal_id TEXT NOT NULL DEFAULT ''");
        ddl("ALTER TABLE refunds ADD COLUMN currency TEXT NOT NULL DEFAULT ''");
        ddl("ALTER TABLE refunds ADD COLUMN step TEXT NOT NULL DEFAULT 'settled'");
        ddl("ALTER TABLE refunds ADD COLUMN failure_code TEXT");
        ddl("ALTER TABLE refunds ADD COLUMN updated_at $INT NOT NULL DEFAULT 0");
        ddl("ALTER TABLE refunds ADD COLUMN lease_generation $INT NOT NULL DEFAULT 0");
        ddl("ALTER TABLE refunds ADD COLUMN lease_boot TEXT NOT NULL DEFAULT ''");
        ddl("ALTER TABLE refunds ADD COLUMN lease_expires_at $INT NOT NULL DEFAULT 0");
        ddl("UPDATE refunds SET updated_at = created_at,"
            " currency = COALESCE((SELECT p.currency FROM payments p WHERE p.id = refunds.payment_id), ''),"
            " terminal_id = COALESCE((SELECT p.terminal_id FROM payments p WHERE p.id = refunds.payment_id), '')");
        ddl("CREATE INDEX refunds_by_payment ON refunds (payment_id, created_at)");
        ddl("CREATE INDEX refunds_processing ON refunds (status) WHERE status = 'processing'");
    }
    if (from < 5) {
        // v5: past the acquirer's key window a record the acquirer does not know waits for a
        // person (API.md promise 11); recovery leaves it alone.
        ddl("ALTER TABLE payments ADD COLUMN needs_review INTEGER NOT NULL DEFAULT 0");
        ddl("ALTER TABLE refunds ADD COLUMN needs_review INTEGER NOT NULL DEFAULT 0");
    }
    if (from < 6) {
        // v6: wallet payments (API.md "Wallet payments"). A payment given up records why before
        // the reversal is sent; a cancel's key record names the payment (resource_id) and is
        // answered when the payment settles.
        ddl("ALTER TABLE payments ADD COLUMN cancel_reason TEXT");
        ddl("CREATE INDEX idempotency_records_waiting ON idempotency_records (merchant, resource_id)"
            " WHERE state = 'in_progress'");
    }
}

void migrateSqlite(SqlTx &tx, int from)
{
    migrate(tx, from, false);
}

void migratePostgres(SqlTx &tx, int from)
{
    migrate(tx, from, true);
}

qint64 storeWallClock(SqlTx &tx, bool postgres)
{
    if (postgres)
        return leaseClock(tx, true).now;   // clock_timestamp(): the database's wall clock
    return nowMs();
}

LeaseClock leaseClock(SqlTx &tx, bool postgres)
{
    if (postgres) {
        QSqlQuery &q = tx.exec(QStringLiteral("SELECT (extract(epoch from clock_timestamp()) * 1000)::bigint"));
        const qint64 now = q.next() ? q.value(0).toLongLong() : 0;
        q.finish();
        if (now <= 0)
            throw SqlError(QStringLiteral("the database did not tell its time"));
        return {QStringLiteral("db"), now};
    }
    // Never a made-up id: SqlGatewayStore::open refuses a machine whose boot id it cannot read.
    const QString boot = StorePlacement::bootId();
    if (boot.isEmpty())
        throw SqlError(QStringLiteral("this machine's boot id cannot be read: leases cannot be measured"));
    return {boot, monotonicMs()};
}

}   // namespace OncePay::Gateway
