#include "barcode.h"
#include "code128.h"

#include <QTest>

using OncePay::Barcode;
using OncePay::Code128;
using OncePay::EmbeddedLayout;

Q_DECLARE_METATYPE(Barcode::Kind)
Q_DECLARE_METATYPE(Barcode::Check)

class TestBarcode final : public QObject
{
    Q_OBJECT

private slots:
    void checkDigits_data();
    void checkDigits();
    void embedded_data();
    void embedded();
    void layouts_data();
    void layouts();
    void code128Table();
    void code128_data();
    void code128();
    void code128RefusesMisreads();
};

void TestBarcode::checkDigits_data()
{
    QTest::addColumn<QString>("code");
    QTest::addColumn<Barcode::Kind>("kind");
    QTest::addColumn<Barcode::Check>("check");

    // Published examples (GS1, manufacturers' packs), then one digit changed or two swapped.
    QTest::newRow("EAN-13") << "4006381333931" << Barcode::Kind::Ean13 << Barcode::Check::Valid;
    QTest::newRow("EAN-13 demo tea") << "6901234500011" << Barcode::Kind::Ean13 << Barcode::Check::Valid;
    QTest::newRow("EAN-13 check 0") << "2100123004560" << Barcode::Kind::Ean13 << Barcode::Check::Valid;
    QTest::newRow("EAN-13 one digit misread") << "4006381335931" << Barcode::Kind::Ean13 << Barcode::Check::WrongCheckDigit;
    QTest::newRow("EAN-13 two digits swapped") << "4006383133931" << Barcode::Kind::Ean13 << Barcode::Check::WrongCheckDigit;
    QTest::newRow("EAN-8") << "73513537" << Barcode::Kind::Ean8 << Barcode::Check::Valid;
    QTest::newRow("EAN-8 misread") << "73513536" << Barcode::Kind::Ean8 << Barcode::Check::WrongCheckDigit;
    QTest::newRow("UPC-A") << "036000291452" << Barcode::Kind::UpcA << Barcode::Check::Valid;
    QTest::newRow("UPC-A misread") << "036000291453" << Barcode::Kind::UpcA << Barcode::Check::WrongCheckDigit;
    QTest::newRow("shop code") << "A-1001" << Barcode::Kind::Other << Barcode::Check::Valid;
    QTest::newRow("short number") << "12345" << Barcode::Kind::Other << Barcode::Check::Valid;
    QTest::newRow("13 with a letter") << "400638133393X" << Barcode::Kind::Other << Barcode::Check::Valid;
}

void TestBarcode::checkDigits()
{
    QFETCH(QString, code);
    QFETCH(Barcode::Kind, kind);
    QFETCH(Barcode::Check, check);
    QCOMPARE(Barcode::kindOf(code), kind);
    QCOMPARE(Barcode::check(code), check);
}

void TestBarcode::embedded_data()
{
    QTest::addColumn<QString>("layouts");   // separated by ';'
    QTest::addColumn<QString>("code");
    QTest::addColumn<bool>("matches");
    QTest::addColumn<QString>("item");
    QTest::addColumn<qint64>("value");
    QTest::addColumn<int>("meaning");

    const QString standard = QStringLiteral("2T IIIII VVVVV C");
    // 2 1 00123 00456 0: item 00123, value 456 (fen or grams, as the product's unit says).
    QTest::newRow("default layout") << standard << "2100123004560" << true << "00123" << qint64(456) << 0;
    QTest::newRow("type digit is any") << standard << "2700123004562" << true << "00123" << qint64(456) << 0;
    QTest::newRow("not prefix 2") << standard << "4006381333931" << false << "" << qint64(0) << 0;
    QTest::newRow("wrong check digit") << standard << "2100123004561" << false << "" << qint64(0) << 0;
    QTest::newRow("12 digits") << standard << "210012300456" << false << "" << qint64(0) << 0;
    QTest::newRow("fixed price layout") << "28 IIII P VVVVV C price"
                                        << "2801231004564" << true << "0123" << qint64(456) << 1;
    QTest::newRow("second layout fits") << "29 IIIII VVVVV C weight;2T IIIII VVVVV C"
                                        << "2100123004560" << true << "00123"
                                        << qint64(456) << 0;
    QTest::newRow("first layout wins") << "21 IIIII VVVVV C weight;2T IIIII VVVVV C"
                                       << "2100123004560" << true << "00123"
                                       << qint64(456) << 2;
}

