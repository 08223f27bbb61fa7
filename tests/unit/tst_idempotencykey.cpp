#include "idempotencykey.h"

#include <QSet>
#include <QTest>

using OncePay::IdempotencyKey;

Q_DECLARE_METATYPE(OncePay::IdempotencyKey::Error)

namespace OncePay {
// Readable QCOMPARE failures for the error enum.
char *toString(IdempotencyKey::Error error)
{
    switch (error) {
    case IdempotencyKey::Error::None:
        return qstrdup("None");
    case IdempotencyKey::Error::Missing:
        return qstrdup("Missing");
    case IdempotencyKey::Error::Invalid:
        return qstrdup("Invalid");
    }
    return qstrdup("?");
}
}   // namespace OncePay

namespace {
const QByteArray kAllowed = QByteArrayLiteral("ABCXYZabcxyz0189-_.:~");

QByteArray quoted(const QByteArray &key)
{
    return '"' + key + '"';
}
}   // namespace

class TestIdempotencyKey final : public QObject
{
    Q_OBJECT

private slots:
    void validHeader_data();
    void validHeader();
    void invalidHeader_data();
    void invalidHeader();
    void headerValues_data();
    void headerValues();
    void isValidKey_data();
    void isValidKey();
    void toHeaderValueRoundTrip_data();
    void toHeaderValueRoundTrip();
    void generate();
    void generateWithPrefix();
    void redacted_data();
    void redacted();
};

void TestIdempotencyKey::validHeader_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QString>("key");

    QTest::newRow("quoted") << QByteArrayLiteral("\"pay-8e03978e-40d5-43e8-bc93-6894a57f9324\"")
                            << QStringLiteral("pay-8e03978e-40d5-43e8-bc93-6894a57f9324");
    QTest::newRow("bare token") << QByteArrayLiteral("pay-8e03978e-40d5-43e8-bc93-6894a57f9324")
                                << QStringLiteral("pay-8e03978e-40d5-43e8-bc93-6894a57f9324");
    QTest::newRow("quoted, every allowed class") << quoted(kAllowed) << QString::fromLatin1(kAllowed);
    QTest::newRow("bare, every allowed class") << kAllowed << QString::fromLatin1(kAllowed);
    QTest::newRow("quoted, one char") << QByteArrayLiteral("\"a\"") << QStringLiteral("a");
    QTest::newRow("bare, one char") << QByteArrayLiteral("~") << QStringLiteral("~");
    QTest::newRow("quoted, 255 chars") << quoted(QByteArray(255, 'k')) << QString(255, QLatin1Char('k'));
    QTest::newRow("bare, 255 chars") << QByteArray(255, 'k') << QString(255, QLatin1Char('k'));
    // RFC 8941 parsing discards leading and trailing spaces; HTTP OWS may also be a tab.
    QTest::newRow("quoted, surrounding spaces") << QByteArrayLiteral("  \"abc\"  ") << QStringLiteral("abc");
    QTest::newRow("bare, surrounding spaces") << QByteArrayLiteral("  abc  ") << QStringLiteral("abc");
    QTest::newRow("quoted, surrounding tabs") << QByteArrayLiteral("\t\"abc\"\t") << QStringLiteral("abc");
    QTest::newRow("255 chars plus spaces") << (' ' + quoted(QByteArray(255, 'k')) + ' ')
                                           << QString(255, QLatin1Char('k'));
}

void TestIdempotencyKey::validHeader()
{
    QFETCH(QByteArray, header);
    QFETCH(QString, key);

    const IdempotencyKey::ParseResult r = IdempotencyKey::fromHeaderValue(header);
    QCOMPARE(r.error, IdempotencyKey::Error::None);
    QVERIFY2(r.key.has_value(), qPrintable(r.reason));
    QCOMPARE(r.key->value(), key);
    QVERIFY(r.reason.isEmpty());

    // The one-value list form agrees with the single-value form.
    const IdempotencyKey::ParseResult list = IdempotencyKey::fromHeaderValues({header});
    QCOMPARE(list.error, IdempotencyKey::Error::None);
    QVERIFY(list.key.has_value());
    QCOMPARE(list.key->value(), key);
}

