#include "timeutil.h"

#include "world.h"

#include <QDateTime>
#include <QRegularExpression>

namespace OncePay {

qint64 nowMs()
{
    return World::current()->wallMs();
}

QString toRfc3339(qint64 epochMs)
{
    return QDateTime::fromMSecsSinceEpoch(epochMs, Qt::UTC).toString(Qt::ISODateWithMs);
}

std::optional<qint64> fromRfc3339(const QString &text)
{
    static const QRegularExpression shape(QStringLiteral(
        R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$)"));
    if (!shape.match(text).hasMatch())
        return std::nullopt;
    const QDateTime dt = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!dt.isValid())
        return std::nullopt;
    return dt.toMSecsSinceEpoch();
}

std::optional<qint64> parseDurationMs(const QString &text)
{
    static const QRegularExpression shape(QStringLiteral(R"(^(\d{1,9})(ms|s|m|h|d)?$)"));
    const QRegularExpressionMatch m = shape.match(text.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    const qint64 n = m.captured(1).toLongLong();
    const QString unit = m.captured(2);
    if (unit == QLatin1String("ms"))
        return n;
    if (unit.isEmpty() || unit == QLatin1String("s"))
        return n * 1000;
    if (unit == QLatin1String("m"))
        return n * 60 * 1000;
    if (unit == QLatin1String("h"))
        return n * 3600 * 1000;
    return n * 24 * 3600 * 1000;
}

}   // namespace OncePay
