#pragma once

#include "money.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace OncePay {

struct Product
{
    QString code;
    QString nameEn;
    QString nameZh;
    Money price;

    QString name(bool simplifiedChinese) const
    {
        return simplifiedChinese && !nameZh.isEmpty() ? nameZh : nameEn;
    }
};

// The products a till sells, read from a JSON file (the demo catalog is a resource of oncepay-pos
// and oncepay-ctl: both sell from the same one).
class Catalog final
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::Catalog)

public:
    bool load(const QString &path, QString *error);
    const QList<Product> &products() const { return m_products; }
    // Every product `codeOrName` could mean: the one with that code (what a barcode scanner
    // types) or that exact name, else those with a word of the name (either language) starting
    // with it. In catalog order.
    QList<const Product *> matches(const QString &codeOrName) const;
    // The one product meant, or null when none or several match.
    const Product *find(const QString &codeOrName) const;
    QString currency() const { return m_currency; }

private:
    QList<Product> m_products;
    QString m_currency;
};

}   // namespace OncePay
