#include "parkedsale.h"

#include <QJsonArray>

namespace OncePay {

namespace {

QString discountKindName(Discount::Kind kind)
{
    switch (kind) {
    case Discount::Kind::Percent:
        return QStringLiteral("percent");
    case Discount::Kind::Amount:
        return QStringLiteral("amount");
    case Discount::Kind::None:
        break;
    }
    return QStringLiteral("none");
}

Discount discountFrom(const QJsonValue &v)
{
    const QJsonObject o = v.toObject();
    const QString kind = o.value(QStringLiteral("kind")).toString();
    Discount d;
    d.value = o.value(QStringLiteral("value")).toInteger();
    d.kind = kind == QLatin1String("percent") ? Discount::Kind::Percent
        : kind == QLatin1String("amount")     ? Discount::Kind::Amount
                                              : Discount::Kind::None;
    return d;
}

QJsonObject discountJson(const Discount &d)
{
    return {{QStringLiteral("kind"), discountKindName(d.kind)}, {QStringLiteral("value"), d.value}};
}

}   // namespace

QString parkedStateName(ParkedState state)
{
    switch (state) {
    case ParkedState::Parked:
        return QStringLiteral("parked");
    case ParkedState::Recalled:
        return QStringLiteral("recalled");
    case ParkedState::Deleted:
        return QStringLiteral("deleted");
    }
    return {};
}

std::optional<ParkedState> parkedStateFromName(const QString &name)
{
    for (ParkedState s : {ParkedState::Parked, ParkedState::Recalled, ParkedState::Deleted}) {
        if (parkedStateName(s) == name)
            return s;
    }
    return std::nullopt;
}

QString parkedNumber(qint64 id)
{
    return QStringLiteral("P%1").arg(id);
}

QJsonObject ParkedCart::toJson() const
{
    QJsonArray lines;
    for (const SaleItem &i : items) {
        QJsonObject o{{QStringLiteral("code"), i.product.code}, {QStringLiteral("name"), i.product.nameEn},
            {QStringLiteral("name_zh"), i.product.nameZh}, {QStringLiteral("price"), i.product.price.minorUnits()},
            {QStringLiteral("vat"), i.product.vatBasisPoints}, {QStringLiteral("unit"), saleUnitName(i.product.unit)},
            {QStringLiteral("category"), i.product.category}, {QStringLiteral("open_price"), i.product.openPrice},
            {QStringLiteral("quantity"), i.quantity}, {QStringLiteral("discount"), discountJson(i.discount)}};
        if (i.grams > 0)
            o.insert(QStringLiteral("grams"), i.grams);
        if (i.fixedAmount)
            o.insert(QStringLiteral("fixed_amount"), *i.fixedAmount);
        lines.append(o);
    }
    return {{QStringLiteral("lines"), lines}, {QStringLiteral("sale_discount"), discountJson(saleDiscount)},
        {QStringLiteral("net_prices"), taxMode == TaxMode::Exclusive}};
}

ParkedCart ParkedCart::fromJson(const QJsonObject &object, const QString &currency)
{
    ParkedCart c;
    const QJsonArray lines = object.value(QStringLiteral("lines")).toArray();
    for (const QJsonValue &v : lines) {
        const QJsonObject o = v.toObject();
        SaleItem i;
        i.product.code = o.value(QStringLiteral("code")).toString();
        i.product.nameEn = o.value(QStringLiteral("name")).toString();
        i.product.nameZh = o.value(QStringLiteral("name_zh")).toString();
        i.product.price = Money(o.value(QStringLiteral("price")).toInteger(), currency);
        i.product.vatBasisPoints = o.value(QStringLiteral("vat")).toInt();
        i.product.unit = o.value(QStringLiteral("unit")).toString() == QLatin1String("kg") ? SaleUnit::Kilogram : SaleUnit::Each;
        i.product.category = o.value(QStringLiteral("category")).toString();
        i.product.openPrice = o.value(QStringLiteral("open_price")).toBool();
        i.quantity = qMax(1, o.value(QStringLiteral("quantity")).toInt());
        i.grams = o.value(QStringLiteral("grams")).toInteger();
        if (o.contains(QStringLiteral("fixed_amount")))
            i.fixedAmount = o.value(QStringLiteral("fixed_amount")).toInteger();
        i.discount = discountFrom(o.value(QStringLiteral("discount")));
        c.items.append(i);
    }
    c.saleDiscount = discountFrom(object.value(QStringLiteral("sale_discount")));
    c.taxMode = object.value(QStringLiteral("net_prices")).toBool() ? TaxMode::Exclusive : TaxMode::Inclusive;
    return c;
}

}   // namespace OncePay
