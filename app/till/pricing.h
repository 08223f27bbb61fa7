#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace OncePay {

// Rounds numerator / denominator half up (numerator >= 0, denominator > 0): 0.5 fen -> 1 fen.
qint64 roundHalfUp(qint64 numerator, qint64 denominator);

// A discount on a line or on the whole sale: a percent (in basis points, 1000 = 10 %) or an
// amount in minor units.
struct Discount
{
    enum class Kind {
        None,
        Percent,
        Amount,
    };
    Kind kind = Kind::None;
    qint64 value = 0;   // basis points, or minor units

    // The discount on `base` (minor units): a percent rounded half up to the fen; never more than
    // `base`, never negative.
    qint64 amountOf(qint64 base) const;
    bool isNone() const { return kind == Kind::None || value == 0; }
    // "10%" / "12.5 %" (a percent, at most two decimals, 0-100), or an amount "5.00" in the
    // currency's minor digits. nullopt when it is neither.
    static std::optional<Discount> parse(const QString &text, const QString &currency);
    friend bool operator==(const Discount &a, const Discount &b) { return a.kind == b.kind && a.value == b.value; }
};

// Whether the catalog's prices include VAT (the default in China) or have it added at the end.
enum class TaxMode {
    Inclusive,
    Exclusive,
};

// A line to price: its amount before any discount (unit price x quantity, or a weighed line's
// price), its VAT rate and its own discount.
struct PricingLine
{
    qint64 amount = 0;
    int vatBasisPoints = 0;   // 1300 = 13 %
    Discount discount = {};
};

struct PricedLine
{
    qint64 amount = 0;   // before discounts
    qint64 lineDiscount = 0;
    qint64 saleDiscount = 0;   // its share of the sale's discount
    qint64 finalAmount = 0;   // amount - both discounts: gross when prices include tax, net otherwise
    int vatBasisPoints = 0;
};

// Net, tax and gross of one VAT rate on one sale.
struct TaxBand
{
    int vatBasisPoints = 0;
    qint64 net = 0;
    qint64 tax = 0;
    qint64 gross = 0;
    friend bool operator==(const TaxBand &a, const TaxBand &b)
    {
        return a.vatBasisPoints == b.vatBasisPoints && a.net == b.net && a.tax == b.tax && a.gross == b.gross;
    }
};

// A sale priced: its lines after discounts, its tax per rate (highest rate first) and its total.
struct SalePricing
{
    QList<PricedLine> lines;
    QList<TaxBand> bands;
    qint64 subtotal = 0;   // the lines before discounts
    qint64 lineDiscounts = 0;
    qint64 saleDiscount = 0;
    qint64 tax = 0;
    qint64 total = 0;   // what the customer pays: the sum of the bands' gross
};

// The rules of issue 23, in one place (tests/unit/tst_pricing has them as tables):
// - a line's discount comes off its amount first; the sale's discount (a percent of what the
//   lines then come to, or an amount) is spread over the lines in proportion to their amount
//   after their own discount, rounded down, the fen left over going to the largest line (the
//   first of equals);
// - the tax of each rate is computed once per sale on that rate's total and rounded half up to
//   the fen: inclusive, tax = gross x r / (1 + r); exclusive, tax = net x r and gross = net + tax.
SalePricing priceSale(const QList<PricingLine> &lines, const Discount &saleDiscount, TaxMode mode);

// What each priced line cost the customer, tax included (what giving it back is worth). Prices
// with tax: its final amount. Prices without: its final amount plus its share of its rate's tax
// (computed once per rate, as above), spread in proportion to the rate's lines' final amounts,
// rounded down, the fen left over going to the rate's largest line (the first of equals); a
// rate's lines add up to its band's gross.
QList<qint64> grossPerLine(const SalePricing &pricing, TaxMode mode);

// Giving back items by count: the one rule, used by the refund dialog (the amount the journal
// keeps for the refund), the refund slip and the Z report's returns per rate. A line of
// `quantity` items that cost `linePaid` in all (tax included: grossPerLine) gives back, for
// `count` items after `before` of them came back in earlier refunds,
//     floor(linePaid x (before + count) / quantity) - floor(linePaid x before / quantity),
// the first k items back being worth floor(linePaid x k / quantity) together. So any sequence of
// partial returns adds up to exactly linePaid once every item is back, never more, and one item
// is worth linePaid / quantity rounded down or up: 3 items for 10.00 go back as 3.33, 3.33 and
// 3.34, whether one at a time or 2 + 1 (6.66 + 3.34). Counts beyond the line are cut to it.
qint64 refundOfItems(qint64 linePaid, qint64 quantity, qint64 before, qint64 count);

// One line of a refund by items: the line as it was paid and what comes back of it.
struct ItemsBack
{
    qint64 linePaid = 0;   // what the whole line cost, tax included
    qint64 quantity = 0;   // items sold
    int vatBasisPoints = 0;
    qint64 before = 0;   // given back by earlier refunds
    qint64 count = 0;   // given back by this one
};
// A refund by items priced: each line's refundOfItems, the tax computed once per rate on what
// goes back (what goes back is tax included). Lines giving nothing back are left out.
SalePricing priceReturn(const QList<ItemsBack> &lines);

// "13%" / "9%" / "6.5%" for a rate in basis points.
QString vatRateText(int basisPoints);
// A rate written as a percent ("13", "13%", "6.5"), at most two decimals, 0-100: basis points.
std::optional<int> parseVatPercent(const QString &text);

}   // namespace OncePay
