#include "tilloptions.h"

#include "languages.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstring>

namespace OncePay::Pos {

void addTillOptions(QCommandLineParser &p)
{
    p.setApplicationDescription(QCoreApplication::translate("main", "OncePay till: a checkout that never charges a customer twice."));
    p.addHelpOption();
    p.addVersionOption();
    p.addOptions({{QStringLiteral("gateway"), QCoreApplication::translate("main", "Gateway URL, or several separated by commas: instances of one gateway, the next used when one cannot be reached (default: the embedded demo gateway)."), QStringLiteral("URL[,URL...]")},
        {QStringLiteral("token"), QCoreApplication::translate("main", "The till's bearer token."), QStringLiteral("TOKEN"), QStringLiteral("sk_test_demo_till1")},
        {QStringLiteral("ca-file"), QCoreApplication::translate("main", "Certificate authorities (PEM) to trust for an https:// gateway, besides the system's."), QStringLiteral("FILE")},
        {QStringLiteral("allow-insecure-http"), QCoreApplication::translate("main", "Allow sending the till's token over plain HTTP to a gateway on another machine.")},
        {QStringLiteral("office"), QCoreApplication::translate("main", "The shop's office, where the till sends its sales, refunds, cash and Z reports, each once (remembered, as in Settings; default ONCEPAY_OFFICE, else none)."), QStringLiteral("URL")},
        {QStringLiteral("office-token"), QCoreApplication::translate("main", "The till's token at the office (default ONCEPAY_OFFICE_TOKEN, else the Settings')."), QStringLiteral("T")},
        {QStringLiteral("db"), QCoreApplication::translate("main", "The till's journal (default: in the app data folder); its folder is created when missing."), QStringLiteral("PATH")},
        {QStringLiteral("catalog-url"), QCoreApplication::translate("main", "Fetch the shop's catalog (CSV or JSON) from this URL at start and every five minutes, with its ETag; the last good one is kept for selling offline (default: the Settings' catalog URL)."), QStringLiteral("URL")},
        {QStringLiteral("printer"), QCoreApplication::translate("main", "The receipt printer: tcp://HOST:PORT, file:///dev/usb/lp0 or cups://QUEUE (remembered, as in Settings)."), QStringLiteral("URI")},
        {QStringLiteral("print-test"), QCoreApplication::translate("main", "Print the test page on --printer and exit, without a window: 0 printed, 1 not (the reason on stderr).")},
        {QStringLiteral("customer-display"), QCoreApplication::translate("main", "Show the customer display full screen on the screen of this index (0 is the first; default: the Settings' choice)."), QStringLiteral("N")},
        {QStringLiteral("kiosk"), QCoreApplication::translate("main", "Full screen, for a till that does nothing else.")},
        {QStringLiteral("network"), QCoreApplication::translate("main", "Demo only: start the network simulator in this mode (online, offline, black_hole, lose_responses, latency=MS, flaky=PCT)."), QStringLiteral("MODE")},
        {QStringLiteral("measure-startup"), QCoreApplication::translate("main", "Print the time to the shown window and the memory in use, then quit (benchmarks).")},
        {QStringLiteral("measure-drain"), QCoreApplication::translate("main", "Demo only: queue N payments offline, reconnect, and print the longest stall of the window while they drain, then quit (benchmarks)."), QStringLiteral("N")},
        {QStringLiteral("language"), QCoreApplication::translate("main", "The language of the till: en or zh_CN (remembered; default: the system's)."), QStringLiteral("LANG")}});
}

bool asksForHelpOrVersion(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (std::strcmp(a, "--") == 0)
            return false;
        for (const char *option : {"-h", "--help", "-?", "--help-all", "-v", "--version"}) {
            if (std::strcmp(a, option) == 0)
                return true;
        }
    }
    return false;
}

int printHelpOrVersion(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    Ui::installTranslators(app, Ui::requestedLanguage(QCoreApplication::arguments()));
    QCommandLineParser p;
    addTillOptions(p);
    p.process(app);   // prints the help or the version and exits
    return 0;
}

}   // namespace OncePay::Pos
