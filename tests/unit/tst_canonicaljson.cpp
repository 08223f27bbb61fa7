#include "canonicaljson.h"

#include <QCryptographicHash>
#include <QTest>

using OncePay::canonicalJson;
using OncePay::JsonNode;
using OncePay::JsonParseResult;
using OncePay::parseJson;
using OncePay::requestFingerprint;

namespace {

// Parses and canonicalises. Canonical JSON is never empty, so an empty result means the
// text did not parse (the reason goes to *error).
QByteArray canonical(const QByteArray &text, QString *error = nullptr)
{
    const JsonParseResult r = parseJson(text);
    if (!r.value) {
        if (error)
            *error = r.error;
        return {};
    }
    return canonicalJson(*r.value);
}

QByteArray nestedArrays(int depth, const QByteArray &inner)
{
    return QByteArray(depth, '[') + inner + QByteArray(depth, ']');
}

QByteArray nestedObjects(int depth, const QByteArray &inner)
{
    QByteArray s = inner;
    for (int i = 0; i < depth; ++i)
        s = "{\"k\":" + s + '}';
    return s;
}

}   // namespace

class TestCanonicalJson final : public QObject
{
    Q_OBJECT

private slots:
    void canonicalForm_data();
    void canonicalForm();
    void sameRequest_data();
    void sameRequest();
    void differentRequest_data();
    void differentRequest();
    void hugeNumbersKeptVerbatim();
    void toInteger_data();
    void toInteger();
    void member();
    void rejects_data();
    void rejects();
    void errorOffset_data();
    void errorOffset();
    void depth_data();
    void depth();
    void deepInputFailsCleanly();
    void fingerprintKnownAnswer();
    void fingerprintDiffers_data();
    void fingerprintDiffers();
};

void TestCanonicalJson::canonicalForm_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("keys sorted") << QByteArray(R"({"b":1,"a":2})") << QByteArray(R"({"a":2,"b":1})");
    QTest::newRow("white space dropped")
        << QByteArray(" {\n\t\"a\" : [ 1 , 2 ] ,\r\n \"b\" : { \"d\" : null , \"c\" : true } } \n")
        << QByteArray(R"({"a":[1,2],"b":{"c":true,"d":null}})");
    QTest::newRow("payment request")
        << QByteArray(R"({ "payment_method": "tok_visa", "order_id": "ord-0001", "currency": "CNY", "amount": 1999 })")
        << QByteArray(R"({"amount":1999,"currency":"CNY","order_id":"ord-0001","payment_method":"tok_visa"})");
    QTest::newRow("array order kept") << QByteArray("[3, 1, 2]") << QByteArray("[3,1,2]");
    QTest::newRow("empty containers") << QByteArray("{ \"a\" : { } , \"b\" : [ ] }") << QByteArray(R"({"a":{},"b":[]})");
    QTest::newRow("upper case sorts first") << QByteArray(R"({"a":1,"B":2,"aa":3,"A":4})")
                                            << QByteArray(R"({"A":4,"B":2,"a":1,"aa":3})");
    // RFC 8785 orders by UTF-16 code units: U+1F600 (D83D DE00) sorts before U+FF45,
    // although its code point is larger.
    QTest::newRow("sorted by UTF-16 code units")
        << QByteArray(R"({"\uff45":1,"\ud83d\ude00":2,"\u00e9":3,"z":4})")
        << QByteArray("{\"z\":4,\"\xc3\xa9\":3,\"\xf0\x9f\x98\x80\":2,\"\xef\xbd\x85\":1}");
    QTest::newRow("numbers as written") << QByteArray("[1.0, 1, -0, 0.10, 1E5, 1e+5, 1e-5, -12.50e3]")
                                        << QByteArray("[1.0,1,-0,0.10,1E5,1e+5,1e-5,-12.50e3]");
    QTest::newRow("top-level string") << QByteArray(" \"x\" ") << QByteArray("\"x\"");
    QTest::newRow("top-level number") << QByteArray("\t42\n") << QByteArray("42");
    QTest::newRow("literals") << QByteArray("[true,false,null]") << QByteArray("[true,false,null]");
    // Unicode escapes become UTF-8; only what RFC 8785 requires stays escaped.
    QTest::newRow("\\u00e9 to UTF-8") << QByteArray(R"("caf\u00e9")") << QByteArray("\"caf\xc3\xa9\"");
    QTest::newRow("\\u4E2D to UTF-8") << QByteArray(R"("\u4E2D")") << QByteArray("\"\xe4\xb8\xad\"");
    QTest::newRow("surrogate pair to UTF-8") << QByteArray(R"("\uD83D\uDE00")") << QByteArray("\"\xf0\x9f\x98\x80\"");
    QTest::newRow("escaped ASCII letter") << QByteArray(R"("\u0041")") << QByteArray("\"A\"");
    QTest::newRow("escaped solidus") << QByteArray(R"("a\/b")") << QByteArray("\"a/b\"");
    QTest::newRow("escaped DEL") << QByteArray(R"("\u007f")") << QByteArray("\"\x7f\"");
    QTest::newRow("raw UTF-8 kept") << QByteArray("\"\xe4\xb8\xad\"") << QByteArray("\"\xe4\xb8\xad\"");
    QTest::newRow("short escapes kept") << QByteArray(R"("\b\f\n\r\t\"\\")") << QByteArray(R"("\b\f\n\r\t\"\\")");
    QTest::newRow("\\u0008 becomes \\b") << QByteArray(R"("\u0008\u000A")") << QByteArray(R"("\b\n")");
    QTest::newRow("other controls as \\u00xx") << QByteArray(R"("\u0000\u001F\u000b")")
                                               << QByteArray(R"("\u0000\u001f\u000b")");
    QTest::newRow("escaped key") << QByteArray(R"({"\u0062":1,"a":2})") << QByteArray(R"({"a":2,"b":1})");
}

