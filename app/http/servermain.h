#pragma once
// The main of a server program on this HTTP layer (oncepay-gateway, oncepay-office): its parsed
// options answered (help, version, a usage error: exit 2 with one line on stderr), the server
// started (exit 1 with one line when it cannot), "listening on URL" on stdout for whoever started
// it, SIGTERM and SIGINT draining it (10 s for the requests in flight), and systemd told (Type=notify:
// ready means listening on an opened database, with SIGTERM handled).
// `Options` has `result` (Help, Version, Error, Run), `message` and `config`; `Server` is made
// from that config and has start(QString *), baseUrl() and shutdown(ms, done).
#include "http/systemdnotify.h"
#include "unixsignals.h"

#include <QCoreApplication>
#include <QString>

#include <csignal>
#include <cstdio>

namespace OncePay::Http {

template <typename Server, typename Options>
int runServer(const char *program, const Options &options)
{
    switch (options.result) {
    case Options::Result::Help:
        std::fputs(qPrintable(options.message), stdout);
        return 0;
    case Options::Result::Version:
        std::printf("%s %s\n", program, ONCEPAY_VERSION);
        return 0;
    case Options::Result::Error:
        std::fprintf(stderr, "%s: %s\n", program, qPrintable(options.message));
        return 2;
    case Options::Result::Run:
        break;
    }

    Server server(options.config);
    QString error;
    if (!server.start(&error)) {
        std::fprintf(stderr, "%s: %s\n", program, qPrintable(error));
        return 1;
    }
    std::printf("listening on %s\n", qPrintable(server.baseUrl()));
    std::fflush(stdout);

    UnixSignals unixSignals({SIGTERM, SIGINT});
    QObject::connect(&unixSignals, &UnixSignals::received, &server, [&server] {
        SystemdNotify::notify("STOPPING=1\nSTATUS=finishing the requests in flight");
        server.shutdown(10'000, [] {
            QCoreApplication::exit(0);
        });
    });
    SystemdNotify::notify("READY=1\nSTATUS=listening on " + server.baseUrl().toUtf8());
    return QCoreApplication::exec();
}

}   // namespace OncePay::Http
