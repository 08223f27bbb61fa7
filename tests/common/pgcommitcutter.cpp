#include "pgcommitcutter.h"

#include <QTcpSocket>
#include <QtEndian>

// One client connection and its upstream twin. Bytes pass through unchanged; the client's
// stream is also parsed: untyped packets (SSL/GSS requests, the startup message) until the
// startup message, then typed messages (1 byte type, 4 bytes length including itself).
class PgCommitCutter::Link final : public QObject
{
public:
    Link(PgCommitCutter *owner, QTcpSocket *client)
        : QObject(owner)
        , m_owner(owner)
        , m_client(client)
    {
        m_client->setParent(this);
        m_upstream = new QTcpSocket(this);
        connect(m_client, &QTcpSocket::readyRead, this, &Link::fromClient);
        connect(m_upstream, &QTcpSocket::readyRead, this, &Link::fromServer);
        connect(m_upstream, &QTcpSocket::connected, this, &Link::fromClient);
        connect(m_client, &QTcpSocket::disconnected, this, &Link::cut);
        connect(m_upstream, &QTcpSocket::disconnected, this, &Link::cut);
        connect(m_upstream, &QTcpSocket::errorOccurred, this, &Link::cut);
        m_upstream->connectToHost(owner->m_upstreamHost, owner->m_upstreamPort);
    }

private:
    void fromClient()
    {
        if (m_upstream->state() != QAbstractSocket::ConnectedState)
            return;   // read once connected
        const QByteArray bytes = m_client->readAll();
        m_parse.append(bytes);
        bool commitPassed = false;
        while (true) {
            if (!m_started) {
                if (m_parse.size() < 8)
                    break;
                const quint32 length = qFromBigEndian<quint32>(m_parse.constData());
                if (m_parse.size() < qsizetype(length))
                    break;
                const quint32 code = qFromBigEndian<quint32>(m_parse.constData() + 4);
                m_started = code == 196608;   // protocol 3.0: the startup message
                m_parse.remove(0, length);
                continue;
            }
            if (m_parse.size() < 5)
                break;
            const quint32 length = qFromBigEndian<quint32>(m_parse.constData() + 1);
            if (m_parse.size() < 1 + qsizetype(length))
                break;
            if (m_parse.at(0) == 'Q') {
                const QByteArray query = m_parse.mid(5, length - 4).trimmed();
                const QByteArray &marker = m_owner->m_marker;
                if (query.startsWith("BEGIN")) {
                    m_inTransaction = true;
                } else if (query.startsWith("COMMIT") || query.startsWith("ROLLBACK")) {
                    m_inTransaction = false;
                    commitPassed = commitPassed || (m_armed && query.startsWith("COMMIT"));
                } else if (!marker.isEmpty() && !query.startsWith("PREPARE") && query.contains(marker)) {
                    // Outside BEGIN the statement is its own transaction: its answer is the one lost.
                    if (m_inTransaction)
                        m_armed = true;
                    else
                        commitPassed = true;
                }
            }
            m_parse.remove(0, 1 + length);
        }
        m_upstream->write(bytes);
        if (commitPassed) {
            m_owner->m_marker.clear();
            m_swallow = true;   // the next answer from the server is COMMIT's: it never arrives
        }
    }

    void fromServer()
    {
        const QByteArray bytes = m_upstream->readAll();
        if (m_swallow) {
            ++m_owner->m_cuts;
            m_client->abort();
            m_upstream->abort();
            deleteLater();
            return;
        }
        m_client->write(bytes);
    }

    void cut()
    {
        m_client->abort();
        m_upstream->abort();
        deleteLater();
    }

    PgCommitCutter *m_owner;
    QTcpSocket *m_client;
    QTcpSocket *m_upstream = nullptr;
    QByteArray m_parse;
    bool m_started = false;
    bool m_inTransaction = false;
    bool m_armed = false;
    bool m_swallow = false;
};

PgCommitCutter::PgCommitCutter(QObject *parent)
    : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &PgCommitCutter::onConnection);
}

bool PgCommitCutter::listen(const QString &upstreamHost, quint16 upstreamPort)
{
    m_upstreamHost = upstreamHost;
    m_upstreamPort = upstreamPort;
    return m_server.listen(QHostAddress::LocalHost, 0);
}

void PgCommitCutter::arm(const QByteArray &marker)
{
    m_marker = marker;
}

void PgCommitCutter::onConnection()
{
    while (QTcpSocket *client = m_server.nextPendingConnection())
        new Link(this, client);
}
