// oncepay-office: parses options and runs an OfficeServer until SIGTERM/SIGINT (or, as
// `oncepay-office till add` / `owner add`, makes a token).
#include "http/servermain.h"
#include "office/officecommands.h"
#include "office/officeoptions.h"
#include "office/officeserver.h"

#include <QCoreApplication>
#include <QTextStream>

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

    return Http::runServer<Office::OfficeServer>("oncepay-office",
        Office::OfficeOptions::parse(QCoreApplication::arguments()));
}
