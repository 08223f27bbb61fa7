// oncepay-pos: the cashier's till. With no options it runs a demo gateway in-process behind
// the network simulator; --gateway URL[,URL...] --token T [--db PATH] use a real gateway (several
// URLs: instances of one gateway, the next tried when one cannot be reached);
// --language en|zh_CN picks (and remembers) the language, else the system's. See TillApp.
#include "tillapp.h"

#include <QApplication>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("OncePay"));
    QApplication::setOrganizationName(QStringLiteral("OncePay"));
    OncePay::Pos::TillApp till;
    if (const auto exitCode = till.start(app))
        return *exitCode;
    return QApplication::exec();
}
