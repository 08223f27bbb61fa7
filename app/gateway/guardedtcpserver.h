#pragma once

#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QPointer>
#include <QSslConfiguration>
#include <QTcpServer>

#include <optional>

#include "httpanswer.h"

class QHttpServer;
class QHttpServerResponder;
class QTcpSocket;

namespace OncePay::Gateway {

// A listening socket that looks at each connection's bytes before QHttpServer's parser does,
// for what QHttpServer 6.4 gets wrong or does not do (RFC 9112): the request head, collected
// across reads, is parsed by Boost.Beast (RequestHead) and a malformed head, ambiguous framing
// (conflicting Content-Length, Content-Length with Transfer-Encoding) or a transfer coding
// other than chunked is answered 400/501 and the connection closed; an announced or sent body
// over the limit gets 413 (oversized headers 431), so QHttpServer never buffers a 200 MB body;
// "Expect: 100-continue" gets its interim answer; "Connection: close" and HTTP/1.0 close the
// connection once the answer is written. A chunked request is followed to its end by Beast too
// (ChunkedRequest): bad chunk framing 400, trailer fields 501. While an answer is being made the
// connection is not read, so a client that half-closed after its request still receives it.
class GuardedTcpServer final : public QTcpServer
{
    Q_OBJECT

public:
    struct Limits
    {
        qint64 maxBodyBytes = 64 * 1024;
        qint64 maxHeaderBytes = 32 * 1024;
        // Time limits: a request's head must arrive within headerTimeoutMs of its first byte
        // (a new connection must start one within it too), its body within bodyTimeoutMs of the
        // head (408 and close otherwise); a kept-alive connection idle for idleTimeoutMs is closed.
        int headerTimeoutMs = 10'000;
        int bodyTimeoutMs = 30'000;
        int idleTimeoutMs = 60'000;
        // Caps (0: none): connections at once, and from one peer address (503 and close). Never
        // more than the process's file limit allows, less a reserve for its own files: at the cap
        // it stops accepting (the kernel's backlog holds new connections) until one closes.
        int maxConnections = 10000;
        int maxConnectionsPerPeer = 0;
        // Set (a certificate and key): every connection is TLS 1.2 or later; the head's time
        // limit covers the handshake too.
        std::optional<QSslConfiguration> tls;
    };
    explicit GuardedTcpServer(Limits limits, QObject *parent = nullptr);

    // Writes `answer` for the request of `socket` (nothing when it is gone): a new request may
    // start, or the connection closes after it when the request asked for that.
    static void write(const HttpAnswer &answer, QHttpServerResponder &responder, QTcpSocket *socket);

    // Listens on address:port behind a guard and binds `http` to it; the port actually bound
    // (0 picks one), or 0 with `error` set. The URL a client uses for it: baseUrl().
    static quint16 serve(QHttpServer *http, const QHostAddress &address, quint16 port, Limits limits,
                         QString *error);
    static QString baseUrl(const QHostAddress &address, quint16 port, bool tls = false);
    // The server side of TLS from PEM files: the configuration, or nullopt and `error`.
    static std::optional<QSslConfiguration> tlsFromFiles(const QString &certFile, const QString &keyFile,
                                                         QString *error);

    int liveConnections() const { return m_live; }
    // The cap in force: maxConnections bounded by the file limit.
    int connectionCap() const { return m_cap; }

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    enum class Phase { Idle, Head, Body, Busy };
    static void enter(QTcpSocket *socket, Phase phase);
    static void holdReading(QTcpSocket *socket, bool hold);
    void admit(QTcpSocket *socket);
    void beforeParser(QTcpSocket *socket);
    void deadlinePassed(QTcpSocket *socket);
    void connectionClosed(const QHostAddress &peer);
    static void reject(QTcpSocket *socket, int status, const char *slug, const char *title, const QString &detail);
    // A request whose framing RequestHead or ChunkedRequest refused, by their status (400, 413, 501).
    static void refuse(QTcpSocket *socket, int status, const QString &detail);

    Limits m_limits;
    int m_cap = 0;
    int m_live = 0;
    bool m_pausedAtCap = false;
    QHash<QHostAddress, int> m_perPeer;
    QList<QPointer<QTcpSocket>> m_fresh;
};

} // namespace OncePay::Gateway
