#include "catalog.h"

#include <QStringMatcher>

#include "pricing.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace OncePay {

QString saleUnitName(SaleUnit unit)
{
    return unit == SaleUnit::Kilogram ? QStringLiteral("kg") : QStringLiteral("each");
}

bool operator==(const Product &a, const Product &b)
{
    return a.code == b.code && a.nameEn == b.nameEn && a.nameZh == b.nameZh && a.price == b.price && a.barcodes == b.barcodes
        && a.vatBasisPoints == b.vatBasisPoints && a.category == b.category && a.categoryZh == b.categoryZh && a.unit == b.unit && a.quickKey == b.quickKey
        && a.openPrice == b.openPrice && a.retired == b.retired;
}

bool Catalog::load(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = tr("Cannot read %1: %2").arg(path, f.errorString());
        return false;
    }
    QString why;
    if (!loadJson(f.readAll(), &why)) {
        *error = tr("%1: %2").arg(path, why);
        return false;
    }
    return true;
}

bool Catalog::loadJson(const QByteArray &json, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (!doc.isObject()) {
        *error = tr("not a catalog: %1").arg(parseError.errorString());
        return false;
    }
    const QString currency = doc.object().value(QStringLiteral("currency")).toString(QStringLiteral("CNY"));
    if (!Money::isSupportedCurrency(currency)) {
        *error = tr("the currency %1 is not supported").arg(currency);
        return false;
    }
    QList<Product> products;
    QHash<QString, bool> codes;
    const QJsonArray array = doc.object().value(QStringLiteral("products")).toArray();
    for (const QJsonValue &v : array) {
        const QJsonObject o = v.toObject();
        Product p;
        p.code = o.value(QStringLiteral("code")).toString().trimmed();
        const QJsonValue price = o.value(QStringLiteral("price"));
        if (p.code.isEmpty() || codes.contains(p.code)) {
            *error = p.code.isEmpty() ? tr("product %1 has no code").arg(products.size() + 1)
                                      : tr("the code %1 is used twice").arg(p.code);
            return false;
        }
        if (!price.isDouble() || price.toDouble() != double(price.toInteger()) || price.toInteger() < 0) {
            *error = tr("the price of %1 must be a whole number of minor units (fen, cents)").arg(p.code);
            return false;
        }
        codes.insert(p.code, true);
        p.nameEn = o.value(QStringLiteral("name_en")).toString();
        p.nameZh = o.value(QStringLiteral("name_zh")).toString();
        p.price = Money(price.toInteger(), currency);
        const QJsonArray barcodes = o.value(QStringLiteral("barcodes")).toArray();
        for (const QJsonValue &b : barcodes)
            p.barcodes.append(b.toString());
        const QJsonValue vat = o.value(QStringLiteral("vat"));
        if (!vat.isUndefined()) {
            const std::optional<int> bp = parseVatPercent(vat.isDouble() ? QString::number(vat.toDouble()) : vat.toString());
            if (!bp) {
                *error = tr("the VAT of %1 must be a percent from 0 to 100").arg(p.code);
                return false;
            }
            p.vatBasisPoints = *bp;
        }
        p.category = o.value(QStringLiteral("category")).toString();
        p.categoryZh = o.value(QStringLiteral("category_zh")).toString();
        p.unit = o.value(QStringLiteral("unit")).toString() == QLatin1String("kg") ? SaleUnit::Kilogram : SaleUnit::Each;
        p.quickKey = o.value(QStringLiteral("quick_key")).toInt();
        p.openPrice = o.value(QStringLiteral("open_price")).toBool();
        products.append(p);
    }
    setProducts(products, currency);
    return true;
}

