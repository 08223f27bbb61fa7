#include "office/officeserver.h"

#include "http/httpserver.h"
#include "http/tlscontext.h"
#include "office/officeapi.h"
#include "office/officestore.h"

#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QTimeZone>
#include <QTimer>

namespace OncePay::Office {

Q_LOGGING_CATEGORY(lcOfficeServer, "oncepay.office.server", QtInfoMsg)

OfficeServer::OfficeServer(Config config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
{
}

OfficeServer::~OfficeServer()
{
    if (m_store)
        m_store->close();
}

QString OfficeServer::baseUrl() const
{
    return Http::HttpServer::baseUrl(m_config.address, m_port, !m_config.tlsCertFile.isEmpty());
}

bool OfficeServer::addDemo(OfficeStore &store, QString *error)
{
    const QString merchant = QStringLiteral("demo");
    const QString shop = QStringLiteral("1");
    return store.addTillToken(merchant, shop, QStringLiteral("1"), QByteArrayLiteral("ot_demo_till1"), error)
        && store.addTillToken(merchant, shop, QStringLiteral("2"), QByteArrayLiteral("ot_demo_till2"), error)
        && store.addOwnerToken(merchant, {}, QByteArrayLiteral("ot_demo_owner"), error);
}

bool OfficeServer::start(QString *error)
{
    const std::optional<DatabaseSpec> db = DatabaseSpec::parse(m_config.dbPath, error);
    if (!db) {
        *error = QStringLiteral("--db: %1").arg(*error);
        return false;
    }
    m_store = std::make_unique<OfficeStore>(OfficeStore::Options{*db, m_config.storeBusyTimeoutMs, m_config.storeConnections});
    if (!m_store->open(error))
        return false;
    if (m_config.demo && !addDemo(*m_store, error)) {
        *error = QStringLiteral("cannot add the demo tokens: %1").arg(*error);
        return false;
    }
    m_api = new OfficeApi(m_store.get(), this);
    if (!m_config.timeZone.isEmpty())
        m_api->setTimeZone(QTimeZone(m_config.timeZone.toUtf8()));

    Http::HttpLimits limits;
    limits.maxBodyBytes = OfficeApi::maxBodyBytes;
    limits.headerTimeoutMs = m_config.headerTimeoutMs;
    limits.bodyTimeoutMs = m_config.bodyTimeoutMs;
    limits.idleTimeoutMs = m_config.idleTimeoutMs;
    limits.maxConnections = m_config.maxConnections;
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
    qCInfo(lcOfficeServer) << "office listening on" << baseUrl() << (m_config.demo ? "(demo)" : "");
    return true;
}

void OfficeServer::shutdown(int graceMs, const std::function<void()> &done)
{
    if (m_server)
        m_server->close();   // stops listening; open connections finish their answers
    auto finished = std::make_shared<bool>(false);
    auto finish = [this, finished, done] {
        if (*finished)
            return;
        *finished = true;
        if (m_store)
            m_store->close();
        // The last answers may still sit in socket buffers: let them reach the clients first.
        auto *poll = new QTimer(this);
        poll->setInterval(5);
        QElapsedTimer elapsed;
        elapsed.start();
        connect(poll, &QTimer::timeout, this, [this, poll, elapsed, done] {
            if (m_server && m_server->isSending() && elapsed.elapsed() < 2000)
                return;
            poll->stop();
            poll->deleteLater();
            done();
        });
        poll->start();
    };
    if (!m_api || m_api->requestsInFlight() == 0)
        return finish();
    connect(m_api, &OfficeApi::idle, this, finish);
    QTimer::singleShot(graceMs, this, finish);
}

}   // namespace OncePay::Office
