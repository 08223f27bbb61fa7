#pragma once

#include "gateway/gatewaytypes.h"
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

// NULL for an empty value: optional columns are NULL, never ''.
QVariant nullable(const QString &s);
QVariant nullable(const QByteArray &b);

}   // namespace OncePay::Gateway
