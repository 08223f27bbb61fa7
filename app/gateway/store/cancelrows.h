#pragma once

#include "gateway/store/gatewaystore.h"
#include "sqlbatchworker.h"

namespace OncePay::Gateway {

// The statements of a wallet payment given up (API.md "Wallet payments"), each one
// transaction's work of SqlGatewayStore (GatewayStore says what they promise).
CancelOutcome claimCancel(SqlTx &tx, const CancelClaim &claim, bool postgres);
StepWrite requestCancel(SqlTx &tx, const LeasedRow &row, const QString &reason);
// Settling a payment given up answers the cancels waiting on it: their records, in progress and
// naming the payment, are completed with 200 and the payment (`s.cancelAnswerBody`).
void answerCancels(SqlTx &tx, const Settlement &s);

}   // namespace OncePay::Gateway
