// oncepay-acquirer: parses options and runs an AcquirerService until SIGTERM/SIGINT.
#include "gateway/acquirer/acquirerservice.h"
#include "listenaddress.h"
#include "timeutil.h"
#include "unixsignals.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <csignal>
#include <cstdio>

using namespace OncePay;

namespace {
int fail(const QString &message)
{
    std::fprintf(stderr, "oncepay-acquirer: %s\n", qPrintable(message));
    return 2;
}
}   // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("oncepay-acquirer"));
    QCoreApplication::setOrganizationName(QStringLiteral("OncePay"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ONCEPAY_VERSION));

    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "OncePay simulated acquirer (\"bank\") as a service: its own ledger, idempotent by (merchant, key), "
        "shared by gateways started with --acquirer. No authentication: listen on a private address."));
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help and exit."));
    const QCommandLineOption version(QStringLiteral("version"), QStringLiteral("Show the version and exit."));
    const QCommandLineOption listen(QStringLiteral("listen"),
        QStringLiteral("Address and port to listen on, e.g. 127.0.0.1:7070 or [::1]:0 (0 picks a free port). Default 127.0.0.1:7070."),
        QStringLiteral("ADDR:PORT"), QStringLiteral("127.0.0.1:7070"));
    const QCommandLineOption db(QStringLiteral("db"), QStringLiteral("SQLite ledger of the acquirer (created if missing)."),
        QStringLiteral("PATH"));
    const QCommandLineOption keyMemory(QStringLiteral("acquirer-key-memory"),
        QStringLiteral("Forget idempotency keys older than this, as a real acquirer does after a window: a key it "
                       "forgot charges or refunds again (0: never). Durations: 500ms, 30s, 5m, 24h. Default 0."),
        QStringLiteral("DURATION"), QStringLiteral("0"));
    p.addOptions({help, version, listen, db, keyMemory});
    if (!p.parse(QCoreApplication::arguments()))
        return fail(p.errorText());
    if (p.isSet(help)) {
        std::fputs(qPrintable(p.helpText() + QStringLiteral("\nStop with SIGTERM or SIGINT.\n")), stdout);
        return 0;
    }
    if (p.isSet(version)) {
        std::printf("oncepay-acquirer %s\n", ONCEPAY_VERSION);
        return 0;
    }
    if (!p.positionalArguments().isEmpty())
        return fail(QStringLiteral("unexpected argument: %1").arg(p.positionalArguments().constFirst()));

    Gateway::AcquirerService::Config config;
    if (!parseListenAddress(p.value(listen), &config.address, &config.port))
        return fail(QStringLiteral("--listen: expected ADDR:PORT such as 127.0.0.1:7070, got \"%1\"").arg(p.value(listen)));
    config.dbPath = p.value(db);
    const std::optional<qint64> memory = parseDurationMs(p.value(keyMemory));
    if (!memory)
        return fail(QStringLiteral("--acquirer-key-memory: expected a duration such as 0, 30s, 24h, got \"%1\"")
                        .arg(p.value(keyMemory)));
    config.keyMemoryMs = *memory;
    if (config.dbPath.isEmpty())
        return fail(QStringLiteral("--db: the ledger's SQLite file is required, e.g. --db acquirer.db"));

    Gateway::AcquirerService service(config);
    QString error;
    if (!service.start(&error))
        return fail(error);
    std::printf("listening on %s\n", qPrintable(service.baseUrl()));
    std::fflush(stdout);

    UnixSignals unixSignals({SIGTERM, SIGINT});
    QObject::connect(&unixSignals, &UnixSignals::received, &service, [&service] {
        service.stop();
        QCoreApplication::exit(0);
    });
    return QCoreApplication::exec();
}
