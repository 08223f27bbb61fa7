#include "tillsession.h"

#include "faultproxy.h"
#include "gatewayserver.h"

#include <QDir>

namespace OncePay::Ui {

TillSession::TillSession(Config config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
{
}

TillSession::~TillSession()
{
    m_engine.reset();
    m_client.reset();
    m_journal.reset();
}

QUrl TillSession::gatewayUrl() const
{
    return m_client ? m_client->baseUrl() : m_config.gatewayUrls.value(0);
}

QUrl TillSession::demoGatewayUrl() const
{
    return m_gateway ? QUrl(m_gateway->baseUrl()) : QUrl();
}

bool TillSession::open(QString *error)
{
    if (!QDir().mkpath(m_config.dataDir)) {
        *error = tr("Cannot create the data folder %1.").arg(m_config.dataDir);
        return false;
    }
    QList<QUrl> urls = m_config.gatewayUrls;
    if (isDemo()) {
        // The demo gateway runs in this process; the till reaches it through the simulator so
        // that "offline" is real traffic refused, not a flag.
        Gateway::GatewayServer::Config gc;
        gc.dbPath = QDir(m_config.dataDir).filePath(QStringLiteral("demo-gateway.db"));
        gc.demo = true;
        gc.recoveryIntervalMs = 1000;
        m_gateway = new Gateway::GatewayServer(gc, this);
        if (!m_gateway->start(error))
            return false;
        m_proxy = new NetSim::FaultProxy(this);
        if (!m_proxy->listen(QHostAddress::LocalHost, 0, QStringLiteral("127.0.0.1"), m_gateway->port(), error))
            return false;
        urls = {m_proxy->url()};
    }
    IntentJournal::Options jo;
    jo.path = m_config.journalPath.isEmpty() ? QDir(m_config.dataDir).filePath(QStringLiteral("till-journal.db"))
                                             : m_config.journalPath;
    m_journal = std::make_unique<IntentJournal>(jo);
    if (!m_journal->open(error)) {
        *error = tr("The journal %1 cannot be used, and it was left as it is: %2").arg(jo.path, *error);
        return false;
    }
    SyncEngine::Config ec;
    ec.limits = m_config.limits;
    ec.maxInFlight = 16;   // enough for the gateway's group commit to help when a queue drains
    m_client = std::make_unique<GatewayClient>(urls, m_config.token, 5000, nullptr, ec.maxInFlight);
    m_engine = std::make_unique<SyncEngine>(m_journal.get(), m_client.get(), ec);
    return true;
}

void TillSession::start(std::function<void(bool, const QString &)> ready)
{
    m_engine->start(std::move(ready));
}

} // namespace OncePay::Ui
