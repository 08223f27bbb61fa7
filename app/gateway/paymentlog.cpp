#include "gateway/paymentlog.h"

namespace OncePay::Gateway {

Q_LOGGING_CATEGORY(lcPayments, "oncepay.gateway.payments", QtInfoMsg)

}   // namespace OncePay::Gateway