void TestCanonicalJson::canonicalForm()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, expected);

    QString error;
    const QByteArray c = canonical(input, &error);
    QVERIFY2(!c.isEmpty(), qPrintable(error));
    QCOMPARE(c, expected);
    // The canonical form is a fixed point.
    QCOMPARE(canonical(c), c);
}

void TestCanonicalJson::sameRequest_data()
{
    QTest::addColumn<QByteArray>("a");
    QTest::addColumn<QByteArray>("b");

    QTest::newRow("reordered keys")
        << QByteArray(R"({"amount":1999,"currency":"CNY","order_id":"ord-0001","payment_method":"tok_visa"})")
        << QByteArray(R"({"payment_method":"tok_visa","order_id":"ord-0001","currency":"CNY","amount":1999})");
    QTest::newRow("white space")
        << QByteArray(R"({"amount":1999,"currency":"CNY"})")
        << QByteArray("{\n  \"amount\": 1999,\n  \"currency\": \"CNY\"\n}\n");
    QTest::newRow("nested reorder")
        << QByteArray(R"({"metadata":{"till":"1","shift":"a"},"amount":5})")
        << QByteArray(R"({"amount":5,"metadata":{"shift":"a","till":"1"}})");
    QTest::newRow("escape versus raw UTF-8") << QByteArray(R"({"description":"\u4e2d\u6587"})")
                                             << QByteArray("{\"description\":\"\xe4\xb8\xad\xe6\x96\x87\"}");
    QTest::newRow("escaped versus plain key") << QByteArray(R"({"\u0061mount":1})") << QByteArray(R"({"amount":1})");
    QTest::newRow("escaped solidus") << QByteArray(R"({"p":"a\/b"})") << QByteArray(R"({"p":"a/b"})");
}

void TestCanonicalJson::sameRequest()
{
    QFETCH(QByteArray, a);
    QFETCH(QByteArray, b);

    const QByteArray ca = canonical(a);
    const QByteArray cb = canonical(b);
    QVERIFY(!ca.isEmpty());
    QCOMPARE(ca, cb);
    QCOMPARE(requestFingerprint("POST", "/v1/payments", ca), requestFingerprint("POST", "/v1/payments", cb));
}

