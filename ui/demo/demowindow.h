#pragma once

#include "demolinks.h"

#include <QObject>
#include <QStringList>

class QComboBox;
class QLabel;
class QWidget;

namespace OncePay {
class TillSession;
}

namespace OncePay::Ui {

class DemoController;
class MainWindow;

// The demo, added to a checkout window from outside (app/pos does it only when the till runs
// the embedded demo gateway, never with --gateway): the Simulation menu (the network between
// till and gateway, the bank's behaviour, the bank's ledger), the Demo menu and its caption
// banner, the test cards as the window's card reader, and the simulated network's state in
// the status bar. Owned by the window.
class DemoWindow final : public QObject
{
    Q_OBJECT

public:
    DemoWindow(MainWindow *window, TillSession *session, DemoLinks links);

    DemoController *controller() const { return m_controller; }

    // The demo's double click, made visible: two real clicks on Pay; the second bounces off the
    // button the first one locked, and a bubble under the button says so for a few seconds.
    void doubleClickPay();
    void openLedger(const QStringList &keys);

private:
    void buildBanner();
    void buildCardReader();
    void buildMenus();
    void setAcquirerMode(const QString &mode);
    QString networkNote() const;

    MainWindow *m_window;
    TillSession *m_session;
    DemoLinks m_links;
    DemoController *m_controller = nullptr;
    QWidget *m_banner = nullptr;   // the caption and its Next button
    QLabel *m_caption = nullptr;
    QLabel *m_stuck = nullptr;   // "This step could not go on: …", beside Stop the story
    QComboBox *m_card = nullptr;
    QLabel *m_bounce = nullptr;   // "Second tap ignored", under the Pay button
};

}   // namespace OncePay::Ui
