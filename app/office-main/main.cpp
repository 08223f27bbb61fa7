// oncepay-office: parses options and runs an OfficeServer until SIGTERM/SIGINT (or, as
// `oncepay-office till add` / `owner add`, makes a token).
#include "http/systemdnotify.h"
#include "office/officecommands.h"
#include "office/officeoptions.h"
#include "office/officeserver.h"
#include "unixsignals.h"

#include <QCoreApplication>
#include <QTextStream>

#include <csignal>
#include <cstdio>

using namespace OncePay;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("oncepay-office"));
    QCoreApplication::setOrganizationName(QStringLiteral("OncePay"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ONCEPAY_VERSION));

    if (Office::OfficeCommands::isCommand(QCoreApplication::arguments())) {
        QTextStream out(stdout);
        QTextStream err(stderr);
        return Office::OfficeCommands::run(QCoreApplication::arguments(), out, err);
    }

    const Office::OfficeOptions options = Office::OfficeOptions::parse(QCoreApplication::arguments());
    switch (options.result) {
    case Office::OfficeOptions::Result::Help:
        std::fputs(qPrintable(options.message), stdout);
        return 0;
    case Office::OfficeOptions::Result::Version:
        std::printf("oncepay-office %s\n", ONCEPAY_VERSION);
        return 0;
    case Office::OfficeOptions::Result::Error:
        std::fprintf(stderr, "oncepay-office: %s\n", qPrintable(options.message));
        return 2;
    case Office::OfficeOptions::Result::Run:
        break;
    }

    Office::OfficeServer server(options.config);
    QString error;
    if (!server.start(&error)) {
        std::fprintf(stderr, "oncepay-office: %s\n", qPrintable(error));
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
    // Under systemd (Type=notify): ready means listening on an opened database.
    Http::SystemdNotify::notify("READY=1\nSTATUS=listening on " + server.baseUrl().toUtf8());
    return QCoreApplication::exec();
}
