#include "httpserver.h"

#include "httpanswer.h"
#include "httplog.h"
#include "httptransport.h"
#include "problem.h"
#include "tlscontext.h"

#include <QTimer>

#include <csignal>
#include <limits>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

namespace OncePay::Gateway {

Q_LOGGING_CATEGORY(lcHttpLayer, "oncepay.gateway.http", QtInfoMsg)

namespace {
// File descriptors kept for the process's own files (databases, logs, the acquirer's
// connections) when the connection cap is derived from the file limit.
constexpr int kReservedFiles = 64;

int fileLimit()
{
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return std::numeric_limits<int>::max();
    return int(qMin<rlim_t>(limit.rlim_cur, rlim_t(std::numeric_limits<int>::max())));
}

QHostAddress peerOf(int descriptor)
{
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getpeername(descriptor, reinterpret_cast<sockaddr *>(&address), &length) != 0)
        return {};
    QHostAddress out(reinterpret_cast<const sockaddr *>(&address));
    // An IPv4 client of a dual-stack socket counts as its IPv4 address.
    bool v4 = false;
    const quint32 ip4 = out.toIPv4Address(&v4);
    return v4 ? QHostAddress(ip4) : out;
}

HttpAnswer tooMany(const QString &detail)
{
    return HttpAnswer::problem(503, QStringLiteral("too-many-connections"), QStringLiteral("Too many connections"), detail)
        .withHeader(QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1"));   // over in a moment
}
} // namespace

HttpServer::HttpServer(HttpLimits limits, std::shared_ptr<const TlsContext> tls, HttpConnection::Handler handler,
                       QObject *parent)
    : QTcpServer(parent)
    , m_limits(limits)
    , m_tls(std::move(tls))
    , m_handler(std::move(handler))
{
    const int byFiles = qMax(1, fileLimit() - kReservedFiles);
    m_cap = m_limits.maxConnections > 0 ? qMin(m_limits.maxConnections, byFiles) : byFiles;
    // An accept that fails (out of files after all, or any other reason) must not spin on a
    // listening socket that stays readable: stop accepting, try again shortly.
    connect(this, &QTcpServer::acceptError, this, [this](QAbstractSocket::SocketError error) {
        qCWarning(lcHttpLayer) << "accepting a connection failed:" << error << errorString() << "- pausing for 200 ms";
        pauseAccepting();
        QTimer::singleShot(200, this, [this] {
            if (!m_pausedAtCap)
                resumeAccepting();
        });
    });
}

HttpServer::~HttpServer()
{
    // Connections are children: deleted with the server, their descriptors closed.
    for (HttpConnection *c : std::as_const(m_connections))
        disconnect(c, nullptr, this, nullptr);
}

quint16 HttpServer::start(const QHostAddress &address, quint16 port, QString *error)
{
    // OpenSSL writes with write(): a client gone mid-answer must be an error, not SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    // Qt's default backlog is 50: a herd of tills reconnecting at once would overflow it and
    // wait a SYN retransmission (1 s) each. The kernel caps it at net.core.somaxconn.
    setListenBacklogSize(4096);
    if (!listen(address, port)) {
        *error = QStringLiteral("cannot listen on %1:%2: %3").arg(address.toString()).arg(port).arg(errorString());
        return 0;
    }
    return serverPort();
}

QString HttpServer::baseUrl(const QHostAddress &address, quint16 port, bool tls)
{
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
        ? QStringLiteral("[%1]").arg(address.toString())
        : address.toString();
    return QStringLiteral("%1://%2:%3").arg(tls ? QStringLiteral("https") : QStringLiteral("http"), host).arg(port);
}

bool HttpServer::isSending() const
{
    for (const HttpConnection *c : m_connections) {
        if (c->isSending())
            return true;
    }
    return false;
}

void HttpServer::incomingConnection(qintptr descriptor)
{
    const int fd = int(descriptor);
    const int on = 1;
    // Each answer leaves in one write: no reason to hold its last segment back.
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    const QHostAddress peer = peerOf(fd);
    std::unique_ptr<HttpTransport> transport = m_tls ? HttpTransport::tls(fd, *m_tls) : HttpTransport::plain(fd);
    auto *connection = new HttpConnection(fd, std::move(transport), m_limits, peer, m_handler, this);
    m_connections.insert(connection);
    if (m_limits.maxConnectionsPerPeer > 0 && m_perPeer.value(peer) >= m_limits.maxConnectionsPerPeer) {
        qCWarning(lcHttpLayer) << "refusing a connection from" << peer.toString() << ":" << m_limits.maxConnectionsPerPeer
                                << "already open from there";
        connect(connection, &HttpConnection::closed, this, [this, connection] { connectionClosed(connection, false); });
        connection->refuse(tooMany(QStringLiteral("At most %1 connections from one address.").arg(m_limits.maxConnectionsPerPeer)));
        connection->start();
        return;
    }
    if (m_live >= m_cap) {
        // Accepted in the same burst as the one that reached the cap (QTcpServer accepts all
        // the backlog holds before a pause takes effect): turned away, not kept.
        connect(connection, &HttpConnection::closed, this, [this, connection] { connectionClosed(connection, false); });
        connection->refuse(tooMany(QStringLiteral("The gateway is at its cap of %1 connections; try again.").arg(m_cap)));
        connection->start();
        return;
    }
    ++m_live;
    ++m_perPeer[peer];
    connect(connection, &HttpConnection::closed, this, [this, connection] { connectionClosed(connection, true); });
    if (m_live >= m_cap && !m_pausedAtCap) {
        // The kernel's backlog holds the next connections until one closes.
        m_pausedAtCap = true;
        pauseAccepting();
        qCWarning(lcHttpLayer) << "connection cap reached:" << m_live << "open; not accepting until one closes";
    }
    connection->start();
}

void HttpServer::connectionClosed(HttpConnection *connection, bool counted)
{
    m_connections.remove(connection);
    if (!counted)
        return;
    --m_live;
    const QHostAddress peer = connection->peer();
    if (--m_perPeer[peer] <= 0)
        m_perPeer.remove(peer);
    if (m_pausedAtCap && m_live < m_cap) {
        m_pausedAtCap = false;
        resumeAccepting();
        qCInfo(lcHttpLayer) << "accepting connections again:" << m_live << "of" << m_cap;
    }
}

} // namespace OncePay::Gateway
