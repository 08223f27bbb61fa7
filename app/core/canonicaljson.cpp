#include "canonicaljson.h"

#include <QCryptographicHash>

#include <algorithm>
#include <limits>

namespace OncePay {

const JsonNode *JsonNode::member(QStringView key) const
{
    auto it = std::lower_bound(members.begin(), members.end(), key,
        [](const auto &m, QStringView k) {
            return QStringView(m.first) < k;
        });
    return (it != members.end() && it->first == key) ? &it->second : nullptr;
}

std::optional<qint64> JsonNode::toInteger() const
{
    if (type != Type::Number || number.contains('.') || number.contains('e') || number.contains('E'))
        return std::nullopt;
    bool ok = false;
    const qint64 v = number.toLongLong(&ok);
    return ok ? std::optional<qint64>(v) : std::nullopt;
}

const char *JsonNode::typeName(Type type)
{
    switch (type) {
    case Type::Null:
        return "null";
    case Type::Bool:
        return "boolean";
    case Type::Number:
        return "number";
    case Type::String:
        return "string";
    case Type::Array:
        return "array";
    case Type::Object:
        return "object";
    }
    return "?";
}

namespace {

class Parser
{
public:
    Parser(const QByteArray &text, int maxDepth)
        : m_s(text)
        , m_maxDepth(maxDepth) {}

    JsonParseResult run()
    {
        JsonNode root;
        skipSpace();
        if (!parseValue(root, 0))
            return {std::nullopt, m_error, m_pos};
        skipSpace();
        if (m_pos != m_s.size())
            return {std::nullopt, QStringLiteral("unexpected data after the JSON value"), m_pos};
        return {std::move(root), {}, 0};
    }

private:
    bool fail(const QString &why)
    {
        if (m_error.isEmpty())
            m_error = why;
        return false;
    }
    bool atEnd() const { return m_pos >= m_s.size(); }
    char peek() const { return atEnd() ? '\0' : m_s.at(m_pos); }
    void skipSpace()
    {
        while (!atEnd()) {
            const char c = m_s.at(m_pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
                break;
            ++m_pos;
        }
    }
    bool literal(const char *word)
    {
        const qsizetype n = qstrlen(word);
        if (m_s.mid(m_pos, n) != word)
            return fail(QStringLiteral("invalid literal"));
        m_pos += n;
        return true;
    }

    // depth counts the arrays and objects around this value; only a container adds a level,
    // so the limit does not depend on whether the innermost container is empty.
    bool parseValue(JsonNode &out, int depth)
    {
        if ((peek() == '{' || peek() == '[') && depth >= m_maxDepth)
            return fail(QStringLiteral("nesting deeper than %1 levels").arg(m_maxDepth));
        switch (peek()) {
        case '{':
            return parseObject(out, depth);
        case '[':
            return parseArray(out, depth);
        case '"':
            out.type = JsonNode::Type::String;
            return parseString(out.string);
        case 't':
            out.type = JsonNode::Type::Bool;
            out.boolean = true;
            return literal("true");
        case 'f':
            out.type = JsonNode::Type::Bool;
            out.boolean = false;
            return literal("false");
        case 'n':
            out.type = JsonNode::Type::Null;
            return literal("null");
        default:
            return parseNumber(out);
        }
    }

    bool parseObject(JsonNode &out, int depth)
    {
        out.type = JsonNode::Type::Object;
        ++m_pos;   // '{'
        skipSpace();
        if (peek() == '}') {
            ++m_pos;
            return true;
        }
        for (;;) {
            skipSpace();
            if (peek() != '"')
                return fail(QStringLiteral("expected a member name"));
            QString key;
            if (!parseString(key))
                return false;
            skipSpace();
            if (peek() != ':')
                return fail(QStringLiteral("expected ':'"));
            ++m_pos;
            skipSpace();
            JsonNode value;
            if (!parseValue(value, depth + 1))
                return false;
            out.members.emplace_back(std::move(key), std::move(value));
            skipSpace();
            if (peek() == ',') {
                ++m_pos;
                continue;
            }
            if (peek() == '}') {
                ++m_pos;
                break;
            }
            return fail(QStringLiteral("expected ',' or '}'"));
        }
        std::sort(out.members.begin(), out.members.end(),
            [](const auto &a, const auto &b) {
                return a.first < b.first;
            });
        for (size_t i = 1; i < out.members.size(); ++i) {
            if (out.members[i - 1].first == out.members[i].first)
                return fail(QStringLiteral("duplicate member \"%1\"").arg(out.members[i].first));
        }
        return true;
    }

    bool parseArray(JsonNode &out, int depth)
    {
        out.type = JsonNode::Type::Array;
        ++m_pos;   // '['
        skipSpace();
        if (peek() == ']') {
            ++m_pos;
            return true;
        }
        for (;;) {
            skipSpace();
            JsonNode value;
            if (!parseValue(value, depth + 1))
                return false;
            out.items.push_back(std::move(value));
            skipSpace();
            if (peek() == ',') {
                ++m_pos;
                continue;
            }
            if (peek() == ']') {
                ++m_pos;
                return true;
            }
            return fail(QStringLiteral("expected ',' or ']'"));
        }
    }

    bool parseNumber(JsonNode &out)
    {
        const qsizetype start = m_pos;
        auto digits = [this] {
            const qsizetype from = m_pos;
            while (peek() >= '0' && peek() <= '9')
                ++m_pos;
            return m_pos - from;
        };
        if (peek() == '-')
            ++m_pos;
        if (peek() == '0') {
            ++m_pos;
        } else if (digits() == 0) {
            return fail(QStringLiteral("invalid value"));
        }
        if (peek() == '.') {
            ++m_pos;
            if (digits() == 0)
                return fail(QStringLiteral("invalid number"));
        }
        if (peek() == 'e' || peek() == 'E') {
            ++m_pos;
            if (peek() == '+' || peek() == '-')
                ++m_pos;
            if (digits() == 0)
                return fail(QStringLiteral("invalid number"));
        }
        out.type = JsonNode::Type::Number;
        out.number = m_s.mid(start, m_pos - start);
        return true;
    }

    int hex4()
    {
        if (m_pos + 4 > m_s.size())
            return -1;
        int v = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = m_s.at(m_pos + i);
            v <<= 4;
            if (c >= '0' && c <= '9')
                v |= c - '0';
            else if (c >= 'a' && c <= 'f')
                v |= c - 'a' + 10;
            else if (c >= 'A' && c <= 'F')
                v |= c - 'A' + 10;
            else
                return -1;
        }
        m_pos += 4;
        return v;
    }

