#include "gateway/store/pgsinglestatements.h"

#include "gateway/store/idempotencyrecords.h"
#include "gateway/store/paymentrows.h"

#include <QSqlQuery>

namespace OncePay::Gateway {

// PostgreSQL's clock in the statement itself (the lease clock of LeaseClock, without a round trip).
#define PG_NOW_MS "(extract(epoch from clock_timestamp()) * 1000)::bigint"

// One statement that claims a key nobody used (no record, no payment, no refund with it): the
// record and the payment row at step claimed, with its lease and created_at on the database's
// clock. nullopt when the key was not new: the caller runs claim() for the whole story. Data-
// modifying CTEs see one snapshot, so the record is inserted only when no payment holds the
// key, and a concurrent claim of the same key waits on the record's primary key.
std::optional<ClaimOutcome> claimNewKey(SqlTx &tx, const PaymentClaim &c)
{
    const Payment &p = c.draft;
    QSqlQuery &q = tx.exec(QStringLiteral(
                               "WITH clock AS (SELECT " PG_NOW_MS " AS now),"
                               " free AS (SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM refunds WHERE merchant = ?::text AND idem_key = ?::text)"
                               "   AND NOT EXISTS (SELECT 1 FROM payments WHERE merchant = ?::text AND idem_key = ?::text)),"
                               " rec AS (INSERT INTO idempotency_records (merchant, idem_key, fingerprint, state, resource_id, created_at)"
                               "   SELECT ?::text, ?::text, ?::bytea, 'in_progress', ?::text, ?::bigint FROM free"
                               "   ON CONFLICT (merchant, idem_key) DO NOTHING RETURNING 1),"
                               " pay AS (INSERT INTO payments (id, merchant, terminal_id, idem_key, fingerprint, amount, currency,"
                               "   order_id, payment_method, description, metadata, status, step, created_at, updated_at,"
                               "   lease_generation, lease_boot, lease_expires_at)"
                               "   SELECT ?::text, ?::text, ?::text, ?::text, ?::bytea, ?::bigint, ?::text, ?::text, ?::text, ?::text, ?::text,"
                               "   ?::text, ?::text, clock.now, clock.now, 1, 'db', clock.now + ?::bigint FROM rec, clock"
                               "   ON CONFLICT (merchant, idem_key) DO NOTHING RETURNING created_at)"
                               " SELECT (SELECT count(*) FROM rec), (SELECT created_at FROM pay)"),
        {c.merchant, c.key, c.merchant, c.key,
            c.merchant, c.key, c.fingerprint, p.id, p.createdAt,
            p.id, p.merchant, p.terminalId, p.idempotencyKey, p.fingerprint, p.amount, p.currency, p.orderId,
            p.paymentMethod, nullable(p.description), nullable(p.metadataJson.isEmpty() ? QString() : QString::fromUtf8(p.metadataJson)),
            paymentStatusName(p.status), paymentStepName(p.step), c.leaseMs});
    const bool row = q.next();
    const bool recorded = row && q.value(0).toLongLong() == 1;
    const bool inserted = row && !q.value(1).isNull();
    const qint64 createdAt = row ? q.value(1).toLongLong() : 0;
    q.finish();
    if (!recorded)
        return std::nullopt;
    if (!inserted) {
        // A payment took the key between the snapshot and the insert (its record since swept):
        // the record just made is not ours to keep.
        deleteRecord(tx, c.merchant, c.key);
        return std::nullopt;
    }
    ClaimOutcome out;
    out.kind = ClaimOutcome::Kind::Claimed;
    out.payment = p;
    out.payment.createdAt = out.payment.updatedAt = createdAt;
    out.payment.leaseGeneration = 1;
    return out;
}

StepWrite settlePaymentAlone(SqlTx &tx, const Settlement &s)
{
    const bool final = s.status != PaymentStatus::Processing;
    QSqlQuery &q = tx.exec(QStringLiteral(
                               "WITH p AS (UPDATE payments SET status = ?, decline_code = ?, card_brand = ?, card_last4 = ?,"
                               "   authorization_code = ?, step = ?, updated_at = ?, lease_expires_at = 0"
                               "   WHERE id = ? AND lease_generation = ? AND status = 'processing' RETURNING 1),"
                               " r AS (UPDATE idempotency_records SET state = 'completed', lease_expires_at = 0, response_status = ?,"
                               "   response_body = ?, response_location = ?, response_type = ?, expires_at = ?"
                               "   WHERE merchant = ? AND idem_key = ? AND (?::int = 0 OR state = 'in_progress')"
                               "   AND EXISTS (SELECT 1 FROM p) RETURNING 1)"
                               " SELECT (SELECT count(*) FROM p)"),
        {paymentStatusName(s.status), nullable(s.declineCode), nullable(s.card.brand), nullable(s.card.last4),
            nullable(s.authorizationCode),
            paymentStepName(final ? PaymentStep::Settled : PaymentStep::AcquirerCalled), s.now, s.paymentId,
            s.leaseGeneration, s.response.status, s.response.body, nullable(s.response.location),
            nullable(s.response.contentType), s.now + s.retentionMs, s.merchant, s.key, s.recovery ? 1 : 0});
    const bool changed = q.next() && q.value(0).toLongLong() == 1;
    q.finish();
    return changed ? StepWrite::Written : StepWrite::Fenced;
}

}   // namespace OncePay::Gateway
