#include "problem.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace OncePay {

Problem Problem::make(int status, const QString &slug, const QString &title, const QString &detail)
{
    Problem p;
    p.status = status;
    p.slug = slug;
    p.title = title;
    p.detail = detail;
    return p;
}

Problem Problem::validation(const QList<FieldError> &errors)
{
    Problem p = make(400, QStringLiteral("validation-failed"), QStringLiteral("Validation failed"),
        errors.size() == 1 ? QStringLiteral("%1 %2").arg(errors.first().field, errors.first().message)
                           : QStringLiteral("%1 fields are invalid.").arg(errors.size()));
    p.errors = errors;
    return p;
}

QString Problem::typeUri() const
{
    return QLatin1String(typeBase) + slug;
}

QJsonObject Problem::toJsonObject() const
{
    QJsonObject o = extra;
    o.insert(QStringLiteral("type"), typeUri());
    o.insert(QStringLiteral("title"), title);
    o.insert(QStringLiteral("status"), status);
    o.insert(QStringLiteral("detail"), detail);
    if (!errors.isEmpty()) {
        QJsonArray arr;
        for (const FieldError &e : errors)
            arr.append(QJsonObject{{QStringLiteral("field"), e.field}, {QStringLiteral("message"), e.message}});
        o.insert(QStringLiteral("errors"), arr);
    }
    return o;
}

QByteArray Problem::toJson() const
{
    return QJsonDocument(toJsonObject()).toJson(QJsonDocument::Compact);
}

std::optional<Problem> Problem::fromJson(const QByteArray &body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (!doc.isObject())
        return std::nullopt;
    QJsonObject o = doc.object();
    const QString type = o.value(QStringLiteral("type")).toString();
    if (type.isEmpty() || !o.value(QStringLiteral("status")).isDouble())
        return std::nullopt;
    Problem p;
    const QString base = QLatin1String(typeBase);
    p.slug = type.startsWith(base) ? type.mid(base.size()) : type;
    p.title = o.take(QStringLiteral("title")).toString();
    p.status = o.take(QStringLiteral("status")).toInt();
    p.detail = o.take(QStringLiteral("detail")).toString();
    o.remove(QStringLiteral("type"));
    const QJsonArray errs = o.take(QStringLiteral("errors")).toArray();
    for (const QJsonValue &v : errs) {
        const QJsonObject e = v.toObject();
        p.errors.append({e.value(QStringLiteral("field")).toString(), e.value(QStringLiteral("message")).toString()});
    }
    p.extra = o;
    return p;
}

}   // namespace OncePay
