#include "pricing.h"

#include "money.h"

#include <QMap>

#include <algorithm>

namespace OncePay {

qint64 roundHalfUp(qint64 numerator, qint64 denominator)
{
    Q_ASSERT(numerator >= 0 && denominator > 0);
    return (numerator / denominator) + ((numerator % denominator) * 2 >= denominator ? 1 : 0);
}

qint64 Discount::amountOf(qint64 base) const
{
    if (base <= 0)
        return 0;
    qint64 off = 0;
    if (kind == Kind::Percent)
        off = roundHalfUp(base * qBound(qint64(0), value, qint64(10000)), 10'000);
    else if (kind == Kind::Amount)
        off = value;
    return qBound<qint64>(0, off, base);
}

namespace {

// "12.5" -> 1250 (hundredths), at most two decimals, no sign.
std::optional<qint64> parseHundredths(QStringView text)
{
    const std::optional<Money> m = Money::parse(text, QStringLiteral("CNY"));   // two decimals, no sign
    if (!m)
        return std::nullopt;
    return m->minorUnits();
}

}   // namespace

std::optional<Discount> Discount::parse(const QString &text, const QString &currency)
{
    QString t = text.trimmed();
    if (t.endsWith(QLatin1Char('%')) || t.endsWith(QChar(0xFF05))) {   // % or the full-width ％
        t.chop(1);
        const std::optional<qint64> bp = parseHundredths(QStringView(t).trimmed());
        if (!bp || *bp > 10'000)
            return std::nullopt;
        return Discount{Kind::Percent, *bp};
    }
    const std::optional<Money> m = Money::parse(t, currency);
    if (!m)
        return std::nullopt;
    return Discount{Kind::Amount, m->minorUnits()};
}

SalePricing priceSale(const QList<PricingLine> &lines, const Discount &saleDiscount, TaxMode mode)
{
    SalePricing out;
    qint64 afterLines = 0;
    for (const PricingLine &l : lines) {
        PricedLine p;
        p.amount = qMax<qint64>(0, l.amount);
        p.vatBasisPoints = l.vatBasisPoints;
        p.lineDiscount = l.discount.amountOf(p.amount);
        p.finalAmount = p.amount - p.lineDiscount;
        out.subtotal += p.amount;
        out.lineDiscounts += p.lineDiscount;
        afterLines += p.finalAmount;
        out.lines.append(p);
    }

    out.saleDiscount = saleDiscount.amountOf(afterLines);
    if (out.saleDiscount > 0) {
        qint64 spread = 0;
        int largest = -1;
        for (int i = 0; i < out.lines.size(); ++i) {
            PricedLine &p = out.lines[i];
            // In proportion, rounded down (in 128 bits: a cart of any size cannot overflow it).
            p.saleDiscount = qint64(static_cast<__int128>(p.finalAmount) * out.saleDiscount / afterLines);
            spread += p.saleDiscount;
            if (largest < 0 || p.finalAmount > out.lines.at(largest).finalAmount)
                largest = i;
        }
        out.lines[largest].saleDiscount += out.saleDiscount - spread;
        for (PricedLine &p : out.lines)
            p.finalAmount -= p.saleDiscount;
    }

    QMap<int, qint64> byRate;   // rate -> its lines' final amounts
    for (const PricedLine &p : std::as_const(out.lines))
        byRate[p.vatBasisPoints] += p.finalAmount;
    for (auto it = byRate.cbegin(); it != byRate.cend(); ++it) {
        TaxBand band;
        band.vatBasisPoints = it.key();
        const qint64 r = qMax(0, it.key());
        if (mode == TaxMode::Inclusive) {
            band.gross = it.value();
            band.tax = roundHalfUp(band.gross * r, 10'000 + r);
            band.net = band.gross - band.tax;
        } else {
            band.net = it.value();
            band.tax = roundHalfUp(band.net * r, 10'000);
            band.gross = band.net + band.tax;
        }
        out.tax += band.tax;
        out.total += band.gross;
        out.bands.prepend(band);   // highest rate first
    }
    return out;
}

QList<qint64> grossPerLine(const SalePricing &pricing, TaxMode mode)
{
    QList<qint64> out;
    out.reserve(pricing.lines.size());
    for (const PricedLine &p : pricing.lines)
        out.append(p.finalAmount);
    if (mode == TaxMode::Inclusive)
        return out;
    for (const TaxBand &band : pricing.bands) {
        qint64 spread = 0;
        int largest = -1;
        for (int i = 0; i < pricing.lines.size(); ++i) {
            const PricedLine &p = pricing.lines.at(i);
            if (p.vatBasisPoints != band.vatBasisPoints)
                continue;
            const qint64 share = band.net > 0 ? qint64(static_cast<__int128>(p.finalAmount) * band.tax / band.net) : 0;
            out[i] += share;
            spread += share;
            if (largest < 0 || p.finalAmount > pricing.lines.at(largest).finalAmount)
                largest = i;
        }
        if (largest >= 0)
            out[largest] += band.tax - spread;
    }
    return out;
}

qint64 refundOfItems(qint64 linePaid, qint64 quantity, qint64 before, qint64 count)
{
    if (quantity <= 0 || linePaid <= 0)
        return 0;
    const qint64 from = qBound<qint64>(0, before, quantity);
    const qint64 to = qBound<qint64>(from, from + qMax<qint64>(0, count), quantity);
    // In 128 bits: a line of any price and count cannot overflow it.
    auto firstItems = [&](qint64 k) {
        return qint64(static_cast<__int128>(linePaid) * k / quantity);
    };
    return firstItems(to) - firstItems(from);
}

SalePricing priceReturn(const QList<ItemsBack> &lines)
{
    QList<PricingLine> back;
    for (const ItemsBack &l : lines) {
        if (l.count > 0)
            back.append({refundOfItems(l.linePaid, l.quantity, l.before, l.count), l.vatBasisPoints, {}});
    }
    return priceSale(back, {}, TaxMode::Inclusive);
}

QString vatRateText(int basisPoints)
{
    QString digits = Money(basisPoints, QStringLiteral("CNY")).toDecimalString();
    if (digits.endsWith(QLatin1String(".00")))
        digits.chop(3);
    else if (digits.endsWith(QLatin1Char('0')))
        digits.chop(1);
    return digits + QLatin1Char('%');
}

std::optional<int> parseVatPercent(const QString &text)
{
    QString t = text.trimmed();
    if (t.endsWith(QLatin1Char('%')))
        t.chop(1);
    const std::optional<qint64> bp = parseHundredths(QStringView(t).trimmed());
    if (!bp || *bp > 10'000)
        return std::nullopt;
    return int(*bp);
}

}   // namespace OncePay
