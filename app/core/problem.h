#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace OncePay {

// An RFC 9457 problem document as the gateway sends it and the till reads it.
struct Problem final
{
    struct FieldError
    {
        QString field;
        QString message;
    };

    QString slug;   // last segment of `type`, e.g. "idempotency-key-reused"
    QString title;
    int status = 0;
    QString detail;
    QList<FieldError> errors;   // only for validation-failed
    QJsonObject extra;   // further members, e.g. "payment" of card-declined

    static constexpr const char *typeBase = "https://oncepay.example/problems/";
    static constexpr const char *mediaType = "application/problem+json";

    static Problem make(int status, const QString &slug, const QString &title, const QString &detail);
    // 400 validation-failed with its `errors` (API.md): what every server answers a body it
    // cannot take, bad JSON included.
    static Problem validation(const QList<FieldError> &errors);

    QString typeUri() const;
    QJsonObject toJsonObject() const;
    QByteArray toJson() const;   // compact UTF-8

    // Reads a problem document; nullopt if it is not one.
    static std::optional<Problem> fromJson(const QByteArray &body);
};

}   // namespace OncePay