void TestCanonicalJson::differentRequest_data()
{
    QTest::addColumn<QByteArray>("a");
    QTest::addColumn<QByteArray>("b");

    QTest::newRow("1.0 versus 1") << QByteArray(R"({"amount":1.0})") << QByteArray(R"({"amount":1})");
    QTest::newRow("1e3 versus 1000") << QByteArray(R"({"amount":1e3})") << QByteArray(R"({"amount":1000})");
    QTest::newRow("-0 versus 0") << QByteArray("[-0]") << QByteArray("[0]");
    QTest::newRow("other amount") << QByteArray(R"({"amount":1999})") << QByteArray(R"({"amount":1998})");
    QTest::newRow("number versus string") << QByteArray(R"({"amount":1999})") << QByteArray(R"({"amount":"1999"})");
    QTest::newRow("array order") << QByteArray("[1,2]") << QByteArray("[2,1]");
    QTest::newRow("case of a value") << QByteArray(R"({"currency":"CNY"})") << QByteArray(R"({"currency":"cny"})");
    QTest::newRow("null member versus absent") << QByteArray(R"({"a":1,"d":null})") << QByteArray(R"({"a":1})");
    QTest::newRow("white space inside a string") << QByteArray(R"({"d":"a b"})") << QByteArray(R"({"d":"ab"})");
}

void TestCanonicalJson::differentRequest()
{
    QFETCH(QByteArray, a);
    QFETCH(QByteArray, b);

    const QByteArray ca = canonical(a);
    const QByteArray cb = canonical(b);
    QVERIFY(!ca.isEmpty());
    QVERIFY(!cb.isEmpty());
    QVERIFY(ca != cb);
    QVERIFY(requestFingerprint("POST", "/v1/payments", ca) != requestFingerprint("POST", "/v1/payments", cb));
}

void TestCanonicalJson::hugeNumbersKeptVerbatim()
{
    const JsonParseResult r = parseJson(R"({"big": 123456789012345678901234567890, "amount": 1e400})");
    QVERIFY2(r.value.has_value(), qPrintable(r.error));
    QVERIFY(r.error.isEmpty());

    const JsonNode *amount = r.value->member(u"amount");
    QVERIFY(amount);
    QCOMPARE(amount->type, JsonNode::Type::Number);
    QCOMPARE(amount->number, QByteArray("1e400"));
    QVERIFY(!amount->toInteger().has_value());

    const JsonNode *big = r.value->member(u"big");
    QVERIFY(big);
    QCOMPARE(big->type, JsonNode::Type::Number);
    QCOMPARE(big->number, QByteArray("123456789012345678901234567890"));
    QVERIFY(!big->toInteger().has_value());

    QCOMPARE(canonicalJson(*r.value), QByteArray(R"({"amount":1e400,"big":123456789012345678901234567890})"));
}

void TestCanonicalJson::toInteger_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("isInteger");
    QTest::addColumn<qint64>("value");

    QTest::newRow("1999") << QByteArray("1999") << true << qint64(1999);
    QTest::newRow("0") << QByteArray("0") << true << qint64(0);
    QTest::newRow("-0") << QByteArray("-0") << true << qint64(0);
    QTest::newRow("-5") << QByteArray("-5") << true << qint64(-5);
    QTest::newRow("qint64 max") << QByteArray("9223372036854775807") << true << std::numeric_limits<qint64>::max();
    QTest::newRow("qint64 min") << QByteArray("-9223372036854775808") << true << std::numeric_limits<qint64>::min();
    QTest::newRow("qint64 max + 1") << QByteArray("9223372036854775808") << false << qint64(0);
    QTest::newRow("qint64 min - 1") << QByteArray("-9223372036854775809") << false << qint64(0);
    QTest::newRow("30 digits") << QByteArray("123456789012345678901234567890") << false << qint64(0);
    QTest::newRow("1.0") << QByteArray("1.0") << false << qint64(0);
    QTest::newRow("1e3") << QByteArray("1e3") << false << qint64(0);
    QTest::newRow("1E3") << QByteArray("1E3") << false << qint64(0);
    QTest::newRow("1e400") << QByteArray("1e400") << false << qint64(0);
    QTest::newRow("string") << QByteArray("\"5\"") << false << qint64(0);
    QTest::newRow("bool") << QByteArray("true") << false << qint64(0);
    QTest::newRow("null") << QByteArray("null") << false << qint64(0);
    QTest::newRow("array") << QByteArray("[5]") << false << qint64(0);
}

