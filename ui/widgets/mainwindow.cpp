// MainWindow: what the cashier does (scan, search, pay, a new sale, refunds, the shift) and what
// the window shows of it. Its widgets, shortcuts and menus as built are mainwindowbuild.cpp; who
// works the till (sign-in, a manager's approval) is mainwindowstaff.cpp; the scan field and the
// scanner wherever the keyboard is, mainwindowscans.cpp; ringing up by hand (the grid, a typed
// price or weight, a discount), mainwindowringup.cpp.
#include "mainwindow.h"

#include "productgrid.h"
#include "staffsession.h"
#include "tillcatalog.h"

#include <algorithm>
#include <utility>

#include "salebook.h"

#include "cashpanel.h"
#include "lateoutcomes.h"
#include "lateoutcomesdialog.h"
#include "queuepanel.h"
#include "receipt.h"
#include "receiptdialog.h"
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
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QCloseEvent>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QLoggingCategory>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QPushButton>
#include <QShortcut>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace OncePay::Ui {

Q_LOGGING_CATEGORY(lcWindow, "oncepay.ui.window", QtInfoMsg)

MainWindow::MainWindow(TillSession *session, TillCatalog *catalog, bool demoGateway, QWidget *parent)
    : QMainWindow(parent)
    , m_session(session)
    , m_catalog(catalog)
    , m_demoGateway(demoGateway)
    , m_vm(session->engine(), catalog->catalogPointer())
{
    setWindowTitle(tr("OncePay till"));
    const TillSettings settings = TillSettings::load();
    m_terminal = settings.terminal;
    m_vm.setUnconfirmedAfterMs(settings.unconfirmedAfterSeconds * 1000);
    m_vm.setOpenPriceLimit(Money(settings.openPriceLimit, QStringLiteral("CNY")));
    m_vm.setEmbeddedLayouts(settings.embeddedLayouts());
    m_vm.setTaxMode(catalog->taxMode());
    m_late = new LateOutcomes(session->journal(), session->engine(), this);
    // Each cart that is paid is a sale in the journal, numbered "<till>-<six digits>", with its
    // lines (for refunds by items).
    m_sales = new SaleBook(session->journal(), this);
    m_sales->setTillNumber(SaleBook::tillNumberOf(m_terminal));
    m_vm.setSaleBook(m_sales);
    m_records = new SaleRecords(m_sales, this);
    // A till that kept its lines in a file of their own copies them into the journal once.
    m_sales->importLegacyLines(SaleBook::legacyLinesPath(session->journal()->path()), this,
        [](bool ok, const TillError &error, int copied) {
            if (!ok)
                qCWarning(lcWindow) << "the lines of earlier sales were not copied (refunds by amount only):" << error;
            else if (copied > 0)
                qCInfo(lcWindow) << copied << "lines of earlier sales copied into the journal";
        });
    connect(&m_vm, &CheckoutViewModel::customerLeft, m_late, &LateOutcomes::customerLeft);
    buildUi();
    setUpParking();
    m_grid->setCatalog(catalog->isLoaded() ? catalog->catalogPointer() : nullptr, m_vm.cart()->language());
    connect(m_vm.cart(), &CartModel::languageChanged, this, [this] {
        m_grid->setCatalog(m_catalog->isLoaded() ? m_catalog->catalogPointer() : nullptr, m_vm.cart()->language());
    });
    connect(catalog, &TillCatalog::catalogChanged, this, [this] {
        m_vm.setTaxMode(m_catalog->taxMode());
        m_grid->setCatalog(m_catalog->catalogPointer(), m_vm.cart()->language());
    });
    buildMenus();
    connect(&m_vm, &CheckoutViewModel::actionsChanged, this, &MainWindow::refreshActions);
    connect(&m_vm, &CheckoutViewModel::phaseChanged, this, &MainWindow::showPhase);
    refreshActions();
    showPhase(CheckoutViewModel::Phase::Selling, {});
    connect(m_late, &LateOutcomes::alertsChanged, this, &MainWindow::refreshAlerts);
    connect(m_late, &LateOutcomes::alertRaised, this, [this] {
        QApplication::beep();
        showLateOutcomes();
    });
    connect(m_late, &LateOutcomes::settledQuietly, this, [this](const Intent &i) {
        m_notice->setText(tr("Sale %1 is paid (%2).").arg(i.saleLabel(), i.amount.toDisplayString()));
        m_notice->show();
        QTimer::singleShot(10'000, m_notice, [notice = m_notice, text = m_notice->text()] {
            if (notice->text() != text)
                return;
            notice->clear();
            notice->hide();   // its room goes back to the others' words
        });
    });
    m_late->load();
    restoreUnfinishedSale();
    m_search->setFocus();
    // Every key of the program passes here first: a scanner's reaches the scan field from anywhere.
    qApp->installEventFilter(this);
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    // Any key or click anywhere in the till is activity: the idle lock waits again.
    if (m_staff && (event->type() == QEvent::KeyPress || event->type() == QEvent::MouseButtonPress))
        m_staff->noteActivity();
    if ((event->type() == QEvent::KeyPress || event->type() == QEvent::ShortcutOverride)
        && watched == QApplication::focusWidget() && filterScannerKey(event))
        return true;
    if (watched == m_search && event->type() == QEvent::ShortcutOverride) {
        // A key with Ctrl or Alt, or a function key, is the window's when the window has a
        // shortcut for it: the field does not override it. Plain keys stay the field's.
        auto *key = static_cast<QKeyEvent *>(event);
        const bool command = (key->modifiers() & (Qt::ControlModifier | Qt::AltModifier))
            || (key->key() >= Qt::Key_F1 && key->key() <= Qt::Key_F35);
        if (command) {
            const QKeySequence pressed(key->keyCombination());
            const auto actions = findChildren<QAction *>();
            const auto shortcuts = findChildren<QShortcut *>();
            const bool windows = std::any_of(actions.cbegin(), actions.cend(), [&](const QAction *a) {
                return a->shortcuts().contains(pressed);
            }) || std::any_of(shortcuts.cbegin(), shortcuts.cend(), [&](const QShortcut *s) {
                return s->key() == pressed;
            });
            if (windows) {
                event->ignore();
                return true;
            }
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::restoreUnfinishedSale()
{
    // The sale on the counter when the till stopped comes back (lines at their prices then, the
    // parts paid, a card part still waiting). Sales whose customer left stay with the queue.
    m_sales->unfinished(this, [this](bool ok, const TillError &error, const QList<Sale> &sales) {
        if (!ok) {
            qCWarning(lcWindow) << "unfinished sales were not read:" << error;
            return;
        }
        for (auto it = sales.crbegin(); it != sales.crend(); ++it) {
            const bool left = std::any_of(it->intents.cbegin(), it->intents.cend(),
                [](const Intent &i) {
                    return i.customerLeftAt > 0;
                });
            if (!left) {
                m_vm.restoreSale(*it);
                return;
            }
        }
    });
}

void MainWindow::openRefund(const Intent &intent)
{
    const TillSettings settings = TillSettings::load();
    const ReceiptContext context{m_terminal, settings.shopName, settings.shopAddress, {}};
    auto *dialog = new RefundDialog(m_session, m_records, context, m_vm.cart()->language(), this);
    if (m_staff)
        dialog->setManagerGate(managerGate(), Money(TillSettings::load().refundLimit, m_vm.cart()->total().currency()));
    dialog->setDevices(m_devices);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (intent.isValid())
        dialog->showSale(intent);
    else if (const auto current = m_vm.intent(); current && current->state == IntentState::Succeeded)
        dialog->suggestNumber(Receipt::number(*current, m_terminal));   // the customer just paid, and changed their mind
    dialog->open();
}

void MainWindow::importCatalog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import the shop's catalog"), QString(),
        tr("Catalogs (*.csv *.json);;All files (*)"));
    if (path.isEmpty())
        return;
    withManager(tr("Importing a catalog"), [this, path](const QString &) {
        startImport(path);
    });
}

