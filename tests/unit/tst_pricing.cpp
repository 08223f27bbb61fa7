#include "pricing.h"
#include "saleitem.h"

#include <QMap>
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

// "400x3@13-2.00": three items at 4.00 and 13 %, 2.00 off the line; "199x7@13-15%".
QList<SaleItem> parseItems(const QString &text)
{
    QList<SaleItem> out;
    for (const QString &spec : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const PricingLine priced = parseLines(spec.section(QLatin1Char('x'), 0, 0) + QLatin1Char('@') + spec.section(QLatin1Char('@'), 1)).constFirst();
        SaleItem i;
        i.product.code = QStringLiteral("p%1").arg(out.size());
        i.product.price = Money(priced.amount, QStringLiteral("CNY"));
        i.product.vatBasisPoints = priced.vatBasisPoints;
        i.quantity = spec.section(QLatin1Char('x'), 1).section(QLatin1Char('@'), 0, 0).toInt();
        i.discount = priced.discount;
        out.append(i);
    }
    return out;
}

// Gross per rate of `bands`, added to `sums`.
void addGross(QMap<int, qint64> *sums, const QList<TaxBand> &bands)
{
    for (const TaxBand &b : bands)
        (*sums)[b.vatBasisPoints] += b.gross;
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
    void itemsGivenBack_data();
    void itemsGivenBack();
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

void TestPricing::itemsGivenBack_data()
{
    QTest::addColumn<QString>("items");
    QTest::addColumn<QString>("saleDiscount");
    QTest::addColumn<TaxMode>("mode");
    // Each item's refund, one at a time, line by line ("|" between lines); empty: not spelt out.
    QTest::addColumn<QString>("refunds");

    const TaxMode in = TaxMode::Inclusive;
    const TaxMode ex = TaxMode::Exclusive;
    // Issue 35: three items for 10.00. The dialog gave the last back as 3.34, the Z report as 3.33.
    QTest::newRow("three for 10.00") << "400x3@13-2.00"
                                     << "" << in << "333,333,334";
    // 1.10 off the sale: 23 and 86 spread, the fen left to the larger line: 13.27 and 49.03.
    QTest::newRow("sale discount, uneven") << "450x3@13,4990x1@9"
                                           << "1.10" << in << "442,442,443|4903";
    QTest::newRow("line percent, seven items") << "199x7@13-15%"
                                               << "" << in << "169,169,169,169,169,169,170";
    // Without VAT in the prices: 9.99 net + 1.30 tax (129.87 half up) = 11.29.
    QTest::newRow("net prices, three") << "333x3@13"
                                       << "" << ex << "376,376,377";
    QTest::newRow("net prices, two rates and both discounts") << "450x3@13,500x6@9-10%"
                                                              << "5%" << ex << "";
    QTest::newRow("net prices, tax spread unevenly") << "101x7@6,50x2@13,999x3@0"
                                                     << "0.37" << ex << "";
    QTest::newRow("with VAT, three rates") << "101x7@6,50x2@13,999x3@9"
                                           << "0.37" << in << "";
    QTest::newRow("a line given away") << "300x2@13-100%,250x3@9"
                                       << "" << in << "0,0|250,250,250";
    QTest::newRow("many cheap items") << "1x997@13,7x13@9"
                                      << "0.05" << in << "";
}

// Giving back items by count has one rule (refundOfItems): the refunds of every item, one at a
// time or several together, add up to exactly what the line was paid, and the Z report's
// returns (pricingOfReturn, as ShiftBook reads each refund after the earlier ones) are the
// refunds, rate by rate.
void TestPricing::itemsGivenBack()
{
    QFETCH(QString, items);
    QFETCH(QString, saleDiscount);
    QFETCH(TaxMode, mode);
    QFETCH(QString, refunds);
    const QList<SaleItem> sold = parseItems(items);
    const Discount sale = saleDiscount.isEmpty() ? Discount() : *Discount::parse(saleDiscount, QStringLiteral("CNY"));
    const SalePricing pricing = priceItems(sold, sale, mode);
    const QJsonArray lines = saleLinesJson(sold, pricing, mode);
    const QList<qint64> paid = paidPerLine(lines);

    QMap<int, qint64> refundedPerRate;   // the refunds, as the dialog asks for them
    QMap<int, qint64> returnedPerRate;   // the Z report's returns
    QStringList perLine;
    qint64 paidInAll = 0;
    for (int n = 0; n < sold.size(); ++n) {
        const int quantity = sold.at(n).quantity;
        const int rate = sold.at(n).product.vatBasisPoints;
        QStringList each;
        qint64 given = 0;
        for (int before = 0; before < quantity; ++before) {
            const qint64 one = refundOfItems(paid.at(n), quantity, before, 1);
            each << QString::number(one);
            given += one;
            refundedPerRate[rate] += one;
            const SalePricing back = pricingOfReturn(lines, {{n, 1}}, {{n, before}});
            QCOMPARE(back.total, one);
            addGross(&returnedPerRate, back.bands);
        }
        QCOMPARE(given, paid.at(n));
        paidInAll += paid.at(n);
        perLine << each.join(QLatin1Char(','));
        // Any other sequence of partial returns adds up to the same: two, then the rest.
        const qint64 two = refundOfItems(paid.at(n), quantity, 0, 2);
        QCOMPARE(two + refundOfItems(paid.at(n), quantity, 2, quantity), paid.at(n));
        QCOMPARE(refundOfItems(paid.at(n), quantity, 0, quantity + 5), paid.at(n));   // never more than the line
    }
    if (!refunds.isEmpty())
        QCOMPARE(perLine.join(QLatin1Char('|')), refunds);
    QCOMPARE(paidInAll, pricing.total);
    QCOMPARE(returnedPerRate, refundedPerRate);
    // Everything given back, one item at a time: each rate gives back what the sale took in it.
    QMap<int, qint64> soldPerRate;
    addGross(&soldPerRate, pricing.bands);
    QCOMPARE(returnedPerRate, soldPerRate);
    // And all of it in one refund too.
    QHash<int, int> all;
    for (int n = 0; n < sold.size(); ++n)
        all.insert(n, sold.at(n).quantity);
    QCOMPARE(pricingOfReturn(lines, all, {}).total, pricing.total);
}

QTEST_GUILESS_MAIN(TestPricing)
#include "tst_pricing.moc"