void TestCanonicalJson::toInteger()
{
    QFETCH(QByteArray, json);
    QFETCH(bool, isInteger);
    QFETCH(qint64, value);

    const JsonParseResult r = parseJson(json);
    QVERIFY2(r.value.has_value(), qPrintable(r.error));
    const std::optional<qint64> v = r.value->toInteger();
    QCOMPARE(v.has_value(), isInteger);
    if (isInteger)
        QCOMPARE(*v, value);
}

void TestCanonicalJson::member()
{
    const JsonParseResult r = parseJson(R"({"zeta":1,"alpha":"x","mid":{"inner":true}})");
    QVERIFY(r.value.has_value());
    const JsonNode &root = *r.value;
    QCOMPARE(root.type, JsonNode::Type::Object);
    QCOMPARE(root.members.size(), size_t(3));

    const JsonNode *alpha = root.member(u"alpha");
    QVERIFY(alpha);
    QCOMPARE(alpha->type, JsonNode::Type::String);
    QCOMPARE(alpha->string, QStringLiteral("x"));
    QVERIFY(root.member(u"zeta"));
    QCOMPARE(root.member(u"zeta")->toInteger().value_or(-1), qint64(1));
    QVERIFY(root.member(u"mid"));
    QVERIFY(root.member(u"mid")->member(u"inner"));
    QCOMPARE(root.member(u"mid")->member(u"inner")->boolean, true);

    QVERIFY(!root.member(u"missing"));
    QVERIFY(!root.member(u"Alpha"));
    QVERIFY(!root.member(u"inner"));   // members are not searched recursively
    QVERIFY(!root.member(u""));

    QCOMPARE(QByteArray(JsonNode::typeName(JsonNode::Type::Object)), QByteArray("object"));
    QCOMPARE(QByteArray(JsonNode::typeName(JsonNode::Type::Number)), QByteArray("number"));
}