QByteArray Catalog::toJson(const QList<Product> &products, const QString &currency)
{
    QJsonArray array;
    for (const Product &p : products) {
        QJsonObject o{{QStringLiteral("code"), p.code}, {QStringLiteral("name_en"), p.nameEn},
            {QStringLiteral("name_zh"), p.nameZh}, {QStringLiteral("price"), p.price.minorUnits()},
            {QStringLiteral("barcodes"), QJsonArray::fromStringList(p.barcodes)},
            {QStringLiteral("vat"), p.vatBasisPoints / 100.0}, {QStringLiteral("category"), p.category},
            {QStringLiteral("unit"), saleUnitName(p.unit)}};
        if (p.quickKey > 0)
            o.insert(QStringLiteral("quick_key"), p.quickKey);
        if (p.openPrice)
            o.insert(QStringLiteral("open_price"), true);
        if (!p.categoryZh.isEmpty())
            o.insert(QStringLiteral("category_zh"), p.categoryZh);
        array.append(o);
    }
    return QJsonDocument(QJsonObject{{QStringLiteral("currency"), currency}, {QStringLiteral("products"), array}}).toJson();
}

void Catalog::setProducts(const QList<Product> &products, const QString &currency)
{
    m_currency = currency;
    m_products.clear();
    m_products.reserve(products.size());
    for (const Product &p : products) {
        if (!p.retired)
            m_products.append(p);
    }
    index();
}

QString Catalog::categoryName(const QString &category, bool simplifiedChinese) const
{
    return simplifiedChinese ? m_categoryZh.value(category, category) : category;
}

void Catalog::index()
{
    m_byCode.clear();
    m_byBarcode.clear();
    m_foldedEn.clear();
    m_categories.clear();
    m_categoryZh.clear();
    m_byCode.reserve(m_products.size());
    m_foldedEn.reserve(m_products.size());
    QHash<QString, bool> seen;
    for (int i = 0; i < m_products.size(); ++i) {
        const Product &p = m_products.at(i);
        m_byCode.insert(p.code, i);
        for (const QString &b : p.barcodes)
            m_byBarcode.insert(b, i);
        m_foldedEn.append(p.nameEn.toCaseFolded());
        if (!p.category.isEmpty() && !seen.contains(p.category)) {
            seen.insert(p.category, true);
            m_categories.append(p.category);
        }
        if (!p.category.isEmpty() && !p.categoryZh.isEmpty() && !m_categoryZh.contains(p.category))
            m_categoryZh.insert(p.category, p.categoryZh);
    }
}

const Product *Catalog::byCode(const QString &code) const
{
    const auto it = m_byCode.constFind(code);
    return it == m_byCode.cend() ? nullptr : &m_products.at(*it);
}

const Product *Catalog::byBarcode(const QString &barcode) const
{
    const auto it = m_byBarcode.constFind(barcode);
    return it == m_byBarcode.cend() ? nullptr : &m_products.at(*it);
}

QList<const Product *> Catalog::matches(const QString &codeOrName) const
{
    const QString text = codeOrName.trimmed();
    if (text.isEmpty())
        return {};
    if (const Product *p = byCode(text))
        return {p};
    if (const Product *p = byBarcode(text))
        return {p};
    // One pass: an exact name wins (it is the one meant); otherwise every word-start or Chinese
    // part match, in catalog order. The matchers are built once per search, not once per name.
    const QString folded = text.toCaseFolded();
    const QStringMatcher english(folded);
    const QStringMatcher chinese(text);
    QList<const Product *> out;
    for (int i = 0; i < m_products.size(); ++i) {
        const QString &name = m_foldedEn.at(i);
        const Product &product = m_products.at(i);
        if (name == folded || product.nameZh == text)
            return {&product};
        // A word of the English name starts with the text (the name itself is its first word).
        bool hit = false;
        for (qsizetype at = english.indexIn(name); at >= 0 && !hit; at = english.indexIn(name, at + 1))
            hit = at == 0 || name.at(at - 1) == QLatin1Char(' ');
        if (hit || chinese.indexIn(product.nameZh) >= 0)
            out.append(&product);
    }
    return out;
}

const Product *Catalog::find(const QString &codeOrName) const
{
    const QList<const Product *> found = matches(codeOrName);
    return found.size() == 1 ? found.first() : nullptr;
}

QList<const Product *> Catalog::quickKeyProducts() const
{
    QList<const Product *> out;
    for (const Product &p : m_products) {
        if (p.quickKey > 0)
            out.append(&p);
    }
    std::stable_sort(out.begin(), out.end(), [](const Product *a, const Product *b) {
        return a->quickKey < b->quickKey;
    });
    return out;
}

}   // namespace OncePay