void TestBarcode::embedded()
{
    QFETCH(QString, layouts);
    QFETCH(QString, code);
    QFETCH(bool, matches);
    QList<EmbeddedLayout> parsed;
    for (const QString &text : layouts.split(QLatin1Char(';'))) {
        const auto layout = EmbeddedLayout::parse(text);
        QVERIFY2(layout, qPrintable(text));
        parsed.append(*layout);
    }
    const auto found = OncePay::matchEmbedded(code, parsed);
    QCOMPARE(found.has_value(), matches);
    if (!matches)
        return;
    QTEST(found->itemCode, "item");
    QTEST(found->value, "value");
    QTEST(int(found->meaning), "meaning");
}

void TestBarcode::layouts_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::newRow("default") << "2T IIIII VVVVV C" << true;
    QTest::newRow("with meaning") << "2T IIIII VVVVV C weight" << true;
    QTest::newRow("12 places") << "2T IIII VVVVV C" << false;
    QTest::newRow("no value") << "2T IIIIIIIIII C" << false;
    QTest::newRow("no item") << "2T VVVVVVVVVV C" << false;
    QTest::newRow("unknown letter") << "2T IIIII VVVVX C" << false;
    QTest::newRow("empty") << "" << false;
}

void TestBarcode::layouts()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    const auto layout = EmbeddedLayout::parse(text);
    QCOMPARE(layout.has_value(), valid);
    if (valid)
        QCOMPARE(EmbeddedLayout::parse(layout->toString())->pattern, layout->pattern);
}

void TestBarcode::code128Table()
{
    // Every symbol of ISO/IEC 15417 table 1 is 11 modules wide (the stop 13), starts with a bar,
    // and no two are alike: a typing error in the table fails here.
    QSet<QByteArray> seen;
    for (int v = 0; v <= 106; ++v) {
        const QByteArray w = Code128::widths(v);
        int modules = 0;
        for (char c : w)
            modules += c - '0';
        QCOMPARE(modules, v == 106 ? 13 : 11);
        QCOMPARE(w.size(), v == 106 ? 7 : 6);
        QVERIFY2(!seen.contains(w), w.constData());
        seen.insert(w);
    }
    // Spot checks against the standard's table.
    QCOMPARE(Code128::widths(0), QByteArray("212222"));
    QCOMPARE(Code128::widths(100), QByteArray("114131"));
    QCOMPARE(Code128::widths(104), QByteArray("211214"));
    QCOMPARE(Code128::widths(106), QByteArray("2331112"));
}

void TestBarcode::code128_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<int>>("symbols");
    // Start B 104, then character - 32, the check (start + sum of position x value) mod 103, stop.
    // "PJJ123C": 104 + 48 + 2*42 + 3*42 + 4*17 + 5*18 + 6*19 + 7*35 = 879; 879 mod 103 = 55.
    QTest::newRow("PJJ123C") << "PJJ123C" << QList<int>{104, 48, 42, 42, 17, 18, 19, 35, 55, 106};
    // A sale number: "1-000123".
    QTest::newRow("sale number") << "1-000123"
                                 << QList<int>{104, 17, 13, 16, 16, 16, 17, 18, 19,
                                        (104 + 17 + 2 * 13 + 3 * 16 + 4 * 16 + 5 * 16 + 6 * 17 + 7 * 18 + 8 * 19) % 103, 106};
    // Digits only, even: code set C, two a symbol.
    QTest::newRow("digits") << "000123" << QList<int>{105, 0, 1, 23, (105 + 0 + 2 * 1 + 3 * 23) % 103, 106};
}

void TestBarcode::code128()
{
    QFETCH(QString, text);
    QFETCH(QList<int>, symbols);
    QCOMPARE(Code128::symbols(text).value_or(QList<int>()), symbols);
    const auto modules = Code128::modules(text);
    QVERIFY(modules);
    QCOMPARE(modules->size(), (symbols.size() - 1) * 11 + 13);
    QCOMPARE(Code128::decode(*modules).value_or(QString()), text);
}

void TestBarcode::code128RefusesMisreads()
{
    QVERIFY(!Code128::symbols(QString()));
    QVERIFY(!Code128::symbols(QStringLiteral("销售")));
    QByteArray modules = Code128::modules(QStringLiteral("1-000123")).value();
    // One bar read a module wider (a smudge) and one narrower elsewhere: the widths no longer
    // make a symbol, or the check no longer adds up.
    modules[30] = modules[30] == '1' ? '0' : '1';
    QVERIFY(!Code128::decode(modules));
}

QTEST_GUILESS_MAIN(TestBarcode)
#include "tst_barcode.moc"