void TestCanonicalJson::rejects_data()
{
    QTest::addColumn<QByteArray>("input");

    // Duplicate member names, however they are spelled.
    QTest::newRow("duplicate member") << QByteArray(R"({"a":1,"a":2})");
    QTest::newRow("duplicate member, same value") << QByteArray(R"({"amount":1999,"amount":1999})");
    QTest::newRow("duplicate member, escaped") << QByteArray(R"({"a":1,"\u0061":2})");
    QTest::newRow("duplicate member, apart") << QByteArray(R"({"a":1,"b":2,"a":3})");
    QTest::newRow("duplicate member, nested") << QByteArray(R"({"x":[{"k":1,"k":1}]})");

    // Invalid UTF-8 inside strings and member names.
    QTest::newRow("UTF-8, lone continuation byte") << QByteArray("\"a\x80z\"");
    QTest::newRow("UTF-8, 0xFF") << QByteArray("\"\xff\"");
    QTest::newRow("UTF-8, truncated sequence") << QByteArray("\"\xe4\xb8\"");
    QTest::newRow("UTF-8, truncated at end of string") << QByteArray("[\"\xc3\"]");
    QTest::newRow("UTF-8, overlong slash") << QByteArray("\"\xc0\xaf\"");
    QTest::newRow("UTF-8, overlong NUL") << QByteArray("\"\xc0\x80\"");
    QTest::newRow("UTF-8, encoded surrogate") << QByteArray("\"\xed\xa0\x80\"");
    QTest::newRow("UTF-8, beyond U+10FFFF") << QByteArray("\"\xf4\x90\x80\x80\"");
    QTest::newRow("UTF-8, in a member name") << QByteArray("{\"\xff\":1}");
    QTest::newRow("UTF-8, Latin-1 text") << QByteArray("{\"d\":\"caf\xe9\"}");

    // Raw control characters must be escaped.
    QTest::newRow("raw newline") << QByteArray("\"a\nb\"");
    QTest::newRow("raw tab") << QByteArray("\"a\tb\"");
    QTest::newRow("raw NUL") << QByteArrayLiteral("\"a\0b\"");
    QTest::newRow("raw 0x1F") << QByteArray("\"a\x1f\"");
    QTest::newRow("raw CR in a member name") << QByteArray("{\"a\rb\":1}");

    // Surrogate escapes that do not form a pair.
    QTest::newRow("lone high surrogate") << QByteArray(R"("\ud83d")");
    QTest::newRow("lone low surrogate") << QByteArray(R"("\ude00")");
    QTest::newRow("high surrogate, then letter") << QByteArray(R"("\ud83dx")");
    QTest::newRow("high surrogate, then BMP escape") << QByteArray(R"("\ud83d\u0041")");
    QTest::newRow("two high surrogates") << QByteArray(R"("\ud83d\ud83d")");
    QTest::newRow("reversed pair") << QByteArray(R"("\ude00\ud83d")");
    QTest::newRow("high surrogate at end of text") << QByteArray(R"("\ud83d)");

    // Bad escapes.
    QTest::newRow("unknown escape") << QByteArray(R"("\x41")");
    QTest::newRow("escaped single quote") << QByteArray(R"("\'")");
    QTest::newRow("short \\u") << QByteArray(R"("\u12")");
    QTest::newRow("non-hex \\u") << QByteArray(R"("\u12g4")");
    QTest::newRow("upper-case \\U") << QByteArray(R"("\U0041")");

    // Data after the value.
    QTest::newRow("trailing word") << QByteArray("{} x");
    QTest::newRow("two objects") << QByteArray("{}{}");
    QTest::newRow("two numbers") << QByteArray("1 2");
    QTest::newRow("extra bracket") << QByteArray("[1]]");
    QTest::newRow("trailing NUL") << QByteArrayLiteral("{}\0");
    QTest::newRow("trailing comma at top level") << QByteArray("{},");
    QTest::newRow("literal with suffix") << QByteArray("nullx");
    QTest::newRow("string with suffix") << QByteArray("\"a\"b");

    // Other syntax errors.
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("only white space") << QByteArray(" \n\t ");
    QTest::newRow("unclosed object") << QByteArray("{");
    QTest::newRow("unclosed array") << QByteArray("[1,2");
    QTest::newRow("unterminated string") << QByteArray("\"abc");
    QTest::newRow("trailing comma in array") << QByteArray("[1,]");
    QTest::newRow("trailing comma in object") << QByteArray(R"({"a":1,})");
    QTest::newRow("missing comma") << QByteArray("[1 2]");
    QTest::newRow("missing colon") << QByteArray(R"({"a" 1})");
    QTest::newRow("missing value") << QByteArray(R"({"a":})");
    QTest::newRow("unquoted member name") << QByteArray("{a:1}");
    QTest::newRow("single-quoted string") << QByteArray("'a'");
    QTest::newRow("leading zero") << QByteArray("01");
    QTest::newRow("leading zero in array") << QByteArray("[01]");
    QTest::newRow("trailing dot") << QByteArray("1.");
    QTest::newRow("leading dot") << QByteArray(".5");
    QTest::newRow("plus sign") << QByteArray("+1");
    QTest::newRow("lone minus") << QByteArray("-");
    QTest::newRow("empty exponent") << QByteArray("1e");
    QTest::newRow("signed empty exponent") << QByteArray("1e+");
    QTest::newRow("hex number") << QByteArray("0x10");
    QTest::newRow("NaN") << QByteArray("NaN");
    QTest::newRow("Infinity") << QByteArray("-Infinity");
    QTest::newRow("truncated literal") << QByteArray("tru");
    QTest::newRow("capitalised literal") << QByteArray("True");
    QTest::newRow("comment") << QByteArray("[1 /* x */]");
    QTest::newRow("non-JSON white space") << QByteArray("\f{}");
}

void TestCanonicalJson::rejects()
{
    QFETCH(QByteArray, input);

    const JsonParseResult r = parseJson(input);
    QVERIFY2(!r.value.has_value(), r.value ? canonicalJson(*r.value).constData() : "");
    QVERIFY(!r.error.isEmpty());
    QVERIFY(r.offset >= 0);
    QVERIFY(r.offset <= input.size());
}

void TestCanonicalJson::errorOffset_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<qsizetype>("offset");

    QTest::newRow("trailing data") << QByteArray("{} x") << qsizetype(3);
    QTest::newRow("trailing comma") << QByteArray("[1,]") << qsizetype(3);
    QTest::newRow("bad literal") << QByteArray(R"({"a":tru})") << qsizetype(5);
    QTest::newRow("missing colon") << QByteArray(R"({"ab" 1})") << qsizetype(6);
    QTest::newRow("empty") << QByteArray() << qsizetype(0);
}

