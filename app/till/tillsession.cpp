#include "tillsession.h"

#include "gatewaysecurity.h"

namespace OncePay {

TillSession::TillSession(Config config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
{
}

TillSession::~TillSession()
{
    // The engine and the office's sender hold the journal: they go first.
    m_office.reset();
    m_officeTransport.reset();
    m_engine.reset();
    m_client.reset();
    m_journal.reset();
}

QUrl TillSession::gatewayUrl() const
{
    return m_client ? m_client->baseUrl() : m_config.gatewayUrls.value(0);
}

bool TillSession::open(QString *error)
{
    if (m_config.gatewayUrls.isEmpty()) {
        *error = tr("No gateway is configured.");
        return false;
    }
    if (m_config.contactsGateway) {
        const QString refusal = plainHttpRefusal(m_config.gatewayUrls, m_config.allowInsecureHttp);
        if (!refusal.isEmpty()) {
            *error = refusal;
            return false;
        }
    }
    const std::optional<QSslConfiguration> tls = gatewayTls(m_config.caFile, error);
    if (!tls)
        return false;
    m_journal = std::make_unique<IntentJournal>(m_config.journal);
    TillError refusal;
    if (!m_journal->open(&refusal)) {
        *error = refusal.text();
        m_journal.reset();
        return false;
    }
    m_client = std::make_unique<GatewayClient>(m_config.gatewayUrls, m_config.token, m_config.requestTimeoutMs,
        nullptr, m_config.engine.maxInFlight);
    m_client->setTlsConfiguration(*tls);
    m_engine = std::make_unique<SyncEngine>(m_journal.get(), m_client.get(), m_config.engine);
    m_officeTransport = std::make_unique<NetworkTransport>(1);
    m_office = std::make_unique<OfficeSync>(m_journal.get(), m_officeTransport.get(), m_config.office);
    // A payment or refund that changed may have ended a sale: its event goes now, not at the poll.
    connect(m_engine.get(), &SyncEngine::intentChanged, m_office.get(), &OfficeSync::kick);
    return true;
}

void TillSession::start(QObject *context, std::function<void(bool, const QString &)> ready)
{
    // The office's sender starts with the session; a session that only works on the journal
    // (contactsGateway false: oncepay-ctl's reading commands) sends nothing.
    if (m_config.contactsGateway)
        m_office->start();
    m_engine->start(context, std::move(ready));
}

}   // namespace OncePay
