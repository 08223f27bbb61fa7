#pragma once

#include "problem.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>

namespace OncePay::Http {

// What a server answers to one request, before it is written to the socket. What an answer
// means to the gateway (a payment's state, a recorded answer) is the gateway's (gateway/answers.h).
struct HttpAnswer
{
    int status = 200;
    QByteArray body;
    QByteArray contentType = QByteArrayLiteral("application/json");
    QList<QPair<QByteArray, QByteArray>> headers;

    static HttpAnswer json(int status, const QJsonObject &object);
    static HttpAnswer problem(const Problem &problem);
    static HttpAnswer problem(int status, const QString &slug, const QString &title, const QString &detail);

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

}   // namespace OncePay::Http
