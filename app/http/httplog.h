#pragma once

#include <QLoggingCategory>

namespace OncePay::Http {
// The HTTP layer's logs (connections, refusals, caps): oncepay.gateway.http, the name operators
// know it by (docs/operations.md), in every server that links it.
Q_DECLARE_LOGGING_CATEGORY(lcHttpLayer)
}   // namespace OncePay::Http
