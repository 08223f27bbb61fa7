#pragma once

#include "httpclient.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QList>
#include <QPair>

// What came back on one raw TCP exchange with the gateway.
struct RawResult
{
    bool connected = false;
    bool closedByServer = false;   // the server closed (or reset) the connection
    bool timedOut = false;   // neither a full response nor a close within the timeout
    QByteArray received;   // every byte the server sent

    // Parsed from the first response in `received`, if there is one.
    int status = 0;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    bool complete = false;   // head and the whole announced body were received

    QByteArray header(const QByteArray &name) const;
    QJsonDocument json() const { return QJsonDocument::fromJson(body); }
    QByteArray describe() const;
    // The parsed response as an HttpReply (status 0 if none), for the shared checks.
    HttpReply asReply() const;
};

// Sends arbitrary bytes to 127.0.0.1:port and reads until a complete response arrived,
// the server closed the connection, or the timeout expired. No sleeping: an event loop
// runs until one of those happens.
namespace RawHttp {
RawResult exchange(quint16 port, const QByteArray &bytes, int timeoutMs = 10000);
// exchange() made from a thread of its own while the calling thread blocks, running no events:
// whatever answers must not need the caller's thread (a server on a thread of its own).
RawResult exchangeWhileBlocked(quint16 port, const QByteArray &bytes, int timeoutMs = 10000);
// All exchanges run at the same time, on separate connections.
QList<RawResult> exchangeAll(quint16 port, const QList<QByteArray> &requests,
    int timeoutMs = 20000);
// Builds an HTTP/1.1 request with Host, Content-Length (when body is not null) and
// Connection: close; `headerLines` are sent verbatim, each without CRLF.
QByteArray request(const QByteArray &method, const QByteArray &target,
    const QList<QByteArray> &headerLines, const QByteArray &body = {});
// Parses one response out of `result.received` (status, headers, body; Content-Length
// and chunked bodies).
void parse(RawResult &result);
}   // namespace RawHttp
