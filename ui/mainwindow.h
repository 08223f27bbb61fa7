#pragma once

#include "checkoutviewmodel.h"
#include "demolinks.h"
#include "tillsession.h"

#include <QMainWindow>
#include <QPointer>

class QComboBox;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMessageBox;
class QPushButton;
class QTableView;
class QTimer;

namespace OncePay::Ui {

class CashPanel;
class DemoController;
class QueuePanel;
class SaleRecords;
class LateOutcomes;
class LateOutcomesDialog;

// The cashier's screen: the search/scan field, the cart, the total, the pay actions, the
// payment's state in words, and a status bar with the connection and the waiting queue.
// Renders the CheckoutViewModel and forwards input to it; no checkout logic lives here.
class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    // `demo`: the demo backend's simulator and ledger, when the till runs one (Simulation menu).
    MainWindow(TillSession *session, const Catalog *catalog, DemoLinks demo = {}, QWidget *parent = nullptr);

    CheckoutViewModel *viewModel() { return &m_vm; }
    DemoController *demo() const { return m_demo; }
    LateOutcomes *lateOutcomes() const { return m_late; }
    QPushButton *payButton() const { return m_payCard; }
    QueuePanel *paymentsPanel() const { return m_queuePanel; }
    SaleRecords *saleRecords() const { return m_records; }
    // The refund dialog on this sale (a payment or a refund: its payment); with no sale, it asks
    // for the receipt number.
    void openRefund(const Intent &intent);

private:
    void buildUi();
    void buildMenus();
    void addFromSearch();
    void payCard();
    // The demo's double click, made visible: two real clicks on Pay; the second bounces off the
    // button the first one locked, and a bubble over the button says so for a few seconds.
    void doubleClickPay();
    void payCash();
    // Ctrl+N: the next sale; first a one-key question when a card payment is not final.
    void newSale();
    void refreshActions();
    void showPhase(CheckoutViewModel::Phase phase, const QString &message);
    void refreshStatus();
    void setAcquirerMode(const QString &mode);
    void closeEvent(QCloseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    // Ctrl+N, or a scan that would start the next sale, with a card payment not final: asks in
    // one key whether the customer left or pays another way. `scanned`, if any, is the next
    // customer's first item: added once the customer left.
    void askHowTheCustomerLeaves(const QString &scanned);

    TillSession *m_session;
    DemoLinks m_demoLinks;
    CheckoutViewModel m_vm;
    QLineEdit *m_search = nullptr;
    QLabel *m_searchMessage = nullptr;   // beside the field: an unknown code, several matches
    void pickProduct(const QList<Product> &candidates);
    void showSearchMessage(const QString &message);
    QTableView *m_cartView = nullptr;
    QLabel *m_totalCaption = nullptr;   // "Total", with the sale's short number once it has one
    QLabel *m_total = nullptr;
    QLabel *m_tenders = nullptr;        // split tender: what is paid, what waits, what remains
    QLineEdit *m_cardAmount = nullptr;  // the card pays this much; empty: all that remains
    void restoreUnfinishedSale();
    QLabel *m_banner = nullptr;
    QComboBox *m_card = nullptr;
    QPushButton *m_payCard = nullptr;
    QLabel *m_bounce = nullptr;   // "Second tap ignored", over the Pay button
    QPushButton *m_payCash = nullptr;
    QPushButton *m_newSale = nullptr;
    QPushButton *m_anotherWay = nullptr;   // F6: the customer pays another way
    QPointer<QMessageBox> m_leaveQuestion;
    SaleBook *m_sales = nullptr;
    QPushButton *m_remove = nullptr;
    CashPanel *m_cashPanel = nullptr;
    QPushButton *m_receipt = nullptr;
    QLabel *m_connection = nullptr;
    QLabel *m_queue = nullptr;
    QLabel *m_gateway = nullptr;
    QTimer *m_countdown = nullptr;
    QDockWidget *m_paymentsDock = nullptr;
    QueuePanel *m_queuePanel = nullptr;
    SaleRecords *m_records = nullptr;   // each paid sale's lines, for refunds by items
    QLabel *m_caption = nullptr;
    QWidget *m_demoBar = nullptr;   // the caption and its Next button
    QString m_terminal;
    DemoController *m_demo = nullptr;
    LateOutcomes *m_late = nullptr;
    QPointer<LateOutcomesDialog> m_lateDialog;
    QPushButton *m_alerts = nullptr;   // in the status bar: payments declined after the customer left
    QLabel *m_notice = nullptr;        // a passing word: a left payment was paid
    void showLateOutcomes();
    void refreshAlerts();
    void openLedger(const QStringList &keys);
};

} // namespace OncePay::Ui
