#include "gateway/gatewayserver.h"

#include "gateway/acquirer/acquirers.h"
#include "gateway/acquirer/acquirersimulation.h"
#include "gateway/api/httpapi.h"
#include "http/httpserver.h"
#include "gateway/metrics.h"
#include "gateway/steps/paymentservice.h"
#include "gateway/store/sqlgatewaystore.h"
#include "http/tlscontext.h"
#include "gateway/api/tokenstore.h"

#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QElapsedTimer>
#include <QTimer>

namespace OncePay::Gateway {

Q_LOGGING_CATEGORY(lcServer, "oncepay.gateway.server", QtInfoMsg)

GatewayServer::GatewayServer(Config config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
{
}

GatewayServer::~GatewayServer()
{
    closeStores();
}

QString GatewayServer::baseUrl() const
{
    return Http::HttpServer::baseUrl(m_config.address, m_port, !m_config.tlsCertFile.isEmpty());
}

bool GatewayServer::start(QString *error)
{
    m_metrics = std::make_unique<Metrics>();
    m_tokens = std::make_unique<TokenStore>();
    if (m_config.demo)
        m_tokens->addDemoTokens();
    if (!m_config.tokensFile.isEmpty() && !m_tokens->loadFile(m_config.tokensFile, error))
        return false;
    if (m_tokens->size() == 0) {
        *error = QStringLiteral("no tokens: give --tokens FILE, or --demo for the demo credentials");
        return false;
    }

    std::optional<SqlGatewayStore::Options> storeOptions = SqlGatewayStore::fromSpec(m_config.dbPath, error);
    if (!storeOptions) {
        *error = QStringLiteral("--db: %1").arg(*error);
        return false;
    }
    storeOptions->busyTimeoutMs = m_config.storeBusyTimeoutMs;
    storeOptions->connections = m_config.storeConnections;
    storeOptions->minFreeBytes = m_config.storeMinFreeBytes;
    const bool postgres = storeOptions->driver == SqlBatchWorker::Driver::PostgreSql;
    QString ledger = m_config.acquirerDbPath;
    if (postgres && ledger.isEmpty() && m_config.acquirerUrl.isEmpty()) {
        // Instances on one database must share one acquirer; a ledger "next to" a database URL
        // would be a different bank per machine.
        *error = QStringLiteral("with a PostgreSQL --db, give --acquirer URL (or --acquirer-db PATH for a single instance)");
        return false;
    }
    m_store = std::make_unique<SqlGatewayStore>(*storeOptions);
    if (!m_store->open(error))
        return false;

    if (ledger.isEmpty()) {
        const QFileInfo db(m_config.dbPath);
        ledger = db.dir().filePath(db.completeBaseName() + QStringLiteral(".acquirer.db"));
    }
    // The acquirer must answer well within the lease, or a retry could take over a live call.
    const qint64 acquirerTimeoutMs = qBound<qint64>(1, m_config.acquirerTimeoutMs, qMax<qint64>(1, m_config.leaseMs / 2));
    // A shared acquirer's deadline is the payment's; PaymentService keeps its own too.
    m_acquirer = makeAcquirer({m_config.acquirerUrl, ledger, m_config.acquirerKeyMemoryMs,
                                  int(qMin<qint64>(acquirerTimeoutMs, 3'600'000))},
        this);
    if (!m_acquirer) {
        *error = QStringLiteral("--acquirer: no acquirer speaks %1").arg(m_config.acquirerUrl.scheme());
        return false;
    }
    if (!m_acquirer->open(error))
        return false;

    PaymentService::Config pc;
    pc.leaseMs = m_config.leaseMs;
    pc.retentionMs = m_config.retentionMs;
    pc.acquirerTimeoutMs = acquirerTimeoutMs;
    pc.recoveryIntervalMs = m_config.recoveryIntervalMs;
    pc.acquirerKeyWindowMs = m_config.acquirerKeyWindowMs;
    pc.walletConfirmTimeoutMs = m_config.walletConfirmTimeoutMs;
    if (m_config.demo) {
        pc.faultKillAt = m_config.faultKillAt;
        pc.faultPauseAt = m_config.faultPauseAt;
    }
    m_payments = new PaymentService(pc, m_store.get(), m_acquirer, m_metrics.get(), this);
    m_api = new HttpApi({m_config.demo, m_config.rateLimitPerSecond}, m_tokens.get(), m_payments, m_acquirer->simulated(),
        m_metrics.get(), this);

    m_api->beforeMetrics = [this] {
        const GatewayStore::Stats s = m_store->stats();
        m_metrics->setGauge("oncepay_store_commits_total", "store=\"gateway\"", s.commits);
        m_metrics->setGauge("oncepay_store_units_total", "store=\"gateway\"", s.units);
        const AcquirerSimulation *bank = m_acquirer->simulated();
        m_metrics->setGauge("oncepay_store_commits_total", "store=\"acquirer\"", bank ? bank->ledgerCommits() : 0);
        m_metrics->setGauge("oncepay_store_units_total", "store=\"acquirer\"", bank ? bank->ledgerUnits() : 0);
    };

    Http::HttpLimits limits;
    limits.maxBodyBytes = HttpApi::maxBodyBytes;
    limits.headerTimeoutMs = m_config.headerTimeoutMs;
    limits.bodyTimeoutMs = m_config.bodyTimeoutMs;
    limits.idleTimeoutMs = m_config.idleTimeoutMs;
    limits.maxConnections = m_config.maxConnections;
    limits.maxConnectionsPerPeer = m_config.maxConnectionsPerPeer;
    std::shared_ptr<const Http::TlsContext> tls;
    if (!m_config.tlsCertFile.isEmpty()) {
        tls = Http::TlsContext::fromFiles(m_config.tlsCertFile, m_config.tlsKeyFile, error);
        if (!tls)
            return false;
    }
    m_server = new Http::HttpServer(
        limits, std::move(tls), [this](Http::HttpRequest &&request, const Http::HttpResponder &responder) {
            m_api->handle(std::move(request), responder);
        },
        this);
    m_port = m_server->start(m_config.address, m_config.port, error);
    if (m_port == 0)
        return false;
    m_payments->start();
    qCInfo(lcServer) << "gateway listening on" << baseUrl() << (m_config.demo ? "(demo)" : "");
    return true;
}

void GatewayServer::shutdown(int graceMs, const std::function<void()> &done)
{
    if (m_server)
        m_server->close();   // stops listening; open connections finish their answers
    if (m_payments)
        m_payments->stop();
    auto finished = std::make_shared<bool>(false);
    auto finish = [this, finished, done] {
        if (*finished)
            return;
        *finished = true;
        closeStores();
        flushConnections(2000, done);
    };
    if (!m_api || m_api->requestsInFlight() == 0)
        return finish();
    qCInfo(lcServer) << "waiting for" << m_api->requestsInFlight() << "requests in flight";
    connect(m_api, &HttpApi::idle, this, finish);
    QTimer::singleShot(graceMs, this, finish);
}

void GatewayServer::flushConnections(int timeoutMs, const std::function<void()> &done)
{
    // The last answers may still sit in socket buffers: let them reach the clients first.
    QElapsedTimer elapsed;
    elapsed.start();
    auto *poll = new QTimer(this);
    poll->setInterval(5);
    connect(poll, &QTimer::timeout, this, [this, poll, elapsed, timeoutMs, done] {
        const bool pending = m_server && m_server->isSending();
        if (pending && elapsed.elapsed() < timeoutMs)
            return;
        poll->stop();
        poll->deleteLater();
        done();
    });
    poll->start();
}

void GatewayServer::closeStores()
{
    if (m_acquirer)
        m_acquirer->close();
    if (m_store)
        m_store->close();
}

}   // namespace OncePay::Gateway
