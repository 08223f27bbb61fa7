// oncepay-pos: the cashier's till. With no options it runs a demo gateway in-process behind
// the network simulator; --gateway URL[,URL...] --token T [--db PATH] use a real gateway (several
// URLs: instances of one gateway, the next tried when one cannot be reached);
// --language en|zh_CN picks (and remembers) the language, else the system's. See TillApp.
// --help and --version are answered without a display (no QApplication).
#include "tillapp.h"
#include "tilloptions.h"

#include <QApplication>

int main(int argc, char *argv[])
{
    QCoreApplication::setApplicationName(QStringLiteral("OncePay"));
    QCoreApplication::setOrganizationName(QStringLiteral("OncePay"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ONCEPAY_VERSION));
    if (OncePay::Pos::asksForHelpOrVersion(argc, argv))
        return OncePay::Pos::printHelpOrVersion(argc, argv);
    // --print-test prints and exits without a window: it needs no display.
    for (int i = 1; i < argc; ++i) {
        if (qstrcmp(argv[i], "--print-test") == 0 && qEnvironmentVariableIsEmpty("DISPLAY")
            && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    OncePay::Pos::TillApp till;
    if (const auto exitCode = till.start(app))
        return *exitCode;
    return QApplication::exec();
}
