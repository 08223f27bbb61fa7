#include "office/officeoptions.h"

#include "databasespec.h"
#include "listenaddress.h"
#include "timeutil.h"

#include <QCommandLineParser>
#include <QTimeZone>

namespace OncePay::Office {

namespace {
OfficeOptions failure(const QString &message)
{
    OfficeOptions o;
    o.result = OfficeOptions::Result::Error;
    o.message = message;
    return o;
}
}   // namespace

OfficeOptions OfficeOptions::parse(const QStringList &arguments)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "OncePay office: every till of a shop or a chain sends its events here, each stored exactly once."));
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help and exit."));
    const QCommandLineOption version(QStringLiteral("version"), QStringLiteral("Show the version and exit."));
    const QCommandLineOption listen(QStringLiteral("listen"),
        QStringLiteral("Address and port to listen on, e.g. 127.0.0.1:8090 or [::1]:0 (0 picks a free port). Default 127.0.0.1:8090."),
        QStringLiteral("ADDR:PORT"), QStringLiteral("127.0.0.1:8090"));
    const QCommandLineOption db(QStringLiteral("db"),
        QStringLiteral("The office's database: a SQLite file (created if missing), or postgresql://USER:PASS@HOST:PORT/DBNAME"
                       " (a database of its own), shared by any number of instances."),
        QStringLiteral("PATH|URL"));
    const QCommandLineOption demo(QStringLiteral("demo"),
        QStringLiteral("Demo mode: merchant demo, store 1, tills 1 and 2, tokens ot_demo_till1, ot_demo_till2, ot_demo_owner."));
    const QCommandLineOption timeZone(QStringLiteral("time-zone"),
        QStringLiteral("The time zone of the reports' days (IANA name, e.g. Asia/Shanghai). Default: the machine's."),
        QStringLiteral("NAME"));
    const QCommandLineOption connections(QStringLiteral("db-connections"),
        QStringLiteral("PostgreSQL only: connections this instance keeps open to the database (1-64). Default 8."),
        QStringLiteral("N"), QStringLiteral("8"));
    const QCommandLineOption busy(QStringLiteral("store-busy-timeout"),
        QStringLiteral("How long to wait for a locked store before answering 503. Default 2s."),
        QStringLiteral("DUR"), QStringLiteral("2s"));
    const QCommandLineOption tlsCert(QStringLiteral("tls-cert"),
        QStringLiteral("Serve HTTPS (TLS 1.2 or later) with this PEM certificate (chain); needs --tls-key."),
        QStringLiteral("FILE"));
    const QCommandLineOption tlsKey(QStringLiteral("tls-key"),
        QStringLiteral("The PEM private key (RSA or EC, unencrypted) of --tls-cert."), QStringLiteral("FILE"));
    p.addOptions({help, version, listen, db, demo, timeZone, connections, busy, tlsCert, tlsKey});

    if (!p.parse(arguments))
        return failure(p.errorText());
    if (p.isSet(help)) {
        OfficeOptions o;
        o.result = Result::Help;
        o.message = p.helpText()
            + QStringLiteral("\nStop with SIGTERM or SIGINT: in-flight requests finish first.\n"
                             "\noncepay-office till add --db DB --store S --till N [--merchant M]: prints a new till token.\n"
                             "oncepay-office owner add --db DB [--store S] [--merchant M]: prints a new owner token.\n");
        return o;
    }
    if (p.isSet(version)) {
        OfficeOptions o;
        o.result = Result::Version;
        return o;
    }
    if (!p.positionalArguments().isEmpty())
        return failure(QStringLiteral("unexpected argument: %1").arg(p.positionalArguments().constFirst()));

    OfficeOptions o;
    OfficeServer::Config &c = o.config;
    if (!parseListenAddress(p.value(listen), &c.address, &c.port))
        return failure(QStringLiteral("--listen: expected ADDR:PORT such as 127.0.0.1:8090, got \"%1\"").arg(p.value(listen)));
    c.dbPath = p.value(db);
    if (c.dbPath.isEmpty())
        return failure(QStringLiteral("--db: the office's database is required (a SQLite file or postgresql://...)"));
    QString why;
    if (!DatabaseSpec::parse(c.dbPath, &why))
        return failure(QStringLiteral("--db: %1").arg(why));
    c.demo = p.isSet(demo);
    if (p.isSet(timeZone)) {
        c.timeZone = p.value(timeZone);
        if (!QTimeZone(c.timeZone.toUtf8()).isValid())
            return failure(QStringLiteral("--time-zone: no time zone is called \"%1\" (try Asia/Shanghai or UTC)").arg(c.timeZone));
    }
    if (p.isSet(tlsCert) != p.isSet(tlsKey))
        return failure(QStringLiteral("--tls-cert and --tls-key go together"));
    c.tlsCertFile = p.value(tlsCert);
    c.tlsKeyFile = p.value(tlsKey);
    bool connectionsOk = false;
    c.storeConnections = p.value(connections).toInt(&connectionsOk);
    if (!connectionsOk || c.storeConnections < 1 || c.storeConnections > 64)
        return failure(QStringLiteral("--db-connections: expected a whole number from 1 to 64, got \"%1\"").arg(p.value(connections)));
    const std::optional<qint64> busyMs = parseDurationMs(p.value(busy));
    if (!busyMs)
        return failure(QStringLiteral("--store-busy-timeout: expected a duration such as 500ms or 2s, got \"%1\"").arg(p.value(busy)));
    c.storeBusyTimeoutMs = int(qMin<qint64>(*busyMs, 600'000));
    return o;
}

}   // namespace OncePay::Office
