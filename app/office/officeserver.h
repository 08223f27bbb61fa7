#pragma once

#include <QHostAddress>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace OncePay::Http {
class HttpServer;
}

namespace OncePay::Office {

class OfficeApi;
class OfficeStore;

// The whole office in one object: its store and its routes on the servers' HTTP layer. The
// `oncepay-office` program runs one; a till's demo can embed one.
class OfficeServer final : public QObject
{
    Q_OBJECT

public:
    struct Config
    {
        QHostAddress address = QHostAddress::LocalHost;
        quint16 port = 0;
        QString dbPath;   // SQLite file, or postgresql://USER:PASS@HOST:PORT/DBNAME
        bool demo = false;
        QString timeZone;   // IANA name for the reports' days; empty: the machine's
        int storeBusyTimeoutMs = 2'000;
        int storeConnections = 8;   // PostgreSQL pool size
        int headerTimeoutMs = 10'000;
        int bodyTimeoutMs = 30'000;
        int idleTimeoutMs = 60'000;
        int maxConnections = 10000;
        QString tlsCertFile;   // both set: HTTPS only (TLS 1.2 or later)
        QString tlsKeyFile;
    };

    explicit OfficeServer(Config config, QObject *parent = nullptr);
    ~OfficeServer() override;

    bool start(QString *error);
    quint16 port() const { return m_port; }
    QString baseUrl() const;

    // Stops accepting, lets requests in flight finish (bounded by `graceMs`), closes the store.
    void shutdown(int graceMs, const std::function<void()> &done);

    // The demo's merchant, store, tills and tokens (OFFICE.md, "The program").
    static bool addDemo(OfficeStore &store, QString *error);

private:
    Config m_config;
    quint16 m_port = 0;
    std::unique_ptr<OfficeStore> m_store;
    OfficeApi *m_api = nullptr;
    Http::HttpServer *m_server = nullptr;
};

}   // namespace OncePay::Office