void TestIdempotencyKey::invalidHeader_data()
{
    QTest::addColumn<QByteArray>("header");

    QTest::newRow("empty") << QByteArray();
    QTest::newRow("only spaces") << QByteArrayLiteral("   ");
    QTest::newRow("empty string") << QByteArrayLiteral("\"\"");
    QTest::newRow("empty string with spaces") << QByteArrayLiteral(" \"\" ");
    QTest::newRow("quoted, 256 chars") << quoted(QByteArray(256, 'k'));
    QTest::newRow("bare, 256 chars") << QByteArray(256, 'k');
    QTest::newRow("quoted, 1000 chars") << quoted(QByteArray(1000, 'k'));

    QTest::newRow("bare, inner space") << QByteArrayLiteral("a b");
    QTest::newRow("quoted, inner space") << QByteArrayLiteral("\"a b\"");
    QTest::newRow("quoted, inner tab") << QByteArrayLiteral("\"a\tb\"");
    QTest::newRow("bare, NUL") << QByteArrayLiteral("a\0b");
    QTest::newRow("quoted, NUL") << QByteArrayLiteral("\"a\0b\"");
    QTest::newRow("bare, trailing NUL") << QByteArrayLiteral("abc\0");
    QTest::newRow("bare, UTF-8") << QByteArrayLiteral("caf\xc3\xa9");
    QTest::newRow("quoted, UTF-8") << QByteArrayLiteral("\"caf\xc3\xa9\"");
    QTest::newRow("bare, Latin-1 byte") << QByteArrayLiteral("caf\xe9");
    QTest::newRow("quoted, Latin-1 byte") << QByteArrayLiteral("\"caf\xe9\"");
    QTest::newRow("quoted, DEL") << QByteArrayLiteral("\"a\x7f"
                                                      "b\"");
    QTest::newRow("bare, CR LF inside") << QByteArrayLiteral("a\r\nb");
    // Characters an sf-token or sf-string allows but a key does not.
    QTest::newRow("bare, slash") << QByteArrayLiteral("a/b");
    QTest::newRow("bare, star") << QByteArrayLiteral("*abc");
    QTest::newRow("bare, plus") << QByteArrayLiteral("a+b");
    QTest::newRow("bare, equals") << QByteArrayLiteral("a=b");
    QTest::newRow("bare, percent") << QByteArrayLiteral("a%20b");
    QTest::newRow("quoted, at sign") << QByteArrayLiteral("\"a@b\"");
    QTest::newRow("quoted, single quote") << QByteArrayLiteral("\"a'b\"");
    QTest::newRow("single-quoted") << QByteArrayLiteral("'abc'");

    QTest::newRow("lone quote") << QByteArrayLiteral("\"");
    QTest::newRow("unclosed quote") << QByteArrayLiteral("\"abc");
    QTest::newRow("unclosed quote, trailing space") << QByteArrayLiteral("\"abc ");
    QTest::newRow("closing quote only") << QByteArrayLiteral("abc\"");
    QTest::newRow("quote inside bare token") << QByteArrayLiteral("a\"b");
    // Valid sf-string escapes, but they decode to characters a key may not contain.
    QTest::newRow("escaped quote") << QByteArrayLiteral("\"a\\\"b\"");
    QTest::newRow("escaped backslash") << QByteArrayLiteral("\"a\\\\b\"");
    QTest::newRow("only an escaped quote") << QByteArrayLiteral("\"\\\"\"");
    // Not valid sf-string escapes at all.
    QTest::newRow("escaped letter") << QByteArrayLiteral("\"a\\nb\"");
    QTest::newRow("escaped key char") << QByteArrayLiteral("\"a\\-b\"");
    QTest::newRow("backslash before end") << QByteArrayLiteral("\"abc\\");
    QTest::newRow("escaped closing quote") << QByteArrayLiteral("\"abc\\\"");
    QTest::newRow("bare, backslash") << QByteArrayLiteral("a\\b");

    QTest::newRow("parameters after string") << QByteArrayLiteral("\"a\";x=1");
    QTest::newRow("parameters after token") << QByteArrayLiteral("a;x=1");
    QTest::newRow("text after string") << QByteArrayLiteral("\"a\"b");
    QTest::newRow("two strings") << QByteArrayLiteral("\"a\" \"b\"");
    // Two header lines folded into one field value by a proxy.
    QTest::newRow("list of strings") << QByteArrayLiteral("\"a\", \"b\"");
    QTest::newRow("list of tokens") << QByteArrayLiteral("a,b");
    QTest::newRow("sf-binary") << QByteArrayLiteral(":YWJj:=");
}

