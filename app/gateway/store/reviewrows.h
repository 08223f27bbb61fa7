#pragma once

#include "gateway/store/gatewaystore.h"
#include "sqlbatchworker.h"

namespace OncePay::Gateway {

// A person's outcome for a payment or refund marked needs_review (API.md promise 11), one
// transaction's work: the lease is taken over as recovery takes it (only when none is live),
// then the outcome is written under the new generation, as a settlement is.
ReviewResolution resolveReview(SqlTx &tx, const QString &id, const QString &outcome, qint64 leaseMs, bool postgres);

}   // namespace OncePay::Gateway
