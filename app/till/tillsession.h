#pragma once

#include "gatewayclient.h"
#include "intentjournal.h"
#include "officesync.h"
#include "syncengine.h"

#include <QObject>
#include <QUrl>

#include <functional>
#include <memory>

namespace OncePay {

// Everything a till runs besides its screen: the journal, the client of one gateway (one or
// more instances) and the sync engine. The window of oncepay-pos and the commands of
// oncepay-ctl both run on one; neither knows where the gateway is (the demo's embedded gateway
// is composed by oncepay-pos and given here as a URL like any other).
class TillSession final : public QObject
{
    Q_OBJECT

public:
    struct Config
    {
        QList<QUrl> gatewayUrls;   // instances of one gateway, tried in turn
        QString token;
        IntentJournal::Options journal;
        SyncEngine::Config engine;
        int requestTimeoutMs = 5000;
        // The token's transport (gatewaysecurity.h): extra certificate authorities (PEM), and
        // whether plain HTTP to another machine is allowed. `contactsGateway` false: a session
        // that only works on the journal (it sends nothing), not held to it.
        QString caFile;
        bool allowInsecureHttp = false;
        bool contactsGateway = true;
        // The shop's office (issue 38): where the outbox is sent. Empty URL: no office (the
        // outbox still fills, so a till given one later sends its history).
        OfficeSync::Config office;
    };
    explicit TillSession(Config config, QObject *parent = nullptr);
    ~TillSession() override;

    // Opens the journal (it must be this process's alone) and creates the client and engine;
    // nothing is sent yet. On failure `error` is a sentence for the person at the till.
    bool open(QString *error);
    // Recovers what a crash left in the journal and starts syncing; `ready` once that is done,
    // unless `context` is gone by then.
    void start(QObject *context, std::function<void(bool ok, const QString &error)> ready);

    const Config &config() const { return m_config; }
    QUrl gatewayUrl() const;   // the instance in use now
    SyncEngine *engine() const { return m_engine.get(); }
    GatewayClient *client() const { return m_client.get(); }
    IntentJournal *journal() const { return m_journal.get(); }
    OfficeSync *office() const { return m_office.get(); }

private:
    Config m_config;
    std::unique_ptr<IntentJournal> m_journal;
    std::unique_ptr<GatewayClient> m_client;
    std::unique_ptr<SyncEngine> m_engine;
    std::unique_ptr<NetworkTransport> m_officeTransport;
    std::unique_ptr<OfficeSync> m_office;
};

}   // namespace OncePay
