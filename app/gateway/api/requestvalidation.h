#pragma once

#include "gateway/acquirer/acquirer.h"
#include "gateway/acquirer/acquirersimulation.h"
#include "canonicaljson.h"
#include "gateway/gatewaytypes.h"
#include "problem.h"

#include <optional>

namespace OncePay::Gateway {

// The length of `text` as API.md counts it: Unicode code points, not UTF-16 units.
qsizetype codePoints(QStringView text);

// The body of POST /v1/payments and of POST /v1/payments/{id}/refunds, checked field by field.
// Every error found is reported, not just the first.
struct PaymentValidation
{
    Payment fields;   // amount, currency, order_id, payment_method, description, metadata
    QList<Problem::FieldError> errors;
};
PaymentValidation validatePayment(const JsonNode &body);

struct RefundValidation
{
    Refund fields;   // amount, reason
    QList<Problem::FieldError> errors;
};
RefundValidation validateRefund(const JsonNode &body);

// PUT /v1/_sim/acquirer (gateway) and PUT /v1/simulation (acquirer service): mode and latency_ms.
// PUT /v1/_sim/acquirer: any of mode, latency_ms and wallet_confirm_ms (at least one); the
// fields left out keep what the merchant had.
struct SimulationValidation
{
    std::optional<SimulationState::Mode> mode;
    std::optional<int> latencyMs;
    std::optional<int> walletConfirmMs;
    QList<Problem::FieldError> errors;
    SimulationState applyTo(SimulationState current) const;
};
SimulationValidation validateSimulation(const JsonNode &body);

// POST /v1/charges of the acquirer service: merchant, key, amount, currency, token.
struct ChargeValidation
{
    ChargeRequest fields;
    QList<Problem::FieldError> errors;
};
ChargeValidation validateCharge(const JsonNode &body);

// POST /v1/refunds of the acquirer service: merchant, key, charge_key, amount, currency.
struct AcquirerRefundValidation
{
    RefundCall fields;
    QList<Problem::FieldError> errors;
};
AcquirerRefundValidation validateAcquirerRefund(const JsonNode &body);

// POST /v1/reversals of the acquirer service: merchant and the payment's key.
struct ReversalValidation
{
    QString merchant;
    QString key;
    QList<Problem::FieldError> errors;
};
ReversalValidation validateReversal(const JsonNode &body);

Problem validationProblem(const QList<Problem::FieldError> &errors);

// Strict JSON of a request body, or the 400 validation problem that says where it broke.
std::optional<JsonNode> parseRequestBody(const QByteArray &body, Problem *error);

}   // namespace OncePay::Gateway
