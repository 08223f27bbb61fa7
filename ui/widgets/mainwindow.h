#pragma once

#include "checkoutviewmodel.h"
#include "scandetector.h"
#include "staffsession.h"
#include "tillsettings.h"
#include "tillsession.h"

#include <QMainWindow>
#include <QPointer>

#include <functional>

class QAction;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMessageBox;
class QPushButton;
class QTableView;
class QVBoxLayout;

namespace OncePay {
class TillCatalog;
}

namespace OncePay::Ui {

class StaffSession;

class CashPanel;
class QueuePanel;
class SaleRecords;
class LateOutcomes;
class LateOutcomesDialog;
class TillStatusBar;

// The cashier's screen: the search/scan field, the cart, the total, the pay actions, the
// payment's state in words, and a status bar with the connection and the waiting queue.
// Renders the CheckoutViewModel and forwards input to it; no checkout logic lives here.
// The demo (ui/demo, DemoWindow) adds itself from outside: a banner, the test cards as the
// card reader, its menus and a word in the status bar; this class knows nothing of it.
class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    // `demoGateway`: the till runs the embedded demo gateway (the status bar says so).
    // `catalog`: what the till sells (the shop's own, or the demo's); its tax mode prices the cart.
    MainWindow(TillSession *session, TillCatalog *catalog, bool demoGateway = false, QWidget *parent = nullptr);

    CheckoutViewModel *viewModel() { return &m_vm; }
    TillStatusBar *tillStatusBar() const { return m_statusBar; }
    LateOutcomes *lateOutcomes() const { return m_late; }
    QPushButton *payButton() const { return m_payCard; }
    QueuePanel *paymentsPanel() const { return m_queuePanel; }
    SaleRecords *saleRecords() const { return m_records; }
    // The refund dialog on this sale (a payment or a refund: its payment); with no sale, it asks
    // for the receipt number.
    void openRefund(const Intent &intent);
    // A banner above the scan field (the demo's caption).
    void insertBanner(QWidget *banner);
    // The card reader: `reader` is shown where the card is taken (enabled while a card may
    // pay), `token` gives the card token of the next card payment. Without one, payments carry
    // the sandbox's approving test card.
    void setCardReader(QWidget *reader, std::function<QString()> token);
    void showPayments();   // the payments panel, shown and raised
    // Who works the till (issue 23). Without it, or with no manager defined, anyone may do
    // anything, as before staff existed.
    void setStaff(StaffSession *staff);
    // Runs `granted` with the approving manager's name ("" when none is needed: no staff, or a
    // manager is signed in); asks for a manager's PIN first otherwise. `what` says what for.
    void withManager(const QString &what, std::function<void(const QString &approver)> granted);
    ManagerGate managerGate();

