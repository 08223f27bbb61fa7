#pragma once

#include <QObject>
#include <QUrl>

#include <atomic>
#include <thread>

namespace OncePay::NetSim {
class SimulatedNetwork;
}

namespace OncePay::Pos {

// The till's demo backend: a gateway run in this process (SQLite beside the till's data, the
// demo credentials) and the network simulator in front of it, so that the till reaches it over
// real TCP that the simulator can refuse, swallow or cut. Composed here, in the program, so
// that neither the till's library nor its screens ever link the gateway.
//
// The gateway runs on a thread of its own, as a real one runs in a process of its own: its HTTP
// layer and store never take the window's thread (a drain of 10,000 queued payments otherwise
// spends a third of the window's thread in the gateway). Nothing but TCP crosses between the
// two: the gateway's objects are made, run and destroyed on its thread; the window's thread
// only learns its address (through a std::promise) and asks it to stop (an atomic flag), both
// of which ThreadSanitizer sees. The simulated network in front of it runs on a third thread
// (SimulatedNetwork), which the demo menus drive from the window's thread.
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
    NetSim::SimulatedNetwork *network() const { return m_network; }

private:
    void stopGateway();

    std::thread m_gatewayThread;
    std::atomic<bool> m_stopGateway{false};
    quint16 m_gatewayPort = 0;   // written by the gateway's thread before it says it started
    QUrl m_gatewayUrl;
    NetSim::SimulatedNetwork *m_network = nullptr;
};

}   // namespace OncePay::Pos
