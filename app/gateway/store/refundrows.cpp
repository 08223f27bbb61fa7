#include "gateway/store/refundrows.h"

#include "gateway/store/gatewayschema.h"
#include "gateway/store/idempotencyrecords.h"
#include "gateway/paymentlog.h"
#include "gateway/store/paymentrows.h"

#include <QSqlQuery>

namespace OncePay::Gateway {

namespace {

const QString kRefundColumns = QStringLiteral(
    "r.id, r.payment_id, r.merchant, r.terminal_id, r.idem_key, r.fingerprint, r.amount, r.currency, r.reason,"
    " r.status, r.step, r.failure_code, r.created_at, r.updated_at, r.lease_generation, p.idem_key, r.needs_review");

// As for payments: a name this version does not know never reads as an outcome.
Refund readRefund(const QSqlQuery &q)
{
    Refund r;
    r.id = q.value(0).toString();
    r.paymentId = q.value(1).toString();
    r.merchant = q.value(2).toString();
    r.terminalId = q.value(3).toString();
    r.idempotencyKey = q.value(4).toString();
    r.fingerprint = q.value(5).toByteArray();
    r.amount = q.value(6).toLongLong();
    r.currency = q.value(7).toString();
    r.reason = q.value(8).toString();
    const QString status = q.value(9).toString();
    const QString step = q.value(10).toString();
    r.status = refundStatusFromName(status).value_or(RefundStatus::Processing);
    r.step = paymentStepFromName(step).value_or(PaymentStep::AcquirerCalled);
    if (!refundStatusFromName(status) || !paymentStepFromName(step)) {
        qCWarning(lcPayments) << "refund" << r.id << "has unknown status" << status << "or step" << step
                              << "in the store; read as processing at acquirer_called";
        r.status = RefundStatus::Processing;
        r.step = PaymentStep::AcquirerCalled;
    }
    r.failureCode = q.value(11).toString();
    r.createdAt = q.value(12).toLongLong();
    r.updatedAt = q.value(13).toLongLong();
    r.leaseGeneration = q.value(14).toLongLong();
    r.chargeKey = q.value(15).toString();
    r.needsReview = q.value(16).toInt() != 0;
    return r;
}

}   // namespace

QList<Refund> refundsWhere(SqlTx &tx, const QString &where, const QVariantList &binds, int limit)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM refunds r JOIN payments p ON p.id = r.payment_id"
                                          " WHERE %2 ORDER BY r.created_at, r.id LIMIT %3")
                               .arg(kRefundColumns, where)
                               .arg(limit),
        binds);
    QList<Refund> out;
    while (q.next())
        out.append(readRefund(q));
    q.finish();
    return out;
}

Refund refundWhere(SqlTx &tx, const QString &where, const QVariantList &binds)
{
    const QList<Refund> one = refundsWhere(tx, where, binds, 1);
    return one.isEmpty() ? Refund{} : one.first();
}

RefundClaimOutcome refundAnswerFromRecord(SqlTx &tx, const QString &merchant, const QString &key,
    const QByteArray &fingerprint, bool takeOver, qint64 leaseMs, bool postgres)
{
    RefundClaimOutcome out;
    const IdempotencyRecord r = readRecord(tx, merchant, key);
    if (!r.exists) {
        // The record expired (or was released): a refund keeps its key forever.
        const Refund existing = refundWhere(tx, QStringLiteral("r.merchant = ? AND r.idem_key = ?"), {merchant, key});
        if (existing.isValid()) {
            out.kind = existing.fingerprint == fingerprint ? RefundClaimOutcome::Kind::ReplayCurrent
                                                           : RefundClaimOutcome::Kind::Mismatch;
            out.refund = existing;
        } else {
            out.kind = keyUsedByPayment(tx, merchant, key) ? RefundClaimOutcome::Kind::Mismatch
                                                           : RefundClaimOutcome::Kind::Gone;
        }
        return out;
    }
    if (r.fingerprint != fingerprint) {
        out.kind = RefundClaimOutcome::Kind::Mismatch;   // another request, or a payment's key
        return out;
    }
    if (r.state == QLatin1String("completed")) {
        if (r.response.status == 202) {
            out.kind = RefundClaimOutcome::Kind::ReplayCurrent;
            out.refund = refundWhere(tx, QStringLiteral("r.id = ?"), {r.resourceId});
        } else {
            out.kind = RefundClaimOutcome::Kind::Replay;
            out.response = r.response;
        }
        return out;
    }
    out.kind = RefundClaimOutcome::Kind::InProgress;
    if (!takeOver)
        return out;
    const Refund held = refundWhere(tx, QStringLiteral("r.id = ?"), {r.resourceId});
    if (held.isValid() && held.status == RefundStatus::Processing
        && takeOverLease(tx, LeasedTable::Refunds, held.id, held.leaseGeneration, leaseMs, postgres)) {
        out.kind = RefundClaimOutcome::Kind::Resume;
        out.refund = held;
        out.refund.leaseGeneration = held.leaseGeneration + 1;
    }
    return out;
}

