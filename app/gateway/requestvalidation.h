#pragma once

#include "canonicaljson.h"
#include "gatewaytypes.h"
#include "problem.h"

#include <optional>

namespace OncePay::Gateway {

// The body of POST /v1/payments and of POST /v1/payments/{id}/refunds, checked field by field.
// Every error found is reported, not just the first.
struct PaymentValidation
{
    Payment fields;              // amount, currency, order_id, payment_method, description, metadata
    QList<Problem::FieldError> errors;
};
PaymentValidation validatePayment(const JsonNode &body);

struct RefundValidation
{
    Refund fields;               // amount, reason
    QList<Problem::FieldError> errors;
};
RefundValidation validateRefund(const JsonNode &body);

Problem validationProblem(const QList<Problem::FieldError> &errors);

} // namespace OncePay::Gateway
