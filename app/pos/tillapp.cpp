#include "tillapp.h"

#include "counterdevices.h"
#include "customerdisplay.h"
#include "customerdisplaymodel.h"
#include "demobackend.h"
#include "printerlink.h"
#include "privatefiles.h"
#include "receiptraster.h"
#include "demowindow.h"
#include "simulatednetwork.h"
#include "journallocation.h"
#include "languages.h"
#include "mainwindow.h"
#include "simulationclient.h"
#include "salebook.h"
#include "staffsession.h"
#include "startupprobe.h"
#include "tillsession.h"
#include "tilloptions.h"
#include "tillsettings.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QScreen>
#include <QStatusBar>

#include <cstdio>

namespace OncePay::Pos {

namespace {
// Why the till cannot start: told in a window, and on stderr in one line for whoever started
// it from a terminal or a service.
std::optional<int> cannotStart(const QString &reason, int exitCode)
{
    QString line = reason;
    line.replace(QLatin1Char('\n'), QLatin1Char(' '));
    std::fprintf(stderr, "oncepay-pos: %s\n", line.toLocal8Bit().constData());
    QMessageBox::critical(nullptr, QApplication::translate("main", "OncePay cannot start"), reason);
    return exitCode;
}
}   // namespace

TillApp::TillApp() = default;

TillApp::~TillApp()
{
    // The window follows the session, which follows the demo backend it talks to.
    m_customerDisplay.reset();
    m_customerModel.reset();
    m_window.reset();
    m_devices.reset();
    m_printQueue.reset();
    m_fetcher.reset();
    m_staff.reset();
    m_staffStore.reset();
    m_session.reset();
    m_simulation.reset();
}

std::optional<int> TillApp::start(QApplication &app)
{
    const QString language = Ui::installTranslators(app, Ui::requestedLanguage(QApplication::arguments()));

    QCommandLineParser p;
    addTillOptions(p);
    p.process(app);

    // Command-line options win over the till's saved settings.
    Ui::TillSettings saved = Ui::TillSettings::load();
    if (p.isSet(QStringLiteral("printer"))) {
        QString why;
        if (!PrinterUri::parse(p.value(QStringLiteral("printer")), &why)) {
            std::fprintf(stderr, "oncepay-pos: --printer: %s\n", why.toLocal8Bit().constData());
            return p.isSet(QStringLiteral("print-test")) ? 1 : 2;   // --print-test: 0 printed, 1 not
        }
        saved.printerUri = p.value(QStringLiteral("printer"));
        // Remembered, as --language is: Settings shows the printer in use, and a Save there keeps it.
        if (!p.isSet(QStringLiteral("print-test"))) {
            Ui::TillSettings remembered = Ui::TillSettings::load();
            remembered.printerUri = saved.printerUri;
            remembered.save();
        }
    }
    if (p.isSet(QStringLiteral("print-test")))
        return printTestPage(saved.printerUri, saved.paperWidthMm, saved.shopName);
    if (p.isSet(QStringLiteral("customer-display"))) {
        bool ok = false;
        const int screen = p.value(QStringLiteral("customer-display")).toInt(&ok);
        if (!ok || screen < 0) {
            std::fprintf(stderr, "oncepay-pos: --customer-display: give the screen's index, 0 for the first\n");
            return 2;
        }
        saved.customerDisplayScreen = screen;
    }
    QList<QUrl> gatewayUrls = saved.gatewayUrls;
    if (p.isSet(QStringLiteral("gateway"))) {
        QString invalid;
        const auto urls = GatewayClient::parseBaseUrls(p.value(QStringLiteral("gateway")), &invalid);
        if (!urls)
            return cannotStart(QApplication::translate("main", "--gateway: \"%1\" is not a gateway address. Give one or more http:// or https:// addresses separated by commas, such as http://192.0.2.10:8080,http://192.0.2.11:8080.").arg(invalid), 2);
        gatewayUrls = *urls;
    }
    // The shop's office (issue 38): the option, else the environment, else Settings. Given on the
    // command line it is remembered, as --printer is: Settings shows the office in use.
    QString officeUrl = qEnvironmentVariable("ONCEPAY_OFFICE", saved.officeUrl);
    QString officeToken = qEnvironmentVariable("ONCEPAY_OFFICE_TOKEN", saved.officeToken);
    if (p.isSet(QStringLiteral("office")))
        officeUrl = p.value(QStringLiteral("office")).trimmed();
    if (p.isSet(QStringLiteral("office-token")))
        officeToken = p.value(QStringLiteral("office-token"));
    if (const QUrl office(officeUrl, QUrl::StrictMode); !officeUrl.isEmpty()
        && (!office.isValid() || office.host().isEmpty() || (office.scheme() != QLatin1String("http") && office.scheme() != QLatin1String("https"))))
        return cannotStart(QApplication::translate("main", "--office: \"%1\" is not an office address such as http://192.0.2.20:8090.").arg(officeUrl), 2);
    if (p.isSet(QStringLiteral("office")) || p.isSet(QStringLiteral("office-token"))) {
        Ui::TillSettings remembered = Ui::TillSettings::load();
        remembered.officeUrl = officeUrl;
        remembered.officeToken = officeToken;
        remembered.save();
    }
    const QString catalogUrl = p.isSet(QStringLiteral("catalog-url")) ? p.value(QStringLiteral("catalog-url")) : saved.catalogUrl;
    if (!catalogUrl.isEmpty() && !QUrl(catalogUrl, QUrl::StrictMode).isValid())
        return cannotStart(QApplication::translate("main", "--catalog-url: \"%1\" is not a URL such as https://shop.example/catalog.csv.").arg(catalogUrl), 2);
    // The till's own folder, 0700 (one an older till made 0755 too): its files are the shop's.
    const QString dataDir = JournalLocation::defaultFolder();
    if (QString why; !PrivateFiles::makeFolder(dataDir, true, &why))
        return cannotStart(QApplication::translate("main", "Cannot create the data folder %1.").arg(dataDir), 1);
    QString error;
    // No gateway configured: the demo backend, a gateway in this process behind the simulator.
    TillSession::Config config;
    config.gatewayUrls = gatewayUrls;
    config.token = p.isSet(QStringLiteral("token")) ? p.value(QStringLiteral("token")) : saved.token;
    config.caFile = p.value(QStringLiteral("ca-file"));
    config.allowInsecureHttp = p.isSet(QStringLiteral("allow-insecure-http"));
    // The journal's place first: a --db that cannot be used stops the start before anything runs.
    config.journal.path = p.isSet(QStringLiteral("db")) ? p.value(QStringLiteral("db"))
                                                        : QDir(dataDir).filePath(QStringLiteral("till-journal.db"));
    if (TillError where; !JournalLocation::prepare(config.journal.path, JournalLocation::Folder::CreateWhenMissing, &where))
        return cannotStart(p.isSet(QStringLiteral("db")) ? QStringLiteral("--db: ") + where.text() : where.text(), 1);
    if (gatewayUrls.isEmpty()) {
        // The demo's gateway and bank live beside the journal: a till started with --db gets its
        // own, not the one every demo run of this machine shares.
        const QString demoDir = p.isSet(QStringLiteral("db")) ? QFileInfo(config.journal.path).absolutePath() : dataDir;
        if (!m_demo.start(demoDir, &error))
            return cannotStart(error, 1);
        config.gatewayUrls = {m_demo.tillUrl()};
        config.token = Pos::DemoBackend::token();
        m_simulation = std::make_unique<SimulationClient>(m_demo.gatewayUrl(), Pos::DemoBackend::token());
    }
    config.office.office = QUrl(officeUrl);
    config.office.token = officeToken;
    config.office.till = QString::number(SaleBook::tillNumberOf(saved.terminal));
    config.engine.limits = saved.limits;
    config.engine.maxInFlight = 16;   // enough for the gateway's group commit to help when a queue drains
    config.engine.aliveProbeMs = 5'000;   // the status bar's "online" is measured, not assumed

    m_officeToken = officeToken;
    m_session = std::make_unique<TillSession>(config);
    if (!m_session->open(&error)
        || !m_catalog.open(config.journal.path, QStringLiteral(":/catalog/demo-catalog.json"), &error))
        return cannotStart(error, 1);
    // The people who work the till, beside the journal: none (the demo) until a manager is added.
    m_staffStore = std::make_unique<StaffStore>(StaffStore::pathBeside(config.journal.path));
    if (QString why; !m_staffStore->open(&why))
        return cannotStart(QApplication::translate("main", "The staff list %1 cannot be opened: %2").arg(m_staffStore->path(), why), 1);
    if (p.isSet(QStringLiteral("network"))) {
        const auto mode = NetSim::FaultProxy::parseMode(p.value(QStringLiteral("network")));
        if (!mode || !m_demo.network())
            return cannotStart(QApplication::translate("main", "--network needs the demo gateway and one of: online, offline, black_hole, lose_responses, latency=MS, flaky=PCT."), 2);
        m_demo.network()->setSettings(*mode);
    }
    const Ui::DemoLinks demo{m_demo.network(), m_simulation.get()};
    m_window = std::make_unique<Ui::MainWindow>(m_session.get(), &m_catalog, demo.isDemo());
    Ui::MainWindow &window = *m_window;
    // The shop's catalog from a URL, when one is given (the option, else Settings).
    m_fetcher = std::make_unique<CatalogFetcher>(&m_catalog);
    QObject::connect(m_fetcher.get(), &CatalogFetcher::fetched, &window, [&window](CatalogFetcher::Outcome outcome, const QString &why) {
        switch (outcome) {
        case CatalogFetcher::Outcome::Updated:
            window.statusBar()->showMessage(QApplication::translate("main", "The catalog was updated from the shop's server."), 10'000);
            break;
        case CatalogFetcher::Outcome::NotModified:
            break;
        case CatalogFetcher::Outcome::Refused:
            window.statusBar()->showMessage(QApplication::translate("main", "The catalog on the shop's server was refused (the one in use stays): %1").arg(why), 60'000);
            break;
        case CatalogFetcher::Outcome::Unreachable:
            window.statusBar()->showMessage(QApplication::translate("main", "The shop's catalog server cannot be reached (%1): selling from the catalog kept on this till.").arg(why), 10'000);
            break;
        }
    });
    QObject::connect(&window, &Ui::MainWindow::catalogUrlChanged, m_fetcher.get(), [this](const QString &url) {
        m_fetcher->setUrl(QUrl(url));
    });
    m_fetcher->setUrl(QUrl(catalogUrl));
    m_staff = std::make_unique<Ui::StaffSession>(m_staffStore.get(), m_session->journal());
    window.setStaff(m_staff.get());
    // The receipt printer, its queue beside the journal, the drawer (issue 24). A queue that
    // cannot be opened leaves the till selling, with receipts through the system's print dialog.
    m_printQueue = std::make_unique<PrintQueue>(PrintQueue::pathBeside(config.journal.path));
    QString printError;
    if (m_printQueue->open(&printError)) {
        m_devices = std::make_unique<Ui::CounterDevices>(m_printQueue.get());
        m_devices->apply(saved);
        window.setDevices(m_devices.get());
    } else {
        std::fprintf(stderr, "oncepay-pos: the print queue %s cannot be opened: %s\n",
            m_printQueue->path().toLocal8Bit().constData(), printError.toLocal8Bit().constData());
    }
    // The customer display (issue 24): its own window, screen and language.
    m_customerModel = std::make_unique<Ui::CustomerDisplayModel>(window.viewModel());
    m_customerModel->setLanguage(saved.customerDisplayLanguage);
    m_customerModel->setShopName(saved.shopName);
    auto showCustomerDisplay = [this](int screen) {
        if (screen < 0) {
            m_customerDisplay.reset();
            return;
        }
        if (!m_customerDisplay)
            m_customerDisplay = std::make_unique<Ui::CustomerDisplay>(m_customerModel.get());
        if (!m_customerDisplay->showOnScreen(screen))
            std::fprintf(stderr, "oncepay-pos: there is no screen %d for the customer display; it is shown as a window\n", screen);
    };
    showCustomerDisplay(saved.customerDisplayScreen);
    QObject::connect(&window, &Ui::MainWindow::settingsSaved, &window, [this, showCustomerDisplay](const Ui::TillSettings &s) {
        m_customerModel->setLanguage(s.customerDisplayLanguage);
        m_customerModel->setShopName(s.shopName);
        showCustomerDisplay(s.customerDisplayScreen);
        // A new office or token applies at once: what waits goes there (issue 38).
        if (m_session->office()->office() != QUrl(s.officeUrl) || m_officeToken != s.officeToken) {
            m_officeToken = s.officeToken;
            m_session->office()->reconfigure(QUrl(s.officeUrl), s.officeToken);
        }
    });
    // Quit ends the program, whatever other window is open (the customer display, a dialog of
    // its own): TillApp's destructor then closes the journal and frees its lock.
    QObject::connect(&window, &Ui::MainWindow::closed, &app, &QCoreApplication::quit, Qt::QueuedConnection);
    m_staff->refresh();
    // The demo's menus, stories and test cards only with the demo backend, never with --gateway.
    if (demo.isDemo())
        new Ui::DemoWindow(&window, m_session.get(), demo);   // owned by the window
    window.viewModel()->cart()->setLanguage(Ui::languageFromCode(language));
    m_session->start(&window, [&window](bool ok, const QString &error) {
        if (!ok)
            QMessageBox::critical(&window, QApplication::translate("main", "OncePay"), error);
    });
    // A till works on its whole screen: maximised (its size for when it is restored: the whole
    // sale, centred, never larger than the screen), or full screen with --kiosk.
    const QRect screen = window.screen()->availableGeometry();
    window.resize(QSize(1280, 800).boundedTo(screen.size()));
    window.move(screen.center() - window.rect().center());
    if (p.isSet(QStringLiteral("kiosk")))
        window.showFullScreen();
    else
        window.showMaximized();
    if (p.isSet(QStringLiteral("measure-startup")))
        reportStartupAndQuit(&window);
    if (p.isSet(QStringLiteral("measure-drain")))
        measureDrainAndQuit(m_session.get(), m_demo.network(), qMax(1, p.value(QStringLiteral("measure-drain")).toInt()));
    return std::nullopt;
}

int printTestPage(const QString &printer, int paperMm, const QString &shopName)
{
    QString why;
    const auto uri = PrinterUri::parse(printer, &why);
    if (!uri) {
        std::fprintf(stderr, "oncepay-pos: %s\n", why.toLocal8Bit().constData());
        return 1;
    }
    const QByteArray job = Ui::ReceiptRaster::job(Ui::ReceiptRaster::testPageHtml(shopName, uri->toString(), paperMm), paperMm);
    std::unique_ptr<PrinterLink> link = PrinterLink::make(*uri);
    std::optional<PrinterLink::Result> result;
    QObject context;
    link->send(job, QApplication::translate("main", "Test page"), &context, {}, [&result](const PrinterLink::Result &r) {
        result = r;
        QCoreApplication::exit(0);
    });
    if (!result)
        QApplication::exec();
    if (result && result->kind == PrinterLink::Result::Kind::Printed) {
        std::fprintf(stdout, "%s\n", QApplication::translate("main", "The test page was printed on %1.").arg(uri->toString()).toLocal8Bit().constData());
        return 0;
    }
    const QString reason = result ? result->reason : QApplication::translate("main", "the printer did not answer");
    std::fprintf(stderr, "oncepay-pos: %s\n", QString(reason).replace(QLatin1Char('\n'), QLatin1Char(' ')).toLocal8Bit().constData());
    return 1;
}

}   // namespace OncePay::Pos
