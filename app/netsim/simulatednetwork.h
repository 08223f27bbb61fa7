#pragma once

#include "faultproxy.h"

#include <QObject>
#include <QPointer>
#include <QUrl>

#include <functional>
#include <thread>

namespace OncePay {
class CompletionRelay;
}

namespace OncePay::NetSim {

// The network simulator on a thread of its own, driven from the window's thread: the till's demo
// mode puts it between the till and the embedded gateway. A FaultProxy made, run and destroyed
// on that thread forwards every byte there, so the till's traffic through it never takes the
// window's thread (on the window's thread, a drain of 10,000 queued payments spent a quarter
// of its samples in the proxy's socket calls).
//
// Every call crosses through CompletionRelay, both ways, so that ThreadSanitizer sees all of
// their ordering. setSettings() returns once the proxy applies the settings: the next byte the
// till sends meets them, as with a FaultProxy on the caller's thread (the demo's stories and
// the GUI suites rely on it). That wait is for a thread that never blocks on disk or network
// and only forwards bytes: microseconds.
class SimulatedNetwork final : public QObject
{
    Q_OBJECT

public:
    explicit SimulatedNetwork(QObject *parent = nullptr);
    ~SimulatedNetwork() override;   // stops the thread; open connections are reset

    // Starts the thread and its proxy on 127.0.0.1 (a free port) in front of the upstream.
    bool start(const QString &upstreamHost, quint16 upstreamPort, QString *error);

    QUrl url() const { return m_url; }   // what the till should use as its gateway URL
    Settings settings() const { return m_settings; }
    // Applies `settings` on the proxy's thread, then emits settingsChanged().
    void setSettings(const Settings &settings);

signals:
    void settingsChanged(const OncePay::NetSim::Settings &settings);

private:
    // Runs `work` on the proxy's thread with its proxy and returns once it has run.
    bool onProxyThread(const std::function<void(FaultProxy &)> &work);
    void stop();

    std::thread m_thread;
    CompletionRelay *m_relay = nullptr;   // the proxy thread's
    QPointer<QObject> m_context;   // lives on the proxy's thread until it ends
    FaultProxy *m_proxy = nullptr;   // used on the proxy's thread only
    QUrl m_url;
    Settings m_settings;
};

}   // namespace OncePay::NetSim
