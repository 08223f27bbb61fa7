#pragma once

#include "gateway/store/gatewaystore.h"
#include "sqlbatchworker.h"

namespace OncePay::Gateway {

// The refund statements of SqlGatewayStore, each one transaction's work (see GatewayStore for
// what they promise). A refund row is read with the key of the payment it refunds: the charge
// the acquirer is asked to refund.
Refund refundWhere(SqlTx &tx, const QString &where, const QVariantList &binds);
QList<Refund> refundsWhere(SqlTx &tx, const QString &where, const QVariantList &binds, int limit);

RefundClaimOutcome claimRefund(SqlTx &tx, const RefundClaim &claim, bool postgres);
// What the record of `key` answers a refund request with `fingerprint`; with `takeOver`, a
// processing refund whose lease has lapsed is taken over.
RefundClaimOutcome refundAnswerFromRecord(SqlTx &tx, const QString &merchant, const QString &key,
    const QByteArray &fingerprint, bool takeOver, qint64 leaseMs, bool postgres);
StepWrite settleRefund(SqlTx &tx, const RefundSettlement &s);
RefundList listRefunds(SqlTx &tx, const QString &merchant, const QString &paymentId);
QList<Refund> takeRefundRecoveryWork(SqlTx &tx, qint64 leaseMs, int limit, bool postgres);

}   // namespace OncePay::Gateway
