#include "gateway/gatewayoptions.h"

#include "gateway/acquirer/acquirers.h"
#include "gateway/store/sqlgatewaystore.h"
#include "listenaddress.h"
#include "timeutil.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QStandardPaths>

#include <limits>
#include <optional>

namespace OncePay::Gateway {

namespace {
// "0", "4096", "512K", "64M", "2G", "1T" (powers of 1024); nullopt for anything else.
std::optional<qint64> parseSize(const QString &text)
{
    static const QString units = QStringLiteral("KMGT");
    QString digits = text.trimmed();
    int shift = 0;
    if (!digits.isEmpty()) {
        const qsizetype unit = units.indexOf(digits.back().toUpper());
        if (unit >= 0) {
            shift = 10 * int(unit + 1);
            digits.chop(1);
        }
    }
    bool ok = false;
    const qint64 n = digits.toLongLong(&ok);
    if (!ok || n < 0 || digits.startsWith(QLatin1Char('+')) || n > (std::numeric_limits<qint64>::max() >> shift))
        return std::nullopt;
    return n << shift;
}
}   // namespace

namespace {
GatewayOptions failure(const QString &message)
{
    GatewayOptions o;
    o.result = GatewayOptions::Result::Error;
    o.message = message;
    return o;
}
}   // namespace

GatewayOptions GatewayOptions::parse(const QStringList &arguments)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "OncePay payment gateway: the HTTP API of API.md with Idempotency-Key semantics and a simulated acquirer."));
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help and exit."));
    const QCommandLineOption version(QStringLiteral("version"), QStringLiteral("Show the version and exit."));
    const QCommandLineOption listen(QStringLiteral("listen"),
        QStringLiteral("Address and port to listen on, e.g. 127.0.0.1:8080 or [::1]:0 (0 picks a free port). Default 127.0.0.1:8080."),
        QStringLiteral("ADDR:PORT"), QStringLiteral("127.0.0.1:8080"));
    const QCommandLineOption db(QStringLiteral("db"),
        QStringLiteral("The gateway's database: a SQLite file (created if missing; default gateway.db in the app data folder),"
                       " or postgresql://USER:PASS@HOST:PORT/DBNAME, shared by any number of instances."),
        QStringLiteral("PATH|URL"));
    const QCommandLineOption acquirerDb(QStringLiteral("acquirer-db"),
        QStringLiteral("SQLite ledger of the simulated acquirer. Default: <db name>.acquirer.db next to --db."),
        QStringLiteral("PATH"));
    const QCommandLineOption acquirer(QStringLiteral("acquirer"),
        QStringLiteral("Call the acquirer service oncepay-acquirer at this URL, e.g. http://10.0.0.5:7070 (shared by several gateways). Default: an embedded simulator."),
        QStringLiteral("URL"));
    const QCommandLineOption demo(QStringLiteral("demo"),
        QStringLiteral("Demo mode: the fixed demo tokens of API.md and the /v1/_sim endpoints."));
    const QCommandLineOption tokens(QStringLiteral("tokens"),
        QStringLiteral("File of \"TOKEN MERCHANT TERMINAL\" lines; tokens are kept hashed only."), QStringLiteral("FILE"));
    const QCommandLineOption retention(QStringLiteral("key-retention"),
        QStringLiteral("How long a finished response is replayed byte for byte (payments keep their key forever). Default 24h."),
        QStringLiteral("DUR"), QStringLiteral("24h"));
    const QCommandLineOption lease(QStringLiteral("claim-lease"),
        QStringLiteral("How long a claim is owned before a retry may take it over and resume. Default 30s."),
        QStringLiteral("DUR"), QStringLiteral("30s"));
    const QCommandLineOption rate(QStringLiteral("rate-limit"),
        QStringLiteral("Requests per second allowed per token, 0 for none (default)."), QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption recovery(QStringLiteral("recovery-interval"),
        QStringLiteral("How often processing payments are resolved by asking the acquirer. Default 5s."),
        QStringLiteral("DUR"), QStringLiteral("5s"));
    const QCommandLineOption acquirerTimeout(QStringLiteral("acquirer-timeout"),
        QStringLiteral("How long to wait for the acquirer before answering 202 processing. Default 10s (at most half the lease)."),
        QStringLiteral("DUR"), QStringLiteral("10s"));
    const QCommandLineOption walletTimeout(QStringLiteral("wallet-confirm-timeout"),
        QStringLiteral("How long a wallet payment waits for the customer's confirmation on the phone before the gateway cancels it at the acquirer. Default 60s."),
        QStringLiteral("DUR"), QStringLiteral("60s"));
    const QCommandLineOption connections(QStringLiteral("db-connections"),
        QStringLiteral("PostgreSQL only: connections this instance keeps open to the database (1-64). Default 8."),
        QStringLiteral("N"), QStringLiteral("8"));
    const QCommandLineOption busy(QStringLiteral("store-busy-timeout"),
        QStringLiteral("How long to wait for a locked store before answering 503. Default 2s."),
        QStringLiteral("DUR"), QStringLiteral("2s"));
    const QCommandLineOption minFree(QStringLiteral("store-min-free"),
        QStringLiteral("SQLite only: /healthz answers 503 (not ready) while the disk holding the store has less free space than this; 0 never. Default 64M."),
        QStringLiteral("SIZE"), QStringLiteral("64M"));
    const QCommandLineOption headerTimeout(QStringLiteral("header-timeout"),
        QStringLiteral("A request's head must arrive within this time of its first byte (and a new connection start one), else 408. Default 10s."),
        QStringLiteral("DUR"), QStringLiteral("10s"));
    const QCommandLineOption bodyTimeout(QStringLiteral("body-timeout"),
        QStringLiteral("A request's body must arrive within this time of its head, else 408. Default 30s."),
        QStringLiteral("DUR"), QStringLiteral("30s"));
    const QCommandLineOption idleTimeout(QStringLiteral("idle-timeout"),
        QStringLiteral("A kept-alive connection idle this long is closed. Default 60s."),
        QStringLiteral("DUR"), QStringLiteral("60s"));
    const QCommandLineOption maxConnections(QStringLiteral("max-connections"),
        QStringLiteral("Connections open at once (never more than the file limit allows, less 64); at the cap new ones wait. Default 10000."),
        QStringLiteral("N"), QStringLiteral("10000"));
    const QCommandLineOption maxPerPeer(QStringLiteral("max-connections-per-peer"),
        QStringLiteral("Connections open at once from one address, 0 for no limit (default). Set it when clients connect directly (not behind a reverse proxy, which is one address)."),
        QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption tlsCert(QStringLiteral("tls-cert"),
        QStringLiteral("Serve HTTPS (TLS 1.2 or later) with this PEM certificate (chain); needs --tls-key."),
        QStringLiteral("FILE"));
    const QCommandLineOption tlsKey(QStringLiteral("tls-key"),
        QStringLiteral("The PEM private key (RSA or EC, unencrypted) of --tls-cert."), QStringLiteral("FILE"));
    const QCommandLineOption keyWindow(QStringLiteral("acquirer-key-window"),
        QStringLiteral("How long the acquirer remembers an idempotency key, from the record's creation. Past it, a "
                       "payment or refund the acquirer does not know is never sent again but marked needs_review "
                       "(see the review command). Default 24h."),
        QStringLiteral("DURATION"), QStringLiteral("24h"));
    const QCommandLineOption keyMemory(QStringLiteral("acquirer-key-memory"),
        QStringLiteral("The embedded acquirer simulator forgets idempotency keys older than this, as a real "
                       "acquirer does (0: never). Default 0."),
        QStringLiteral("DURATION"), QStringLiteral("0"));
    p.addOptions({help, version, listen, db, acquirerDb, demo, tokens, retention, lease, rate, recovery,
        keyWindow, keyMemory, acquirerTimeout, walletTimeout, busy, acquirer, connections, minFree, headerTimeout, bodyTimeout, idleTimeout,
        maxConnections, maxPerPeer, tlsCert, tlsKey});

    if (!p.parse(arguments))
        return failure(p.errorText());
    if (p.isSet(help)) {
        GatewayOptions o;
        o.result = Result::Help;
        o.message = p.helpText()
            + QStringLiteral("\nDurations: 500ms, 30s, 5m, 24h, 7d. Stop with SIGTERM or SIGINT: in-flight requests finish first.\n"
                             "\noncepay-gateway review --db DB [--json]: the payments and refunds that need review.\n"
                             "oncepay-gateway review --db DB --resolve ID --outcome succeeded|declined (a refund: "
                             "succeeded|failed): settles one after checking with the acquirer.\n");
        return o;
    }
    if (p.isSet(version)) {
        GatewayOptions o;
        o.result = Result::Version;
        return o;
    }
    if (!p.positionalArguments().isEmpty())
        return failure(QStringLiteral("unexpected argument: %1").arg(p.positionalArguments().constFirst()));

    GatewayOptions o;
    GatewayServer::Config &c = o.config;
    const QString addr = p.value(listen);
    if (!parseListenAddress(addr, &c.address, &c.port))
        return failure(QStringLiteral("--listen: expected ADDR:PORT such as 127.0.0.1:8080, got \"%1\"").arg(addr));

    c.dbPath = p.value(db);
    if (c.dbPath.isEmpty()) {
        const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        if (dir.isEmpty())
            return failure(QStringLiteral("--db: no app data folder on this system; give --db PATH"));
        c.dbPath = dir + QStringLiteral("/gateway.db");
    }
    if (c.dbPath.startsWith(QLatin1String("postgres"))) {
        QString why;
        if (!SqlGatewayStore::fromSpec(c.dbPath, &why))
            return failure(QStringLiteral("--db: %1").arg(why));
    }
    c.acquirerDbPath = p.value(acquirerDb);
    if (p.isSet(acquirer)) {
        const QUrl url(p.value(acquirer), QUrl::StrictMode);
        if (!url.isValid() || !isAcquirerScheme(url.scheme())
            || url.host().isEmpty() || url.port() <= 0 || !url.userInfo().isEmpty()
            || (!url.path().isEmpty() && url.path() != QLatin1String("/")) || url.hasQuery() || url.hasFragment())
            return failure(QStringLiteral("--acquirer: expected http://HOST:PORT such as http://127.0.0.1:7070, got \"%1\"")
                               .arg(p.value(acquirer)));
        if (p.isSet(acquirerDb))
            return failure(QStringLiteral("--acquirer and --acquirer-db exclude each other: the ledger belongs to the acquirer service"));
        c.acquirerUrl = url.adjusted(QUrl::StripTrailingSlash);
        if (p.isSet(keyMemory))
            return failure(QStringLiteral("--acquirer-key-memory is the embedded acquirer's: give it to oncepay-acquirer"));
    }
    if (p.isSet(tlsCert) != p.isSet(tlsKey))
        return failure(QStringLiteral("--tls-cert and --tls-key go together"));
    c.tlsCertFile = p.value(tlsCert);
    c.tlsKeyFile = p.value(tlsKey);
    c.demo = p.isSet(demo);
    c.tokensFile = p.value(tokens);

    struct Dur
    {
        const QCommandLineOption &opt;
        qint64 *out;
        qint64 min;
    };
    qint64 busyMs = 0;
    for (const Dur &d : {Dur{retention, &c.retentionMs, 1000}, Dur{lease, &c.leaseMs, 100},
             Dur{recovery, &c.recoveryIntervalMs, 50}, Dur{acquirerTimeout, &c.acquirerTimeoutMs, 10},
             Dur{busy, &busyMs, 0}, Dur{keyWindow, &c.acquirerKeyWindowMs, 0},
             Dur{keyMemory, &c.acquirerKeyMemoryMs, 0}, Dur{walletTimeout, &c.walletConfirmTimeoutMs, 100}}) {
        const auto v = parseDurationMs(p.value(d.opt));
        if (!v || *v < d.min)
            return failure(QStringLiteral("--%1: expected a duration such as 500ms, 30s, 24h (at least %2 ms), got \"%3\"")
                               .arg(d.opt.names().constFirst())
                               .arg(d.min)
                               .arg(p.value(d.opt)));
        *d.out = *v;
    }
    c.storeBusyTimeoutMs = int(qMin<qint64>(busyMs, 600'000));
    struct Limit
    {
        const QCommandLineOption &opt;
        int *out;
    };
    for (const Limit &l : {Limit{headerTimeout, &c.headerTimeoutMs}, Limit{bodyTimeout, &c.bodyTimeoutMs},
             Limit{idleTimeout, &c.idleTimeoutMs}}) {
        const auto v = parseDurationMs(p.value(l.opt));
        if (!v || *v < 100 || *v > 3'600'000)
            return failure(QStringLiteral("--%1: expected a duration from 100ms to 1h, got \"%2\"")
                               .arg(l.opt.names().constFirst(), p.value(l.opt)));
        *l.out = int(*v);
    }
    for (const Limit &l : {Limit{maxConnections, &c.maxConnections}, Limit{maxPerPeer, &c.maxConnectionsPerPeer}}) {
        bool ok = false;
        *l.out = p.value(l.opt).toInt(&ok);
        const int min = &l.opt == &maxConnections ? 1 : 0;
        if (!ok || *l.out < min || *l.out > 1'000'000)
            return failure(QStringLiteral("--%1: expected a whole number from %2 to 1000000, got \"%3\"")
                               .arg(l.opt.names().constFirst())
                               .arg(min)
                               .arg(p.value(l.opt)));
    }
    const std::optional<qint64> freeBytes = parseSize(p.value(minFree));
    if (!freeBytes)
        return failure(QStringLiteral("--store-min-free: expected a size such as 0, 512K, 64M, 2G, got \"%1\"").arg(p.value(minFree)));
    c.storeMinFreeBytes = *freeBytes;
    bool connectionsOk = false;
    c.storeConnections = p.value(connections).toInt(&connectionsOk);
    if (!connectionsOk || c.storeConnections < 1 || c.storeConnections > 64)
        return failure(QStringLiteral("--db-connections: expected a whole number from 1 to 64, got \"%1\"").arg(p.value(connections)));
    bool rateOk = false;
    c.rateLimitPerSecond = p.value(rate).toInt(&rateOk);
    if (!rateOk || c.rateLimitPerSecond < 0)
        return failure(QStringLiteral("--rate-limit: expected a whole number of requests per second, got \"%1\"").arg(p.value(rate)));
    if (!c.demo && c.tokensFile.isEmpty())
        return failure(QStringLiteral("no credentials: give --tokens FILE, or --demo for the demo tokens"));
    c.faultKillAt = qEnvironmentVariable("ONCEPAY_FAULT_KILL_AT");
    c.faultPauseAt = qEnvironmentVariable("ONCEPAY_FAULT_PAUSE_AT");
    return o;
}

}   // namespace OncePay::Gateway
