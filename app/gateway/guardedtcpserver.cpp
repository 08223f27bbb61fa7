#include "guardedtcpserver.h"

#include "problem.h"
#include "requesthead.h"

#include <QHttpServer>
#include <QHttpServerResponder>
#include <QLoggingCategory>
#include <QFile>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>
#include <QSocketNotifier>
#include <QTcpSocket>
#include <QTimer>

#include <sys/resource.h>

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
constexpr const char *kRequestBytes = "oncepay_request_bytes";   // head + body; -1: not known yet
constexpr const char *kPhase = "oncepay_phase";
constexpr const char *kDeadline = "oncepay_deadline"; // the connection's one timer
constexpr const char *kHeld = "oncepay_held";         // reading held while the answer is made
constexpr const char *kChunked = "oncepay_chunked";   // the ChunkWatch of a chunked request
// The time limits, copied onto each connection for the static write().
constexpr const char *kHeaderMs = "oncepay_header_ms";
constexpr const char *kBodyMs = "oncepay_body_ms";
constexpr const char *kIdleMs = "oncepay_idle_ms";

// File descriptors kept for the process's own files (databases, logs, the acquirer's
// connections) when the connection cap is derived from the file limit.
constexpr int kReservedFiles = 64;

// Follows a chunked request's framing until it ends (a child of its socket, by name).
class ChunkWatch final : public QObject
{
public:
    ChunkWatch(qint64 maxBodyBytes, QObject *socket)
        : QObject(socket)
        , request(maxBodyBytes)
    {
        setObjectName(QLatin1String(kChunked));
    }
    static ChunkWatch *of(QObject *socket)
    {
        return static_cast<ChunkWatch *>(socket->findChild<QObject *>(QLatin1String(kChunked), Qt::FindDirectChildrenOnly));
    }
    ChunkedRequest request;
};

int fileLimit()
{
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return std::numeric_limits<int>::max();
    return int(qMin<rlim_t>(limit.rlim_cur, rlim_t(std::numeric_limits<int>::max())));
}
} // namespace