void MainWindow::startImport(const QString &path)
{
    m_statusBar->showMessage(tr("Importing %1…").arg(QFileInfo(path).fileName()));
    m_catalog->importFile(path, this, [this](bool ok, const QString &message) {
        m_statusBar->clearMessage();
        if (ok)
            QMessageBox::information(this, tr("Catalog imported"), message);
        else
            QMessageBox::warning(this, tr("Catalog not imported"), message);
    });
}

void MainWindow::showSearchMessage(const QString &message)
{
    m_searchMessage->setText(message);
    m_searchMessage->setVisible(!message.isEmpty());
}

void MainWindow::payCard()
{
    if (!m_vm.canPay())
        return;
    QString reason;
    const std::optional<Money> amount = m_vm.cardAmount(m_cardAmount->text(), &reason);
    if (!amount) {
        showSearchMessage(reason);
        m_cardAmount->setFocus();
        m_cardAmount->selectAll();
        return;
    }
    showSearchMessage({});
    m_cardAmount->clear();
    // Locked inside the view model before anything else runs; then the button follows.
    m_vm.payByCard(m_cardToken(), amount);
    refreshActions();
    if (m_search->isEnabled())
        m_search->setFocus();
}

void MainWindow::newSale()
{
    if (m_vm.canCancelSale()) {
        // Part of it is paid: leaving it means cancelling it and giving the money back. Asked,
        // never silent; C answers, Enter only goes back.
        auto *ask = new QMessageBox(QMessageBox::Question, tr("This sale is partly paid"),
            tr("%1 of this sale is paid and %2 remains. Cancel the sale and give the money back?")
                .arg(Money(m_vm.cart()->total().minorUnits() - m_vm.remaining().minorUnits(),
                         m_vm.remaining().currency())
                         .toDisplayString(),
                    m_vm.remaining().toDisplayString()),
            QMessageBox::NoButton, this);
        QPushButton *cancelSale = ask->addButton(tr("&Cancel the sale (C)"), QMessageBox::DestructiveRole);
        QPushButton *back = ask->addButton(tr("Go &back"), QMessageBox::RejectRole);
        ask->setDefaultButton(back);
        ask->setEscapeButton(back);
        ask->setAttribute(Qt::WA_DeleteOnClose);
        connect(ask, &QMessageBox::buttonClicked, this, [this, cancelSale](QAbstractButton *button) {
            if (button == cancelSale)
                m_vm.cancelSale();
            activateWindow();
            m_search->setFocus();
        });
        ask->open();
        return;
    }
    if (m_vm.discardAsksFirst()) {
        // Items rung up, nothing paid: never thrown away silently. D discards (and the journal
        // keeps a record of it); Enter only goes back.
        auto *ask = new QMessageBox(QMessageBox::Question, tr("Discard this sale?"),
            tr("%n item(s) for %1 are rung up and nothing is paid. Discard them and start a new sale?",
                nullptr, m_vm.cart()->itemCount())
                .arg(m_vm.cart()->total().toDisplayString()),
            QMessageBox::NoButton, this);
        ask->setInformativeText(tr("A discarded sale is kept in the journal as cancelled, with its items."));
        ask->setAccessibleName(tr("Discard question"));
        QPushButton *discard = ask->addButton(tr("&Discard (D)"), QMessageBox::DestructiveRole);
        QPushButton *back = ask->addButton(tr("Go &back"), QMessageBox::RejectRole);
        ask->setDefaultButton(back);
        ask->setEscapeButton(back);
        ask->setAttribute(Qt::WA_DeleteOnClose);
        connect(ask, &QMessageBox::buttonClicked, this, [this, discard](QAbstractButton *button) {
            if (button == discard)
                m_vm.discardSale();
            activateWindow();
            m_search->setFocus();
        });
        ask->open();
        return;
    }
    if (!m_vm.leavingAsksFirst()) {
        m_vm.startNewSale();
        m_search->setFocus();
        return;
    }
    askHowTheCustomerLeaves({});
}