RefundClaimOutcome claimRefund(SqlTx &tx, const RefundClaim &c, bool postgres)
{
    RefundClaimOutcome out;
    if (!insertClaim(tx, c.merchant, c.key, c.fingerprint, c.draft.id, c.draft.createdAt))
        return refundAnswerFromRecord(tx, c.merchant, c.key, c.fingerprint, true, c.leaseMs, postgres);
    // From here on an early answer gives the key back: nothing is recorded for it.
    auto giveBack = [&](RefundClaimOutcome::Kind kind, const QString &message) {
        deleteRecord(tx, c.merchant, c.key);
        out.kind = kind;
        out.message = message;
        return out;
    };
    if (keyUsedByPayment(tx, c.merchant, c.key))
        return giveBack(RefundClaimOutcome::Kind::Mismatch, {});
    if (keyUsedByRefund(tx, c.merchant, c.key)) {
        // The record expired but the refund keeps its key: answer from the refund row.
        deleteRecord(tx, c.merchant, c.key);
        return refundAnswerFromRecord(tx, c.merchant, c.key, c.fingerprint, false, 0, postgres);
    }
    const Payment p = paymentWhere(tx, QStringLiteral("merchant = ? AND id = ?"), {c.merchant, c.draft.paymentId});
    if (!p.isValid())
        return giveBack(RefundClaimOutcome::Kind::PaymentNotFound, {});
    if (p.status != PaymentStatus::Succeeded && p.status != PaymentStatus::PartiallyRefunded)
        return giveBack(RefundClaimOutcome::Kind::NotRefundable,
            QStringLiteral("A payment with status %1 cannot be refunded.").arg(paymentStatusName(p.status)));
    // The bound is checked by the update itself, counting refunds still processing: two refunds
    // racing on two instances cannot both pass a check made on a value read before the other's
    // commit, and neither can one that is still at the acquirer.
    const bool reserved = tx.numRowsAffected(QStringLiteral(
                                                 "UPDATE payments SET amount_refund_pending = amount_refund_pending + ?"
                                                 " WHERE id = ? AND status IN ('succeeded', 'partially_refunded')"
                                                 " AND amount_refunded + amount_refund_pending + ? <= amount"),
                              {c.draft.amount, p.id, c.draft.amount})
        == 1;
    if (!reserved) {
        QSqlQuery &q = tx.exec(QStringLiteral("SELECT amount - amount_refunded, amount_refund_pending FROM payments"
                                              " WHERE id = ?"),
            {p.id});
        const qint64 unrefunded = q.next() ? q.value(0).toLongLong() : 0;
        const qint64 pending = q.value(1).toLongLong();
        q.finish();
        const QString message = pending > 0
            ? QStringLiteral("Only %1 of the payment remains to be refunded (%2 is being refunded).")
                  .arg(unrefunded - pending)
                  .arg(pending)
            : QStringLiteral("Only %1 of the payment remains to be refunded.").arg(unrefunded);
        return giveBack(RefundClaimOutcome::Kind::NotRefundable, message);
    }
    const LeaseClock clock = leaseClock(tx, postgres);
    Refund d = c.draft;
    if (postgres)   // a record's age is counted on the store's clock (promise 11)
        d.createdAt = d.updatedAt = clock.now;
    tx.exec(QStringLiteral(
                "INSERT INTO refunds (id, payment_id, merchant, terminal_id, idem_key, fingerprint, amount, currency, reason,"
                " status, step, created_at, updated_at, lease_generation, lease_boot, lease_expires_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)"),
        {d.id, p.id, c.merchant, d.terminalId, c.key, c.fingerprint, d.amount, p.currency, nullable(d.reason),
            refundStatusName(RefundStatus::Processing), paymentStepName(PaymentStep::Claimed), d.createdAt, d.updatedAt,
            clock.boot, clock.now + c.leaseMs});
    out.kind = RefundClaimOutcome::Kind::Claimed;
    out.refund = d;
    out.refund.merchant = c.merchant;
    out.refund.idempotencyKey = c.key;
    out.refund.fingerprint = c.fingerprint;
    out.refund.currency = p.currency;
    out.refund.status = RefundStatus::Processing;
    out.refund.step = PaymentStep::Claimed;
    out.refund.leaseGeneration = 1;
    out.refund.chargeKey = p.idempotencyKey;
    return out;
}

