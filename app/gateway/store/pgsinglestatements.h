#pragma once

#include "gateway/store/gatewaystore.h"
#include "sqlbatchworker.h"

#include <optional>

namespace OncePay::Gateway {

// PostgreSQL's hot path as single statements, each sent alone and run by the server as a
// transaction of its own (SqlBatchWorker's singleStatement units): a payment in three round
// trips instead of fourteen (docs/architecture.md). SQLite runs the multi-statement units of
// SqlGatewayStore, where a statement is a function call.

// Claims a key nobody used: nullopt when it was not new (the caller runs the full claim).
std::optional<ClaimOutcome> claimNewKey(SqlTx &tx, const PaymentClaim &claim);
// The settlement of a payment and its record, the record completed only when the payment's
// row was written under the lease.
StepWrite settlePaymentAlone(SqlTx &tx, const Settlement &settlement);

}   // namespace OncePay::Gateway