void MainWindow::askHowTheCustomerLeaves(const QString &scanned)
{
    if (m_leaveQuestion && m_leaveQuestion->isVisible()) {
        if (!scanned.isEmpty())
            holdScan(m_leaveQuestion, scanned);
        return;   // one question at a time: a repeated Ctrl+N asks nothing more
    }
    // Never silently: the customer left (keep whatever the card does), or pays another way. One
    // key answers (L or A); Enter (a scanner's) only goes back.
    auto *ask = new QMessageBox(QMessageBox::Question, tr("The card payment is not final yet"),
        tr("Has the customer left, or will they pay another way?"), QMessageBox::NoButton, this);
    ask->setInformativeText(tr("Customer left: the till keeps whatever the card does and tells you if it is declined.\n"
                               "Pays another way: the card payment is given up (if it turns out charged, the till refunds it by "
                               "itself) and this sale waits for cash or another card."));
    QPushButton *left = ask->addButton(tr("Customer &left (L)"), QMessageBox::AcceptRole);
    QPushButton *another = ask->addButton(tr("Pays &another way (A)"), QMessageBox::ActionRole);
    QPushButton *back = ask->addButton(tr("Go &back"), QMessageBox::RejectRole);
    ask->setDefaultButton(back);
    ask->setEscapeButton(back);
    ask->setAttribute(Qt::WA_DeleteOnClose);
    // The scan that asked, and those scanned while it asks (holdScan), wait for the answer.
    m_leaveScans = scanned.isEmpty() ? QStringList() : QStringList{scanned};
    connect(ask, &QMessageBox::buttonClicked, this, [this, left, another](QAbstractButton *button) {
        const QStringList kept = std::exchange(m_leaveScans, {});
        if (button == left) {
            m_vm.startNewSale(CheckoutViewModel::Leaving::CustomerLeft);
            // The next customer's first items, once the question is gone.
            if (!kept.isEmpty()) {
                QTimer::singleShot(0, this, [this, kept] {
                    showSearchMessage({});
                    addScans(kept);
                });
            }
        } else {
            if (button == another)
                m_vm.startNewSale(CheckoutViewModel::Leaving::PaysAnotherWay);
            if (kept.size() == 1)
                showSearchMessage(tr("%1 was not added: this customer's sale is still open. Scan it again for the next customer.")
                                      .arg(kept.first()));
            else if (kept.size() > 1)
                showSearchMessage(tr("%n scanned items were not added: this customer's sale is still open. Scan them again for the next customer.",
                    nullptr, int(kept.size())));
        }
        // The keys (F10, F12, scans) go to the checkout again at once.
        activateWindow();
        m_search->setFocus();
    });
    m_leaveQuestion = ask;
    ask->open();
}

