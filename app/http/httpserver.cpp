#include "http/httpserver.h"

#include "http/httpanswer.h"
#include "http/httplog.h"
#include "http/httptransport.h"
#include "problem.h"
#include "http/tlscontext.h"

#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <limits>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

namespace OncePay::Http {

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

// A listening socket on address:port (dual-stack for QHostAddress::Any), non-blocking, or -1
// with `error` set. `bound` gets the port actually bound.
int openListener(const QHostAddress &address, quint16 port, QString *error, quint16 *bound)
{
    sockaddr_storage storage{};
    socklen_t length = 0;
    int family = AF_INET6;
    bool dualStack = false;
    if (address.protocol() == QAbstractSocket::IPv4Protocol) {
        auto *in = reinterpret_cast<sockaddr_in *>(&storage);
        in->sin_family = AF_INET;
        in->sin_port = htons(port);
        in->sin_addr.s_addr = htonl(address.toIPv4Address());
        family = AF_INET;
        length = sizeof(sockaddr_in);
    } else {
        auto *in6 = reinterpret_cast<sockaddr_in6 *>(&storage);
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons(port);
        dualStack = address == QHostAddress(QHostAddress::Any);
        if (!dualStack) {
            const Q_IPV6ADDR ip6 = address.toIPv6Address();
            std::memcpy(&in6->sin6_addr, &ip6, sizeof ip6);
            in6->sin6_scope_id = address.scopeId().toUInt();
        }
        length = sizeof(sockaddr_in6);
    }
    int fd = ::socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0 && dualStack) {
        // No IPv6 on this host: "any" is IPv4's any.
        return openListener(QHostAddress(QHostAddress::AnyIPv4), port, error, bound);
    }
    auto fail = [&](const char *what) {
        *error = QStringLiteral("cannot listen on %1:%2: %3 (%4)")
                     .arg(address.toString())
                     .arg(port)
                     .arg(QString::fromLocal8Bit(std::strerror(errno)), QLatin1String(what));
        if (fd >= 0)
            ::close(fd);
        return -1;
    };
    if (fd < 0)
        return fail("socket");
    const int on = 1;
    const int off = 0;
    // A restarted gateway binds its port again at once, past the old connections' TIME_WAIT.
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (dualStack)
        ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);
    if (::bind(fd, reinterpret_cast<const sockaddr *>(&storage), length) != 0)
        return fail("bind");
    // A herd of tills reconnecting at once must not overflow the backlog and wait a SYN
    // retransmission (1 s) each. The kernel caps it at net.core.somaxconn.
    if (::listen(fd, 4096) != 0)
        return fail("listen");
    sockaddr_storage local{};
    socklen_t localLength = sizeof local;
    if (::getsockname(fd, reinterpret_cast<sockaddr *>(&local), &localLength) != 0)
        return fail("getsockname");
    *bound = local.ss_family == AF_INET ? ntohs(reinterpret_cast<const sockaddr_in *>(&local)->sin_port)
                                        : ntohs(reinterpret_cast<const sockaddr_in6 *>(&local)->sin6_port);
    return fd;
}
}   // namespace

HttpServer::HttpServer(HttpLimits limits, std::shared_ptr<const TlsContext> tls, HttpConnection::Handler handler,
    QObject *parent)
    : QObject(parent)
    , m_limits(limits)
    , m_tls(std::move(tls))
    , m_handler(std::move(handler))
{
    const int byFiles = qMax(1, fileLimit() - kReservedFiles);
    m_cap = m_limits.maxConnections > 0 ? qMin(m_limits.maxConnections, byFiles) : byFiles;
}

HttpServer::~HttpServer()
{
    // Connections are children: deleted with the server, their descriptors closed.
    for (HttpConnection *c : std::as_const(m_connections))
        disconnect(c, nullptr, this, nullptr);
    close();
}

quint16 HttpServer::start(const QHostAddress &address, quint16 port, QString *error)
{
    // OpenSSL writes with write(): a client gone mid-answer must be an error, not SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    close();
    quint16 bound = 0;
    m_listener = openListener(address, port, error, &bound);
    if (m_listener < 0)
        return 0;
    m_acceptNotifier = new QSocketNotifier(qintptr(m_listener), QSocketNotifier::Read, this);
    connect(m_acceptNotifier, &QSocketNotifier::activated, this, &HttpServer::acceptWhileUnderCap);
    return bound;
}

void HttpServer::close()
{
    delete m_acceptNotifier;
    m_acceptNotifier = nullptr;
    if (m_listener >= 0)
        ::close(m_listener);
    m_listener = -1;
}

void HttpServer::setAccepting(bool on)
{
    if (m_acceptNotifier)
        m_acceptNotifier->setEnabled(on && !m_pausedAtCap && !m_acceptErrorPause);
}

// One accept() per free slot: a connection never leaves the kernel's backlog unless it can be
// served (or is turned away for its own address's cap).
void HttpServer::acceptWhileUnderCap()
{
    while (m_listener >= 0 && m_live < m_cap && !m_acceptErrorPause) {
        const int fd = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd >= 0) {
            serve(fd);
            continue;
        }
        if (errno == EINTR || errno == ECONNABORTED)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return;
        // Out of files after all, or any other reason: a listening socket that stays readable
        // must not spin. Stop accepting, try again shortly.
        qCWarning(lcHttpLayer) << "accepting a connection failed:" << std::strerror(errno) << "- pausing for 200 ms";
        m_acceptErrorPause = true;
        setAccepting(false);
        QTimer::singleShot(200, this, [this] {
            m_acceptErrorPause = false;
            setAccepting(true);
        });
        return;
    }
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

void HttpServer::serve(int fd)
{
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
        connect(connection, &HttpConnection::closed, this, [this, connection] {
            connectionClosed(connection, false);
        });
        connection->refuse(tooMany(QStringLiteral("At most %1 connections from one address.").arg(m_limits.maxConnectionsPerPeer)));
        connection->start();
        return;
    }
    ++m_live;
    ++m_perPeer[peer];
    connect(connection, &HttpConnection::closed, this, [this, connection] {
        connectionClosed(connection, true);
    });
    if (m_live >= m_cap && !m_pausedAtCap) {
        // The kernel's backlog holds the next connections until one closes.
        m_pausedAtCap = true;
        setAccepting(false);
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
        setAccepting(true);
        qCInfo(lcHttpLayer) << "accepting connections again:" << m_live << "of" << m_cap;
    }
}

}   // namespace OncePay::Http
