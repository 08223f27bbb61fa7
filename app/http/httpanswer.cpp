#include "http/httpanswer.h"

#include <QJsonDocument>

namespace OncePay::Http {

HttpAnswer HttpAnswer::json(int status, const QJsonObject &object)
{
    HttpAnswer a;
    a.status = status;
    a.body = QJsonDocument(object).toJson(QJsonDocument::Compact);
    return a;
}

HttpAnswer HttpAnswer::problem(const Problem &p)
{
    HttpAnswer a;
    a.status = p.status;
    a.body = p.toJson();
    a.contentType = Problem::mediaType;
    return a;
}

HttpAnswer HttpAnswer::problem(int status, const QString &slug, const QString &title, const QString &detail)
{
    return problem(Problem::make(status, slug, title, detail));
}

HttpAnswer &HttpAnswer::withHeader(const QByteArray &name, const QByteArray &value)
{
    headers.append({name, value});
    return *this;
}

QByteArray HttpAnswer::header(const QByteArray &name) const
{
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

QByteArray HttpAnswer::toWire(Connection connection, bool withBody) const
{
    QByteArray out;
    out.reserve(160 + body.size());
    out += "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\nContent-Type: " + contentType
        + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
    for (const auto &h : headers)
        out += h.first + ": " + h.second + "\r\n";
    if (connection == Connection::Close)
        out += "Connection: close\r\n";
    else if (connection == Connection::KeepAlive)
        out += "Connection: keep-alive\r\n";
    out += "\r\n";
    if (withBody)
        out += body;
    return out;
}

QByteArray HttpAnswer::reasonPhrase(int status)
{
    switch (status) {
    case 100:
        return QByteArrayLiteral("Continue");
    case 200:
        return QByteArrayLiteral("OK");
    case 201:
        return QByteArrayLiteral("Created");
    case 202:
        return QByteArrayLiteral("Accepted");
    case 204:
        return QByteArrayLiteral("No Content");
    case 400:
        return QByteArrayLiteral("Bad Request");
    case 401:
        return QByteArrayLiteral("Unauthorized");
    case 402:
        return QByteArrayLiteral("Payment Required");
    case 403:
        return QByteArrayLiteral("Forbidden");
    case 404:
        return QByteArrayLiteral("Not Found");
    case 405:
        return QByteArrayLiteral("Method Not Allowed");
    case 408:
        return QByteArrayLiteral("Request Timeout");
    case 409:
        return QByteArrayLiteral("Conflict");
    case 413:
        return QByteArrayLiteral("Content Too Large");
    case 415:
        return QByteArrayLiteral("Unsupported Media Type");
    case 422:
        return QByteArrayLiteral("Unprocessable Content");
    case 429:
        return QByteArrayLiteral("Too Many Requests");
    case 431:
        return QByteArrayLiteral("Request Header Fields Too Large");
    case 500:
        return QByteArrayLiteral("Internal Server Error");
    case 501:
        return QByteArrayLiteral("Not Implemented");
    case 502:
        return QByteArrayLiteral("Bad Gateway");
    case 503:
        return QByteArrayLiteral("Service Unavailable");
    case 504:
        return QByteArrayLiteral("Gateway Timeout");
    case 505:
        return QByteArrayLiteral("HTTP Version Not Supported");
    default:
        return QByteArrayLiteral("Status");
    }
}

bool isJsonContentType(const QByteArray &value)
{
    const QList<QByteArray> parts = value.split(';');
    if (parts.first().trimmed().toLower() != "application/json")
        return false;
    // JSON is UTF-8 (RFC 8259); a body declared in another charset would be read as something
    // it is not, so it is refused, not guessed.
    for (qsizetype i = 1; i < parts.size(); ++i) {
        const QByteArray param = parts.at(i).trimmed();
        const qsizetype eq = param.indexOf('=');
        if (eq < 0 || param.left(eq).trimmed().toLower() != "charset")
            continue;
        QByteArray charset = param.mid(eq + 1).trimmed().toLower();
        if (charset.size() >= 2 && charset.startsWith('"') && charset.endsWith('"'))
            charset = charset.mid(1, charset.size() - 2);
        if (charset != "utf-8" && charset != "utf8")
            return false;
    }
    return true;
}

}   // namespace OncePay::Http
