#include "gateway/store/paymentrows.h"

#include "gateway/paymentlog.h"
#include "gateway/store/gatewayschema.h"

namespace OncePay::Gateway {

namespace {

// A name this version does not know (a newer version's row, a damaged one) never reads as an
// outcome: processing at acquirer_called makes every path ask the acquirer, and never gives the
// key back. The SQL guards (status = 'processing') still stop any write to such a row.
PaymentStatus readStatus(const QString &name, const QString &id)
{
    if (const std::optional<PaymentStatus> status = paymentStatusFromName(name))
        return *status;
    qCWarning(lcPayments) << "payment" << id << "has unknown status" << name << "in the store; read as processing";
    return PaymentStatus::Processing;
}

PaymentStep readStep(const QString &name, const QString &id)
{
    if (const std::optional<PaymentStep> step = paymentStepFromName(name))
        return *step;
    qCWarning(lcPayments) << "payment" << id << "has unknown step" << name << "in the store; read as acquirer_called";
    return PaymentStep::AcquirerCalled;
}

}   // namespace

const QString kPaymentColumns = QStringLiteral(
    "seq, id, merchant, terminal_id, idem_key, fingerprint, amount, currency, order_id, payment_method,"
    " description, metadata, status, step, decline_code, amount_refunded, created_at, updated_at, lease_generation,"
    " card_brand, card_last4, authorization_code, needs_review, cancel_reason");

QString prefixed(const QString &columns, const QString &alias)
{
    return alias + QStringLiteral(".") + QString(columns).replace(QStringLiteral(", "), QStringLiteral(", %1.").arg(alias));
}

Payment readPayment(const QSqlQuery &q, int base)
{
    Payment p;
    p.seq = q.value(base + 0).toLongLong();
    p.id = q.value(base + 1).toString();
    p.merchant = q.value(base + 2).toString();
    p.terminalId = q.value(base + 3).toString();
    p.idempotencyKey = q.value(base + 4).toString();
    p.fingerprint = q.value(base + 5).toByteArray();
    p.amount = q.value(base + 6).toLongLong();
    p.currency = q.value(base + 7).toString();
    p.orderId = q.value(base + 8).toString();
    p.paymentMethod = q.value(base + 9).toString();
    p.description = q.value(base + 10).toString();
    p.metadataJson = q.value(base + 11).toByteArray();
    p.status = readStatus(q.value(base + 12).toString(), p.id);
    p.step = readStep(q.value(base + 13).toString(), p.id);
    p.declineCode = q.value(base + 14).toString();
    p.amountRefunded = q.value(base + 15).toLongLong();
    p.createdAt = q.value(base + 16).toLongLong();
    p.updatedAt = q.value(base + 17).toLongLong();
    p.leaseGeneration = q.value(base + 18).toLongLong();
    p.card = {q.value(base + 19).toString(), q.value(base + 20).toString()};
    p.authorizationCode = q.value(base + 21).toString();
    p.needsReview = q.value(base + 22).toInt() != 0;
    p.cancelReason = q.value(base + 23).toString();
    return p;
}

Payment paymentWhere(SqlTx &tx, const QString &where, const QVariantList &binds)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM payments WHERE %2").arg(kPaymentColumns, where), binds);
    Payment p = q.next() ? readPayment(q) : Payment{};
    q.finish();
    return p;
}

QVariant nullable(const QString &s)
{
    return s.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(s);
}

QVariant nullable(const QByteArray &b)
{
    return b.isEmpty() ? QVariant(QMetaType(QMetaType::QByteArray)) : QVariant(b);
}

