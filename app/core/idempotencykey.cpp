#include "idempotencykey.h"

#include "world.h"

namespace OncePay {

namespace {

bool isKeyChar(char16_t c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9')
        || c == u'-' || c == u'_' || c == u'.' || c == u':' || c == u'~';
}

IdempotencyKey::ParseResult invalid(const QString &reason)
{
    return {std::nullopt, IdempotencyKey::Error::Invalid, reason};
}

}   // namespace

bool IdempotencyKey::isValidKey(QStringView key)
{
    if (key.isEmpty() || key.size() > maxLength)
        return false;
    for (QChar c : key) {
        if (!isKeyChar(c.unicode()))
            return false;
    }
    return true;
}

std::optional<IdempotencyKey> IdempotencyKey::fromString(const QString &key)
{
    if (!isValidKey(key))
        return std::nullopt;
    return IdempotencyKey(key);
}

IdempotencyKey::ParseResult IdempotencyKey::fromHeaderValues(const QList<QByteArray> &values)
{
    if (values.isEmpty())
        return {std::nullopt, Error::Missing, QStringLiteral("The Idempotency-Key header is required.")};
    if (values.size() > 1)
        return invalid(QStringLiteral("The Idempotency-Key header must be given exactly once."));
    return fromHeaderValue(values.first());
}

IdempotencyKey::ParseResult IdempotencyKey::fromHeaderValue(const QByteArray &raw)
{
    // RFC 8941 parsing strips leading and trailing spaces; HTTP field values may also carry tabs.
    const QByteArray value = raw.trimmed();
    if (value.isEmpty())
        return invalid(QStringLiteral("The Idempotency-Key is empty."));

    QString decoded;
    if (value.startsWith('"')) {
        // sf-string: DQUOTE *( unescaped / "\" ( DQUOTE / "\" ) ) DQUOTE, nothing after it.
        qsizetype i = 1;
        bool closed = false;
        for (; i < value.size(); ++i) {
            const char c = value.at(i);
            if (c == '\\') {
                if (i + 1 >= value.size() || (value.at(i + 1) != '"' && value.at(i + 1) != '\\'))
                    return invalid(QStringLiteral("The Idempotency-Key has a bad escape sequence."));
                decoded.append(QLatin1Char(value.at(++i)));
            } else if (c == '"') {
                closed = true;
                break;
            } else if (uchar(c) < 0x20 || uchar(c) > 0x7e) {
                return invalid(QStringLiteral("The Idempotency-Key contains a character outside printable ASCII."));
            } else {
                decoded.append(QLatin1Char(c));
            }
        }
        if (!closed)
            return invalid(QStringLiteral("The Idempotency-Key string is not closed by a quote."));
        if (i + 1 != value.size())
            return invalid(QStringLiteral("The Idempotency-Key must be a single string with nothing after it."));
    } else {
        // Documented leniency: a bare token of the key's own characters.
        decoded = QString::fromLatin1(value);
    }

    if (decoded.isEmpty())
        return invalid(QStringLiteral("The Idempotency-Key is empty."));
    if (decoded.size() > maxLength)
        return invalid(QStringLiteral("The Idempotency-Key is longer than %1 characters.").arg(maxLength));
    if (!isValidKey(decoded))
        return invalid(QStringLiteral("The Idempotency-Key may only contain A-Z a-z 0-9 - _ . : ~"));
    return {IdempotencyKey(decoded), Error::None, {}};
}

IdempotencyKey IdempotencyKey::generate(const QString &prefix)
{
    const QString uuid = newUuid();
    return IdempotencyKey(prefix.isEmpty() ? uuid : prefix + QLatin1Char('-') + uuid);
}

QByteArray IdempotencyKey::toHeaderValue() const
{
    // Key characters never need escaping inside an sf-string.
    return '"' + m_value.toLatin1() + '"';
}

QString IdempotencyKey::redacted() const
{
    // Short keys show at most all but one character, so that no key is ever logged whole.
    if (m_value.size() <= 8)
        return QStringLiteral("%1…").arg(m_value.left(qMin<qsizetype>(2, m_value.size() - 1)));
    return m_value.left(8) + QStringLiteral("…");
}

}   // namespace OncePay
