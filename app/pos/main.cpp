// oncepay-pos: the cashier's till. With no options it runs a demo gateway in-process behind
// the network simulator; --gateway URL --token T [--db PATH] use a real gateway;
// --language en|zh_CN picks (and remembers) the language, else the system's.
#include "catalog.h"
#include "languages.h"
#include "mainwindow.h"
#include "tillsession.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QStandardPaths>

using namespace OncePay;

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("OncePay"));
    QApplication::setOrganizationName(QStringLiteral("OncePay"));
    const QString language = Ui::installTranslators(app, Ui::requestedLanguage(QApplication::arguments()));

    QCommandLineParser p;
    p.setApplicationDescription(QApplication::translate("main", "OncePay till: a checkout that never charges a customer twice."));
    p.addHelpOption();
    p.addOptions({{QStringLiteral("gateway"), QApplication::translate("main", "Gateway URL (default: the embedded demo gateway)."), QStringLiteral("URL")},
                  {QStringLiteral("token"), QApplication::translate("main", "The till's bearer token."), QStringLiteral("TOKEN"), QStringLiteral("sk_test_demo_till1")},
                  {QStringLiteral("db"), QApplication::translate("main", "The till's journal (default: in the app data folder)."), QStringLiteral("PATH")},
                  {QStringLiteral("language"), QApplication::translate("main", "The language of the till: en or zh_CN (remembered; default: the system's)."), QStringLiteral("LANG")}});
    p.process(app);

    Ui::TillSession::Config config;
    config.gatewayUrl = QUrl(p.value(QStringLiteral("gateway")));
    config.token = p.value(QStringLiteral("token"));
    config.journalPath = p.value(QStringLiteral("db"));
    config.dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);

    Ui::Catalog catalog;
    Ui::TillSession session(config);
    QString error;
    if (!catalog.load(QStringLiteral(":/catalog/demo-catalog.json"), &error) || !session.open(&error)) {
        QMessageBox::critical(nullptr, QApplication::translate("main", "OncePay cannot start"), error);
        return 1;
    }
    Ui::MainWindow window(&session, &catalog);
    window.viewModel()->cart()->setChinese(language == QLatin1String("zh_CN"));
    session.start([&window](bool ok, const QString &error) {
        if (!ok)
            QMessageBox::critical(&window, QApplication::translate("main", "OncePay"), error);
    });
    window.resize(1100, 680);
    window.show();
    return QApplication::exec();
}
