#pragma once

#include "gatewayclient.h"
#include "intentjournal.h"
#include "syncengine.h"

#include <QObject>
#include <QUrl>

#include <memory>

namespace OncePay::Gateway { class GatewayServer; }
namespace OncePay::NetSim { class FaultProxy; }

namespace OncePay::Ui {

// Everything a till runs besides its window: the journal, the client and the sync engine, and
// in demo mode an embedded gateway behind the network simulator.
class TillSession final : public QObject
{
    Q_OBJECT

public:
    struct Config
    {
        QList<QUrl> gatewayUrls;  // instances of one gateway, tried in turn; empty: embedded demo gateway
        QString token = QStringLiteral("sk_test_demo_till1");
        QString journalPath;      // empty: app data folder
        QString dataDir;          // where the demo gateway keeps its databases
        OfflineLimits limits{500'00, 2000'00, 24 * 3600 * 1000LL};
    };
    explicit TillSession(Config config, QObject *parent = nullptr);
    ~TillSession() override;

    bool open(QString *error);
    void start(std::function<void(bool, const QString &)> ready);

    bool isDemo() const { return m_config.gatewayUrls.isEmpty(); }
    QUrl gatewayUrl() const;   // the one in use now
    SyncEngine *engine() const { return m_engine.get(); }
    GatewayClient *client() const { return m_client.get(); }
    IntentJournal *journal() const { return m_journal.get(); }
    NetSim::FaultProxy *proxy() const { return m_proxy; }   // demo only
    QUrl demoGatewayUrl() const;                             // the gateway itself, not via the simulator

private:
    Config m_config;
    Gateway::GatewayServer *m_gateway = nullptr;
    NetSim::FaultProxy *m_proxy = nullptr;
    std::unique_ptr<IntentJournal> m_journal;
    std::unique_ptr<GatewayClient> m_client;
    std::unique_ptr<SyncEngine> m_engine;
};

} // namespace OncePay::Ui