    // The receipt printer and the drawer (issue 24): a paid sale's receipt prints by itself (a
    // setting), cash opens the drawer, Ctrl+P reprints, the payments panel reprints any sale's.
    // Without them (or with no printer set), receipts go through the system's print dialog.
    void setDevices(class CounterDevices *devices);
    class CounterDevices *devices() const { return m_devices; }
    // The sales on hold (issue 36, mainwindowparked.cpp).
    class ParkedSales *parkedSales() const { return m_parked; }

signals:
    // Settings saved with this catalog URL (the till's composition fetches from it).
    void catalogUrlChanged(const QString &url);
    // Settings saved (the customer display follows its screen and language).
    void settingsSaved(const OncePay::Ui::TillSettings &settings);
    // The window closed (Quit, Ctrl+Q, its close button) and the cashier did not keep it open:
    // the till's composition ends the program, every window with it.
    void closed();

private:
    void buildUi();
    void buildMenus();
    // The counter's keys, each declared once as an action with its key (mainwindowbuild.cpp); the
    // buttons and the banner show the key from the action (keyOf), never typed again.
    void buildKeys();
    static QString keyOf(const QAction *action);
    void addFromSearch();
    // An open-price product: the cashier types its price (Enter adds it, Esc drops it).
    void askPrice(const QString &code, const Product &product);
    // F4: a discount on the selected line; Shift+F4: on the whole sale.
    void askDiscount(bool wholeSale);
    bool applyDiscount(int row, const QString &text, const QString &approver, QString *reason);
    void startImport(const QString &path);
    // A one-line question over the window; `apply` takes the answer, or says why not (shown
    // beside the scan field). The scan field has the keyboard again afterwards.
    void askText(const QString &title, const QString &label, const QString &accessibleName,
        std::function<bool(const QString &text, QString *reason)> apply);
    void importCatalog();
    // A button of the product grid: as a scan of its code (an open price asks for the price,
    // goods sold by the kg for the weight).
    void addFromGrid(const QString &code);
    void requireSignIn();
    // What the scanner read at the lock screen, added once someone signed in (mainwindowstaff.cpp).
    void addScannedAtLock(const QStringList &codes);
    void openSettings();   // the lock screen, when someone must sign in and no one is
    void showStaff();
    void payCard();
    void payCash();
    // Ctrl+N: the next sale; first a one-key question when a card payment is not final.
    void newSale();
    void refreshActions();
    void showPhase(CheckoutViewModel::Phase phase, const QString &message);
    void closeEvent(QCloseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    // Ctrl+N, or a scan that would start the next sale, with a card payment not final: asks in
    // one key whether the customer left or pays another way. `scanned`, if any, is the next
    // customer's first item: added once the customer left.
    void askHowTheCustomerLeaves(const QString &scanned);
    // What the scan field does with a code, scanned or typed: an item, a wallet payment code, or
    // the next customer's first item (addFromSearch takes the field's text to it).
    void addCode(const QString &code);

    // A barcode scanner wherever the keyboard is (issue 36; mainwindowscans.cpp). Its code goes
    // to addCode() from any widget of the window that takes no typing (the cart, a button, the
    // payments filter), its keys swallowed; a field that takes typing (the scan field, an amount,
    // a PIN) keeps every key. A scan while one of the window's questions is open is kept, never
    // its answer, and goes to the cart once the question is answered.
    enum class ScanRoute {
        None,   // the widget's own: a field that takes typing, another window, the lock screen
        Window,   // to addCode() now
        Question,   // kept until the question is answered
    };
    ScanRoute scanRoute(QWidget *focus) const;
    bool isQuestion(QWidget *window) const;
    bool filterScannerKey(QEvent *event);   // true: the key is the scanner's, swallowed
    void holdScan(QWidget *question, const QString &code);
    void deliverHeldScans();
    // Codes to addCode() in order; one that asks a question keeps the rest for after it.
    void addScans(QStringList codes);
    ScanDetector m_scans;
    QStringList m_heldScans;   // scanned while m_heldFor asked
    QPointer<QWidget> m_heldFor;
    QStringList m_leaveScans;   // scanned while "has the customer left?" asks: the next customer's if so

    TillSession *m_session;
    TillCatalog *m_catalog;
    StaffSession *m_staff = nullptr;
    QPointer<QDialog> m_lockScreen;
    QLabel *m_staffLabel = nullptr;
    bool m_demoGateway = false;
    CheckoutViewModel m_vm;
    QLineEdit *m_search = nullptr;
    QLabel *m_searchMessage = nullptr;   // beside the field: an unknown code, several matches
    void pickProduct(const QList<Product> &candidates);
    void showSearchMessage(const QString &message);
    QTableView *m_cartView = nullptr;
    class ProductGrid *m_grid = nullptr;
    QLabel *m_totalCaption = nullptr;   // "Total", with the sale's short number once it has one
    QLabel *m_total = nullptr;
    QLabel *m_tenders = nullptr;   // split tender: what is paid, what waits, what remains
    QLineEdit *m_cardAmount = nullptr;   // the card pays this much; empty: all that remains
    void restoreUnfinishedSale();
    QLabel *m_banner = nullptr;
    QVBoxLayout *m_left = nullptr;
    QVBoxLayout *m_cardReader = nullptr;
    std::function<QString()> m_cardToken;
    QPushButton *m_payCard = nullptr;
    QPushButton *m_payCash = nullptr;
    QPushButton *m_newSale = nullptr;
    QPushButton *m_anotherWay = nullptr;   // the customer pays another way
    QAction *m_payCardKey = nullptr;   // buildKeys(): F12, F10, F6, Ctrl+N
    QAction *m_payCashKey = nullptr;
    QAction *m_anotherWayKey = nullptr;
    QAction *m_newSaleKey = nullptr;
    QPointer<QMessageBox> m_leaveQuestion;
    SaleBook *m_sales = nullptr;
    QPushButton *m_remove = nullptr;
    CashPanel *m_cashPanel = nullptr;
    QPushButton *m_receipt = nullptr;
    TillStatusBar *m_statusBar = nullptr;
    QDockWidget *m_paymentsDock = nullptr;
    QueuePanel *m_queuePanel = nullptr;
    SaleRecords *m_records = nullptr;   // each paid sale's lines, for refunds by items
    QString m_terminal;
    LateOutcomes *m_late = nullptr;
    QPointer<LateOutcomesDialog> m_lateDialog;
    QPushButton *m_alerts = nullptr;   // in the status bar: payments declined after the customer left
    QLabel *m_notice = nullptr;   // a passing word: a left payment was paid
    void showLateOutcomes();
    void refreshAlerts();

    // Issue 24 (mainwindowdevices.cpp).
    class CounterDevices *m_devices = nullptr;
    QLabel *m_printerStatus = nullptr;
    QString receiptHtml() const;   // the receipt of the sale on screen, as the Receipt… button shows it
    void printPaidReceipt();
    void reprintLastReceipt();
    void reprintIntent(const Intent &intent);
    void reprintRefundSlip(const Intent &refund, const QString &number);
    void openDrawerAsked();
    // Issue 36 (mainwindowparked.cpp): F5 parks the sale, or shows the parked ones when there is
    // nothing to park; Shift+F5 shows them.
    class ParkedSales *m_parked = nullptr;
    void setUpParking();
    void parkOrShowParked();
    void showParkedSales();
    void pulseDrawer(const QString &why, const QString &subject, qint64 amount, const QString &approver);
};

}   // namespace OncePay::Ui