    bool parseString(QString &out)
    {
        ++m_pos;   // opening quote
        QByteArray utf8;
        for (;;) {
            if (atEnd())
                return fail(QStringLiteral("unterminated string"));
            const uchar c = uchar(m_s.at(m_pos++));
            if (c == '"')
                break;
            if (c < 0x20)
                return fail(QStringLiteral("control character in a string"));
            if (c != '\\') {
                utf8.append(char(c));
                continue;
            }
            if (atEnd())
                return fail(QStringLiteral("unterminated string"));
            const char e = m_s.at(m_pos++);
            switch (e) {
            case '"':
                utf8.append('"');
                break;
            case '\\':
                utf8.append('\\');
                break;
            case '/':
                utf8.append('/');
                break;
            case 'b':
                utf8.append('\b');
                break;
            case 'f':
                utf8.append('\f');
                break;
            case 'n':
                utf8.append('\n');
                break;
            case 'r':
                utf8.append('\r');
                break;
            case 't':
                utf8.append('\t');
                break;
            case 'u': {
                int cp = hex4();
                if (cp < 0)
                    return fail(QStringLiteral("bad \\u escape"));
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    if (m_s.mid(m_pos, 2) != "\\u")
                        return fail(QStringLiteral("unpaired surrogate"));
                    m_pos += 2;
                    const int low = hex4();
                    if (low < 0xDC00 || low > 0xDFFF)
                        return fail(QStringLiteral("unpaired surrogate"));
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    return fail(QStringLiteral("unpaired surrogate"));
                }
                const char32_t ch = char32_t(cp);
                utf8.append(QString::fromUcs4(&ch, 1).toUtf8());
                break;
            }
            default:
                return fail(QStringLiteral("bad escape sequence"));
            }
        }
        out = QString::fromUtf8(utf8);
        // Invalid UTF-8 decodes to U+FFFD; round-tripping tells us whether that happened.
        if (out.toUtf8() != utf8)
            return fail(QStringLiteral("invalid UTF-8 in a string"));
        return true;
    }

    const QByteArray &m_s;
    const int m_maxDepth;
    qsizetype m_pos = 0;
    QString m_error;
};

void writeString(QByteArray &out, const QString &s)
{
    out.append('"');
    const QByteArray utf8 = s.toUtf8();
    for (char c : utf8) {
        switch (c) {
        case '"':
            out.append("\\\"");
            break;
        case '\\':
            out.append("\\\\");
            break;
        case '\b':
            out.append("\\b");
            break;
        case '\f':
            out.append("\\f");
            break;
        case '\n':
            out.append("\\n");
            break;
        case '\r':
            out.append("\\r");
            break;
        case '\t':
            out.append("\\t");
            break;
        default:
            if (uchar(c) < 0x20) {
                static const char hex[] = "0123456789abcdef";
                out.append("\\u00");
                out.append(hex[(uchar(c) >> 4) & 0xf]);
                out.append(hex[uchar(c) & 0xf]);
            } else {
                out.append(c);
            }
        }
    }
    out.append('"');
}

void writeNode(QByteArray &out, const JsonNode &n)
{
    switch (n.type) {
    case JsonNode::Type::Null:
        out.append("null");
        break;
    case JsonNode::Type::Bool:
        out.append(n.boolean ? "true" : "false");
        break;
    case JsonNode::Type::Number:
        out.append(n.number);
        break;
    case JsonNode::Type::String:
        writeString(out, n.string);
        break;
    case JsonNode::Type::Array:
        out.append('[');
        for (size_t i = 0; i < n.items.size(); ++i) {
            if (i)
                out.append(',');
            writeNode(out, n.items[i]);
        }
        out.append(']');
        break;
    case JsonNode::Type::Object:
        out.append('{');
        for (size_t i = 0; i < n.members.size(); ++i) {
            if (i)
                out.append(',');
            writeString(out, n.members[i].first);
            out.append(':');
            writeNode(out, n.members[i].second);
        }
        out.append('}');
        break;
    }
}

}   // namespace

JsonParseResult parseJson(const QByteArray &utf8, int maxDepth)
{
    return Parser(utf8, maxDepth).run();
}

QByteArray canonicalJson(const JsonNode &node)
{
    QByteArray out;
    writeNode(out, node);
    return out;
}

QByteArray requestFingerprint(const QByteArray &method, const QByteArray &path, const QByteArray &canonicalBody)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(method);
    hash.addData(QByteArrayView("\n"));
    hash.addData(path);
    hash.addData(QByteArrayView("\n"));
    hash.addData(canonicalBody);
    return hash.result();
}

}   // namespace OncePay
