// oncepay-gateway: parses options and runs a GatewayServer until SIGTERM/SIGINT (or, as
// `oncepay-gateway review`, the review command).
#include "gateway/gatewayoptions.h"
#include "gateway/gatewayserver.h"
#include "gateway/reviewcommand.h"
#include "http/systemdnotify.h"
#include "unixsignals.h"

#include <QCoreApplication>
#include <QTextStream>

#include <csignal>
#include <cstdio>

using namespace OncePay;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("oncepay-gateway"));
    QCoreApplication::setOrganizationName(QStringLiteral("OncePay"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ONCEPAY_VERSION));

    if (argc >= 2 && qstrcmp(argv[1], "review") == 0) {
        QTextStream out(stdout);
        QTextStream err(stderr);
        return Gateway::ReviewCommand::run(QCoreApplication::arguments(), out, err);
    }

    const Gateway::GatewayOptions options = Gateway::GatewayOptions::parse(QCoreApplication::arguments());
    switch (options.result) {
    case Gateway::GatewayOptions::Result::Help:
        std::fputs(qPrintable(options.message), stdout);
        return 0;
    case Gateway::GatewayOptions::Result::Version:
        std::printf("oncepay-gateway %s\n", ONCEPAY_VERSION);
        return 0;
    case Gateway::GatewayOptions::Result::Error:
        std::fprintf(stderr, "oncepay-gateway: %s\n", qPrintable(options.message));
        return 2;
    case Gateway::GatewayOptions::Result::Run:
        break;
    }

    Gateway::GatewayServer server(options.config);
    QString error;
    if (!server.start(&error)) {
        std::fprintf(stderr, "oncepay-gateway: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("listening on %s\n", qPrintable(server.baseUrl()));
    std::fflush(stdout);

    UnixSignals unixSignals({SIGTERM, SIGINT});
    QObject::connect(&unixSignals, &UnixSignals::received, &server, [&server] {
        Http::SystemdNotify::notify("STOPPING=1\nSTATUS=finishing the requests in flight");
        server.shutdown(10'000, [] {
            QCoreApplication::exit(0);
        });
    });
    // Under systemd (Type=notify): ready means listening on an opened database, with SIGTERM
    // handled (a stop right after this drains like any other).
    Http::SystemdNotify::notify("READY=1\nSTATUS=listening on " + server.baseUrl().toUtf8());
    return QCoreApplication::exec();
}
