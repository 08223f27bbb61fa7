#include "demotill.h"

#include "demobackend.h"
#include "demowindow.h"
#include "mainwindow.h"
#include "simulationclient.h"
#include "tillsession.h"

#include <QCoreApplication>
#include <QEvent>
#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QObject>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

using namespace OncePay;

DemoTill::DemoTill() = default;

DemoTill::~DemoTill()
{
    stop();
}

void DemoTill::isolateSettings()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
}

bool DemoTill::saveScreenshot(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("ONCEPAY_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return true;
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);   // the layout as shown, not as before the last change
    return widget->grab().save(dir + QLatin1Char('/') + name);
}

bool DemoTill::start(const Options &o, QString *error)
{
    options = o;
    dir = std::make_unique<QTemporaryDir>();
    if (!dir->isValid()) {
        *error = QStringLiteral("no temporary folder: ") + dir->errorString();
        return false;
    }
    backend = std::make_unique<Pos::DemoBackend>();
    if (!backend->start(dir->path(), error))
        return false;
    simulation = std::make_unique<SimulationClient>(backend->gatewayUrl(), Pos::DemoBackend::token());
    return openSession(error) && openWindow(error);
}

bool DemoTill::openSession(QString *error)
{
    TillSession::Config c;
    c.gatewayUrls = {backend->tillUrl()};
    c.token = Pos::DemoBackend::token();
    c.journal.path = dir->filePath(QStringLiteral("till-journal.db"));
    c.engine.maxInFlight = options.maxInFlight;
    c.engine.aliveProbeMs = options.aliveProbeMs;
    session = std::make_unique<TillSession>(c);
    if (!session->open(error))
        return false;
    // The catalog beside the journal, empty until a test imports one: the demo's sells. Loaded
    // in the background, as in the till; the window opens once it is there.
    if (!catalog) {
        catalog = std::make_unique<TillCatalog>();
        if (!catalog->open(c.journal.path, QStringLiteral(ONCEPAY_CATALOG), error))
            return false;
        if (!QTest::qWaitFor([&] {
                return catalog->isLoaded();
            },
                10000)) {
            *error = QStringLiteral("the catalog did not load in 10 s");
            return false;
        }
    }
    QObject context;
    bool answered = false;
    bool started = false;
    session->start(&context, [&](bool ok, const QString &why) {
        answered = true;
        started = ok;
        if (!ok)
            *error = why;
    });
    if (!QTest::qWaitFor([&] {
            return answered;
        },
            10000)) {
        *error = QStringLiteral("the session did not start in 10 s");
        return false;
    }
    return started;
}

bool DemoTill::openWindow(QString *error)
{
    window = std::make_unique<Ui::MainWindow>(session.get(), catalog.get(), options.demo);
    if (!staffStore) {
        staffStore = std::make_unique<StaffStore>(StaffStore::pathBeside(session->journal()->path()));
        if (!staffStore->open(error))
            return false;
    }
    staff = std::make_unique<Ui::StaffSession>(staffStore.get(), session->journal());
    window->setStaff(staff.get());
    if (!printQueue) {
        printQueue = std::make_unique<PrintQueue>(PrintQueue::pathBeside(session->journal()->path()));
        if (!printQueue->open(error))
            return false;
        devices = std::make_unique<Ui::CounterDevices>(printQueue.get());
    }
    window->setDevices(devices.get());
    staff->refresh();
    if (!QTest::qWaitFor([&] {
            return staff->isLoaded();
        },
            10000)) {
        *error = QStringLiteral("the staff list did not load in 10 s");
        return false;
    }
    if (options.demo)
        demoWindow = new Ui::DemoWindow(window.get(), session.get(), Ui::DemoLinks{backend->network(), simulation.get()});
    if (options.size.isValid()) {
        window->showNormal();
        window->resize(options.size);
    } else {
        window->show();
    }
    if (!QTest::qWaitForWindowExposed(window.get())) {
        *error = QStringLiteral("the window was never exposed");
        return false;
    }
    if (options.waitActive && !QTest::qWaitForWindowActive(window.get())) {
        *error = QStringLiteral("the window never became active");
        return false;
    }
    return true;
}

bool DemoTill::restart(QString *error, bool withWindow)
{
    closeWindow();
    session.reset();
    return openSession(error) && (!withWindow || openWindow(error));
}

void DemoTill::closeWindow()
{
    window.reset();
    staff.reset();
    demoWindow = nullptr;
}

void DemoTill::stop()
{
    closeWindow();
    session.reset();
    devices.reset();
    printQueue.reset();
    staffStore.reset();
    catalog.reset();
    simulation.reset();
    backend.reset();
    dir.reset();
}

ModalAnswerer::ModalAnswerer(const QString &button)
{
    m_timer.setInterval(20);
    QObject::connect(&m_timer, &QTimer::timeout, &m_timer, [this, button] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box)
            return;
        m_timer.stop();
        asked = box->text();
        informative = box->informativeText();
        for (QAbstractButton *b : box->buttons()) {
            if (b->text() == button)
                QTest::mouseClick(b, Qt::LeftButton);
        }
    });
    m_timer.start();
}
