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

// "13%" / "9%" / "6.5%" for a rate in basis points.
QString vatRateText(int basisPoints);
// A rate written as a percent ("13", "13%", "6.5"), at most two decimals, 0-100: basis points.
std::optional<int> parseVatPercent(const QString &text);

}   // namespace OncePay
