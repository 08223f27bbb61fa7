#pragma once

#include <QHash>
#include <QList>
#include <QPointer>
#include <QTcpServer>

class QHttpServer;
class QTcpSocket;

namespace OncePay::Gateway {

// A listening socket that looks at each connection's bytes before QHttpServer buffers them:
// QHttpServer 6.4 would otherwise hold a whole announced 200 MB body in memory. A request
// announcing or sending more than the gateway accepts gets 413 (or 431 for oversized headers)
// and the connection is closed.
class GuardedTcpServer final : public QTcpServer
{
    Q_OBJECT

public:
    struct Limits
    {
        qint64 maxBodyBytes = 64 * 1024;
        qint64 maxHeaderBytes = 32 * 1024;
    };
    explicit GuardedTcpServer(Limits limits, QObject *parent = nullptr);

    // Called when an answer has been written on `socket`: a new request may start.
    static void answerWritten(QTcpSocket *socket);

    // Listens on address:port behind a guard and binds `http` to it; the port actually bound
    // (0 picks one), or 0 with `error` set. The URL a client uses for it: baseUrl().
    static quint16 serve(QHttpServer *http, const QHostAddress &address, quint16 port, Limits limits,
                         QString *error);
    static QString baseUrl(const QHostAddress &address, quint16 port);

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    void beforeParser(QTcpSocket *socket);
    void reject(QTcpSocket *socket, int status, const char *slug, const char *title, const QString &detail);

    Limits m_limits;
    QList<QPointer<QTcpSocket>> m_fresh;
};

} // namespace OncePay::Gateway