void TestCanonicalJson::errorOffset()
{
    QFETCH(QByteArray, input);
    QFETCH(qsizetype, offset);

    const JsonParseResult r = parseJson(input);
    QVERIFY(!r.value.has_value());
    QCOMPARE(r.offset, offset);
}

void TestCanonicalJson::depth_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("maxDepth");   // -1: the default
    QTest::addColumn<bool>("accepted");

    // The depth is the number of nested arrays and objects; it does not depend on
    // whether the innermost container is empty.
    QTest::newRow("32 arrays, empty") << nestedArrays(32, "") << -1 << true;
    QTest::newRow("32 arrays, scalar") << nestedArrays(32, "1") << -1 << true;
    QTest::newRow("33 arrays, empty") << nestedArrays(33, "") << -1 << false;
    QTest::newRow("33 arrays, scalar") << nestedArrays(33, "1") << -1 << false;
    QTest::newRow("32 objects, empty") << nestedObjects(31, "{}") << -1 << true;
    QTest::newRow("32 objects, scalar") << nestedObjects(32, "null") << -1 << true;
    QTest::newRow("33 objects, empty") << nestedObjects(32, "{}") << -1 << false;
    QTest::newRow("33 objects, scalar") << nestedObjects(33, "null") << -1 << false;
    QTest::newRow("32 mixed") << nestedObjects(16, nestedArrays(16, "\"x\"")) << -1 << true;
    QTest::newRow("33 mixed") << nestedObjects(16, nestedArrays(17, "\"x\"")) << -1 << false;
    QTest::newRow("wide, not deep") << ('[' + QByteArray("[],").repeated(1000) + "[]]") << -1 << true;
    QTest::newRow("limit 2: 2 arrays") << nestedArrays(2, "1") << 2 << true;
    QTest::newRow("limit 2: 3 arrays") << nestedArrays(3, "") << 2 << false;
    QTest::newRow("limit 2: sibling containers") << QByteArray(R"({"a":[1],"b":{"c":2}})") << 2 << true;
    QTest::newRow("limit 100: 100 arrays") << nestedArrays(100, "") << 100 << true;
    QTest::newRow("limit 100: 101 arrays") << nestedArrays(101, "") << 100 << false;
}

void TestCanonicalJson::depth()
{
    QFETCH(QByteArray, input);
    QFETCH(int, maxDepth);
    QFETCH(bool, accepted);

    const JsonParseResult r = maxDepth < 0 ? parseJson(input) : parseJson(input, maxDepth);
    QCOMPARE(r.value.has_value(), accepted);
    QCOMPARE(r.error.isEmpty(), accepted);
    if (accepted)
        QCOMPARE(canonicalJson(*r.value), input);
}

