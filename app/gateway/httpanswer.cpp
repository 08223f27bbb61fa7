#include "httpanswer.h"

#include <QJsonDocument>

namespace OncePay::Gateway {

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

HttpAnswer HttpAnswer::fromStored(const StoredResponse &s)
{
    HttpAnswer a;
    a.status = s.status;
    a.body = s.body;
    if (!s.contentType.isEmpty())
        a.contentType = s.contentType;
    if (!s.location.isEmpty())
        a.headers.append({QByteArrayLiteral("Location"), s.location});
    return a;
}

StoredResponse HttpAnswer::toStored() const
{
    return {status, body, header(QByteArrayLiteral("Location")), contentType};
}

HttpAnswer HttpAnswer::forPayment(const Payment &p)
{
    if (p.status == PaymentStatus::Declined) {
        // One problem type for every declined payment (API.md); the words name the wallet.
        Problem problem = p.isWallet()
            ? Problem::make(402, QStringLiteral("card-declined"), QStringLiteral("Wallet payment declined"),
                QStringLiteral("The wallet payment was declined or given up (%1); nothing was kept.").arg(p.declineCode))
            : Problem::make(402, QStringLiteral("card-declined"), QStringLiteral("Card declined"),
                QStringLiteral("The card was declined (%1).").arg(p.declineCode));
        problem.extra.insert(QStringLiteral("payment"), p.toJson());
        return HttpAnswer::problem(problem);
    }
    HttpAnswer a = json(p.status == PaymentStatus::Processing ? 202 : 201, p.toJson());
    a.headers.append({QByteArrayLiteral("Location"), "/v1/payments/" + p.id.toLatin1()});
    return a;
}

HttpAnswer HttpAnswer::forRefund(const Refund &r)
{
    if (r.status == RefundStatus::Failed) {
        Problem problem = Problem::make(402, QStringLiteral("refund-declined"), QStringLiteral("Refund declined"),
            QStringLiteral("The acquirer declined the refund (%1); no money moved.")
                .arg(r.failureCode));
        problem.extra.insert(QStringLiteral("refund"), r.toJson());
        return HttpAnswer::problem(problem);
    }
    HttpAnswer a = json(r.status == RefundStatus::Processing ? 202 : 201, r.toJson());
    a.headers.append({QByteArrayLiteral("Location"), "/v1/refunds/" + r.id.toLatin1()});
    return a;
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

namespace Answers {

HttpAnswer storeUnavailable()
{
    return HttpAnswer::problem(503, QStringLiteral("store-unavailable"), QStringLiteral("Store unavailable"),
        QStringLiteral("The gateway cannot reach its store; nothing was executed. Retry with the same key."))
        .withHeader(QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1"));
}

HttpAnswer keyInUse()
{
    return HttpAnswer::problem(409, QStringLiteral("idempotency-key-in-use"), QStringLiteral("Request in progress"),
        QStringLiteral("A request with this Idempotency-Key is being processed. Retry later with the same key."))
        .withHeader(QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1"));
}

HttpAnswer keyReused()
{
    return HttpAnswer::problem(422, QStringLiteral("idempotency-key-reused"), QStringLiteral("Idempotency-Key reused"),
        QStringLiteral("This Idempotency-Key was already used for a different request."));
}

HttpAnswer acquirerUnavailable(const QString &detail)
{
    return HttpAnswer::problem(502, QStringLiteral("acquirer-unavailable"), QStringLiteral("Acquirer unavailable"), detail);
}

HttpAnswer outcomeUnknown()
{
    return HttpAnswer::problem(500, QStringLiteral("outcome-unknown"), QStringLiteral("Outcome unknown"),
        QStringLiteral("The payment may have been executed; retry with the same Idempotency-Key to learn its outcome."))
        .withHeader(QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1"));
}

HttpAnswer notFound(const QString &detail)
{
    return HttpAnswer::problem(404, QStringLiteral("not-found"), QStringLiteral("Not found"), detail);
}

HttpAnswer unsupportedMediaType()
{
    return HttpAnswer::problem(415, QStringLiteral("unsupported-media-type"), QStringLiteral("Unsupported media type"),
        QStringLiteral("Send the body as Content-Type: application/json."));
}

HttpAnswer methodNotAllowed(const QByteArray &allow)
{
    return HttpAnswer::problem(405, QStringLiteral("method-not-allowed"), QStringLiteral("Method not allowed"),
        QStringLiteral("This resource accepts %1.").arg(QString::fromLatin1(allow)))
        .withHeader(QByteArrayLiteral("Allow"), allow);
}

}   // namespace Answers

}   // namespace OncePay::Gateway