void MainWindow::payCash()
{
    m_cashPanel->start();   // inline: quick tenders, the amount, a short tender told on the spot
}

void MainWindow::refreshActions()
{
    m_payCard->setEnabled(m_vm.canPay());
    m_payCash->setEnabled(m_vm.canPay());
    if (QWidget *reader = m_cardReader->count() ? m_cardReader->itemAt(0)->widget() : nullptr)
        reader->setEnabled(m_vm.canPay());
    m_cardAmount->setEnabled(m_vm.canPay());
    // Live whenever the next scan can do something: add to this sale, or start the next one
    // (after a question when a card payment of this one is not final).
    m_search->setEnabled(m_vm.canEditCart() || m_vm.scanStartsNextSale() || m_vm.canStartNewSale());
    m_newSale->setEnabled(m_vm.canStartNewSale() || m_vm.canCancelSale());
    m_anotherWay->setEnabled(m_vm.canPayAnotherWay());
    m_anotherWay->setVisible(m_vm.leavingAsksFirst() || m_vm.canPayAnotherWay());
    // A wallet payment waits for the customer's phone: giving it up cancels it at the bank.
    const QString f6 = keyOf(m_anotherWayKey);
    m_anotherWay->setText(m_vm.waitsForWallet() ? tr("Customer gave up (%1)").arg(f6) : tr("Customer pays another way (%1)").arg(f6));
    m_anotherWay->setAccessibleName(m_vm.waitsForWallet() ? tr("Customer gave up") : tr("Customer pays another way"));
    const QModelIndexList selected = m_cartView->selectionModel()->selectedRows();
    m_remove->setEnabled(m_vm.canEditCart() && !selected.isEmpty() && selected.first().row() < m_vm.cart()->rowCount());
    m_receipt->setEnabled(m_vm.intent() && Receipt::kindFor(*m_vm.intent()) != Receipt::Kind::None);
    m_total->setText(m_vm.cart()->total().toDisplayString());
    m_totalCaption->setText(m_vm.saleNumber().isEmpty() ? tr("Total") : tr("Total \u2014 sale %1").arg(m_vm.saleNumber()));
    const bool split = m_vm.paid().minorUnits() > 0 && m_vm.remaining().minorUnits() > 0;
    m_tenders->setVisible(split);
    if (split) {
        m_tenders->setText(tr("Paid %1 \u00B7 waiting %2 \u00B7 remains %3")
                               .arg(m_vm.paid().toDisplayString(), m_vm.waiting().toDisplayString(),
                                   m_vm.remaining().toDisplayString()));
    }
}

