#include "guardedtcpserver.h"

#include "problem.h"

#include <QLoggingCategory>
#include <QTcpSocket>

namespace OncePay::Gateway {

Q_LOGGING_CATEGORY(lcGuard, "oncepay.gateway.http")

namespace {
// Per-connection counters, kept as dynamic properties so QHttpServer's own handling of the
// socket stays untouched.
constexpr const char *kUnread = "oncepay_unread";     // bytes the parser left in the buffer
constexpr const char *kPending = "oncepay_pending";   // bytes of the current request so far

qint64 announcedLength(const QByteArray &head)
{
    const QByteArray lower = head.toLower();
    const qsizetype at = lower.indexOf("\r\ncontent-length:");
    if (at < 0)
        return -1;
    const qsizetype start = at + int(sizeof("\r\ncontent-length:")) - 1;
    const qsizetype end = lower.indexOf("\r\n", start);
    bool ok = false;
    const qint64 n = lower.mid(start, end < 0 ? -1 : end - start).trimmed().toLongLong(&ok);
    return ok ? n : std::numeric_limits<qint64>::max();   // unparsable: treat as too large
}
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

void GuardedTcpServer::answerWritten(QTcpSocket *socket)
{
    if (socket)
        socket->setProperty(kPending, 0);
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
    const qint64 pending = socket->property(kPending).toLongLong() + fresh;
    socket->setProperty(kPending, pending);

    const QByteArray head = socket->peek(qMin<qint64>(available, m_limits.maxHeaderBytes + 4));
    const qsizetype headerEnd = head.indexOf("\r\n\r\n");
    if (headerEnd < 0 && pending > m_limits.maxHeaderBytes) {
        return reject(socket, 431, "headers-too-large", "Request headers too large",
                      QStringLiteral("Request headers are limited to %1 bytes.").arg(m_limits.maxHeaderBytes));
    }
    if (headerEnd >= 0 && announcedLength(head.left(headerEnd + 2)) > m_limits.maxBodyBytes) {
        return reject(socket, 413, "payload-too-large", "Payload too large",
                      QStringLiteral("Request bodies are limited to %1 bytes.").arg(m_limits.maxBodyBytes));
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
