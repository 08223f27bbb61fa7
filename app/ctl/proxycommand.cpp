#include "proxycommand.h"

#include "commandline.h"
#include "ctloutput.h"
#include "exitcode.h"
#include "faultproxy.h"
#include "unixsignals.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QUrl>

#include <csignal>

namespace OncePay::Ctl {

int proxyCommand(CtlSession &, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("proxy"), QStringLiteral("--upstream URL [--listen ADDR:PORT] [--mode MODE]"),
        QStringLiteral("A network simulator in front of a gateway: a TCP proxy that passes, refuses, swallows,\n"
                       "delays or loses traffic. Prints the URL it listens on; runs until SIGTERM or SIGINT."));
    cl.addOptions({{QStringLiteral("listen"), QStringLiteral("ADDR:PORT to listen on (port 0: any free port)."), QStringLiteral("ADDR:PORT"),
                       QStringLiteral("127.0.0.1:0")},
        {QStringLiteral("upstream"), QStringLiteral("The gateway's URL."), QStringLiteral("URL")},
        {QStringLiteral("mode"), QStringLiteral("online, offline, black_hole, lose_responses, latency=MS, flaky=PCT."),
            QStringLiteral("MODE"), QStringLiteral("online")}});
    if (auto rc = cl.parse(arguments))
        return *rc;
    const QString listen = cl.value(QStringLiteral("listen"));
    const qsizetype colon = listen.lastIndexOf(QLatin1Char(':'));
    QHostAddress address;
    bool portOk = false;
    const uint port = colon > 0 ? listen.mid(colon + 1).toUInt(&portOk) : 0;
    if (colon <= 0 || !portOk || port > 65535 || !address.setAddress(listen.left(colon)))
        return fail(Usage, QStringLiteral("--listen: expected ADDR:PORT, got \"%1\"").arg(listen));
    const QUrl upstream(cl.value(QStringLiteral("upstream")));
    if (!upstream.isValid() || upstream.host().isEmpty() || upstream.port() <= 0)
        return fail(Usage, QStringLiteral("--upstream: expected a URL with a port such as http://127.0.0.1:8080"));
    const auto settings = NetSim::FaultProxy::parseMode(cl.value(QStringLiteral("mode")));
    if (!settings)
        return fail(Usage, QStringLiteral("--mode: \"%1\" is not a mode (online, offline, black_hole, lose_responses, latency=MS, flaky=PCT)").arg(cl.value(QStringLiteral("mode"))));
    NetSim::FaultProxy proxy;
    QString error;
    if (!proxy.listen(address, quint16(port), upstream.host(), quint16(upstream.port()), &error))
        return fail(Error, error);
    proxy.setSettings(*settings);
    out(QStringLiteral("proxy listening on %1 -> %2 (%3)\n")
            .arg(proxy.url().toString(), upstream.toString(), NetSim::FaultProxy::describe(*settings))
            .toUtf8());
    UnixSignals signalWatcher({SIGTERM, SIGINT});
    QObject::connect(&signalWatcher, &UnixSignals::received, QCoreApplication::instance(), [] {
        QCoreApplication::exit(0);
    });
    return QCoreApplication::exec();
}

}   // namespace OncePay::Ctl
