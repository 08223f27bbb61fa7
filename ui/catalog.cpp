#include "catalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace OncePay::Ui {

bool Catalog::load(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = tr("Cannot read %1: %2").arg(path, f.errorString());
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    if (!doc.isObject()) {
        *error = tr("%1 is not a catalog: %2").arg(path, parseError.errorString());
        return false;
    }
    m_currency = doc.object().value(QStringLiteral("currency")).toString(QStringLiteral("CNY"));
    m_products.clear();
    for (const QJsonValue &v : doc.object().value(QStringLiteral("products")).toArray()) {
        const QJsonObject o = v.toObject();
        const QJsonValue price = o.value(QStringLiteral("price"));
        if (!price.isDouble() || price.toDouble() != double(price.toInteger())) {
            *error = tr("%1: the price of %2 must be a whole number of minor units (fen, cents).")
                         .arg(path, o.value(QStringLiteral("code")).toString());
            return false;
        }
        m_products.append({o.value(QStringLiteral("code")).toString(), o.value(QStringLiteral("name_en")).toString(),
                           o.value(QStringLiteral("name_zh")).toString(), Money(price.toInteger(), m_currency)});
    }
    return true;
}

const Product *Catalog::find(const QString &codeOrName) const
{
    const QString text = codeOrName.trimmed();
    if (text.isEmpty())
        return nullptr;
    for (const Product &p : m_products) {
        if (p.code == text)
            return &p;
    }
    for (const Product &p : m_products) {
        if (p.nameEn.startsWith(text, Qt::CaseInsensitive) || p.nameZh.startsWith(text))
            return &p;
    }
    return nullptr;
}

} // namespace OncePay::Ui
