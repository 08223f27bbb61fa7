#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace OncePay {

// The value of an Idempotency-Key: 1 to 255 characters of A-Z a-z 0-9 - _ . : ~ .
// On the wire it is a Structured Field string (RFC 8941); a bare token is accepted too.
class IdempotencyKey final
{
public:
    enum class Error {
        None,
        Missing,
        Invalid
    };
    struct ParseResult;   // defined below: it holds an IdempotencyKey, which is incomplete here

    static constexpr int maxLength = 255;

    // All values of the header in a request: none is Missing, more than one is Invalid.
    static ParseResult fromHeaderValues(const QList<QByteArray> &values);
    static ParseResult fromHeaderValue(const QByteArray &value);
    static bool isValidKey(QStringView key);

    // A new random key, e.g. "pay-8e03978e-40d5-43e8-bc93-6894a57f9324".
    static IdempotencyKey generate(const QString &prefix = QStringLiteral("pay"));
    static std::optional<IdempotencyKey> fromString(const QString &key);

    QString value() const { return m_value; }
    QByteArray toHeaderValue() const;   // the quoted Structured Field string
    QString redacted() const;   // safe for logs: never the full key

    friend bool operator==(const IdempotencyKey &a, const IdempotencyKey &b) { return a.m_value == b.m_value; }

private:
    explicit IdempotencyKey(const QString &value)
        : m_value(value) {}
    QString m_value;
};

struct IdempotencyKey::ParseResult
{
    std::optional<IdempotencyKey> key;
    Error error = Error::None;
    QString reason;   // why it is invalid, for the problem detail
};

}   // namespace OncePay
