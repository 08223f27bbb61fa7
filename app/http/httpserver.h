#pragma once

#include "http/httpconnection.h"
#include "http/httplimits.h"

#include <QHash>
#include <QHostAddress>
#include <QObject>
#include <QSet>

class QSocketNotifier;

#include <memory>

namespace OncePay::Http {

class TlsContext;

// The servers' HTTP/1.1 server (docs/architecture.md, "The HTTP layer"): it listens on its
// own socket and accepts one descriptor at a time, only while under its cap; each becomes an
// HttpConnection, which reads and writes it itself (with TLS when a context is given) and
// hands complete requests to the handler. Caps connections in total (bounded by the file
// limit) and per peer address. At the cap the listening socket is not read: the kernel's
// backlog holds the next connections until one closes (QTcpServer could not do this: it
// accepts everything the backlog holds in one burst, so a connection arriving while it
// paused was accepted past the cap and could only be turned away).
class HttpServer final : public QObject
{
    Q_OBJECT

public:
    HttpServer(HttpLimits limits, std::shared_ptr<const TlsContext> tls, HttpConnection::Handler handler,
        QObject *parent = nullptr);
    ~HttpServer() override;

    // Listens on address:port; the port actually bound (0 picks one), or 0 with `error` set.
    quint16 start(const QHostAddress &address, quint16 port, QString *error);
    // Stops listening; open connections finish their answers.
    void close();
    // The URL a client uses for address:port.
    static QString baseUrl(const QHostAddress &address, quint16 port, bool tls);

    int liveConnections() const { return m_live; }
    int connectionCap() const { return m_cap; }
    // Whether an answer is still on its way out on some connection.
    bool isSending() const;

private:
    void acceptWhileUnderCap();
    void setAccepting(bool on);
    void serve(int descriptor);
    void connectionClosed(HttpConnection *connection, bool counted);

    HttpLimits m_limits;
    std::shared_ptr<const TlsContext> m_tls;
    HttpConnection::Handler m_handler;
    int m_listener = -1;
    QSocketNotifier *m_acceptNotifier = nullptr;
    bool m_acceptErrorPause = false;
    int m_cap = 0;
    int m_live = 0;
    bool m_pausedAtCap = false;
    QHash<QHostAddress, int> m_perPeer;
    QSet<HttpConnection *> m_connections;
};

}   // namespace OncePay::Http
