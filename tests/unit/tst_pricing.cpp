#include "pricing.h"

#include <QTest>

using namespace OncePay;

namespace {

// "450@13" a line of 4.50 at 13 %; "999@13-10%" with its own 10 % off; "500@9-1.00" with 1.00 off.
QList<PricingLine> parseLines(const QString &text)
{
    QList<PricingLine> out;
    for (const QString &item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        PricingLine l;
        const QString amountAndRate = item.section(QLatin1Char('-'), 0, 0);
        l.amount = amountAndRate.section(QLatin1Char('@'), 0, 0).toLongLong();
        l.vatBasisPoints = *parseVatPercent(amountAndRate.section(QLatin1Char('@'), 1));
        if (item.contains(QLatin1Char('-')))
            l.discount = *Discount::parse(item.section(QLatin1Char('-'), 1), QStringLiteral("CNY"));
        out.append(l);
    }
    return out;
}

// "13:850/110/960" per band, highest rate first, separated by spaces.
QString bandsText(const QList<TaxBand> &bands)
{
    QStringList out;
    for (const TaxBand &b : bands)
        out << QStringLiteral("%1:%2/%3/%4").arg(vatRateText(b.vatBasisPoints).chopped(1)).arg(b.net).arg(b.tax).arg(b.gross);
    return out.join(QLatin1Char(' '));
}

QString finalsText(const SalePricing &p)
{
    QStringList out;
    for (const PricedLine &l : p.lines)
        out << QString::number(l.finalAmount);
    return out.join(QLatin1Char(','));
}

}   // namespace

Q_DECLARE_METATYPE(TaxMode)

class TestPricing final : public QObject
{
    Q_OBJECT

private slots:
    void roundsHalfUp();
    void taxes_data();
    void taxes();
    void discounts_data();
    void discounts();
    void grossPerLine_data();
    void grossPerLine();
    void parseDiscount_data();
    void parseDiscount();
};

void TestPricing::roundsHalfUp()
{
    QCOMPARE(roundHalfUp(5, 10), 1);
    QCOMPARE(roundHalfUp(4, 10), 0);
    QCOMPARE(roundHalfUp(15, 10), 2);
    QCOMPARE(roundHalfUp(14, 10), 1);
    QCOMPARE(roundHalfUp(0, 7), 0);
    QCOMPARE(roundHalfUp(650, 100), 7);
}

void TestPricing::taxes_data()
{
    QTest::addColumn<QString>("lines");
    QTest::addColumn<TaxMode>("mode");
    QTest::addColumn<QString>("bands");
    QTest::addColumn<qint64>("total");

    const TaxMode in = TaxMode::Inclusive;
    const TaxMode ex = TaxMode::Exclusive;
    // Inclusive: tax = gross x r / (1 + r), once per rate, half up to the fen.
    QTest::newRow("one line 13%") << "10000@13" << in << "13:8850/1150/10000" << qint64(10000);   // 1150.44
    // Per line it would be 51.77 + 57.52 -> 52 + 58 = 110; once on the rate's 9.50 it is 109.29 -> 109.
    QTest::newRow("once per rate, not per line") << "450@13,500@13" << in << "13:841/109/950" << qint64(950);
    QTest::newRow("two rates") << "1000@13,4990@9" << in << "13:885/115/1000 9:4578/412/4990" << qint64(5990);
    QTest::newRow("four rates") << "100@13,100@9,100@6,100@0" << in
                                << "13:88/12/100 9:92/8/100 6:94/6/100 0:100/0/100" << qint64(400);
    QTest::newRow("zero rate") << "250@0" << in << "0:250/0/250" << qint64(250);
    // Exclusive: tax = net x r, half up; the customer pays net + tax.
    QTest::newRow("exclusive half up 13%") << "50@13" << ex << "13:50/7/57" << qint64(57);   // 6.5 -> 7
    QTest::newRow("exclusive half up 9%") << "50@9" << ex << "9:50/5/55" << qint64(55);   // 4.5 -> 5
    QTest::newRow("exclusive below half") << "30@13" << ex << "13:30/4/34" << qint64(34);   // 3.9 -> 4
    QTest::newRow("exclusive two rates") << "1000@13,1000@6" << ex << "13:1000/130/1130 6:1000/60/1060" << qint64(2190);
    QTest::newRow("empty sale") << "" << in << "" << qint64(0);
}

