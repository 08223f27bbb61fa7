#pragma once

#include "catalogfetcher.h"
#include "staffstore.h"
#include "tillcatalog.h"
#include "demobackend.h"
#include "printqueue.h"

#include <memory>
#include <optional>

class QApplication;

namespace OncePay {
class SimulationClient;
class TillSession;
}   // namespace OncePay
namespace OncePay::Ui {
class MainWindow;
class StaffSession;
class CounterDevices;
class CustomerDisplayModel;
class CustomerDisplay;
}   // namespace OncePay::Ui

namespace OncePay::Pos {

// oncepay-pos composed: the options and saved settings, the demo backend when no gateway is
// set, the till's session and its window. main() only creates the application and runs this.
class TillApp final
{
public:
    TillApp();
    ~TillApp();

    // Parses the options, starts what the till needs and shows the window; an exit code when
    // the till cannot start (the reason was shown), nothing when the event loop should run.
    std::optional<int> start(QApplication &app);

private:
    DemoBackend m_demo;
    std::unique_ptr<SimulationClient> m_simulation;
    TillCatalog m_catalog;
    std::unique_ptr<CatalogFetcher> m_fetcher;
    std::unique_ptr<TillSession> m_session;
    std::unique_ptr<StaffStore> m_staffStore;
    std::unique_ptr<Ui::StaffSession> m_staff;
    std::unique_ptr<PrintQueue> m_printQueue;
    std::unique_ptr<Ui::CounterDevices> m_devices;
    std::unique_ptr<Ui::MainWindow> m_window;
    std::unique_ptr<Ui::CustomerDisplayModel> m_customerModel;
    std::unique_ptr<Ui::CustomerDisplay> m_customerDisplay;
    QString m_officeToken;   // the one in use: a Settings' change of it reconfigures the sender
};

// --print-test: the test page on `printer`, no window; 0 printed, 1 not (the reason on stderr).
int printTestPage(const QString &printer, int paperMm, const QString &shopName);

}   // namespace OncePay::Pos