void MainWindow::showPhase(CheckoutViewModel::Phase phase, const QString &message)
{
    using P = CheckoutViewModel::Phase;
    QString color = QStringLiteral("#e8eef5");
    switch (phase) {
    case P::Paid:
        color = QStringLiteral("#c8f0c8");
        break;
    case P::Declined:
    case P::Failed:
    case P::NeedsAttention:
        color = QStringLiteral("#f7c6c6");
        break;
    case P::Voided:
        color = QStringLiteral("#e0e0e0");
        break;
    case P::WaitingForConnection:
    case P::Checking:
    case P::BankProcessing:
    case P::NotConfirmed:
        color = QStringLiteral("#fbe7b5");
        break;
    default:
        break;
    }
    m_banner->setStyleSheet(QStringLiteral("QLabel { background: %1; font-size: 15pt; padding: 8px; border-radius: 6px; }").arg(color));
    m_banner->setText(message.isEmpty() ? tr("Scan items, then pay by card (%1), cash (%2), or scan the customer's wallet payment code.")
                                              .arg(keyOf(m_payCardKey), keyOf(m_payCashKey))
                                        : message);
    // A tender ended and the next may follow (a card part paid, cash taken for part): the keyboard
    // goes back to the scan field unless the cash panel holds it.
    const bool tenderEnded = phase == P::Selling && m_vm.paid().minorUnits() > 0 && !m_cashPanel->isVisible();
    if (tenderEnded || phase == P::Paid || phase == P::Declined || phase == P::Failed || phase == P::NeedsAttention || phase == P::Voided) {
        // The next scan goes to the scan field: after Paid it starts the next customer's sale,
        // after a refusal it adds to this one (another card may follow).
        refreshActions();
        // A partly paid sale takes no scan: the cart holds the keyboard then, where a scanner's
        // Enter does nothing (never a pay button, never the payments panel's filter).
        if (m_search->isEnabled())
            m_search->setFocus();
        else if (tenderEnded)
            m_cartView->setFocus();
    } else if (phase == P::WaitingForConnection || phase == P::NotConfirmed) {
        // "You may serve the next customer": the scan field has the keyboard again (issue 36),
        // unless the cashier is typing somewhere on purpose.
        refreshActions();
        QWidget *focus = QApplication::focusWidget();
        if (m_search->isEnabled() && (!focus || scanRoute(focus) == ScanRoute::Window))
            m_search->setFocus();
    }
}

void MainWindow::showLateOutcomes()
{
    if (!m_lateDialog) {
        m_lateDialog = new LateOutcomesDialog(m_late, this);
        m_lateDialog->setAttribute(Qt::WA_DeleteOnClose);
        // A scan typed while the alert has the keyboard is a scan: into the field, not an answer.
        connect(m_lateDialog, &LateOutcomesDialog::typedForCheckout, this, [this](const QString &text, bool enter) {
            activateWindow();
            m_search->setFocus();
            if (!text.isEmpty() && m_search->isEnabled())
                m_search->insert(text);
            if (enter)
                addFromSearch();
        });
    }
    m_lateDialog->show();
    m_lateDialog->raise();
}

void MainWindow::refreshAlerts()
{
    const QList<Intent> alerts = m_late->alerts();
    const int refunded = int(std::count_if(alerts.cbegin(), alerts.cend(), &LateOutcomes::isRefundOfChargedLate));
    const int declined = int(alerts.size()) - refunded;
    m_alerts->setVisible(!alerts.isEmpty());
    QStringList text;
    if (declined > 0)
        text << tr("⚠ %n declined after the customer left", nullptr, declined);
    // Issue 36: the till's own refund of a card charged late, said here until acknowledged.
    if (refunded > 0)
        text << tr("⚠ %n card payment(s) refunded by the till: tell the customer", nullptr, refunded);
    m_alerts->setText(text.join(QStringLiteral(" · ")));
}

void MainWindow::insertBanner(QWidget *banner)
{
    m_left->insertWidget(0, banner);
}

void MainWindow::setCardReader(QWidget *reader, std::function<QString()> token)
{
    while (QLayoutItem *item = m_cardReader->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_cardReader->addWidget(reader);
    m_cardToken = std::move(token);
    refreshActions();
}

void MainWindow::showPayments()
{
    m_paymentsDock->show();
    m_paymentsDock->raise();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // Payments waiting are kept in the journal and sent on the next start: the cashier decides
    // knowing how many and how much.
    const SyncEngine *e = m_session->engine();
    const int waiting = e->waitingCount();
    if (waiting == 0) {
        event->accept();
        emit closed();
        return;
    }
    QMessageBox ask(QMessageBox::Question, tr("Quit OncePay?"),
        tr("%n payment(s) waiting, %1 in all, not sent yet.", nullptr, waiting).arg(TillStatus::totals(e->waitingTotals())),
        QMessageBox::NoButton, this);
    ask.setInformativeText(tr("They are saved on this till and will be sent the next time it starts. Quit now?"));
    QPushButton *quit = ask.addButton(tr("Quit, send them on next start"), QMessageBox::AcceptRole);
    ask.setDefaultButton(ask.addButton(tr("Keep the till open"), QMessageBox::RejectRole));
    ask.exec();
    if (ask.clickedButton() == quit) {
        event->accept();
        emit closed();
    } else {
        event->ignore();
    }
}

}   // namespace OncePay::Ui
