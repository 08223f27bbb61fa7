#pragma once

#include <QString>
#include <QtGlobal>

#include <optional>

namespace OncePay {

// Milliseconds since the Unix epoch, UTC: the one time representation stored and compared.
// The world's wall clock (world.h).
qint64 nowMs();

// 1764662400123 -> "2025-12-02T08:00:00.123Z"
QString toRfc3339(qint64 epochMs);
// Accepts RFC 3339 with "Z" or an offset, with or without fractional seconds.
std::optional<qint64> fromRfc3339(const QString &text);

// "500ms", "30s", "5m", "24h", "7d", or a bare number of seconds -> milliseconds.
std::optional<qint64> parseDurationMs(const QString &text);

}   // namespace OncePay
