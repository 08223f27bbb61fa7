#include "gateway/store/reviewrows.h"

#include "gateway/store/idempotencyrecords.h"
#include "gateway/store/paymentrows.h"
#include "gateway/store/refundrows.h"
#include "timeutil.h"

#include <QDateTime>

namespace OncePay::Gateway {

namespace {

// A review row's record was completed with a 202 when it was marked, so replays answer its
// current state; should it still be in progress, it is completed the same way (a 202 record is
// answered from the row, its body is never sent).
const StoredResponse kCurrentState{202, {}, {}, {}};
constexpr qint64 kRecordRetentionMs = 24 * 3600 * 1000LL;

ReviewResolution resolvePayment(SqlTx &tx, const Payment &p, const QString &outcome, qint64 leaseMs, bool postgres)
{
    ReviewResolution out;
    out.object = QStringLiteral("payment");
    std::optional<PaymentStatus> status;
    if (outcome == QLatin1String("succeeded"))
        status = PaymentStatus::Succeeded;
    else if (outcome == QLatin1String("declined"))
        status = PaymentStatus::Declined;
    if (!p.needsReview || p.status != PaymentStatus::Processing) {
        out.kind = ReviewResolution::Kind::NotInReview;
        return out;
    }
    if (!status) {
        out.kind = ReviewResolution::Kind::BadOutcome;
        return out;
    }
    if (!takeOverLease(tx, LeasedTable::Payments, p.id, p.leaseGeneration, leaseMs, postgres)) {
        out.kind = ReviewResolution::Kind::Busy;
        return out;
    }
    const qint64 now = nowMs();
    const QString declineCode = *status == PaymentStatus::Declined ? QStringLiteral("declined_after_review") : QString();
    const bool written = tx.numRowsAffected(QStringLiteral(
                                                "UPDATE payments SET status = ?, decline_code = ?, step = ?, needs_review = 0, updated_at = ?,"
                                                " lease_expires_at = 0 WHERE id = ? AND lease_generation = ? AND status = 'processing'"),
                             {paymentStatusName(*status), nullable(declineCode), paymentStepName(PaymentStep::Settled), now, p.id,
                                 p.leaseGeneration + 1})
        == 1;
    if (!written) {
        out.kind = ReviewResolution::Kind::Busy;
        return out;
    }
    completeRecord(tx, p.merchant, p.idempotencyKey, kCurrentState, now + kRecordRetentionMs, true);
    out.kind = ReviewResolution::Kind::Resolved;
    out.resource = paymentWhere(tx, QStringLiteral("id = ?"), {p.id}).toJson();
    return out;
}

ReviewResolution resolveRefund(SqlTx &tx, const Refund &r, const QString &outcome, qint64 leaseMs, bool postgres)
{
    ReviewResolution out;
    out.object = QStringLiteral("refund");
    std::optional<RefundStatus> status;
    if (outcome == QLatin1String("succeeded"))
        status = RefundStatus::Succeeded;
    else if (outcome == QLatin1String("failed"))
        status = RefundStatus::Failed;
    if (!r.needsReview || r.status != RefundStatus::Processing) {
        out.kind = ReviewResolution::Kind::NotInReview;
        return out;
    }
    if (!status) {
        out.kind = ReviewResolution::Kind::BadOutcome;
        return out;
    }
    if (!takeOverLease(tx, LeasedTable::Refunds, r.id, r.leaseGeneration, leaseMs, postgres)) {
        out.kind = ReviewResolution::Kind::Busy;
        return out;
    }
    const qint64 now = nowMs();
    // The settlement of a refund moves its reserved amount (refunded, or back to what remains).
    RefundSettlement s;
    s.merchant = r.merchant;
    s.key = r.idempotencyKey;
    s.refundId = r.id;
    s.paymentId = r.paymentId;
    s.leaseGeneration = r.leaseGeneration + 1;
    s.amount = r.amount;
    s.status = *status;
    s.failureCode = *status == RefundStatus::Failed ? QStringLiteral("failed_after_review") : QString();
    s.now = now;
    s.response = kCurrentState;
    s.retentionMs = kRecordRetentionMs;
    s.recovery = true;   // keep the recorded 202
    if (settleRefund(tx, s) != StepWrite::Written) {
        out.kind = ReviewResolution::Kind::Busy;
        return out;
    }
    tx.exec(QStringLiteral("UPDATE refunds SET needs_review = 0 WHERE id = ?"), {r.id});
    out.kind = ReviewResolution::Kind::Resolved;
    out.resource = refundWhere(tx, QStringLiteral("r.id = ?"), {r.id}).toJson();
    return out;
}

}   // namespace

ReviewResolution resolveReview(SqlTx &tx, const QString &id, const QString &outcome, qint64 leaseMs, bool postgres)
{
    const Payment p = paymentWhere(tx, QStringLiteral("id = ?"), {id});
    if (p.isValid())
        return resolvePayment(tx, p, outcome, leaseMs, postgres);
    const Refund r = refundWhere(tx, QStringLiteral("r.id = ?"), {id});
    if (r.isValid())
        return resolveRefund(tx, r, outcome, leaseMs, postgres);
    return {};
}

}   // namespace OncePay::Gateway
