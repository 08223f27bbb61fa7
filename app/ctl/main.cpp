// oncepay-ctl: the till's core without widgets, for scripts, support staff and tests.
#include "ctlapp.h"

#include <QCoreApplication>
#include <QLoggingCategory>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("oncepay-ctl"));
    QCoreApplication::setOrganizationName(QStringLiteral("OncePay"));
    // Output is for scripts: results on stdout, one line on stderr for an error. Logs only on request
    // (QT_LOGGING_RULES="oncepay.*.info=true").
    if (qEnvironmentVariableIsEmpty("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules(QStringLiteral("oncepay.*.info=false\noncepay.*.warning=false\nqt.*.warning=false"));
    return OncePay::Ctl::run(QCoreApplication::arguments());
}
