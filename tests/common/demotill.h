#pragma once

#include "staffsession.h"
#include "staffstore.h"
#include "tillcatalog.h"

#include "catalog.h"
#include "counterdevices.h"
#include "printqueue.h"

#include <QString>
#include <QTimer>
#include <QTemporaryDir>
#include <QWidget>

#include <memory>

namespace OncePay {
class SimulationClient;
class TillSession;
namespace Pos {
class DemoBackend;
}
namespace Ui {
class DemoWindow;
class MainWindow;
}   // namespace Ui
}   // namespace OncePay

// The till as oncepay-pos composes it in demo mode, for the GUI suites: the demo backend (a
// gateway and its bank in this process, behind the network simulator) in a temporary folder, a
// session on a journal there, and the checkout window with the demo added (or without it).
// One per test function: start() in init(), stop() (or the destructor) in cleanup().
//
//     void TestX::init() { QString e; QVERIFY2(m_till.start({}, &e), qPrintable(e)); }
//     void TestX::cleanup() { m_till.stop(); }
//
// The parts are public members, owned here, destroyed window first.
class DemoTill
{
public:
    struct Options
    {
        bool demo = true;   // the DemoWindow added (menus, test cards, stories)
        int maxInFlight = 16;   // as oncepay-pos
        QSize size;   // shown normal at this size; empty: shown as it comes
        bool waitActive = false;   // wait until the window has the keyboard (key-driven suites)
        // The engine asks the gateway how it is this often while online (oncepay-pos: 5 s); 0:
        // only payments tell, as most suites want.
        qint64 aliveProbeMs = 0;
    };

    DemoTill();
    ~DemoTill();

    // The till's settings in QStandardPaths' test mode, cleared: never the real user's.
    static void isolateSettings();

    bool start(const Options &options, QString *error);
    // A restart of the till on the same journal and gateway: window and session closed, then
    // opened again (the window only if `withWindow`).
    bool restart(QString *error, bool withWindow = true);
    bool openSession(QString *error);
    bool openWindow(QString *error);
    void closeWindow();   // the window (and its DemoWindow)
    void stop();

    // The first child of `root` whose accessible name is `name`: how the suites find a widget
    // as a screen reader (and a cashier) would.
    template <typename W = QWidget>
    static W *named(QWidget *root, const QString &name)
    {
        for (W *w : root->findChildren<W *>()) {
            if (w->accessibleName() == name)
                return w;
        }
        return nullptr;
    }

    // Saves what `widget` shows as `name` in $ONCEPAY_SCREENSHOT_DIR, once its pending layout is
    // done; true when saved or not asked for (the variable unset).
    static bool saveScreenshot(QWidget *widget, const QString &name);

    Options options;
    std::unique_ptr<QTemporaryDir> dir;
    std::unique_ptr<OncePay::TillCatalog> catalog;   // beside the journal; the demo's until a test imports one
    std::unique_ptr<OncePay::Pos::DemoBackend> backend;
    std::unique_ptr<OncePay::SimulationClient> simulation;
    std::unique_ptr<OncePay::TillSession> session;
    // The staff beside the journal: none until a test adds a manager (then sign-in applies).
    std::unique_ptr<OncePay::StaffStore> staffStore;
    std::unique_ptr<OncePay::Ui::StaffSession> staff;
    // The print queue beside the journal and the counter's devices, as in the till: no printer
    // until a test applies settings with one (devices->apply()).
    std::unique_ptr<OncePay::PrintQueue> printQueue;
    std::unique_ptr<OncePay::Ui::CounterDevices> devices;
    std::unique_ptr<OncePay::Ui::MainWindow> window;
    OncePay::Ui::DemoWindow *demoWindow = nullptr;   // owned by the window; null without the demo
};

// Answers the next modal question box while it runs (its exec() blocks the test): keeps the
// question's text and informative text, and clicks the button named `button`.
class ModalAnswerer final
{
public:
    explicit ModalAnswerer(const QString &button);
    QString asked;   // the question's text, once it was asked
    QString informative;   // its informative text

private:
    QTimer m_timer;
};