void TestPricing::taxes()
{
    QFETCH(QString, lines);
    QFETCH(TaxMode, mode);
    const SalePricing p = priceSale(parseLines(lines), {}, mode);
    QTEST(bandsText(p.bands), "bands");
    QTEST(p.total, "total");
    qint64 tax = 0;
    for (const TaxBand &b : p.bands) {
        QCOMPARE(b.net + b.tax, b.gross);
        tax += b.tax;
    }
    QCOMPARE(p.tax, tax);
}

void TestPricing::discounts_data()
{
    QTest::addColumn<QString>("lines");
    QTest::addColumn<QString>("saleDiscount");
    QTest::addColumn<QString>("finals");   // each line after both discounts
    QTest::addColumn<qint64>("lineDiscounts");
    QTest::addColumn<qint64>("saleOff");
    QTest::addColumn<QString>("bands");

    QTest::newRow("none") << "300@13,700@13"
                          << ""
                          << "300,700" << qint64(0) << qint64(0) << "13:885/115/1000";
    QTest::newRow("spread exactly") << "300@13,700@13"
                                    << "1.00"
                                    << "270,630" << qint64(0) << qint64(100) << "13:796/104/900";
    // 33 + 33 + 33 = 99: the fen left goes to the largest line, the first of equals.
    QTest::newRow("fen left to the largest") << "100@13,100@13,100@13"
                                             << "1.00"
                                             << "66,67,67" << qint64(0) << qint64(100)
                                             << "13:177/23/200";
    // 1.66 -> 1, 3.33 -> 3, 5 -> 5: 9 spread, 1 left to the largest (303).
    QTest::newRow("three rates") << "101@13,202@9,303@6"
                                 << "0.10"
                                 << "100,199,297" << qint64(0) << qint64(10)
                                 << "13:88/12/100 9:183/16/199 6:280/17/297";
    QTest::newRow("percent of the sale") << "200@13,100@13"
                                         << "10%"
                                         << "180,90" << qint64(0) << qint64(30) << "13:239/31/270";
    // 10 % of 9.99 is 0.999 -> 1.00 off.
    QTest::newRow("line percent half up") << "999@13-10%"
                                          << ""
                                          << "899" << qint64(100) << qint64(0) << "13:796/103/899";
    QTest::newRow("line amount") << "500@9-1.00,500@9"
                                 << ""
                                 << "400,500" << qint64(100) << qint64(0) << "9:826/74/900";
    // The sale's discount is spread over what the lines come to after their own.
    QTest::newRow("line then sale") << "1000@13-50%,500@13"
                                    << "1.00"
                                    << "450,450" << qint64(500) << qint64(100)
                                    << "13:796/104/900";
    QTest::newRow("never below zero") << "300@13-5.00"
                                      << "2.00"
                                      << "0" << qint64(300) << qint64(0) << "13:0/0/0";
    QTest::newRow("sale discount capped") << "300@13"
                                          << "9.00"
                                          << "0" << qint64(0) << qint64(300) << "13:0/0/0";
    QTest::newRow("100 percent") << "300@13,200@9"
                                 << "100%"
                                 << "0,0" << qint64(0) << qint64(500) << "13:0/0/0 9:0/0/0";
}

void TestPricing::discounts()
{
    QFETCH(QString, lines);
    QFETCH(QString, saleDiscount);
    const Discount sale = saleDiscount.isEmpty() ? Discount() : *Discount::parse(saleDiscount, QStringLiteral("CNY"));
    const SalePricing p = priceSale(parseLines(lines), sale, TaxMode::Inclusive);
    QTEST(finalsText(p), "finals");
    QTEST(p.lineDiscounts, "lineDiscounts");
    QTEST(p.saleDiscount, "saleOff");
    QTEST(bandsText(p.bands), "bands");
    qint64 spread = 0;
    qint64 finals = 0;
    for (const PricedLine &l : p.lines) {
        spread += l.saleDiscount;
        finals += l.finalAmount;
        QVERIFY(l.finalAmount >= 0);
    }
    QCOMPARE(spread, p.saleDiscount);
    QCOMPARE(finals, p.total);
    QCOMPARE(p.subtotal - p.lineDiscounts - p.saleDiscount, p.total);
}

