#include "demobackend.h"

#include "faultproxy.h"
#include "gatewayserver.h"

#include <QDir>

namespace OncePay::Pos {

DemoBackend::DemoBackend(QObject *parent)
    : QObject(parent)
{
}

DemoBackend::~DemoBackend() = default;

QString DemoBackend::token()
{
    return QStringLiteral("sk_test_demo_till1");
}

bool DemoBackend::start(const QString &dataDir, QString *error)
{
    if (!QDir().mkpath(dataDir)) {
        *error = tr("Cannot create the data folder %1.").arg(dataDir);
        return false;
    }
    Gateway::GatewayServer::Config gc;
    gc.dbPath = QDir(dataDir).filePath(QStringLiteral("demo-gateway.db"));
    gc.demo = true;
    gc.recoveryIntervalMs = 1000;
    m_gateway = new Gateway::GatewayServer(gc, this);
    if (!m_gateway->start(error))
        return false;
    m_proxy = new NetSim::FaultProxy(this);
    return m_proxy->listen(QHostAddress::LocalHost, 0, QStringLiteral("127.0.0.1"), m_gateway->port(), error);
}

QUrl DemoBackend::tillUrl() const
{
    return m_proxy ? m_proxy->url() : QUrl();
}

QUrl DemoBackend::gatewayUrl() const
{
    return m_gateway ? QUrl(m_gateway->baseUrl()) : QUrl();
}

}   // namespace OncePay::Pos
