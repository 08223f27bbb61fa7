#pragma once

#include <QLoggingCategory>

namespace OncePay::Gateway {

// "oncepay.gateway.payments": the payment and refund steps, recovery, retention, and what the
// store reads back about a payment that this version cannot name.
Q_DECLARE_LOGGING_CATEGORY(lcPayments)

}   // namespace OncePay::Gateway