ClaimOutcome paymentAnswerFromRecord(SqlTx &tx, const IdempotencyRecord &r, const QString &merchant, const QString &key,
    const QByteArray &fingerprint, bool takeOver, qint64 leaseMs, bool postgres)
{
    ClaimOutcome out;
    if (!r.exists) {
        // The record expired (or was released): a payment keeps its key forever.
        const Payment existing = paymentWhere(tx, QStringLiteral("merchant = ? AND idem_key = ?"), {merchant, key});
        if (existing.isValid()) {
            out.kind = existing.fingerprint == fingerprint ? ClaimOutcome::Kind::ReplayCurrent
                                                           : ClaimOutcome::Kind::Mismatch;
            out.payment = existing;
        } else {
            out.kind = keyUsedByRefund(tx, merchant, key) ? ClaimOutcome::Kind::Mismatch : ClaimOutcome::Kind::Gone;
        }
        return out;
    }
    if (r.fingerprint != fingerprint) {
        out.kind = ClaimOutcome::Kind::Mismatch;
        return out;
    }
    if (r.state == QLatin1String("completed")) {
        if (r.response.status == 202) {
            out.kind = ClaimOutcome::Kind::ReplayCurrent;
            out.payment = paymentWhere(tx, QStringLiteral("id = ?"), {r.resourceId});
        } else {
            out.kind = ClaimOutcome::Kind::Replay;
            out.response = r.response;
            out.responseExpiresAt = r.expiresAt;
        }
        return out;
    }
    out.kind = ClaimOutcome::Kind::InProgress;
    if (!takeOver)
        return out;
    const Payment p = paymentWhere(tx, QStringLiteral("id = ?"), {r.resourceId});
    if (!p.isValid()) {
        // A record and its payment row are written together; a record without one was left by
        // a claim that stopped between two statements (claimNewKey's rare second one): stale.
        deleteRecord(tx, merchant, key);
        return paymentAnswerFromRecord(tx, IdempotencyRecord{}, merchant, key, fingerprint, false, 0, postgres);
    }
    if (p.status == PaymentStatus::Processing
        && takeOverLease(tx, LeasedTable::Payments, p.id, p.leaseGeneration, leaseMs, postgres)) {
        out.kind = ClaimOutcome::Kind::Resume;
        out.payment = p;
        out.payment.leaseGeneration = p.leaseGeneration + 1;
    }
    return out;
}

ClaimOutcome claimPayment(SqlTx &tx, const PaymentClaim &c, bool postgres)
{
    ClaimOutcome out;
    if (insertClaim(tx, c.merchant, c.key, c.fingerprint, c.draft.id, c.draft.createdAt)) {
        if (keyUsedByRefund(tx, c.merchant, c.key)) {
            deleteRecord(tx, c.merchant, c.key);
            out.kind = ClaimOutcome::Kind::Mismatch;
            return out;
        }
        // The lease starts now, on the store's clock, not when the request was parsed.
        const LeaseClock clock = leaseClock(tx, postgres);
        Payment p = c.draft;
        if (postgres)   // a record's age is counted on the store's clock (promise 11)
            p.createdAt = p.updatedAt = clock.now;
        const bool inserted = tx.numRowsAffected(QStringLiteral(
                                                     "INSERT INTO payments (id, merchant, terminal_id, idem_key, fingerprint, amount, currency,"
                                                     " order_id, payment_method, description, metadata, status, step, created_at, updated_at,"
                                                     " lease_generation, lease_boot, lease_expires_at)"
                                                     " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT (merchant, idem_key) DO NOTHING"),
                                  {p.id, p.merchant, p.terminalId, p.idempotencyKey, p.fingerprint, p.amount, p.currency,
                                      p.orderId, p.paymentMethod, nullable(p.description), nullable(p.metadataJson),
                                      paymentStatusName(p.status), paymentStepName(p.step), p.createdAt, p.updatedAt, clock.boot, clock.now + c.leaseMs})
            == 1;
        if (inserted) {
            out.kind = ClaimOutcome::Kind::Claimed;
            out.payment = p;
            out.payment.leaseGeneration = 1;
            return out;
        }
        // The response record had expired, but the payment keeps its key forever.
        deleteRecord(tx, c.merchant, c.key);
        return paymentAnswerFromRecord(tx, IdempotencyRecord{}, c.merchant, c.key, c.fingerprint, false, 0, postgres);
    }
    return paymentAnswerFromRecord(tx, readRecord(tx, c.merchant, c.key), c.merchant, c.key, c.fingerprint, true,
        c.leaseMs, postgres);
}

}   // namespace OncePay::Gateway
