#pragma once

#include <QByteArray>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace OncePay {

// A parsed JSON value that keeps numbers exactly as written (QJsonValue would turn them into
// doubles), so that fingerprints and amount checks never depend on floating point.
struct JsonNode final
{
    enum class Type {
        Null,
        Bool,
        Number,
        String,
        Array,
        Object
    };

    Type type = Type::Null;
    bool boolean = false;
    QByteArray number;   // the literal, e.g. "1999" or "1e400"
    QString string;
    std::vector<JsonNode> items;
    std::vector<std::pair<QString, JsonNode>> members;   // sorted by key (UTF-16 code units)

    const JsonNode *member(QStringView key) const;
    // The number as a qint64 if it is an integer literal (no fraction, no exponent) that fits.
    std::optional<qint64> toInteger() const;
    static const char *typeName(Type type);
};

struct JsonParseResult
{
    std::optional<JsonNode> value;
    QString error;   // empty when value is set
    qsizetype offset = 0;   // byte offset of the error
};

// Strict RFC 8259 parsing of UTF-8 text: no trailing data, no duplicate member names,
// nesting bounded by maxDepth.
JsonParseResult parseJson(const QByteArray &utf8, int maxDepth = 32);

// Canonical form: members sorted, no insignificant white space, numbers as written,
// strings with the minimal escaping of RFC 8785.
QByteArray canonicalJson(const JsonNode &node);

// SHA-256 over method, path and canonical body: the identity of a request for its key.
QByteArray requestFingerprint(const QByteArray &method, const QByteArray &path, const QByteArray &canonicalBody);

}   // namespace OncePay
