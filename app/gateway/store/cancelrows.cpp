#include "gateway/store/cancelrows.h"

#include "gateway/store/gatewayschema.h"
#include "gateway/store/idempotencyrecords.h"
#include "gateway/store/paymentrows.h"

#include <QSqlQuery>

namespace OncePay::Gateway {

namespace {

// "Cancelling": the lease moves to this request whether or not another holder's is live. That
// holder is fenced (every write of a step names its generation), and what it may still send is
// harmless: a charge that reaches the acquirer after the reversal is never made, a charge made
// before it is undone by it. acquirer_called: a reversal is about to be sent, so the acquirer
// may act on the key; recovery asks it, never gives the key back.
bool takeOverForCancel(SqlTx &tx, const QString &id, qint64 leaseMs, bool postgres)
{
    const LeaseClock clock = leaseClock(tx, postgres);
    return tx.numRowsAffected(QStringLiteral(
                                  "UPDATE payments SET lease_generation = lease_generation + 1, lease_boot = ?,"
                                  " lease_expires_at = ?, cancel_reason = COALESCE(cancel_reason, 'cancelled'),"
                                  " step = 'acquirer_called' WHERE id = ? AND status = 'processing'"),
               {clock.boot, clock.now + leaseMs, id})
        == 1;
}

QString notCancellableBecause(const Payment &p)
{
    if (!p.isWallet())
        return QStringLiteral("Only a wallet payment waiting for the customer's confirmation can be cancelled.");
    return QStringLiteral("The payment is already %1: it cannot be cancelled (refund it instead).")
        .arg(paymentStatusName(p.status));
}

}   // namespace

CancelOutcome claimCancel(SqlTx &tx, const CancelClaim &c, bool postgres)
{
    CancelOutcome out;
    const IdempotencyRecord record = readRecord(tx, c.merchant, c.key);
    if (record.exists && record.fingerprint != c.fingerprint) {
        out.kind = CancelOutcome::Kind::Mismatch;
        return out;
    }
    if (record.exists && record.state == QLatin1String("completed")) {
        out.kind = CancelOutcome::Kind::Replay;
        out.response = record.response;
        return out;
    }
    // Promise 9: a key a payment or refund holds (its record swept since) is not a cancel's.
    if (!record.exists && (keyUsedByPayment(tx, c.merchant, c.key) || keyUsedByRefund(tx, c.merchant, c.key))) {
        out.kind = CancelOutcome::Kind::Mismatch;
        return out;
    }
    Payment p = paymentWhere(tx, QStringLiteral("merchant = ? AND id = ?"), {c.merchant, c.paymentId});
    if (!p.isValid()) {
        out.kind = CancelOutcome::Kind::PaymentNotFound;
        return out;
    }
    if (p.status != PaymentStatus::Processing || !p.isWallet()) {
        // A cancel recorded in progress whose payment ended meanwhile (its answer was not written
        // with the settlement, which cannot happen but for a hand-edited store): say how it ended.
        out.kind = record.exists && p.isWallet() ? CancelOutcome::Kind::Ended : CancelOutcome::Kind::NotCancellable;
        out.message = notCancellableBecause(p);
        out.payment = p;
        return out;
    }
    if (!takeOverForCancel(tx, p.id, c.leaseMs, postgres)) {
        out.kind = CancelOutcome::Kind::NotCancellable;   // not processing any more within this transaction
        out.message = notCancellableBecause(p);
        return out;
    }
    if (!record.exists)
        insertClaim(tx, c.merchant, c.key, c.fingerprint, p.id, c.now);
    out.kind = CancelOutcome::Kind::Cancelling;
    out.payment = paymentWhere(tx, QStringLiteral("id = ?"), {p.id});
    return out;
}

StepWrite requestCancel(SqlTx &tx, const LeasedRow &row, const QString &reason)
{
    const bool written = tx.numRowsAffected(QStringLiteral(
                                                "UPDATE payments SET cancel_reason = COALESCE(cancel_reason, ?), updated_at = ?"
                                                " WHERE id = ? AND lease_generation = ? AND status = 'processing'"),
                             {reason, row.updatedAt, row.id, row.generation})
        == 1;
    return written ? StepWrite::Written : StepWrite::Fenced;
}

void answerCancels(SqlTx &tx, const Settlement &s)
{
    if (s.cancelAnswerBody.isEmpty())
        return;
    tx.exec(QStringLiteral("UPDATE idempotency_records SET state = 'completed', lease_expires_at = 0, response_status = 200,"
                           " response_body = ?, response_location = NULL, response_type = 'application/json', expires_at = ?"
                           " WHERE merchant = ? AND resource_id = ? AND state = 'in_progress' AND idem_key <> ?"),
        {s.cancelAnswerBody, s.now + s.retentionMs, s.merchant, s.paymentId, s.key});
}

}   // namespace OncePay::Gateway