GuardedTcpServer::GuardedTcpServer(Limits limits, QObject *parent)
    : QTcpServer(parent)
    , m_limits(limits)
{
    const int byFiles = qMax(1, fileLimit() - kReservedFiles);
    m_cap = m_limits.maxConnections > 0 ? qMin(m_limits.maxConnections, byFiles) : byFiles;
    // An accept that fails (out of files after all, or any other reason) must not spin on a
    // listening socket that stays readable: stop accepting, try again shortly.
    connect(this, &QTcpServer::acceptError, this, [this](QAbstractSocket::SocketError error) {
        qCWarning(lcGuard) << "accepting a connection failed:" << error << errorString() << "- pausing for 200 ms";
        pauseAccepting();
        QTimer::singleShot(200, this, [this] {
            if (!m_pausedAtCap)
                resumeAccepting();
        });
    });
    // Connected after QAbstractHttpServer::bind() made its own connection, so this runs once
    // the parser has taken the socket and connected its readyRead handler.
    connect(this, &QTcpServer::newConnection, this, [this] {
        for (const QPointer<QTcpSocket> &s : std::as_const(m_fresh)) {
            if (!s)
                continue;
            connect(s, &QIODevice::readyRead, s, [sock = s.data()] {
                sock->setProperty(kUnread, sock->bytesAvailable());
                // The whole request is in and its answer is still being made (the bank is
                // asked): read nothing until it is written, so that a client which ended its
                // sending side (shutdown(SHUT_WR)) still gets it. QAbstractSocket closes the
                // connection as soon as a read returns end-of-file, answer or not.
                if (Phase(sock->property(kPhase).toInt()) == Phase::Busy)
                    holdReading(sock, true);
            });
            connect(s, &QIODevice::bytesWritten, s, [sock = s.data()] {
                if (sock->property(kHeld).toBool() && sock->bytesToWrite() == 0
                    && Phase(sock->property(kPhase).toInt()) != Phase::Busy)
                    holdReading(sock, false);
            });
        }
        m_fresh.clear();
        // Paused here, not in incomingConnection(): QTcpServer::nextPendingConnection(), which
        // QHttpServer has just called, turns accepting back on. The kernel's backlog holds the
        // next connections until one closes.
        if (m_live >= m_cap && !m_pausedAtCap) {
            m_pausedAtCap = true;
            pauseAccepting();
            qCWarning(lcGuard) << "connection cap reached:" << m_live << "open; not accepting until one closes";
        }
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

QString GuardedTcpServer::baseUrl(const QHostAddress &address, quint16 port, bool tls)
{
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
        ? QStringLiteral("[%1]").arg(address.toString())
        : address.toString();
    return QStringLiteral("%1://%2:%3").arg(tls ? QStringLiteral("https") : QStringLiteral("http"), host).arg(port);
}

std::optional<QSslConfiguration> GuardedTcpServer::tlsFromFiles(const QString &certFile, const QString &keyFile,
                                                                QString *error)
{
    if (!QSslSocket::supportsSsl()) {
        *error = QStringLiteral("TLS is not available: no TLS backend (OpenSSL 3) was found");
        return std::nullopt;
    }
    QFile cert(certFile);
    if (!cert.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("--tls-cert: cannot read %1: %2").arg(certFile, cert.errorString());
        return std::nullopt;
    }
    const QList<QSslCertificate> chain = QSslCertificate::fromData(cert.readAll(), QSsl::Pem);
    if (chain.isEmpty() || chain.first().isNull()) {
        *error = QStringLiteral("--tls-cert: %1 holds no PEM certificate").arg(certFile);
        return std::nullopt;
    }
    QFile keyIn(keyFile);
    if (!keyIn.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("--tls-key: cannot read %1: %2").arg(keyFile, keyIn.errorString());
        return std::nullopt;
    }
    const QByteArray pem = keyIn.readAll();
    QSslKey key(pem, QSsl::Rsa, QSsl::Pem);
    if (key.isNull())
        key = QSslKey(pem, QSsl::Ec, QSsl::Pem);
    if (key.isNull()) {
        *error = QStringLiteral("--tls-key: %1 holds no unencrypted PEM RSA or EC private key").arg(keyFile);
        return std::nullopt;
    }
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setLocalCertificateChain(chain);
    tls.setPrivateKey(key);
    tls.setProtocol(QSsl::TlsV1_2OrLater);
    tls.setPeerVerifyMode(QSslSocket::VerifyNone);   // clients authenticate with their bearer token
    return tls;
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
    // Out now rather than on the next turn of the event loop: a read of end-of-file from a
    // half-closed client (once reading resumes) would otherwise discard what is still buffered.
    if (auto *ssl = qobject_cast<QSslSocket *>(socket))
        ssl->flush();
    else
        socket->flush();
    const qint64 requestBytes = socket->property(kRequestBytes).toLongLong();
    const qint64 leftover = requestBytes >= 0 ? socket->property(kPending).toLongLong() - requestBytes : 0;
    socket->setProperty(kHead, QByteArray());
    if (requestBytes < 0)
        delete ChunkWatch::of(socket);   // answered before its end came (nothing does, today)
    // RFC 9112 9.6: "Connection: close" and HTTP/1.0 end the connection after the answer;
    // disconnectFromHost() sends what is buffered first.
    if (close) {
        enter(socket, Phase::Busy);
        socket->disconnectFromHost();
        return;
    }
    if (leftover > 0) {
        // A pipelined request already reached the parser: its head was not seen here, so it
        // is only timed, as a body.
        socket->setProperty(kPending, leftover);
        socket->setProperty(kHeaderSeen, true);
        socket->setProperty(kRequestBytes, -1);
        enter(socket, Phase::Body);
    } else {
        socket->setProperty(kPending, 0);
        socket->setProperty(kHeaderSeen, false);
        enter(socket, Phase::Idle);
    }
    // Reading resumes once the answer has left (bytesWritten() above, when it could not all go
    // at once): the next request, or the end-of-file that closes the connection.
    if (socket->property(kHeld).toBool() && socket->bytesToWrite() == 0)
        holdReading(socket, false);
}

void GuardedTcpServer::holdReading(QTcpSocket *socket, bool hold)
{
    // QAbstractSocket has no public way to stop reading: its socket engine's read notifier (a
    // QSocketNotifier below the socket; for TLS, below the socket's plain TCP socket) is switched
    // directly. Qt's own code treats a disabled notifier as "not reading now" and re-enables it
    // on its next read(), which nothing does while the answer is being made. tst_http11
    // halfClosedClientGetsItsAnswer fails if this stops working.
    const QList<QSocketNotifier *> notifiers = socket->findChildren<QSocketNotifier *>();
    bool found = false;
    for (QSocketNotifier *n : notifiers) {
        if (n->type() == QSocketNotifier::Read) {
            n->setEnabled(!hold);
            found = true;
        }
    }
    if (!found && hold)
        qCWarning(lcGuard) << "no read notifier under the socket: a half-closed client may lose its answer";
    socket->setProperty(kHeld, hold && found);
}

void GuardedTcpServer::enter(QTcpSocket *socket, Phase phase)
{
    socket->setProperty(kPhase, int(phase));
    auto *deadline = socket->findChild<QTimer *>(QLatin1String(kDeadline), Qt::FindDirectChildrenOnly);
    if (!deadline)
        return;
    const char *limit = phase == Phase::Idle ? kIdleMs : phase == Phase::Head ? kHeaderMs
                      : phase == Phase::Body ? kBodyMs : nullptr;
    const int ms = limit ? socket->property(limit).toInt() : 0;
    if (ms > 0)
        deadline->start(ms);
    else
        deadline->stop();
}

void GuardedTcpServer::deadlinePassed(QTcpSocket *socket)
{
    switch (Phase(socket->property(kPhase).toInt())) {
    case Phase::Idle:
        // Nothing was asked (a kept-alive connection, or one that never sent a byte): close.
        qCDebug(lcGuard) << "closing an idle connection from" << socket->peerAddress().toString();
        socket->disconnectFromHost();
        return;
    case Phase::Head:
        return reject(socket, 408, "request-timeout", "Request timeout",
                      QStringLiteral("The request head did not arrive in time."));
    case Phase::Body:
        return reject(socket, 408, "request-timeout", "Request timeout",
                      QStringLiteral("The request body did not arrive in time."));
    case Phase::Busy:
        return;   // the gateway is working on the answer
    }
}

void GuardedTcpServer::connectionClosed(const QHostAddress &peer)
{
    --m_live;
    if (--m_perPeer[peer] <= 0)
        m_perPeer.remove(peer);
    if (m_pausedAtCap && m_live < m_cap) {
        m_pausedAtCap = false;
        resumeAccepting();
        qCInfo(lcGuard) << "accepting connections again:" << m_live << "of" << m_cap;
    }
}

void GuardedTcpServer::incomingConnection(qintptr descriptor)
{
    QTcpSocket *socket = nullptr;
    if (m_limits.tls) {
        auto *ssl = new QSslSocket(this);
        ssl->setSslConfiguration(*m_limits.tls);
        socket = ssl;
    } else {
        socket = new QTcpSocket(this);
    }
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    const QHostAddress peer = socket->peerAddress();
    if (m_limits.maxConnectionsPerPeer > 0 && m_perPeer.value(peer) >= m_limits.maxConnectionsPerPeer) {
        qCWarning(lcGuard) << "refusing a connection from" << peer.toString() << ":" << m_limits.maxConnectionsPerPeer
                           << "already open from there";
        connect(socket, &QAbstractSocket::disconnected, socket, &QObject::deleteLater);
        reject(socket, 503, "too-many-connections", "Too many connections",
               QStringLiteral("At most %1 connections from one address.").arg(m_limits.maxConnectionsPerPeer));
        return;
    }
    if (m_live >= m_cap) {
        // Accepted in the same burst as the one that reached the cap (QTcpServer accepts all
        // the backlog holds before a pause takes effect): turned away, not kept.
        connect(socket, &QAbstractSocket::disconnected, socket, &QObject::deleteLater);
        reject(socket, 503, "too-many-connections", "Too many connections",
               QStringLiteral("The gateway is at its cap of %1 connections; try again.").arg(m_cap));
        return;
    }
    ++m_live;
    ++m_perPeer[peer];
    connect(socket, &QObject::destroyed, this, [this, peer] { connectionClosed(peer); });
    socket->setProperty(kHeaderMs, m_limits.headerTimeoutMs);
    socket->setProperty(kBodyMs, m_limits.bodyTimeoutMs);
    socket->setProperty(kIdleMs, m_limits.idleTimeoutMs);
    socket->setProperty(kRequestBytes, -1);
    auto *deadline = new QTimer(socket);
    deadline->setObjectName(QLatin1String(kDeadline));
    deadline->setSingleShot(true);
    connect(deadline, &QTimer::timeout, this, [this, socket] { deadlinePassed(socket); });
    // A new connection has the head's time to start a request.
    socket->setProperty(kPhase, int(Phase::Idle));
    if (m_limits.headerTimeoutMs > 0)
        deadline->start(m_limits.headerTimeoutMs);
    // Connected before the HTTP parser's handler, so it sees new bytes first.
    connect(socket, &QIODevice::readyRead, socket, [this, socket] { beforeParser(socket); });
    auto *ssl = qobject_cast<QSslSocket *>(socket);
    if (!ssl)
        return admit(socket);
    // The HTTP server gets the connection once the handshake is done; a client that fails it
    // (plain HTTP to a TLS port, an old protocol) is dropped, and one that stalls in it is cut
    // off by the head's time limit.
    connect(ssl, &QSslSocket::encrypted, this, [this, ssl] {
        admit(ssl);
        emit newConnection();   // QTcpServer emits it only right after incomingConnection()
    });
    connect(ssl, &QSslSocket::errorOccurred, ssl, [ssl](QAbstractSocket::SocketError) {
        if (!ssl->isEncrypted()) {
            qCInfo(lcGuard) << "TLS handshake with" << ssl->peerAddress().toString() << "failed:" << ssl->errorString();
            ssl->abort();
        }
    });
    connect(ssl, &QAbstractSocket::disconnected, ssl, [ssl] {
        if (!ssl->isEncrypted())
            ssl->deleteLater();   // never handed to the HTTP server, which would delete it
    });
    ssl->startServerEncryption();
}

void GuardedTcpServer::admit(QTcpSocket *socket)
{
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
    if (fresh > 0 && Phase(socket->property(kPhase).toInt()) == Phase::Idle)
        enter(socket, Phase::Head);
    ChunkWatch *watch = nullptr;   // a chunked request's, while its end has not come
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
        if (parsed.verdict != RequestHead::Verdict::Ok)
            return refuse(socket, parsed.httpStatus(), parsed.reason);
        socket->setProperty(kClose, !parsed.keepAlive);
        const qint64 requestBytes = parsed.chunked ? -1 : headerEnd + 4 + qMax<qint64>(0, parsed.contentLength);
        socket->setProperty(kRequestBytes, requestBytes);
        enter(socket, requestBytes >= 0 && pending >= requestBytes ? Phase::Busy : Phase::Body);
        // RFC 9110 10.1.1: a client that waits for "100 Continue" before its body gets it once
        // the head is accepted (QHttpServer 6.4 never sends it).
        if (parsed.expectsContinue)
            socket->write("HTTP/1.1 100 Continue\r\n\r\n");
        // A chunked request's end is in its body: followed from its first byte (the head).
        if (parsed.chunked) {
            watch = new ChunkWatch(m_limits.maxBodyBytes, socket);
            watch->request.feed(head);
        }
    } else if (socket->property(kRequestBytes).toLongLong() < 0 && (watch = ChunkWatch::of(socket))) {
        watch->request.feed(socket->peek(available).right(fresh));
    }
    if (watch && watch->request.state() == ChunkedRequest::State::Done) {
        socket->setProperty(kRequestBytes, watch->request.requestBytes());
        delete watch;
    } else if (watch && watch->request.state() != ChunkedRequest::State::NeedMore) {
        return refuse(socket, watch->request.httpStatus(), watch->request.reason());
    }
    if (pending > m_limits.maxHeaderBytes + m_limits.maxBodyBytes) {
        return reject(socket, 413, "payload-too-large", "Payload too large",
                      QStringLiteral("Request bodies are limited to %1 bytes.").arg(m_limits.maxBodyBytes));
    }
    const qint64 requestBytes = socket->property(kRequestBytes).toLongLong();
    if (Phase(socket->property(kPhase).toInt()) == Phase::Body && requestBytes >= 0 && pending >= requestBytes)
        enter(socket, Phase::Busy);   // the whole request is in: the gateway answers
}

void GuardedTcpServer::refuse(QTcpSocket *socket, int status, const QString &detail)
{
    switch (status) {
    case 413:
        return reject(socket, 413, "payload-too-large", "Payload too large", detail);
    case 501:
        return reject(socket, 501, "not-implemented", "Not implemented", detail);
    default:
        return reject(socket, 400, "malformed-request", "Bad request", detail);
    }
}

void GuardedTcpServer::reject(QTcpSocket *socket, int status, const char *slug, const char *title, const QString &detail)
{
    qCInfo(lcGuard) << "closing a connection from" << socket->peerAddress().toString() << "with" << status;
    const QByteArray body = Problem::make(status, QLatin1String(slug), QLatin1String(title), detail).toJson();
    // A 503 (too many connections) is over in a moment: say when to come back.
    QByteArray response = "HTTP/1.1 " + QByteArray::number(status) + ' ' + title + "\r\n"
        "Content-Type: application/problem+json\r\nConnection: close\r\n"
        + (status == 503 ? QByteArrayLiteral("Retry-After: 1\r\n") : QByteArray()) + "Content-Length: "
        + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    // Stop the parser from seeing any of it, answer, and close once the answer is out.
    enter(socket, Phase::Busy);
    disconnect(socket, &QIODevice::readyRead, nullptr, nullptr);
    socket->readAll();
    socket->write(response);
    socket->disconnectFromHost();
}

} // namespace OncePay::Gateway
