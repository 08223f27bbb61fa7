#include "money.h"

#include <QTest>

#include <limits>

using OncePay::Money;

namespace {
constexpr qint64 kMax = std::numeric_limits<qint64>::max();
constexpr qint64 kMin = std::numeric_limits<qint64>::min();
}   // namespace

class TestMoney final : public QObject
{
    Q_OBJECT

private slots:
    void minorDigits_data();
    void minorDigits();
    void parse_data();
    void parse();
    void parseRejects_data();
    void parseRejects();
    void format_data();
    void format();
    void displayString_data();
    void displayString();
    void roundTrip_data();
    void roundTrip();
    void equality();
};

void TestMoney::minorDigits_data()
{
    QTest::addColumn<QString>("currency");
    QTest::addColumn<int>("digits");

    QTest::newRow("CNY") << QStringLiteral("CNY") << 2;
    QTest::newRow("USD") << QStringLiteral("USD") << 2;
    QTest::newRow("EUR") << QStringLiteral("EUR") << 2;
    QTest::newRow("JPY") << QStringLiteral("JPY") << 0;
    // The contract says codes are in capitals: a lower-case code is not a currency.
    QTest::newRow("lower case") << QStringLiteral("cny") << -1;
    QTest::newRow("unknown") << QStringLiteral("XYZ") << -1;
    QTest::newRow("empty") << QString() << -1;
}

void TestMoney::minorDigits()
{
    QFETCH(QString, currency);
    QFETCH(int, digits);
    QCOMPARE(Money::minorDigits(currency), digits);
    QCOMPARE(Money::isSupportedCurrency(currency), digits >= 0);
}

void TestMoney::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("currency");
    QTest::addColumn<qint64>("minorUnits");

    const QString cny = QStringLiteral("CNY");
    const QString usd = QStringLiteral("USD");
    const QString jpy = QStringLiteral("JPY");

    QTest::newRow("CNY 19.99") << QStringLiteral("19.99") << cny << qint64(1999);
    QTest::newRow("CNY one fraction digit") << QStringLiteral("19.9") << cny << qint64(1990);
    QTest::newRow("CNY whole") << QStringLiteral("19") << cny << qint64(1900);
    QTest::newRow("CNY zero") << QStringLiteral("0") << cny << qint64(0);
    QTest::newRow("CNY 0.00") << QStringLiteral("0.00") << cny << qint64(0);
    QTest::newRow("USD 0.05") << QStringLiteral("0.05") << usd << qint64(5);
    QTest::newRow("USD 1234.56") << QStringLiteral("1234.56") << usd << qint64(123456);
    QTest::newRow("USD 1000000.00") << QStringLiteral("1000000.00") << usd << qint64(100000000);
    QTest::newRow("JPY 1200") << QStringLiteral("1200") << jpy << qint64(1200);
    QTest::newRow("JPY 1") << QStringLiteral("1") << jpy << qint64(1);
    QTest::newRow("JPY 0") << QStringLiteral("0") << jpy << qint64(0);
    // The largest values that still fit a qint64 of minor units.
    QTest::newRow("CNY max") << QStringLiteral("92233720368547758.07") << cny << kMax;
    QTest::newRow("CNY max whole") << QStringLiteral("92233720368547758") << cny << qint64(9223372036854775800);
    QTest::newRow("JPY max") << QStringLiteral("9223372036854775807") << jpy << kMax;
}

void TestMoney::parse()
{
    QFETCH(QString, text);
    QFETCH(QString, currency);
    QFETCH(qint64, minorUnits);

    const std::optional<Money> m = Money::parse(text, currency);
    QVERIFY2(m.has_value(), qPrintable(text));
    QCOMPARE(m->minorUnits(), minorUnits);
    QCOMPARE(m->currency(), currency);
    QVERIFY(m->isValid());
}

