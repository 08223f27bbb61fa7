#pragma once

// The rig of the sync engine suites (tst_syncengine, tst_refundsync): a demo GatewayServer in a
// temporary folder, the network simulator in front of it, a client straight to the gateway (the
// truth), and the till's core on this event loop: IntentJournal + GatewayClient (through the
// proxy) + SyncEngine, every intentChanged recorded in order.
//
//     void TestX::init() { QString e; QVERIFY2(m_rig.start(config, &e), qPrintable(e)); }
//     void TestX::cleanup() { QString e; QVERIFY2(m_rig.stop(&e), qPrintable(e)); }
#include "clientprobe.h"
#include "faultproxy.h"
#include "gatewayclient.h"
#include "gateway/gatewayserver.h"
#include "intentjournal.h"
#include "syncengine.h"

#include <QObject>
#include <QTemporaryDir>

#include <memory>
#include <optional>

class EngineRig
{
public:
    static constexpr char kToken[] = "sk_test_demo_till1";

    bool start(const OncePay::SyncEngine::Config &config, QString *error)
    {
        changes.clear();
        inFlightSeen.clear();
        dir = std::make_unique<QTemporaryDir>();
        if (!dir->isValid()) {
            *error = dir->errorString();
            return false;
        }
        gateway = ClientProbe::startDemoGateway(dir->path(), error);
        if (!gateway)
            return false;
        proxy = std::make_unique<OncePay::NetSim::FaultProxy>();
        if (!proxy->listen(QHostAddress::LocalHost, 0, QStringLiteral("127.0.0.1"), gateway->port(), error))
            return false;
        direct = std::make_unique<OncePay::GatewayClient>(QUrl(gateway->baseUrl()), QLatin1String(kToken), 10000);
        return startTill(config, error);
    }

    // The till's side alone (a restart): journal, client and engine on the same journal file.
    bool startTill(const OncePay::SyncEngine::Config &config, QString *error)
    {
        journal = std::make_unique<OncePay::IntentJournal>(
            OncePay::IntentJournal::Options{dir->filePath(QStringLiteral("journal.db")), 0});
        OncePay::TillError refusal;
        if (!journal->open(&refusal)) {
            *error = refusal.text();
            return false;
        }
        client = std::make_unique<OncePay::GatewayClient>(proxy->url(), QLatin1String(kToken), 400);
        engine = std::make_unique<OncePay::SyncEngine>(journal.get(), client.get(), config);
        QObject::connect(engine.get(), &OncePay::SyncEngine::intentChanged, &m_context, [this](const OncePay::Intent &i) {
            changes << i;
            inFlightSeen << engine->requestsInFlight();
        });
        std::optional<QString> started;   // the error, empty when started
        engine->start(&m_context, [&started](bool ok, const QString &why) {
            started = ok ? QString() : (why.isEmpty() ? QStringLiteral("?") : why);
        });
        if (!QTest::qWaitFor([&started] {
                return started.has_value();
            },
                ClientProbe::kWaitMs)) {
            *error = QStringLiteral("the engine did not start");
            return false;
        }
        *error = *started;
        return started->isEmpty();
    }

    // The engine first: nothing may answer into it once it is gone. Then its client (replies die
    // with it, unanswered, as in a crash), then the journal.
    void stopTill()
    {
        engine.reset();
        client.reset();
        journal.reset();
    }

    bool stop(QString *error)
    {
        stopTill();
        proxy.reset();   // cuts what is still open
        direct.reset();
        bool down = true;
        if (gateway) {
            down = false;
            gateway->shutdown(1000, [&down] {
                down = true;
            });
            if (!QTest::qWaitFor([&down] {
                    return down;
                },
                    ClientProbe::kWaitMs))
                *error = QStringLiteral("the gateway did not shut down");
            gateway.reset();
        }
        dir.reset();
        return down;
    }

    std::optional<OncePay::Intent> latest(const QString &key) const { return ClientProbe::latest(changes, key); }
    bool settled(const QString &key) const
    {
        const auto i = latest(key);
        return i && isFinal(i->state);
    }
    int sends(const QString &key) const
    {
        return int(std::count_if(changes.cbegin(), changes.cend(), [&](const OncePay::Intent &i) {
            return i.key == key && i.state == OncePay::IntentState::Sending;
        }));
    }

    std::unique_ptr<QTemporaryDir> dir;
    std::unique_ptr<OncePay::Gateway::GatewayServer> gateway;
    std::unique_ptr<OncePay::NetSim::FaultProxy> proxy;
    std::unique_ptr<OncePay::GatewayClient> direct;   // straight to the gateway: the truth
    std::unique_ptr<OncePay::IntentJournal> journal;
    std::unique_ptr<OncePay::GatewayClient> client;   // the till's, through the proxy
    std::unique_ptr<OncePay::SyncEngine> engine;
    QList<OncePay::Intent> changes;   // every intentChanged, in order
    QList<int> inFlightSeen;   // requestsInFlight() at each intentChanged

private:
    QObject m_context;   // the rig's answers, dropped once it is gone
};
