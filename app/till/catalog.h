#pragma once

#include "money.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace OncePay {

enum class SaleUnit {
    Each,
    Kilogram,   // sold by weight: the price is per kg, the line's weight comes from a scale's label
};
QString saleUnitName(SaleUnit unit);   // "each", "kg" as in the CSV and the JSON

struct Product
{
    QString code;   // the shop's own code, unique (what `catalog show CODE` takes)
    QString nameEn;
    QString nameZh;
    Money price;   // per item, or per kg; as the catalog's tax mode says (with VAT by default)
    QStringList barcodes = {};   // EAN-13, EAN-8, UPC-A or the shop's own; any of them finds it
    int vatBasisPoints = 0;   // 1300 = 13 %
    QString category = {};
    // Issue 36: the category's Chinese name, as a product has one (the CSV's category_zh); the
    // category itself stays `category`, which groups the products whatever the language.
    QString categoryZh = {};
    SaleUnit unit = SaleUnit::Each;
    int quickKey = 0;   // its place on the product grid (1 first); 0: none
    bool openPrice = false;   // the cashier types the price
    bool retired = false;   // kept for the editor and history; never sold

    QString name(bool simplifiedChinese) const
    {
        return simplifiedChinese && !nameZh.isEmpty() ? nameZh : nameEn;
    }
    friend bool operator==(const Product &a, const Product &b);
};

// The products a till sells, in memory, indexed: by code and barcode in constant time, by name
// with every name folded once. Built from the till's catalog store, or from a JSON file (the demo
// catalog is a resource of oncepay-pos and oncepay-ctl: both sell from the same one until a
// shop imports its own). Retired products are not in it.
class Catalog final
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::Catalog)

public:
    // The JSON of the demo catalog: {"currency", "products": [{code, name_en, name_zh, price
    // (minor units), and optionally barcodes [..], vat (percent), category, unit, quick_key,
    // open_price}]}. Sentences in `error` for a bad one.
    bool load(const QString &path, QString *error);
    bool loadJson(const QByteArray &json, QString *error);
    static QByteArray toJson(const QList<Product> &products, const QString &currency);
    void setProducts(const QList<Product> &products, const QString &currency);

    const QList<Product> &products() const { return m_products; }
    bool isEmpty() const { return m_products.isEmpty(); }
    QString currency() const { return m_currency; }

    const Product *byCode(const QString &code) const;
    const Product *byBarcode(const QString &barcode) const;
    // Every product `codeOrName` could mean: the one with that code or barcode (what a scanner
    // types) or that exact name, else those with a word of the name (either language) starting
    // with it, or whose Chinese name holds it. In catalog order.
    QList<const Product *> matches(const QString &codeOrName) const;
    // The one product meant, or null when none or several match.
    const Product *find(const QString &codeOrName) const;
    // The categories in the order their first product comes.
    QStringList categories() const { return m_categories; }
    // What a category is called in the language shown: its Chinese name (the first product of it
    // that has one) in Chinese, else the category itself.
    QString categoryName(const QString &category, bool simplifiedChinese) const;
    // The products with a quick key, by key.
    QList<const Product *> quickKeyProducts() const;

private:
    void index();

    QList<Product> m_products;
    QString m_currency = QStringLiteral("CNY");
    QHash<QString, int> m_byCode;
    QHash<QString, int> m_byBarcode;
    QStringList m_foldedEn;   // per product: its English name, case-folded
    QStringList m_categories;
    QHash<QString, QString> m_categoryZh;
};

}   // namespace OncePay