void TestMoney::parseRejects_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("currency");

    const QString cny = QStringLiteral("CNY");
    const QString usd = QStringLiteral("USD");
    const QString jpy = QStringLiteral("JPY");

    QTest::newRow("CNY three fraction digits") << QStringLiteral("1.999") << cny;
    QTest::newRow("USD three fraction digits") << QStringLiteral("0.001") << usd;
    QTest::newRow("CNY trailing zero beyond precision") << QStringLiteral("1.990") << cny;
    QTest::newRow("JPY fraction") << QStringLiteral("1.5") << jpy;
    QTest::newRow("JPY zero fraction") << QStringLiteral("1.0") << jpy;
    QTest::newRow("JPY trailing dot") << QStringLiteral("1.") << jpy;
    QTest::newRow("CNY trailing dot") << QStringLiteral("1.") << cny;
    QTest::newRow("CNY leading dot") << QStringLiteral(".5") << cny;
    QTest::newRow("CNY lone dot") << QStringLiteral(".") << cny;
    QTest::newRow("CNY two dots") << QStringLiteral("1.2.3") << cny;
    QTest::newRow("CNY negative") << QStringLiteral("-1") << cny;
    QTest::newRow("JPY negative") << QStringLiteral("-1") << jpy;
    QTest::newRow("CNY negative fraction") << QStringLiteral("-0.01") << cny;
    QTest::newRow("CNY plus sign") << QStringLiteral("+1") << cny;
    QTest::newRow("CNY exponent") << QStringLiteral("1e3") << cny;
    QTest::newRow("JPY exponent") << QStringLiteral("1E3") << jpy;
    QTest::newRow("CNY leading space") << QStringLiteral(" 1") << cny;
    QTest::newRow("CNY trailing space") << QStringLiteral("1 ") << cny;
    QTest::newRow("JPY inner space") << QStringLiteral("1 000") << jpy;
    QTest::newRow("CNY decimal comma") << QStringLiteral("1,50") << cny;
    QTest::newRow("JPY grouping comma") << QStringLiteral("1,000") << jpy;
    QTest::newRow("CNY empty") << QString() << cny;
    QTest::newRow("JPY empty") << QString() << jpy;
    QTest::newRow("CNY letters") << QStringLiteral("abc") << cny;
    QTest::newRow("JPY hex") << QStringLiteral("0x10") << jpy;
    QTest::newRow("CNY inf") << QStringLiteral("inf") << cny;
    QTest::newRow("CNY nan") << QStringLiteral("nan") << cny;
    QTest::newRow("JPY full-width digits") << QStringLiteral(u"\uFF11\uFF12") << jpy;
    QTest::newRow("JPY Arabic-Indic digits") << QStringLiteral(u"\u0661\u0662") << jpy;
    QTest::newRow("JPY NUL inside") << QString::fromLatin1("1\0"
                                                           "2",
        3) << jpy;
    QTest::newRow("unknown currency") << QStringLiteral("19.99") << QStringLiteral("XYZ");
    QTest::newRow("lower-case currency") << QStringLiteral("19.99") << QStringLiteral("cny");
    QTest::newRow("no currency") << QStringLiteral("19.99") << QString();
    // One past the largest qint64, reached through each of the three overflow paths:
    // whole digits, fraction digits, and scaling up a short fraction.
    QTest::newRow("JPY max + 1") << QStringLiteral("9223372036854775808") << jpy;
    QTest::newRow("CNY max + 0.01") << QStringLiteral("92233720368547758.08") << cny;
    QTest::newRow("CNY short fraction overflows") << QStringLiteral("92233720368547758.1") << cny;
    QTest::newRow("CNY whole overflows on scaling") << QStringLiteral("92233720368547759") << cny;
    // 2^64 would wrap to 0 in unsigned arithmetic; 2^64 + 5 to 5.
    QTest::newRow("USD 2^64 minor units") << QStringLiteral("184467440737095516.16") << usd;
    QTest::newRow("JPY 2^64 + 5") << QStringLiteral("18446744073709551621") << jpy;
    QTest::newRow("JPY far beyond") << QStringLiteral("123456789012345678901234567890") << jpy;
}

void TestMoney::parseRejects()
{
    QFETCH(QString, text);
    QFETCH(QString, currency);

    const std::optional<Money> m = Money::parse(text, currency);
    QVERIFY2(!m.has_value(),
        qPrintable(QStringLiteral("accepted as %1").arg(m ? m->minorUnits() : 0)));
}

void TestMoney::format_data()
{
    QTest::addColumn<qint64>("minorUnits");
    QTest::addColumn<QString>("currency");
    QTest::addColumn<QString>("text");

    QTest::newRow("CNY 1999") << qint64(1999) << QStringLiteral("CNY") << QStringLiteral("19.99");
    QTest::newRow("CNY 100") << qint64(100) << QStringLiteral("CNY") << QStringLiteral("1.00");
    QTest::newRow("CNY 0") << qint64(0) << QStringLiteral("CNY") << QStringLiteral("0.00");
    QTest::newRow("USD 5") << qint64(5) << QStringLiteral("USD") << QStringLiteral("0.05");
    QTest::newRow("USD 10") << qint64(10) << QStringLiteral("USD") << QStringLiteral("0.10");
    QTest::newRow("USD -5") << qint64(-5) << QStringLiteral("USD") << QStringLiteral("-0.05");
    QTest::newRow("USD -123456") << qint64(-123456) << QStringLiteral("USD") << QStringLiteral("-1234.56");
    QTest::newRow("JPY 1200") << qint64(1200) << QStringLiteral("JPY") << QStringLiteral("1200");
    QTest::newRow("JPY 0") << qint64(0) << QStringLiteral("JPY") << QStringLiteral("0");
    QTest::newRow("JPY -1200") << qint64(-1200) << QStringLiteral("JPY") << QStringLiteral("-1200");
    QTest::newRow("CNY max") << kMax << QStringLiteral("CNY") << QStringLiteral("92233720368547758.07");
    QTest::newRow("JPY max") << kMax << QStringLiteral("JPY") << QStringLiteral("9223372036854775807");
    // The magnitude of the minimum does not fit a qint64: formatting must not overflow.
    QTest::newRow("CNY min") << kMin << QStringLiteral("CNY") << QStringLiteral("-92233720368547758.08");
    QTest::newRow("JPY min") << kMin << QStringLiteral("JPY") << QStringLiteral("-9223372036854775808");
    QTest::newRow("USD min + 1") << kMin + 1 << QStringLiteral("USD") << QStringLiteral("-92233720368547758.07");
}

