// MainWindow as built: the cart, the scan and search field, the pay buttons and their shortcuts,
// the payments panel, the status bar and the menus (buildUi, buildMenus). What they do is
// mainwindow.cpp.
#include "mainwindow.h"

#include "productgrid.h"
#include "productsdialog.h"
#include "staffsession.h"
#include "tillcatalog.h"

#include <algorithm>

#include "salebook.h"

#include "cashpanel.h"
#include "lateoutcomes.h"
#include "lateoutcomesdialog.h"
#include "queuepanel.h"
#include "receipt.h"
#include "receiptdialog.h"
#include "counterdevices.h"
#include "elidedlabel.h"
#include "refunddialog.h"
#include "salerecords.h"
#include "settingsdialog.h"
#include "shiftclosedialog.h"
#include "pastshiftsdialog.h"
#include "tillstatus.h"
#include "tillstatusbar.h"
#include "timeutil.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QSplitter>
#include <QVBoxLayout>

namespace OncePay::Ui {

namespace {
// The till has no card reader driver yet (the devices issue brings one): until a reader is
// attached (setCardReader), a card payment carries the sandbox's approving test card.
constexpr char kSandboxCard[] = "tok_visa";
}   // namespace

void MainWindow::buildUi()
{
    auto *central = new QWidget(this);
    auto *layout = new QHBoxLayout(central);

    auto *left = new QVBoxLayout;
    m_left = left;   // insertBanner() puts a banner above the scan field
    m_search = new QLineEdit(central);
    m_search->setPlaceholderText(tr("Scan or type a product code or name, then Enter"));
    m_search->setAccessibleName(tr("Product code or name"));
    m_search->setClearButtonEnabled(true);
    connect(m_search, &QLineEdit::returnPressed, this, &MainWindow::addFromSearch);
    // The window's shortcuts work from the scan field (QLineEdit would take Ctrl+Shift+Z as redo).
    m_search->installEventFilter(this);
    connect(&m_vm, &CheckoutViewModel::saleStarted, m_search, &QLineEdit::clear);
    connect(m_search, &QLineEdit::textEdited, this, [this] {
        showSearchMessage({});
    });
    left->addWidget(m_search);
    m_searchMessage = new QLabel(central);
    m_searchMessage->setAccessibleName(tr("Scan message"));
    m_searchMessage->setStyleSheet(QStringLiteral("QLabel { color: #b00020; font-weight: bold; }"));
    m_searchMessage->setWordWrap(true);
    // What a message says never widens the window (issue 36): a word longer than the column
    // (a URL, a scanned QR code) is cut here, never the Total.
    m_searchMessage->setMinimumWidth(1);
    m_searchMessage->hide();
    left->addWidget(m_searchMessage);

    m_cartView = new QTableView(central);
    m_cartView->setModel(m_vm.cart());
    m_cartView->setAccessibleName(tr("Cart"));
    m_cartView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_cartView->horizontalHeader()->setSectionResizeMode(int(CartModel::Column::Name), QHeaderView::Stretch);
    m_cartView->verticalHeader()->hide();
    m_cartView->setToolTip(tr("Select a line: + and - change its quantity, Del removes it."));
    // The cart above, the product grid below (for what has no barcode); the shop drags the line
    // between them.
    m_grid = new ProductGrid(central);
    connect(m_grid, &ProductGrid::productChosen, this, &MainWindow::addFromGrid);
    auto *split = new QSplitter(Qt::Vertical, central);
    split->setChildrenCollapsible(false);
    split->addWidget(m_cartView);
    split->addWidget(m_grid);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({200, 240});   // in proportion: the grid shows two rows of buttons at 1024x768
    left->addWidget(split, 1);

    m_banner = new QLabel(central);
    m_banner->setWordWrap(true);
    m_banner->setMinimumHeight(64);
    m_banner->setMinimumWidth(1);   // as the scan message: the gateway's words never widen the window
    m_banner->setAccessibleName(tr("Payment state"));
    m_banner->setAlignment(Qt::AlignCenter);
    left->addWidget(m_banner);
    layout->addLayout(left, 3);

    auto *right = new QVBoxLayout;
    m_totalCaption = new QLabel(tr("Total"), central);
    m_totalCaption->setAccessibleName(tr("Sale"));
    m_total = new QLabel(central);
    m_total->setAccessibleName(tr("Total to pay"));
    QFont big = m_total->font();
    big.setPointSize(big.pointSize() * 3);
    big.setBold(true);
    m_total->setFont(big);
    m_total->setAlignment(Qt::AlignRight);
    right->addWidget(m_totalCaption);
    right->addWidget(m_total);
    m_tenders = new QLabel(central);
    m_tenders->setAccessibleName(tr("Paid, waiting and remaining"));
    m_tenders->setAlignment(Qt::AlignRight);
    m_tenders->setWordWrap(true);
    m_tenders->setMinimumWidth(1);
    m_tenders->hide();
    right->addWidget(m_tenders);

    // The card reader's place: a reader attached by setCardReader() shows itself here.
    m_cardReader = new QVBoxLayout;
    m_cardReader->setContentsMargins(0, 0, 0, 0);
    right->addLayout(m_cardReader);
    m_cardToken = [] {
        return QString::fromLatin1(kSandboxCard);
    };
    auto *amountCaption = new QLabel(tr("&Amount on this card:"), central);
    m_cardAmount = new QLineEdit(central);
    m_cardAmount->setAccessibleName(tr("Amount on this card"));
    m_cardAmount->setPlaceholderText(tr("All that remains"));
    amountCaption->setBuddy(m_cardAmount);
    connect(m_cardAmount, &QLineEdit::returnPressed, this, &MainWindow::payCard);
    connect(&m_vm, &CheckoutViewModel::saleStarted, m_cardAmount, &QLineEdit::clear);
    right->addWidget(amountCaption);
    right->addWidget(m_cardAmount);

    m_payCard = new QPushButton(central);
    m_payCard->setAccessibleName(tr("Pay by card"));
    m_payCard->setMinimumHeight(56);
    connect(m_payCard, &QPushButton::clicked, this, &MainWindow::payCard);
    right->addWidget(m_payCard);

    m_payCash = new QPushButton(central);
    m_payCash->setAccessibleName(tr("Pay in cash"));
    connect(m_payCash, &QPushButton::clicked, this, &MainWindow::payCash);
    right->addWidget(m_payCash);
    m_cashPanel = new CashPanel(&m_vm, central);
    connect(m_cashPanel, &CashPanel::closed, this, [this] {
        m_search->setFocus();
    });
    right->addWidget(m_cashPanel);

    m_remove = new QPushButton(central);
    m_remove->setAccessibleName(tr("Remove the selected item"));
    connect(m_remove, &QPushButton::clicked, this, [this] {
        m_vm.removeLine(m_cartView->currentIndex().row());
        m_search->setFocus();   // the next scan lands
    });
    // Only a selected line of a sale that may still be edited can be removed.
    connect(m_cartView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::refreshActions);
    right->addWidget(m_remove);

    m_receipt = new QPushButton(tr("Receipt…"), central);
    m_receipt->setAccessibleName(tr("Show the receipt"));
    connect(m_receipt, &QPushButton::clicked, this, [this] {
        // A receipt only for a payment the gateway confirmed (or cash); while it waits, a slip
        // that says it is not one.
        const QString html = receiptHtml();
        if (html.isEmpty())
            return;
        auto *dialog = new ReceiptDialog(html, Receipt::fileName(*m_vm.intent(), m_terminal), this);
        // With a receipt printer, "Print again" prints there, as the receipt did (issue 36).
        dialog->setReceiptPrinter(m_devices, tr("Receipt %1").arg(Receipt::number(*m_vm.intent(), m_terminal)));
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    right->addWidget(m_receipt);

    m_newSale = new QPushButton(central);
    m_newSale->setAccessibleName(tr("Start a new sale"));
    connect(m_newSale, &QPushButton::clicked, this, &MainWindow::newSale);
    right->addWidget(m_newSale);
    m_anotherWay = new QPushButton(central);
    m_anotherWay->setAccessibleName(tr("Customer pays another way"));
    m_anotherWay->setToolTip(tr("Give up the card payment that is not final: if it turns out charged, the till refunds it by itself. "
                                "Then take cash or another card."));
    connect(m_anotherWay, &QPushButton::clicked, this, [this] {
        m_vm.payAnotherWay();
        m_search->setFocus();
    });
    right->addWidget(m_anotherWay);
    right->addStretch(1);
    layout->addLayout(right, 2);
    setCentralWidget(central);

    buildKeys();

    auto *dock = new QDockWidget(tr("Payments"), this);
    dock->setObjectName(QStringLiteral("paymentsDock"));
    m_queuePanel = new QueuePanel(m_session, dock);
    connect(m_queuePanel, &QueuePanel::refundRequested, this, &MainWindow::openRefund);
    dock->setWidget(m_queuePanel);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    m_paymentsDock = dock;
    // The sale comes first: the payments panel starts at about a quarter of the window's height.
    resizeDocks({dock}, {200}, Qt::Vertical);

    m_statusBar = new TillStatusBar(m_session, m_demoGateway, this);
    m_statusBar->setTerminal(m_terminal);
    setStatusBar(m_statusBar);
    m_alerts = new QPushButton(this);
    m_alerts->setAccessibleName(tr("Payments declined after the customer left"));
    m_alerts->setFlat(true);
    m_alerts->setStyleSheet(QStringLiteral("QPushButton { color: white; background: #c62828; padding: 2px 8px; border-radius: 4px; }"));
    m_alerts->hide();
    connect(m_alerts, &QPushButton::clicked, this, &MainWindow::showLateOutcomes);
    m_notice = new ElidedLabel(this);
    m_notice->setAccessibleName(tr("Notice"));
    m_notice->hide();
    m_statusBar->addMiddleWidget(m_alerts);
    m_statusBar->addMiddleWidget(m_notice);
}

void MainWindow::buildMenus()
{
    QMenu *sale = menuBar()->addMenu(tr("&Sale"));
    sale->addAction(m_newSaleKey);
    sale->addSeparator();
    sale->addAction(tr("&Discount on the line…"), QKeySequence(Qt::Key_F4), this, [this] {
        askDiscount(false);
    });
    sale->addAction(tr("Discount on the s&ale…"), QKeySequence(Qt::SHIFT | Qt::Key_F4), this, [this] {
        askDiscount(true);
    });
    sale->addSeparator();
    // Issue 36: a sale on hold (mainwindowparked.cpp).
    sale->addAction(tr("Par&k the sale, or recall one"), QKeySequence(Qt::Key_F5), this, &MainWindow::parkOrShowParked);
    sale->addAction(tr("Parked sales on &hold…"), QKeySequence(Qt::SHIFT | Qt::Key_F5), this, &MainWindow::showParkedSales);
    sale->addSeparator();
    sale->addAction(m_queuePanel->refundAction());
    sale->addAction(tr("Refund a sale by its receipt n&umber…"), QKeySequence(Qt::SHIFT | Qt::Key_F8), this,
        [this] {
            openRefund({});
        });
    sale->addAction(m_queuePanel->voidAction());
    sale->addSeparator();
    // The Z report: totals, the drawer, the reconciliation with the server, then the close.
    sale->addAction(tr("&Close shift…"), QKeySequence(QStringLiteral("Ctrl+Shift+Z")), this, [this] {
        auto *dialog = new ShiftCloseDialog(m_session, m_vm.cart()->total().currency(), m_terminal,
            TillSettings::load().shopName, this);
        dialog->setDevices(m_devices);
        dialog->setManagerGate(managerGate(), TillSettings::load().cashDifferenceLimit);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    sale->addAction(tr("&Past shifts…"), QKeySequence(QStringLiteral("Ctrl+Shift+H")), this, [this] {
        auto *dialog = new PastShiftsDialog(m_session, m_terminal, TillSettings::load().shopName, this);
        dialog->setDevices(m_devices);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    // The counter's devices (issue 24).
    QAction *reprint = sale->addAction(tr("Reprin&t the last receipt"), QKeySequence::Print, this, &MainWindow::reprintLastReceipt);
    reprint->setShortcutContext(Qt::WindowShortcut);
    sale->addAction(m_queuePanel->reprintAction());
    sale->addAction(tr("Open the dra&wer…"), this, &MainWindow::openDrawerAsked);
    sale->addSeparator();
    sale->addAction(tr("&Lock the till"), QKeySequence(QStringLiteral("Ctrl+L")), this, [this] {
        if (m_staff)
            m_staff->lock();
    });
    sale->addAction(tr("&Import catalog…"), this, &MainWindow::importCatalog);
    sale->addAction(tr("Pr&oducts…"), this, [this] {
        withManager(tr("The products editor"), [this](const QString &) {
            auto *dialog = new ProductsDialog(m_catalog, this);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            connect(dialog, &QDialog::finished, this, [this] {
                activateWindow();
                m_search->setFocus();
            });
            dialog->open();
        });
    });
    sale->addAction(tr("&Settings…"), this, [this] {
        withManager(tr("Settings"), [this](const QString &) {
            openSettings();
        });
    });
    sale->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *payments = m_paymentsDock->toggleViewAction();
    payments->setText(tr("&Payments"));
    payments->setShortcut(QKeySequence(Qt::Key_F9));
    view->addAction(payments);
}

void MainWindow::buildKeys()
{
    // An action of the window (or of the cart, for its selected line) with its key. The handlers
    // check the view model, so repeats and bursts do nothing more.
    auto key = [](QWidget *on, const QString &text, const QKeySequence &sequence) {
        auto *action = new QAction(text, on);
        action->setShortcut(sequence);
        on->addAction(action);
        return action;
    };
    m_payCardKey = key(this, tr("Pay by card"), QKeySequence(Qt::Key_F12));
    connect(m_payCardKey, &QAction::triggered, this, &MainWindow::payCard);
    m_payCashKey = key(this, tr("Pay in cash"), QKeySequence(Qt::Key_F10));
    connect(m_payCashKey, &QAction::triggered, this, &MainWindow::payCash);
    m_anotherWayKey = key(this, tr("Customer pays another way"), QKeySequence(Qt::Key_F6));
    connect(m_anotherWayKey, &QAction::triggered, m_anotherWay, &QPushButton::click);
    // In the Sale menu (buildMenus), whose keys work through it.
    m_newSaleKey = new QAction(tr("&New sale"), this);
    m_newSaleKey->setShortcut(QKeySequence(QStringLiteral("Ctrl+N")));
    connect(m_newSaleKey, &QAction::triggered, m_newSale, &QPushButton::click);
    QAction *remove = key(m_cartView, tr("Remove the selected item"), QKeySequence(Qt::Key_Delete));
    connect(remove, &QAction::triggered, this, [this] {
        m_vm.removeLine(m_cartView->currentIndex().row());
    });
    // Quantities of the selected line: + and - (also on the keypad).
    for (const auto &[k, delta] : {std::pair{Qt::Key_Plus, 1}, std::pair{Qt::Key_Minus, -1}}) {
        connect(key(m_cartView, QString(), QKeySequence(k)), &QAction::triggered, this, [this, delta = delta] {
            const int row = m_cartView->currentIndex().row();
            m_vm.changeQuantity(row, delta);
            m_cartView->selectRow(qMin(row, m_vm.cart()->rowCount() - 1));
        });
    }

    // The labels, with the keys as the actions have them (F6's label: refreshActions).
    m_payCard->setText(tr("Pay by card (%1)").arg(keyOf(m_payCardKey)));
    m_payCash->setText(tr("Cash (%1)").arg(keyOf(m_payCashKey)));
    m_remove->setText(tr("Remove item (%1)").arg(keyOf(remove)));
    m_newSale->setText(tr("New sale (%1)").arg(keyOf(m_newSaleKey)));
    m_cardAmount->setToolTip(tr("Two cards, or card and cash: type what this card pays, then %1.").arg(keyOf(m_payCardKey)));
}

QString MainWindow::keyOf(const QAction *action)
{
    // As typed in the labels in every language: "F12", "Del", "Ctrl+N".
    return action->shortcut().toString(QKeySequence::PortableText);
}

void MainWindow::openSettings()
{
    {
        SettingsDialog dialog(TillSettings::load(), m_vm.cart()->total().currency(), this);
        dialog.setTaxMode(m_catalog->taxMode());
        if (dialog.exec() != QDialog::Accepted)
            return;
        const TillSettings s = dialog.settings();
        s.save();
        if (dialog.taxMode() != m_catalog->taxMode() && m_catalog->store())
            m_catalog->store()->setTaxMode(dialog.taxMode(), this, [](bool, const QString &, bool) {});
        emit catalogUrlChanged(s.catalogUrl);
        m_session->engine()->setLimits(s.limits);
        m_vm.setUnconfirmedAfterMs(s.unconfirmedAfterSeconds * 1000);
        m_vm.setOpenPriceLimit(Money(s.openPriceLimit, QStringLiteral("CNY")));
        m_vm.setEmbeddedLayouts(s.embeddedLayouts());
        m_terminal = s.terminal;
        m_statusBar->setTerminal(m_terminal);
        if (m_staff)
            m_staff->setIdleLockMs(s.idleLockMinutes * 60'000);
        if (m_devices)
            m_devices->apply(s);
        emit settingsSaved(s);
    }
}

}   // namespace OncePay::Ui
