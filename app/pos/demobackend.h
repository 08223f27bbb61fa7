#pragma once

#include <QObject>
#include <QUrl>

namespace OncePay::Gateway {
class GatewayServer;
}
namespace OncePay::NetSim {
class FaultProxy;
}

namespace OncePay::Pos {

// The till's demo backend: a gateway run in this process (SQLite beside the till's data, the
// demo credentials) and the network simulator in front of it, so that the till reaches it over
// real TCP that the simulator can refuse, swallow or cut. Composed here, in the program, so
// that neither the till's library nor its screens ever link the gateway.
class DemoBackend final : public QObject
{
    Q_OBJECT

public:
    explicit DemoBackend(QObject *parent = nullptr);
    ~DemoBackend() override;

    // Starts the gateway with its databases in `dataDir` and the simulator in front of it.
    bool start(const QString &dataDir, QString *error);

    QUrl tillUrl() const;   // what the till talks to: through the simulator
    QUrl gatewayUrl() const;   // the gateway itself, for the simulation endpoints
    static QString token();   // the demo till's bearer token
    NetSim::FaultProxy *network() const { return m_proxy; }

private:
    Gateway::GatewayServer *m_gateway = nullptr;
    NetSim::FaultProxy *m_proxy = nullptr;
};

}   // namespace OncePay::Pos
