#pragma once

#include "intent.h"
#include "sqlbatchworker.h"

#include <QString>

// The business rules the journal checks inside the transaction that writes, so that nothing can
// come between the check and the write. Every refusal is a sentence for the cashier.
namespace OncePay::JournalRules {

// Empty when the sale may take a new payment intent: every earlier one was declined or voided.
QString saleRefusal(SqlTx &tx, const QString &orderId);

} // namespace OncePay::JournalRules