StepWrite settleRefund(SqlTx &tx, const RefundSettlement &s)
{
    const bool final = s.status != RefundStatus::Processing;
    const int changed = tx.numRowsAffected(QStringLiteral(
                                               "UPDATE refunds SET status = ?, failure_code = ?, step = ?, updated_at = ?, lease_expires_at = 0"
                                               " WHERE id = ? AND lease_generation = ? AND status = 'processing'"),
        {refundStatusName(s.status), nullable(s.failureCode),
            paymentStepName(final ? PaymentStep::Settled : PaymentStep::AcquirerCalled), s.now, s.refundId,
            s.leaseGeneration});
    if (changed != 1)
        return StepWrite::Fenced;
    if (s.status == RefundStatus::Succeeded) {
        // SET reads the row as it was: the status is decided on the amount before this refund.
        tx.exec(QStringLiteral(
                    "UPDATE payments SET amount_refund_pending = amount_refund_pending - ?,"
                    " amount_refunded = amount_refunded + ?,"
                    " status = CASE WHEN amount_refunded + ? >= amount THEN 'refunded' ELSE 'partially_refunded' END,"
                    " updated_at = ? WHERE id = ?"),
            {s.amount, s.amount, s.amount, s.now, s.paymentId});
    } else if (s.status == RefundStatus::Failed) {
        tx.exec(QStringLiteral("UPDATE payments SET amount_refund_pending = amount_refund_pending - ? WHERE id = ?"),
            {s.amount, s.paymentId});
    }
    completeRecord(tx, s.merchant, s.key, s.response, s.now + s.retentionMs, s.recovery);
    return StepWrite::Written;
}

RefundList listRefunds(SqlTx &tx, const QString &merchant, const QString &paymentId)
{
    RefundList out;
    out.paymentFound = rowExists(tx, QStringLiteral("SELECT 1 FROM payments WHERE merchant = ? AND id = ?"),
        {merchant, paymentId});
    if (out.paymentFound)
        out.refunds = refundsWhere(tx, QStringLiteral("r.merchant = ? AND r.payment_id = ?"), {merchant, paymentId}, 1000);
    return out;
}

QList<Refund> takeRefundRecoveryWork(SqlTx &tx, qint64 leaseMs, int limit, bool postgres)
{
    const LeaseClock clock = leaseClock(tx, postgres);
    const QList<Refund> lapsed = refundsWhere(
        tx, QStringLiteral("r.status = 'processing' AND r.needs_review = 0"
                           " AND NOT (r.lease_boot = ? AND r.lease_expires_at > ?)"),
        {clock.boot, clock.now}, limit);
    QList<Refund> out;
    for (const Refund &row : lapsed) {
        // Exactly one worker of all instances moves the generation on.
        if (!takeOverLease(tx, LeasedTable::Refunds, row.id, row.leaseGeneration, leaseMs, postgres))
            continue;
        Refund r = row;
        ++r.leaseGeneration;
        out.append(r);
    }
    return out;
}

}   // namespace OncePay::Gateway