void TestIdempotencyKey::invalidHeader()
{
    QFETCH(QByteArray, header);

    const IdempotencyKey::ParseResult r = IdempotencyKey::fromHeaderValue(header);
    QVERIFY2(!r.key.has_value(), qPrintable(r.key ? r.key->value() : QString()));
    QCOMPARE(r.error, IdempotencyKey::Error::Invalid);
    QVERIFY(!r.reason.isEmpty());

    const IdempotencyKey::ParseResult list = IdempotencyKey::fromHeaderValues({header});
    QVERIFY(!list.key.has_value());
    QCOMPARE(list.error, IdempotencyKey::Error::Invalid);
}

void TestIdempotencyKey::headerValues_data()
{
    QTest::addColumn<QByteArrayList>("values");
    QTest::addColumn<IdempotencyKey::Error>("error");
    QTest::addColumn<QString>("key");

    QTest::newRow("none") << QByteArrayList{} << IdempotencyKey::Error::Missing << QString();
    QTest::newRow("one") << QByteArrayList{"\"k-1\""} << IdempotencyKey::Error::None << QStringLiteral("k-1");
    QTest::newRow("one empty") << QByteArrayList{QByteArray()} << IdempotencyKey::Error::Invalid << QString();
    QTest::newRow("two equal") << QByteArrayList{"\"k-1\"", "\"k-1\""} << IdempotencyKey::Error::Invalid << QString();
    QTest::newRow("two different") << QByteArrayList{"\"k-1\"", "\"k-2\""} << IdempotencyKey::Error::Invalid
                                   << QString();
    QTest::newRow("valid and empty") << QByteArrayList{"\"k-1\"", QByteArray()} << IdempotencyKey::Error::Invalid
                                     << QString();
    QTest::newRow("three") << QByteArrayList{"a", "b", "c"} << IdempotencyKey::Error::Invalid << QString();
}

void TestIdempotencyKey::headerValues()
{
    QFETCH(QByteArrayList, values);
    QFETCH(IdempotencyKey::Error, error);
    QFETCH(QString, key);

    const IdempotencyKey::ParseResult r = IdempotencyKey::fromHeaderValues(values);
    QCOMPARE(r.error, error);
    if (error == IdempotencyKey::Error::None) {
        QVERIFY(r.key.has_value());
        QCOMPARE(r.key->value(), key);
    } else {
        QVERIFY(!r.key.has_value());
        QVERIFY(!r.reason.isEmpty());
    }
}

void TestIdempotencyKey::isValidKey_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("valid");

    QTest::newRow("every allowed class") << QString::fromLatin1(kAllowed) << true;
    QTest::newRow("one char") << QStringLiteral("x") << true;
    QTest::newRow("255 chars") << QString(255, QLatin1Char('x')) << true;
    QTest::newRow("256 chars") << QString(256, QLatin1Char('x')) << false;
    QTest::newRow("empty") << QString() << false;
    QTest::newRow("space") << QStringLiteral("a b") << false;
    QTest::newRow("quote") << QStringLiteral("a\"b") << false;
    QTest::newRow("backslash") << QStringLiteral("a\\b") << false;
    QTest::newRow("NUL") << QString::fromLatin1("a\0b", 3) << false;
    QTest::newRow("non-ASCII letter") << QStringLiteral(u"caf\u00e9") << false;
    QTest::newRow("full-width digit") << QStringLiteral(u"\uFF11") << false;
    QTest::newRow("emoji") << QStringLiteral(u"\U0001F600") << false;
    QTest::newRow("slash") << QStringLiteral("a/b") << false;
    QTest::newRow("comma") << QStringLiteral("a,b") << false;
}

