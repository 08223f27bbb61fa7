#pragma once

#include "gatewaytypes.h"
#include "problem.h"

#include <QByteArray>
#include <QList>
#include <QPair>

namespace OncePay::Gateway {

// What the gateway answers to one request, before it is written to the socket.
struct HttpAnswer
{
    int status = 200;
    QByteArray body;
    QByteArray contentType = QByteArrayLiteral("application/json");
    QList<QPair<QByteArray, QByteArray>> headers;

    static HttpAnswer json(int status, const QJsonObject &object);
    static HttpAnswer problem(const Problem &problem);
    static HttpAnswer problem(int status, const QString &slug, const QString &title, const QString &detail);
    static HttpAnswer fromStored(const StoredResponse &stored);

    // The answer a payment's current state deserves: 201, 202 or 402 (with the payment inside).
    static HttpAnswer forPayment(const Payment &payment);
    // The same for a refund: 201 succeeded, 202 processing, 402 refund-declined (the refund
    // inside, status failed).
    static HttpAnswer forRefund(const Refund &refund);
    StoredResponse toStored() const;

    HttpAnswer &withHeader(const QByteArray &name, const QByteArray &value);
    HttpAnswer &markReplayed() { return withHeader(QByteArrayLiteral("Idempotent-Replayed"), QByteArrayLiteral("true")); }
    QByteArray header(const QByteArray &name) const;
    // What the answer's Connection field says: close (the connection ends after it), or
    // keep-alive for an HTTP/1.0 client that asked to keep it.
    enum class Connection {
        Default,
        Close,
        KeepAlive
    };
    // The answer as HTTP/1.1 bytes: status line, Content-Type, Content-Length, the headers, the
    // Connection field, then the body (none for a HEAD request: its length is still given).
    QByteArray toWire(Connection connection, bool withBody = true) const;
    static QByteArray reasonPhrase(int status);
};

// "application/json", with or without parameters such as "; charset=utf-8".
bool isJsonContentType(const QByteArray &value);

namespace Answers {
HttpAnswer storeUnavailable();
HttpAnswer keyInUse();
HttpAnswer keyReused();
HttpAnswer acquirerUnavailable(const QString &detail);
HttpAnswer outcomeUnknown();   // the acquirer may have been called; not recorded, never a 503
HttpAnswer notFound(const QString &detail);
HttpAnswer unsupportedMediaType();
HttpAnswer methodNotAllowed(const QByteArray &allow);
}   // namespace Answers

}   // namespace OncePay::Gateway