void TestPricing::grossPerLine_data()
{
    QTest::addColumn<QString>("lines");
    QTest::addColumn<TaxMode>("mode");
    QTest::addColumn<QString>("gross");

    const TaxMode in = TaxMode::Inclusive;
    const TaxMode ex = TaxMode::Exclusive;
    // With tax in the prices, a line cost what it came to.
    QTest::newRow("inclusive") << "450@13,500@13-1.00" << in << "450,400";
    // Without: its net plus its share of its rate's tax, the rate's tax computed once.
    QTest::newRow("exclusive one line") << "1000@13" << ex << "1130";
    QTest::newRow("exclusive two rates") << "1000@13,1000@6" << ex << "1130,1060";
    // 9.50 net at 13 %: 123.5 -> 124 fen of tax; 58.73 + 65.26 rounded down leave 1 fen, on the larger.
    QTest::newRow("exclusive remainder on the largest") << "450@13,500@13" << ex << "508,566";
    QTest::newRow("exclusive first of equals") << "50@13,50@13" << ex << "57,56";   // 13 fen: 6 + 6 + 1
    QTest::newRow("exclusive evenly") << "100@13,100@13,100@13" << ex << "113,113,113";
    QTest::newRow("exclusive zero rate beside") << "100@0,50@13" << ex << "100,57";
    QTest::newRow("exclusive after a line discount") << "1000@13-10%" << ex << "1017";
    QTest::newRow("exclusive empty") << "" << ex << "";
}

void TestPricing::grossPerLine()
{
    QFETCH(QString, lines);
    QFETCH(TaxMode, mode);
    const SalePricing p = priceSale(parseLines(lines), {}, mode);
    const QList<qint64> gross = OncePay::grossPerLine(p, mode);
    QStringList text;
    for (qint64 g : gross)
        text << QString::number(g);
    QTEST(text.join(QLatin1Char(',')), "gross");
    // Every rate's lines add up to its band's gross: giving all back gives back what was paid.
    for (const TaxBand &b : p.bands) {
        qint64 sum = 0;
        for (int i = 0; i < p.lines.size(); ++i)
            sum += p.lines.at(i).vatBasisPoints == b.vatBasisPoints ? gross.at(i) : 0;
        QCOMPARE(sum, b.gross);
    }
}

void TestPricing::parseDiscount_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<int>("kind");
    QTest::addColumn<qint64>("value");
    QTest::newRow("percent") << "10%" << true << int(Discount::Kind::Percent) << qint64(1000);
    QTest::newRow("percent with space") << "12.5 %" << true << int(Discount::Kind::Percent) << qint64(1250);
    QTest::newRow("full-width percent") << QStringLiteral("5％") << true << int(Discount::Kind::Percent) << qint64(500);
    QTest::newRow("amount") << "5.00" << true << int(Discount::Kind::Amount) << qint64(500);
    QTest::newRow("amount whole") << "3" << true << int(Discount::Kind::Amount) << qint64(300);
    QTest::newRow("over 100 percent") << "101%" << false << 0 << qint64(0);
    QTest::newRow("negative") << "-5" << false << 0 << qint64(0);
    QTest::newRow("three decimals") << "1.005" << false << 0 << qint64(0);
    QTest::newRow("words") << "half" << false << 0 << qint64(0);
}

void TestPricing::parseDiscount()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    const auto d = Discount::parse(text, QStringLiteral("CNY"));
    QCOMPARE(d.has_value(), valid);
    if (valid) {
        QTEST(int(d->kind), "kind");
        QTEST(d->value, "value");
    }
}

QTEST_GUILESS_MAIN(TestPricing)
#include "tst_pricing.moc"