void TestIdempotencyKey::isValidKey()
{
    QFETCH(QString, key);
    QFETCH(bool, valid);

    QCOMPARE(IdempotencyKey::isValidKey(key), valid);
    const std::optional<IdempotencyKey> k = IdempotencyKey::fromString(key);
    QCOMPARE(k.has_value(), valid);
    if (valid)
        QCOMPARE(k->value(), key);
}

void TestIdempotencyKey::toHeaderValueRoundTrip_data()
{
    QTest::addColumn<QString>("key");

    QTest::newRow("uuid key") << QStringLiteral("pay-8e03978e-40d5-43e8-bc93-6894a57f9324");
    QTest::newRow("every allowed class") << QString::fromLatin1(kAllowed);
    QTest::newRow("one char") << QStringLiteral("0");
    QTest::newRow("255 chars") << QString(255, QLatin1Char('~'));
}

void TestIdempotencyKey::toHeaderValueRoundTrip()
{
    QFETCH(QString, key);

    const std::optional<IdempotencyKey> k = IdempotencyKey::fromString(key);
    QVERIFY(k.has_value());
    const QByteArray header = k->toHeaderValue();
    QCOMPARE(header, quoted(key.toLatin1()));

    const IdempotencyKey::ParseResult r = IdempotencyKey::fromHeaderValue(header);
    QCOMPARE(r.error, IdempotencyKey::Error::None);
    QVERIFY(r.key.has_value());
    QVERIFY(*r.key == *k);
    QCOMPARE(r.key->value(), key);
}

void TestIdempotencyKey::generate()
{
    constexpr int count = 2000;
    QSet<QString> seen;
    for (int i = 0; i < count; ++i) {
        const IdempotencyKey k = IdempotencyKey::generate();
        QVERIFY2(IdempotencyKey::isValidKey(k.value()), qPrintable(k.value()));
        QVERIFY(k.value().startsWith(QLatin1String("pay-")));
        QVERIFY(!seen.contains(k.value()));
        seen.insert(k.value());

        const IdempotencyKey::ParseResult r = IdempotencyKey::fromHeaderValue(k.toHeaderValue());
        QVERIFY(r.key.has_value());
        QVERIFY(*r.key == k);
    }
    QCOMPARE(seen.size(), count);
}

void TestIdempotencyKey::generateWithPrefix()
{
    const IdempotencyKey refund = IdempotencyKey::generate(QStringLiteral("ref"));
    QVERIFY(refund.value().startsWith(QLatin1String("ref-")));
    QVERIFY(IdempotencyKey::isValidKey(refund.value()));

    const IdempotencyKey bare = IdempotencyKey::generate(QString());
    QVERIFY(IdempotencyKey::isValidKey(bare.value()));
    QCOMPARE(bare.value().size(), 36);   // a UUID without braces, nothing else
    QVERIFY(!bare.value().startsWith(QLatin1Char('-')));

    QVERIFY(!(IdempotencyKey::generate(QStringLiteral("ref")) == refund));
}

void TestIdempotencyKey::redacted_data()
{
    QTest::addColumn<QString>("key");

    QTest::newRow("1 char") << QStringLiteral("a");
    QTest::newRow("2 chars") << QStringLiteral("ab");
    QTest::newRow("3 chars") << QStringLiteral("abc");
    QTest::newRow("8 chars") << QStringLiteral("abcdefgh");
    QTest::newRow("9 chars") << QStringLiteral("abcdefghi");
    QTest::newRow("uuid key") << QStringLiteral("pay-8e03978e-40d5-43e8-bc93-6894a57f9324");
    QTest::newRow("255 chars") << QString(255, QLatin1Char('z'));
}

void TestIdempotencyKey::redacted()
{
    QFETCH(QString, key);

    const std::optional<IdempotencyKey> k = IdempotencyKey::fromString(key);
    QVERIFY(k.has_value());
    const QString r = k->redacted();
    QVERIFY(!r.isEmpty());
    QVERIFY2(!r.contains(key), qPrintable(r));
}

QTEST_GUILESS_MAIN(TestIdempotencyKey)
#include "tst_idempotencykey.moc"
