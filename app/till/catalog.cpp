#include "catalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace OncePay {

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
    const QJsonArray products = doc.object().value(QStringLiteral("products")).toArray();
    for (const QJsonValue &v : products) {
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

QList<const Product *> Catalog::matches(const QString &codeOrName) const
{
    const QString text = codeOrName.trimmed();
    if (text.isEmpty())
        return {};
    for (const Product &p : m_products) {
        if (p.code == text || p.nameEn.compare(text, Qt::CaseInsensitive) == 0 || p.nameZh == text)
            return {&p};
    }
    QList<const Product *> out;
    for (const Product &p : m_products) {
        bool hit = p.nameZh.contains(text);
        const QStringList words = p.nameEn.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        for (const QString &w : words)
            hit = hit || w.startsWith(text, Qt::CaseInsensitive);
        hit = hit || p.nameEn.startsWith(text, Qt::CaseInsensitive);
        if (hit)
            out.append(&p);
    }
    return out;
}

const Product *Catalog::find(const QString &codeOrName) const
{
    const QList<const Product *> found = matches(codeOrName);
    return found.size() == 1 ? found.first() : nullptr;
}

}   // namespace OncePay
