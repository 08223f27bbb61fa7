#include "saleitem.h"

#include <QJsonObject>

namespace OncePay {

qint64 SaleItem::amount() const
{
    if (fixedAmount)
        return *fixedAmount;
    if (grams > 0)
        return roundHalfUp(product.price.minorUnits() * grams, 1000);
    return product.price.minorUnits() * quantity;
}

ScanMatch matchScan(const Catalog &catalog, const QString &text, const QList<EmbeddedLayout> &layouts)
{
    ScanMatch m;
    const QString t = text.trimmed();
    const QList<const Product *> found = catalog.matches(t);
    if (found.size() == 1) {
        m.item.product = *found.first();
        m.kind = m.item.product.openPrice ? ScanMatch::Kind::NeedsPrice : ScanMatch::Kind::Product;
        return m;
    }
    if (found.size() > 1) {
        m.kind = ScanMatch::Kind::Several;
        m.candidates = found;
        return m;
    }
    if (Barcode::kindOf(t) != Barcode::Kind::Other && Barcode::check(t) == Barcode::Check::WrongCheckDigit) {
        m.kind = ScanMatch::Kind::WrongCheckDigit;
        m.code = t;
        return m;
    }
    if (const std::optional<EmbeddedCode> e = matchEmbedded(t, layouts)) {
        const Product *p = catalog.byCode(e->itemCode);
        if (!p) {
            // "00123" is also product 123.
            QString trimmed = e->itemCode;
            while (trimmed.size() > 1 && trimmed.startsWith(QLatin1Char('0')))
                trimmed.remove(0, 1);
            p = catalog.byCode(trimmed);
        }
        if (!p) {
            m.kind = ScanMatch::Kind::EmbeddedNotFound;
            m.code = e->itemCode;
            return m;
        }
        m.kind = ScanMatch::Kind::Product;
        m.item.product = *p;
        const bool weight = e->meaning == EmbeddedLayout::Value::Weight
            || (e->meaning == EmbeddedLayout::Value::ByUnit && p->unit == SaleUnit::Kilogram);
        if (weight && e->value > 0)
            m.item.grams = e->value;
        else
            m.item.fixedAmount = e->value;
        return m;
    }
    return m;
}

std::optional<qint64> parseKilograms(const QString &text)
{
    const QString t = text.trimmed();
    const qsizetype dot = t.indexOf(QLatin1Char('.'));
    const QString whole = dot < 0 ? t : t.left(dot);
    QString fraction = dot < 0 ? QString() : t.mid(dot + 1);
    if (whole.isEmpty() || whole.size() > 5 || !Barcode::isAllDigits(whole) || fraction.size() > 3
        || (!fraction.isEmpty() && !Barcode::isAllDigits(fraction)) || (dot >= 0 && fraction.isEmpty()))
        return std::nullopt;
    while (fraction.size() < 3)
        fraction += QLatin1Char('0');
    const qint64 grams = whole.toLongLong() * 1000 + fraction.toLongLong();
    if (grams < 1 || grams > 10'000'000)
        return std::nullopt;
    return grams;
}

SalePricing priceItems(const QList<SaleItem> &items, const Discount &saleDiscount, TaxMode mode)
{
    QList<PricingLine> lines;
    lines.reserve(items.size());
    for (const SaleItem &i : items)
        lines.append({i.amount(), i.product.vatBasisPoints, i.discount});
    return priceSale(lines, saleDiscount, mode);
}

QJsonArray saleLinesJson(const QList<SaleItem> &items, const SalePricing &pricing, TaxMode mode)
{
    QJsonArray out;
    for (qsizetype n = 0; n < items.size(); ++n) {
        const SaleItem &i = items.at(n);
        const PricedLine &p = pricing.lines.at(n);
        const bool single = i.isWeighed() || i.fixedAmount;
        QJsonObject o{{QStringLiteral("code"), i.product.code}, {QStringLiteral("name"), i.product.nameEn},
            {QStringLiteral("name_zh"), i.product.nameZh},
            {QStringLiteral("unit_price"), single ? i.amount() : i.product.price.minorUnits()},
            {QStringLiteral("quantity"), single ? 1 : i.quantity}, {QStringLiteral("total"), p.amount},
            {QStringLiteral("vat"), p.vatBasisPoints}, {QStringLiteral("unit"), saleUnitName(i.product.unit)},
            {QStringLiteral("amount"), p.finalAmount}};
        if (!i.product.category.isEmpty())   // the office's reports group by it (issue 38)
            o.insert(QStringLiteral("category"), i.product.category);
        if (p.lineDiscount > 0)
            o.insert(QStringLiteral("discount"), p.lineDiscount);
        if (p.saleDiscount > 0)
            o.insert(QStringLiteral("sale_discount"), p.saleDiscount);
        if (i.isWeighed()) {
            o.insert(QStringLiteral("weight_g"), i.grams);
            o.insert(QStringLiteral("price_per_kg"), i.product.price.minorUnits());
        }
        if (mode == TaxMode::Exclusive)
            o.insert(QStringLiteral("net_prices"), true);
        out.append(o);
    }
    return out;
}

QList<SaleItem> saleItemsFromJson(const QJsonArray &lines, const QString &currency, TaxMode *mode)
{
    QList<SaleItem> out;
    *mode = TaxMode::Inclusive;
    for (const QJsonValue &v : lines) {
        const QJsonObject o = v.toObject();
        SaleItem i;
        i.product.code = o.value(QStringLiteral("code")).toString();
        i.product.nameEn = o.value(QStringLiteral("name")).toString();
        i.product.nameZh = o.value(QStringLiteral("name_zh")).toString();
        // Read back as written (saleLinesJson): a restored cart's lines are the stored ones.
        i.product.category = o.value(QStringLiteral("category")).toString();
        i.product.vatBasisPoints = o.value(QStringLiteral("vat")).toInt();
        i.product.unit = o.value(QStringLiteral("unit")).toString() == QLatin1String("kg") ? SaleUnit::Kilogram : SaleUnit::Each;
        const qint64 unitPrice = qint64(o.value(QStringLiteral("unit_price")).toDouble());
        if (o.contains(QStringLiteral("weight_g"))) {
            i.grams = o.value(QStringLiteral("weight_g")).toInteger();
            i.product.price = Money(o.value(QStringLiteral("price_per_kg")).toInteger(), currency);
        } else {
            i.product.price = Money(unitPrice, currency);
            i.quantity = qMax(1, o.value(QStringLiteral("quantity")).toInt());
        }
        if (const qint64 off = o.value(QStringLiteral("discount")).toInteger(); off > 0)
            i.discount = Discount{Discount::Kind::Amount, off};
        if (o.value(QStringLiteral("net_prices")).toBool())
            *mode = TaxMode::Exclusive;
        out.append(i);
    }
    return out;
}

SalePricing pricingOfLines(const QJsonArray &lines)
{
    QList<PricingLine> priced;
    TaxMode mode = TaxMode::Inclusive;
    qint64 subtotal = 0;
    qint64 lineDiscounts = 0;
    qint64 saleDiscount = 0;
    for (const QJsonValue &v : lines) {
        const QJsonObject o = v.toObject();
        // Lines kept before tax was recorded have no "amount": their total, at no rate.
        const qint64 total = o.value(QStringLiteral("total")).toInteger(qint64(o.value(QStringLiteral("unit_price")).toDouble() * o.value(QStringLiteral("quantity")).toDouble()));
        const qint64 amount = o.value(QStringLiteral("amount")).toInteger(total);
        priced.append({amount, o.value(QStringLiteral("vat")).toInt(), {}});
        subtotal += total;
        lineDiscounts += o.value(QStringLiteral("discount")).toInteger();
        saleDiscount += o.value(QStringLiteral("sale_discount")).toInteger();
        if (o.value(QStringLiteral("net_prices")).toBool())
            mode = TaxMode::Exclusive;
    }
    SalePricing p = priceSale(priced, {}, mode);
    p.subtotal = subtotal;
    p.lineDiscounts = lineDiscounts;
    p.saleDiscount = saleDiscount;
    return p;
}

SalePricing pricingOfReturn(const QJsonArray &lines, const QHash<int, int> &quantities, const QHash<int, int> &before)
{
    const QList<qint64> paid = paidPerLine(lines);
    QList<ItemsBack> back;
    for (qsizetype n = 0; n < lines.size(); ++n) {
        const QJsonObject o = lines.at(n).toObject();
        back.append({paid.at(n), o.value(QStringLiteral("quantity")).toInteger(), o.value(QStringLiteral("vat")).toInt(),
            before.value(int(n)), quantities.value(int(n))});
    }
    return priceReturn(back);
}

QList<qint64> paidPerLine(const QJsonArray &lines)
{
    bool netPrices = false;
    for (const QJsonValue &v : lines)
        netPrices = netPrices || v.toObject().value(QStringLiteral("net_prices")).toBool();
    // Lines kept before discounts (no "amount") are priced at their total, at no discount.
    return grossPerLine(pricingOfLines(lines), netPrices ? TaxMode::Exclusive : TaxMode::Inclusive);
}

}   // namespace OncePay
