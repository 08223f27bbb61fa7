// oncepay-gateway: parses options and runs a GatewayServer until SIGTERM/SIGINT (or, as
// `oncepay-gateway review`, the review command).
#include "gateway/gatewayoptions.h"
#include "gateway/gatewayserver.h"
#include "gateway/reviewcommand.h"
#include "http/servermain.h"

#include <QCoreApplication>
#include <QTextStream>

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

    return Http::runServer<Gateway::GatewayServer>("oncepay-gateway",
        Gateway::GatewayOptions::parse(QCoreApplication::arguments()));
}
