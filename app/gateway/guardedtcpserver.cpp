#include "guardedtcpserver.h"

#include "problem.h"

#include <QHttpServer>
#include <QLoggingCategory>
#include <QTcpSocket>

namespace OncePay::Gateway {

Q_LOGGING_CATEGORY(lcGuard, "oncepay.gateway.http", QtInfoMsg)

namespace {
// Per-connection counters, kept as dynamic properties so QHttpServer's own handling of the
// socket stays untouched.
constexpr const char *kUnread = "oncepay_unread";     // bytes the parser left in the buffer
constexpr const char *kPending = "oncepay_pending";   // bytes of the current request so far
constexpr const char *kHeaderSeen = "oncepay_header_seen";

// RFC 9112: a request line of three parts, header lines "name: value" with a token name and
// no white space before the colon (a request-smuggling vector behind proxies).
bool wellFormedHead(const QByteArray &head)
{
    const QList<QByteArray> lines = head.split('\n');
    if (lines.isEmpty())
        return false;
    const QList<QByteArray> requestLine = lines.first().trimmed().split(' ');
    if (requestLine.size() != 3 || !requestLine.at(2).startsWith("HTTP/1."))
        return false;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        QByteArray line = lines.at(i);
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.isEmpty())
            continue;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return false;
        for (qsizetype c = 0; c < colon; ++c) {
            const char ch = line.at(c);
            if (ch <= ' ' || ch >= 127 || ch == '"' || ch == '(' || ch == ')' || ch == ',' || ch == '/'
                || ch == ';' || ch == '<' || ch == '=' || ch == '>' || ch == '?' || ch == '@' || ch == '['
                || ch == '\\' || ch == ']' || ch == '{' || ch == '}')
                return false;
        }
    }
    return true;
}

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

void GuardedTcpServer::answerWritten(QTcpSocket *socket)
{
    if (socket) {
        socket->setProperty(kPending, 0);
        socket->setProperty(kHeaderSeen, false);
    }
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
    bool headerSeen = socket->property(kHeaderSeen).toBool();

    const QByteArray head = socket->peek(qMin<qint64>(available, m_limits.maxHeaderBytes + 4));
    const qsizetype headerEnd = headerSeen ? -1 : head.indexOf("\r\n\r\n");
    if (headerEnd >= 0) {
        headerSeen = true;
        socket->setProperty(kHeaderSeen, true);
        // The header may have arrived in several reads: all of `before` was header too.
        if (before + headerEnd > m_limits.maxHeaderBytes) {
            return reject(socket, 431, "headers-too-large", "Request headers too large",
                          QStringLiteral("Request headers are limited to %1 bytes.").arg(m_limits.maxHeaderBytes));
        }
        // Only when the whole header block is in view (it starts this request) can it be judged.
        if (before == 0 && !wellFormedHead(head.left(headerEnd + 2))) {
            return reject(socket, 400, "malformed-request", "Bad request",
                          QStringLiteral("The request line or a header line is malformed."));
        }
        if (announcedLength(head.left(headerEnd + 2)) > m_limits.maxBodyBytes) {
            return reject(socket, 413, "payload-too-large", "Payload too large",
                          QStringLiteral("Request bodies are limited to %1 bytes.").arg(m_limits.maxBodyBytes));
        }
    }
    if (!headerSeen && pending > m_limits.maxHeaderBytes) {
        return reject(socket, 431, "headers-too-large", "Request headers too large",
                      QStringLiteral("Request headers are limited to %1 bytes.").arg(m_limits.maxHeaderBytes));
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