void TestCanonicalJson::deepInputFailsCleanly()
{
    // Far beyond the limit: must fail on the limit, not on the stack.
    const QByteArray deep = nestedArrays(1000000, "");
    const JsonParseResult r = parseJson(deep);
    QVERIFY(!r.value.has_value());
    QVERIFY(!r.error.isEmpty());
}

void TestCanonicalJson::fingerprintKnownAnswer()
{
    // SHA-256 of "POST\n/v1/payments\n" + canonical body. Fingerprints are stored with the
    // key records, so this framing must never change between releases.
    const QByteArray body = canonical(
        R"({"payment_method":"tok_visa","order_id":"ord-0001","currency":"CNY","amount":1999})");
    const QByteArray fp = requestFingerprint("POST", "/v1/payments", body);
    QCOMPARE(fp.size(), 32);
    QCOMPARE(fp.toHex(), QByteArray("dd918cf86acc594315b6ce6fffaab65b882b733c899060806907fca5f809296c"));

    QCOMPARE(requestFingerprint("POST", "/v1/payments", body), fp);
    QCOMPARE(requestFingerprint("GET", "/", QByteArray()),
        QCryptographicHash::hash("GET\n/\n", QCryptographicHash::Sha256));
}

void TestCanonicalJson::fingerprintDiffers_data()
{
    QTest::addColumn<QByteArray>("method1");
    QTest::addColumn<QByteArray>("path1");
    QTest::addColumn<QByteArray>("body1");
    QTest::addColumn<QByteArray>("method2");
    QTest::addColumn<QByteArray>("path2");
    QTest::addColumn<QByteArray>("body2");

    const QByteArray body = R"({"amount":1999,"currency":"CNY"})";
    QTest::newRow("method") << QByteArray("POST") << QByteArray("/v1/payments") << body
                            << QByteArray("PUT") << QByteArray("/v1/payments") << body;
    QTest::newRow("path") << QByteArray("POST") << QByteArray("/v1/payments/pay_1/refunds") << body
                          << QByteArray("POST") << QByteArray("/v1/payments/pay_2/refunds") << body;
    QTest::newRow("body") << QByteArray("POST") << QByteArray("/v1/payments") << body
                          << QByteArray("POST") << QByteArray("/v1/payments")
                          << QByteArray(R"({"amount":1998,"currency":"CNY"})");
    QTest::newRow("empty versus empty object") << QByteArray("POST") << QByteArray("/v1/payments") << QByteArray()
                                               << QByteArray("POST") << QByteArray("/v1/payments")
                                               << QByteArray("{}");
    // The separators keep the fields apart: moving bytes across a boundary changes the hash.
    QTest::newRow("path/body boundary") << QByteArray("POST") << QByteArray("/v1/payments") << QByteArray("{}")
                                        << QByteArray("POST") << QByteArray("/v1/payments{}") << QByteArray();
    QTest::newRow("method/path boundary") << QByteArray("POST") << QByteArray("/x") << body
                                          << QByteArray("POST/x") << QByteArray() << body;
}

void TestCanonicalJson::fingerprintDiffers()
{
    QFETCH(QByteArray, method1);
    QFETCH(QByteArray, path1);
    QFETCH(QByteArray, body1);
    QFETCH(QByteArray, method2);
    QFETCH(QByteArray, path2);
    QFETCH(QByteArray, body2);

    const QByteArray a = requestFingerprint(method1, path1, body1);
    const QByteArray b = requestFingerprint(method2, path2, body2);
    QCOMPARE(a.size(), 32);
    QCOMPARE(b.size(), 32);
    QVERIFY(a != b);
}

QTEST_GUILESS_MAIN(TestCanonicalJson)
#include "tst_canonicaljson.moc"
