#pragma once

#include <QHostAddress>
#include <QObject>
#include <QString>
#include <QUrl>

#include <functional>
#include <memory>

namespace OncePay::Http {
class HttpServer;
}

namespace OncePay::Gateway {

class Acquirer;
class GatewayStore;
class HttpApi;
class Metrics;
class PaymentService;
class TokenStore;

// The whole gateway in one object: store, acquirer, payment service and HTTP routes. The
// `oncepay-gateway` program runs one; the till embeds one for its demo mode.
class GatewayServer final : public QObject
{
    Q_OBJECT

public:
    struct Config
    {
        QHostAddress address = QHostAddress::LocalHost;
        quint16 port = 0;
        QString dbPath;   // SQLite file, or postgresql://USER:PASS@HOST:PORT/DBNAME
        QString acquirerDbPath;   // empty: next to dbPath
        QUrl acquirerUrl;   // set: call oncepay-acquirer there (HttpAcquirer); empty: embed one
        bool demo = false;
        QString tokensFile;
        qint64 leaseMs = 30'000;
        qint64 retentionMs = 24 * 3600 * 1000LL;
        qint64 recoveryIntervalMs = 5'000;
        qint64 acquirerTimeoutMs = 10'000;
        qint64 acquirerKeyWindowMs = 24 * 3600 * 1000LL;   // promise 11
        qint64 walletConfirmTimeoutMs = 60'000;   // API.md "Wallet payments"
        qint64 acquirerKeyMemoryMs = 0;   // the embedded simulator's memory of keys; 0: forever
        int rateLimitPerSecond = 0;
        int storeBusyTimeoutMs = 2'000;
        int storeConnections = 8;   // PostgreSQL pool size
        qint64 storeMinFreeBytes = 64 * 1024 * 1024;   // SQLite: not ready below this much free disk
        // HTTP time limits and connection caps (HttpLimits; body and head sizes are the API's).
        int headerTimeoutMs = 10'000;
        int bodyTimeoutMs = 30'000;
        int idleTimeoutMs = 60'000;
        int maxConnections = 10000;
        int maxConnectionsPerPeer = 0;
        QString tlsCertFile;   // both set: HTTPS only (TLS 1.2 or later)
        QString tlsKeyFile;
        QString faultKillAt;   // honoured with demo only
        QString faultPauseAt;   // honoured with demo only
    };

    explicit GatewayServer(Config config, QObject *parent = nullptr);
    ~GatewayServer() override;

    bool start(QString *error);
    quint16 port() const { return m_port; }
    QString baseUrl() const;

    // Stops accepting, lets requests in flight finish (bounded by `graceMs`), closes the stores.
    void shutdown(int graceMs, const std::function<void()> &done);

private:
    void closeStores();
    void flushConnections(int timeoutMs, const std::function<void()> &done);

    Config m_config;
    quint16 m_port = 0;
    std::unique_ptr<Metrics> m_metrics;
    std::unique_ptr<TokenStore> m_tokens;
    std::unique_ptr<GatewayStore> m_store;
    Acquirer *m_acquirer = nullptr;
    PaymentService *m_payments = nullptr;
    HttpApi *m_api = nullptr;
    Http::HttpServer *m_server = nullptr;
};

}   // namespace OncePay::Gateway
