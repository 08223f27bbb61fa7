#pragma once

#include <QLoggingCategory>

namespace OncePay::Gateway {
// The HTTP layer's logs (connections, refusals, caps): oncepay.gateway.http, as the routes'.
Q_DECLARE_LOGGING_CATEGORY(lcHttpLayer)
}   // namespace OncePay::Gateway