void TestMoney::format()
{
    QFETCH(qint64, minorUnits);
    QFETCH(QString, currency);
    QFETCH(QString, text);
    QCOMPARE(Money(minorUnits, currency).toDecimalString(), text);
}

// For people (issue 36, confusion 6): one way of writing a negative amount, the minus sign
// (U+2212) before the symbol, on the screen and on paper; "¥-4.80" read as a different thing.
void TestMoney::displayString_data()
{
    QTest::addColumn<qint64>("minorUnits");
    QTest::addColumn<QString>("currency");
    QTest::addColumn<QString>("text");

    QTest::newRow("CNY 19.99") << qint64(1999) << QStringLiteral("CNY") << QStringLiteral("¥19.99");
    QTest::newRow("CNY 0") << qint64(0) << QStringLiteral("CNY") << QStringLiteral("¥0.00");
    QTest::newRow("CNY -4.80") << qint64(-480) << QStringLiteral("CNY") << QStringLiteral("\u2212¥4.80");
    QTest::newRow("CNY -0.01") << qint64(-1) << QStringLiteral("CNY") << QStringLiteral("\u2212¥0.01");
    QTest::newRow("USD -5") << qint64(-5) << QStringLiteral("USD") << QStringLiteral("\u2212$0.05");
    QTest::newRow("JPY -1200") << qint64(-1200) << QStringLiteral("JPY") << QStringLiteral("\u2212¥1200");
    QTest::newRow("CNY min") << kMin << QStringLiteral("CNY") << QStringLiteral("\u2212¥92233720368547758.08");
}

void TestMoney::displayString()
{
    QFETCH(qint64, minorUnits);
    QFETCH(QString, currency);
    QFETCH(QString, text);
    QCOMPARE(Money(minorUnits, currency).toDisplayString(), text);
}

void TestMoney::roundTrip_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("currency");

    QTest::newRow("CNY 19.99") << QStringLiteral("19.99") << QStringLiteral("CNY");
    QTest::newRow("CNY 0.00") << QStringLiteral("0.00") << QStringLiteral("CNY");
    QTest::newRow("CNY 0.01") << QStringLiteral("0.01") << QStringLiteral("CNY");
    QTest::newRow("CNY 1000000.00") << QStringLiteral("1000000.00") << QStringLiteral("CNY");
    QTest::newRow("CNY max") << QStringLiteral("92233720368547758.07") << QStringLiteral("CNY");
    QTest::newRow("USD 0.10") << QStringLiteral("0.10") << QStringLiteral("USD");
    QTest::newRow("USD 1234.56") << QStringLiteral("1234.56") << QStringLiteral("USD");
    QTest::newRow("JPY 0") << QStringLiteral("0") << QStringLiteral("JPY");
    QTest::newRow("JPY 1200") << QStringLiteral("1200") << QStringLiteral("JPY");
    QTest::newRow("JPY max") << QStringLiteral("9223372036854775807") << QStringLiteral("JPY");
}

void TestMoney::roundTrip()
{
    QFETCH(QString, text);
    QFETCH(QString, currency);

    const std::optional<Money> parsed = Money::parse(text, currency);
    QVERIFY(parsed.has_value());
    QCOMPARE(parsed->toDecimalString(), text);

    const std::optional<Money> again = Money::parse(parsed->toDecimalString(), currency);
    QVERIFY(again.has_value());
    QCOMPARE(again->minorUnits(), parsed->minorUnits());
    QVERIFY(*again == *parsed);
}

void TestMoney::equality()
{
    const Money a(1999, QStringLiteral("CNY"));
    QVERIFY(a == Money(1999, QStringLiteral("CNY")));
    QVERIFY(!(a != Money(1999, QStringLiteral("CNY"))));
    QVERIFY(a != Money(1998, QStringLiteral("CNY")));
    // Same number of minor units in another currency is another amount.
    QVERIFY(a != Money(1999, QStringLiteral("USD")));

    QVERIFY(!Money().isValid());
    QCOMPARE(Money().minorUnits(), qint64(0));
    QVERIFY(a.isValid());
}

QTEST_GUILESS_MAIN(TestMoney)
#include "tst_money.moc"
