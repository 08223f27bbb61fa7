#include "demobackend.h"

#include "simulatednetwork.h"
#include "gateway/gatewayserver.h"
#include "privatefiles.h"

#include <QDir>
#include <QEventLoop>
#include <QTimer>

#include <future>

#include <pthread.h>

namespace OncePay::Pos {

DemoBackend::DemoBackend(QObject *parent)
    : QObject(parent)
{
}

DemoBackend::~DemoBackend()
{
    stopGateway();
}

void DemoBackend::stopGateway()
{
    m_stopGateway.store(true);
    if (m_gatewayThread.joinable())
        m_gatewayThread.join();
}

QString DemoBackend::token()
{
    return QStringLiteral("sk_test_demo_till1");
}

bool DemoBackend::start(const QString &dataDir, QString *error)
{
    QString problem;
    if (!PrivateFiles::makeFolder(dataDir, false, &problem)) {
        *error = tr("Cannot create the data folder %1.").arg(dataDir);
        return false;
    }
    Gateway::GatewayServer::Config gc;
    gc.dbPath = QDir(dataDir).filePath(QStringLiteral("demo-gateway.db"));
    // The demo's gateway and bank keep their payments beside the till's journal, and are the
    // shop's as it is: made 0600 before SQLite first opens them (their -wal and -shm follow),
    // those of an older till narrowed. The gateway's own --db is its service account's business.
    gc.acquirerDbPath = QDir(dataDir).filePath(QStringLiteral("demo-gateway.acquirer.db"));
    for (const QString &db : {gc.dbPath, gc.acquirerDbPath}) {
        if (!PrivateFiles::createFile(db, &problem)) {
            *error = tr("Cannot create the demo's database %1: %2").arg(db, problem);
            return false;
        }
        PrivateFiles::narrowDatabase(db);
    }
    gc.demo = true;
    gc.recoveryIntervalMs = 1000;
    std::promise<QString> started;   // empty: listening
    std::future<QString> answer = started.get_future();
    m_gatewayThread = std::thread([this, gc, &started] {
        pthread_setname_np(pthread_self(), "demo-gateway");
        QEventLoop loop;
        Gateway::GatewayServer gateway(gc);
        QString why;
        if (!gateway.start(&why)) {
            started.set_value(why.isEmpty() ? QStringLiteral("the demo gateway did not start") : why);
            return;
        }
        m_gatewayPort = gateway.port();
        m_gatewayUrl = QUrl(gateway.baseUrl());
        started.set_value(QString());
        // Asked to stop through an atomic flag, not an event posted from the window's thread:
        // Qt's event queue locks are invisible to ThreadSanitizer (cmake/QtBehaviour.cmake).
        QTimer poll;
        QObject::connect(&poll, &QTimer::timeout, &loop, [this, &loop] {
            if (m_stopGateway.load())
                loop.quit();
        });
        poll.start(20);
        loop.exec();
    });
    const QString why = answer.get();
    if (!why.isEmpty()) {
        stopGateway();
        *error = why;
        return false;
    }
    m_network = new NetSim::SimulatedNetwork(this);
    return m_network->start(QStringLiteral("127.0.0.1"), m_gatewayPort, error);
}

QUrl DemoBackend::tillUrl() const
{
    return m_network ? m_network->url() : QUrl();
}

QUrl DemoBackend::gatewayUrl() const
{
    return m_gatewayUrl;
}

}   // namespace OncePay::Pos
