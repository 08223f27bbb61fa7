#include "gateway/store/idempotencyrecords.h"

#include "gateway/store/gatewayschema.h"
#include "gateway/store/paymentrows.h"

#include <QSqlQuery>

namespace OncePay::Gateway {

namespace {
QString tableName(LeasedTable table)
{
    return table == LeasedTable::Payments ? QStringLiteral("payments") : QStringLiteral("refunds");
}
}   // namespace

IdempotencyRecord readRecord(SqlTx &tx, const QString &merchant, const QString &key)
{
    QSqlQuery &q = tx.exec(QStringLiteral(
                               "SELECT fingerprint, state, resource_id, response_status, response_body,"
                               " response_location, response_type, expires_at FROM idempotency_records WHERE merchant = ? AND idem_key = ?"),
        {merchant, key});
    IdempotencyRecord r;
    if (q.next()) {
        r.exists = true;
        r.fingerprint = q.value(0).toByteArray();
        r.state = q.value(1).toString();
        r.resourceId = q.value(2).toString();
        r.response.status = q.value(3).toInt();
        r.response.body = q.value(4).toByteArray();
        r.response.location = q.value(5).toByteArray();
        r.response.contentType = q.value(6).toByteArray();
        r.expiresAt = q.value(7).toLongLong();
    }
    q.finish();
    return r;
}

bool insertClaim(SqlTx &tx, const QString &merchant, const QString &key, const QByteArray &fingerprint,
    const QString &resourceId, qint64 now)
{
    return tx.numRowsAffected(QStringLiteral(
                                  "INSERT INTO idempotency_records (merchant, idem_key, fingerprint, state, resource_id, created_at)"
                                  " VALUES (?, ?, ?, 'in_progress', ?, ?) ON CONFLICT (merchant, idem_key) DO NOTHING"),
               {merchant, key, fingerprint, resourceId, now})
        == 1;
}

void deleteRecord(SqlTx &tx, const QString &merchant, const QString &key)
{
    tx.exec(QStringLiteral("DELETE FROM idempotency_records WHERE merchant = ? AND idem_key = ?"), {merchant, key});
}

void completeRecord(SqlTx &tx, const QString &merchant, const QString &key, const StoredResponse &r,
    qint64 expiresAt, bool onlyInProgress)
{
    tx.exec(QStringLiteral(
                "UPDATE idempotency_records SET state = 'completed', lease_expires_at = 0, response_status = ?,"
                " response_body = ?, response_location = ?, response_type = ?, expires_at = ?"
                " WHERE merchant = ? AND idem_key = ? AND (? = 0 OR state = 'in_progress')"),
        {r.status, r.body, nullable(r.location), nullable(r.contentType), expiresAt, merchant, key,
            onlyInProgress ? 1 : 0});
}

bool rowExists(SqlTx &tx, const QString &sql, const QVariantList &binds)
{
    QSqlQuery &q = tx.exec(sql, binds);
    const bool found = q.next();
    q.finish();
    return found;
}

bool keyUsedByRefund(SqlTx &tx, const QString &merchant, const QString &key)
{
    return rowExists(tx, QStringLiteral("SELECT 1 FROM refunds WHERE merchant = ? AND idem_key = ?"), {merchant, key});
}

bool keyUsedByPayment(SqlTx &tx, const QString &merchant, const QString &key)
{
    return rowExists(tx, QStringLiteral("SELECT 1 FROM payments WHERE merchant = ? AND idem_key = ?"), {merchant, key});
}

bool takeOverLease(SqlTx &tx, LeasedTable table, const QString &id, qint64 generation, qint64 leaseMs, bool postgres)
{
    const LeaseClock clock = leaseClock(tx, postgres);
    // Only a lapsed lease, and only from the generation read: of any number of requests and
    // recovery workers racing for it, one moves the generation on.
    return tx.numRowsAffected(QStringLiteral(
                                  "UPDATE %1 SET lease_generation = lease_generation + 1, lease_boot = ?, lease_expires_at = ?"
                                  " WHERE id = ? AND lease_generation = ? AND status = 'processing'"
                                  " AND NOT (lease_boot = ? AND lease_expires_at > ?)")
                                  .arg(tableName(table)),
               {clock.boot, clock.now + leaseMs, id, generation, clock.boot, clock.now})
        == 1;
}

bool markCalled(SqlTx &tx, LeasedTable table, const QString &id, qint64 generation, qint64 leaseMs, qint64 now,
    bool postgres)
{
    if (postgres) {
        // One statement, the database's clock read inside it: a transaction of its own.
        return tx.numRowsAffected(QStringLiteral(
                                      "UPDATE %1 SET step = ?, updated_at = ?,"
                                      " lease_expires_at = (extract(epoch from clock_timestamp()) * 1000)::bigint + ?::bigint"
                                      " WHERE id = ? AND lease_generation = ? AND lease_boot = 'db'"
                                      " AND lease_expires_at > (extract(epoch from clock_timestamp()) * 1000)::bigint"
                                      " AND status = 'processing' AND step IN ('claimed', 'acquirer_called')")
                                      .arg(tableName(table)),
                   {paymentStepName(PaymentStep::AcquirerCalled), now, leaseMs, id, generation})
            == 1;
    }
    const LeaseClock clock = leaseClock(tx, postgres);
    return tx.numRowsAffected(QStringLiteral(
                                  "UPDATE %1 SET step = ?, updated_at = ?, lease_expires_at = ?"
                                  " WHERE id = ? AND lease_generation = ? AND lease_boot = ? AND lease_expires_at > ?"
                                  " AND status = 'processing' AND step IN ('claimed', 'acquirer_called')")
                                  .arg(tableName(table)),
               {paymentStepName(PaymentStep::AcquirerCalled), now, clock.now + leaseMs, id, generation, clock.boot,
                   clock.now})
        == 1;
}

bool endLease(SqlTx &tx, LeasedTable table, const QString &id, qint64 generation)
{
    return tx.numRowsAffected(QStringLiteral("UPDATE %1 SET lease_expires_at = 0 WHERE id = ? AND lease_generation = ?")
                                  .arg(tableName(table)),
               {id, generation})
        == 1;
}

bool releaseClaim(SqlTx &tx, const LeasedRow &row, bool acquirerRefused)
{
    const bool released = tx.numRowsAffected(QStringLiteral(
                                                 "DELETE FROM %1 WHERE id = ? AND lease_generation = ? AND status = 'processing'"
                                                 " AND (step = 'claimed' OR ? = 1)")
                                                 .arg(tableName(row.table)),
                              {row.id, row.generation, acquirerRefused ? 1 : 0})
        == 1;
    if (!released)
        return false;
    if (row.reservedAmount != 0) {
        tx.exec(QStringLiteral("UPDATE payments SET amount_refund_pending = amount_refund_pending - ? WHERE id = ?"),
            {row.reservedAmount, row.reservedOnPayment});
    }
    tx.exec(QStringLiteral("DELETE FROM idempotency_records WHERE merchant = ? AND idem_key = ? AND state = 'in_progress'"),
        {row.merchant, row.idempotencyKey});
    return true;
}

KeyWindow checkKeyWindow(SqlTx &tx, LeasedTable table, const QString &id, qint64 generation, qint64 windowMs,
    qint64 now, bool postgres)
{
    const qint64 storeNow = storeWallClock(tx, postgres);
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT created_at FROM %1 WHERE id = ? AND lease_generation = ?"
                                          " AND status = 'processing'")
                               .arg(tableName(table)),
        {id, generation});
    const bool held = q.next();
    const qint64 createdAt = held ? q.value(0).toLongLong() : 0;
    q.finish();
    if (!held)
        return KeyWindow::Fenced;
    if (storeNow - createdAt <= windowMs)
        return KeyWindow::Within;
    return tx.numRowsAffected(QStringLiteral(
                                  "UPDATE %1 SET needs_review = 1, lease_expires_at = 0, updated_at = ?"
                                  " WHERE id = ? AND lease_generation = ? AND status = 'processing'")
                                  .arg(tableName(table)),
               {now, id, generation})
            == 1
        ? KeyWindow::Review
        : KeyWindow::Fenced;
}

}   // namespace OncePay::Gateway
