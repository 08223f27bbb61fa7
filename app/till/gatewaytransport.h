#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPair>
#include <QSslConfiguration>
#include <QUrl>

#include <functional>
#include <optional>

class QNetworkAccessManager;

namespace OncePay {

struct GatewayResult;
class ReplyWatcher;

// One request of the till's client (GatewayClient) as it is about to leave: everything the
// gateway will see, and the client's deadline for the whole exchange.
struct GatewayRequest
{
    QByteArray method;   // GET, POST, or a custom verb
    QUrl url;
    QList<QPair<QByteArray, QByteArray>> headers;   // Authorization, Accept, Content-Type, ...
    QByteArray body;
    int timeoutMs = 0;   // the whole transfer
    std::optional<QSslConfiguration> tls;   // https only
};

// What carries a GatewayRequest to the gateway and its answer back. The till's is HTTP over
// QNetworkAccessManager (NetworkTransport); the simulator's carries it in memory to a gateway
// on the same thread (docs/simulation.md). `done` is called once, on the transport's thread,
// with an answered result (GatewayResult::fromAnswer) or how the transport failed: NotSent
// while no byte of the request can have reached the gateway, LostAfterSend after.
class GatewayTransport : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;
    using Done = std::function<void(const GatewayResult &)>;
    virtual void exchange(const GatewayRequest &request, Done done) = 0;
};

// HTTP/1.1 through QNetworkAccessManager. Qt 6.4 opens at most 6 connections per host and
// manager, so a transport meant to keep more requests in flight spreads them over several.
class NetworkTransport final : public GatewayTransport
{
    Q_OBJECT

public:
    explicit NetworkTransport(int maxConnections = 6, QObject *parent = nullptr);
    void exchange(const GatewayRequest &request, Done done) override;

private:
    ReplyWatcher *m_watcher;
    QList<QNetworkAccessManager *> m_managers;
    int m_next = 0;
};

}   // namespace OncePay
