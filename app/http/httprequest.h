#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrlQuery>

namespace OncePay::Http {

// One request as HttpRequestParser framed it: the head's fields as sent and the whole body.
struct HttpRequest
{
    enum class Method {
        Get,
        Head,
        Post,
        Put,
        Delete,
        Patch,
        Options,
        Other
    };

    Method method = Method::Other;
    QByteArray methodName;   // as sent, for logs
    QByteArray target;   // request-target as sent (origin-form for the routes)
    QString path;   // the target's path, percent-decoded as QUrl::path() gives it
    QUrlQuery query;
    int version = 11;   // 10 or 11
    QList<QPair<QByteArray, QByteArray>> headers;   // in order, names as sent
    QByteArray body;
    bool keepAlive = true;   // false: "Connection: close", or HTTP/1.0 without keep-alive

    QList<QByteArray> values(QByteArrayView name) const
    {
        QList<QByteArray> out;
        for (const auto &h : headers) {
            if (name.compare(h.first, Qt::CaseInsensitive) == 0)
                out.append(h.second);
        }
        return out;
    }
    QByteArray value(QByteArrayView name) const
    {
        for (const auto &h : headers) {
            if (name.compare(h.first, Qt::CaseInsensitive) == 0)
                return h.second;
        }
        return {};
    }

    static Method methodFrom(QByteArrayView name);
};

}   // namespace OncePay::Http
