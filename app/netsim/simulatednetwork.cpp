#include "simulatednetwork.h"

#include "completionrelay.h"

#include <QEventLoop>
#include <QLoggingCategory>

#include <chrono>
#include <future>
#include <memory>

#include <pthread.h>

namespace OncePay::NetSim {

Q_LOGGING_CATEGORY(lcSimulatedNetwork, "oncepay.netsim.thread", QtInfoMsg)

namespace {
// Far beyond what the proxy's thread takes to run a call (it never blocks); reached only if
// that thread is gone, when waiting longer would only freeze the caller.
constexpr auto kCallTimeout = std::chrono::seconds(10);

struct Started
{
    QString error;   // empty: listening
    CompletionRelay *relay = nullptr;
    QPointer<QObject> context;
    FaultProxy *proxy = nullptr;
    QUrl url;
};
}   // namespace

SimulatedNetwork::SimulatedNetwork(QObject *parent)
    : QObject(parent)
{
}

SimulatedNetwork::~SimulatedNetwork()
{
    stop();
}

bool SimulatedNetwork::start(const QString &upstreamHost, quint16 upstreamPort, QString *error)
{
    Q_ASSERT(!m_thread.joinable());
    std::promise<Started> started;
    std::future<Started> answer = started.get_future();
    m_thread = std::thread([upstreamHost, upstreamPort, &started] {
        pthread_setname_np(pthread_self(), "netsim");
        QEventLoop loop;
        FaultProxy proxy;
        Started s;
        if (!proxy.listen(QHostAddress::LocalHost, 0, upstreamHost, upstreamPort, &s.error)) {
            if (s.error.isEmpty())
                s.error = QStringLiteral("the network simulator did not start");
            started.set_value(s);
            return;
        }
        s.relay = CompletionRelay::forCurrentThread();
        s.context = &loop;
        s.proxy = &proxy;
        s.url = proxy.url();
        started.set_value(s);
        loop.exec();   // until stop() asks it to quit, through the relay
    });
    Started s = answer.get();
    if (!s.error.isEmpty() || !s.relay) {
        m_thread.join();
        if (error)
            *error = s.error;
        return false;
    }
    m_relay = s.relay;
    m_context = s.context;
    m_proxy = s.proxy;
    m_url = s.url;
    return true;
}

void SimulatedNetwork::stop()
{
    if (!m_thread.joinable())
        return;
    if (m_relay) {
        QPointer<QObject> context = m_context;
        m_relay->post(context, [context] {
            if (auto *loop = qobject_cast<QEventLoop *>(context.data()))
                loop->quit();
        });
    }
    m_thread.join();
    m_relay = nullptr;
    m_proxy = nullptr;
}

bool SimulatedNetwork::onProxyThread(const std::function<void(FaultProxy &)> &work)
{
    if (!m_relay || !m_proxy)
        return false;
    // Shared: if the wait ever times out, the call may still run later and must find it alive.
    auto done = std::make_shared<std::promise<void>>();
    std::future<void> ran = done->get_future();
    m_relay->post(m_context, [work, done, proxy = m_proxy] {
        work(*proxy);
        done->set_value();
    });
    if (ran.wait_for(kCallTimeout) != std::future_status::ready) {
        qCWarning(lcSimulatedNetwork) << "the network simulator's thread did not answer";
        return false;
    }
    return true;
}

void SimulatedNetwork::setSettings(const Settings &settings)
{
    auto applied = std::make_shared<Settings>(settings);
    if (!onProxyThread([applied](FaultProxy &proxy) {
            proxy.setSettings(*applied);
            *applied = proxy.settings();   // as the proxy bounded it
        }))
        return;
    if (*applied == m_settings)
        return;
    m_settings = *applied;
    emit settingsChanged(m_settings);
}

}   // namespace OncePay::NetSim
