#include "guardedtcpserver.h"

#include "problem.h"
#include "requesthead.h"

#include <QHttpServer>
#include <QHttpServerResponder>
#include <QLoggingCategory>
#include <QTcpSocket>

namespace OncePay::Gateway {

Q_LOGGING_CATEGORY(lcGuard, "oncepay.gateway.http", QtInfoMsg)

namespace {
// Per-connection state, kept as dynamic properties so QHttpServer's own handling of the
// socket stays untouched.
constexpr const char *kUnread = "oncepay_unread";     // bytes the parser left in the buffer
constexpr const char *kPending = "oncepay_pending";   // bytes of the current request so far
constexpr const char *kHeaderSeen = "oncepay_header_seen";
constexpr const char *kHead = "oncepay_head";         // the head so far, however many reads it took
constexpr const char *kClose = "oncepay_close";       // close once this request is answered
} // namespace

GuardedTcpServer::GuardedTcpServer(Limits limits, QObject *parent)
    : QTcpServer(parent)
    , m_limits(limits)
{
    // Connected after QAbstractHttpServer::bind() made its own connection, so this runs once
    // the parser has taken the socket and connected its readyRead handler.
    connect(this, &QTcpServer::newConnection, this, [this] {
        for (const QPointer<QTcpSocket> &s : std::as_const(m_fresh)) {
            if (!s)
                continue;
            connect(s, &QIODevice::readyRead, s, [sock = s.data()] {
                sock->setProperty(kUnread, sock->bytesAvailable());
            });
        }
        m_fresh.clear();
    }, Qt::DirectConnection);
}

quint16 GuardedTcpServer::serve(QHttpServer *http, const QHostAddress &address, quint16 port, Limits limits,
                                QString *error)
{
    auto *listener = new GuardedTcpServer(limits, http);
    // Qt's default backlog is 50: a herd of tills reconnecting at once would overflow it and
    // wait a SYN retransmission (1 s) each. The kernel caps it at net.core.somaxconn.
    listener->setListenBacklogSize(4096);
    if (!listener->listen(address, port)) {
        *error = QStringLiteral("cannot listen on %1:%2: %3").arg(address.toString()).arg(port).arg(listener->errorString());
        delete listener;
        return 0;
    }
    http->bind(listener);
    return listener->serverPort();
}

QString GuardedTcpServer::baseUrl(const QHostAddress &address, quint16 port)
{
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
        ? QStringLiteral("[%1]").arg(address.toString())
        : address.toString();
    return QStringLiteral("http://%1:%2").arg(host).arg(port);
}

void GuardedTcpServer::write(const HttpAnswer &answer, QHttpServerResponder &responder, QTcpSocket *socket)
{
    if (!socket || socket->state() != QAbstractSocket::ConnectedState)
        return;
    const bool close = socket->property(kClose).toBool();
    if (close) {
        HttpAnswer closing = answer;
        closing.withHeader(QByteArrayLiteral("Connection"), QByteArrayLiteral("close")).writeTo(responder);
    } else {
        answer.writeTo(responder);
    }
    socket->setProperty(kPending, 0);
    socket->setProperty(kHeaderSeen, false);
    socket->setProperty(kHead, QByteArray());
    // RFC 9112 9.6: "Connection: close" and HTTP/1.0 end the connection after the answer;
    // disconnectFromHost() sends what is buffered first.
    if (close)
        socket->disconnectFromHost();
}

void GuardedTcpServer::incomingConnection(qintptr descriptor)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    // Connected before the HTTP parser's handler, so it sees new bytes first.
    connect(socket, &QIODevice::readyRead, socket, [this, socket] { beforeParser(socket); });
    m_fresh.append(socket);
    addPendingConnection(socket);
}

void GuardedTcpServer::beforeParser(QTcpSocket *socket)
{
    const qint64 available = socket->bytesAvailable();
    const qint64 fresh = qMax<qint64>(0, available - socket->property(kUnread).toLongLong());
    const qint64 before = socket->property(kPending).toLongLong();
    const qint64 pending = before + fresh;
    socket->setProperty(kPending, pending);
    if (!socket->property(kHeaderSeen).toBool()) {
        // The parser consumes what it is given, so the head is collected here across reads:
        // every check runs on the whole head however it arrives (one segment or many).
        QByteArray head = socket->property(kHead).toByteArray();
        head += socket->peek(available).right(fresh);
        const qsizetype headerEnd = head.indexOf("\r\n\r\n");
        if (headerEnd < 0) {
            if (head.size() > m_limits.maxHeaderBytes) {
                return reject(socket, 431, "headers-too-large", "Request headers too large",
                              QStringLiteral("Request headers are limited to %1 bytes.").arg(m_limits.maxHeaderBytes));
            }
            socket->setProperty(kHead, head);
            return;
        }
        socket->setProperty(kHead, QByteArray());
        socket->setProperty(kHeaderSeen, true);
        if (headerEnd > m_limits.maxHeaderBytes) {
            return reject(socket, 431, "headers-too-large", "Request headers too large",
                          QStringLiteral("Request headers are limited to %1 bytes.").arg(m_limits.maxHeaderBytes));
        }
        const RequestHead parsed = RequestHead::parse(head.left(headerEnd + 4), m_limits.maxBodyBytes);
        switch (parsed.verdict) {
        case RequestHead::Verdict::Ok:
            break;
        case RequestHead::Verdict::TooLarge:
            return reject(socket, 413, "payload-too-large", "Payload too large", parsed.reason);
        case RequestHead::Verdict::UnsupportedCoding:
            return reject(socket, 501, "not-implemented", "Not implemented", parsed.reason);
        case RequestHead::Verdict::Malformed:
        case RequestHead::Verdict::ConflictingFraming:
            return reject(socket, 400, "malformed-request", "Bad request", parsed.reason);
        }
        socket->setProperty(kClose, !parsed.keepAlive);
        // RFC 9110 10.1.1: a client that waits for "100 Continue" before its body gets it once
        // the head is accepted (QHttpServer 6.4 never sends it).
        if (parsed.expectsContinue)
            socket->write("HTTP/1.1 100 Continue\r\n\r\n");
    }
    if (pending > m_limits.maxHeaderBytes + m_limits.maxBodyBytes) {
        return reject(socket, 413, "payload-too-large", "Payload too large",
                      QStringLiteral("Request bodies are limited to %1 bytes.").arg(m_limits.maxBodyBytes));
    }
}

void GuardedTcpServer::reject(QTcpSocket *socket, int status, const char *slug, const char *title, const QString &detail)
{
    qCInfo(lcGuard) << "closing a connection from" << socket->peerAddress().toString() << "with" << status;
    const QByteArray body = Problem::make(status, QLatin1String(slug), QLatin1String(title), detail).toJson();
    QByteArray response = "HTTP/1.1 " + QByteArray::number(status) + ' ' + title + "\r\n"
        "Content-Type: application/problem+json\r\nConnection: close\r\nContent-Length: "
        + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    // Stop the parser from seeing any of it, answer, and close once the answer is out.
    disconnect(socket, &QIODevice::readyRead, nullptr, nullptr);
    socket->readAll();
    socket->write(response);
    socket->disconnectFromHost();
}

} // namespace OncePay::Gateway
