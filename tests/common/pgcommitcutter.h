#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QTcpServer>

// A TCP proxy between a gateway and PostgreSQL that reads the client's side of the wire
// protocol. Once a simple-protocol Query containing the armed marker has passed on a
// connection inside BEGIN, that connection's next COMMIT is forwarded to the server, the
// server's answer is swallowed and both sides are cut: the COMMIT happened, its answer was
// lost (API.md promise 10). A marked statement sent outside BEGIN is its own transaction: its
// answer is the one swallowed. PREPARE statements never match. Fires once per arm(). The
// client must not use TLS (PGSSLMODE=disable).
class PgCommitCutter final : public QObject
{
    Q_OBJECT

public:
    explicit PgCommitCutter(QObject *parent = nullptr);

    bool listen(const QString &upstreamHost, quint16 upstreamPort);
    quint16 port() const { return m_server.serverPort(); }
    void arm(const QByteArray &marker);
    int cuts() const { return m_cuts; }

private:
    class Link;
    void onConnection();

    QTcpServer m_server;
    QString m_upstreamHost;
    quint16 m_upstreamPort = 0;
    QByteArray m_marker;   // empty: disarmed
    int m_cuts = 0;
};
