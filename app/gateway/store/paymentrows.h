#pragma once

#include "gateway/gatewaytypes.h"
#include "gateway/store/idempotencyrecords.h"
#include "sqlbatchworker.h"

#include <QSqlQuery>
#include <QString>
#include <QVariant>

namespace OncePay::Gateway {

// How a payment row of the gateway's store maps to a Payment, for every statement of
// SqlGatewayStore that reads one. Select kPaymentColumns (with prefixed() under an alias) and
// read them with readPayment(); `base` is the index of the first of them in the row.
extern const QString kPaymentColumns;
QString prefixed(const QString &columns, const QString &alias);
Payment readPayment(const QSqlQuery &q, int base = 0);
// The one payment matching `where`, or an invalid Payment.
Payment paymentWhere(SqlTx &tx, const QString &where, const QVariantList &binds);

// A payment's claim of its key, one transaction's work of SqlGatewayStore::claimPayment (as
// refundrows.h has a refund's): a new key claimed with its row and a lease, or what its record
// answers.
ClaimOutcome claimPayment(SqlTx &tx, const PaymentClaim &claim, bool postgres);
// The answer the stored record gives a request with `fingerprint`; with `takeOver`, an
// in-progress record whose lease has lapsed is taken over (the generation moves on).
ClaimOutcome paymentAnswerFromRecord(SqlTx &tx, const IdempotencyRecord &record, const QString &merchant,
    const QString &key, const QByteArray &fingerprint, bool takeOver, qint64 leaseMs, bool postgres);

// NULL for an empty value: optional columns are NULL, never ''.
QVariant nullable(const QString &s);
QVariant nullable(const QByteArray &b);

}   // namespace OncePay::Gateway
