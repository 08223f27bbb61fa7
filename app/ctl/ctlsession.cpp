#include "ctlsession.h"

#include "ctloutput.h"
#include "eventwait.h"
#include "exitcode.h"

#include <QFileInfo>

namespace OncePay::Ctl {

namespace {
const QString kDefaultGateway = QStringLiteral("http://127.0.0.1:8080");
}

CtlSession::Options CtlSession::optionsFromEnvironment()
{
    Options o;
    o.dbPath = qEnvironmentVariable("ONCEPAY_DB");
    o.gateways = qEnvironmentVariable("ONCEPAY_GATEWAY", kDefaultGateway);
    o.token = qEnvironmentVariable("ONCEPAY_TOKEN");
    o.caFile = qEnvironmentVariable("ONCEPAY_CA_FILE");
    o.office = qEnvironmentVariable("ONCEPAY_OFFICE");
    o.officeToken = qEnvironmentVariable("ONCEPAY_OFFICE_TOKEN");
    o.officeTill = qEnvironmentVariable("ONCEPAY_OFFICE_TILL", o.officeTill);
    return o;
}

std::optional<int> CtlSession::checkOffice(const QString &office)
{
    const QUrl url(office, QUrl::StrictMode);
    if (!office.isEmpty() && (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")) || url.host().isEmpty()))
        return fail(Usage, QStringLiteral("--office: expected an http(s) URL such as http://192.0.2.20:8090, got \"%1\"").arg(office));
    return std::nullopt;
}

std::optional<int> CtlSession::checkGateways(const QString &gateways)
{
    QString invalid;
    if (!GatewayClient::parseBaseUrls(gateways, &invalid))
        return fail(Usage, QStringLiteral("--gateway: expected http(s) URLs separated by commas such as "
                                          "http://127.0.0.1:8080,http://127.0.0.1:8081, got \"%1\"")
                               .arg(invalid));
    return std::nullopt;
}

CtlSession::CtlSession(Options options)
    : m_options(std::move(options))
{
}

CtlSession::~CtlSession() = default;

std::optional<int> CtlSession::open(Use use)
{
    if (m_options.dbPath.isEmpty())
        return fail(Usage, QStringLiteral("no journal: give --db PATH or set ONCEPAY_DB"));
    if (use == Use::Change && !QFileInfo(m_options.dbPath).isFile())
        return fail(Error, QStringLiteral("there is no till journal at %1").arg(m_options.dbPath));
    TillSession::Config config;
    if (use == Use::ReadJournal || use == Use::Change) {
        // The gateway is never asked; TillSession still builds its client of some gateway.
        config.gatewayUrls = GatewayClient::parseBaseUrls(m_options.gateways).value_or(QList<QUrl>{QUrl(kDefaultGateway)});
    } else {
        // Checked before the journal is touched: a wrong command line stores nothing.
        if (m_options.token.isEmpty())
            return fail(Usage, QStringLiteral("no token: give --token T or set ONCEPAY_TOKEN"));
        if (auto rc = checkGateways(m_options.gateways))
            return rc;
        config.gatewayUrls = *GatewayClient::parseBaseUrls(m_options.gateways);
    }
    config.token = m_options.token;
    config.requestTimeoutMs = m_options.requestTimeoutMs;
    config.caFile = m_options.caFile;
    config.allowInsecureHttp = m_options.allowInsecureHttp;
    config.contactsGateway = use != Use::ReadJournal && use != Use::Change;
    config.office.office = QUrl(m_options.office);
    config.office.token = m_options.officeToken;
    config.office.till = m_options.officeTill;
    config.journal.path = m_options.dbPath;
    config.journal.maxPageCount = qEnvironmentVariableIntValue("ONCEPAY_JOURNAL_MAX_PAGES");
    config.journal.readOnly = use == Use::ReadJournal || use == Use::ReadAndAsk;
    if (qEnvironmentVariableIsSet("ONCEPAY_BACKOFF_CAP_MS"))
        config.engine.backoffCapMs = qEnvironmentVariableIntValue("ONCEPAY_BACKOFF_CAP_MS");
    config.engine.probeCapMs = qMin<qint64>(config.engine.probeCapMs, config.engine.backoffCapMs);

    m_till = std::make_unique<TillSession>(config);
    QString error;
    if (!m_till->open(&error))   // e.g. not a journal, or owned by another process
        return fail(Error, error);
    if (use != Use::Sync)
        return std::nullopt;

    bool finished = false;
    bool ok = false;
    EventWait started([&] {
        return finished;
    });
    m_till->start(m_till.get(), [&](bool o, const QString &e) {
        finished = true;
        ok = o;
        error = e;
        started.recheck();
    });
    started.exec();
    if (!ok)
        return fail(Error, QStringLiteral("cannot start: %1").arg(error));
    return std::nullopt;
}

bool CtlSession::readIntents(IntentJournal::Query query, QList<Intent> *intents, QString *error)
{
    bool finished = false;
    bool ok = false;
    EventWait read([&] {
        return finished;
    });
    query.limit = -1;
    m_till->journal()->list(query, read.context(), [&](bool o, const TillError &e, QList<Intent> list) {
        ok = o;
        *error = e.text();
        *intents = std::move(list);
        finished = true;
        read.recheck();
    });
    read.exec();
    return ok;
}

}   // namespace OncePay::Ctl
