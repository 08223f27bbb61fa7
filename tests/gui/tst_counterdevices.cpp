// The counter's devices on the real window (issue 24), against the ESC/POS test printer
// (tests/common/testprinter): a paid sale prints once; paper out, then refilled, prints once,
// late, and the sale stays paid; a cable pulled mid-receipt reprints whole, once; a cash sale
// pulses the drawer once; Ctrl+P and the payments panel reprint; a manager opens the drawer from
// the menu with a reason the journal keeps; the customer display follows a lost-answer payment
// through "pending" to "paid" without ever saying "paid" early, in its own language; and
// oncepay-pos --print-test prints the test page without a window.
#include "customerdisplay.h"
#include "customerdisplaymodel.h"
#include "demotill.h"
#include "demobackend.h"
#include "intentjournal.h"
#include "mainwindow.h"
#include "queuepanel.h"
#include "refunddialog.h"
#include "refundviewmodel.h"
#include "simulatednetwork.h"
#include "testprinter.h"
#include "tillsession.h"
#include "tillsettings.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QTableView>
#include <QtTest>

using namespace OncePay;
using namespace OncePay::Ui;
using OncePay::Test::TestPrinter;

class TestCounterDevices : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void aPaidSalePrintsOnce();
    void paperOutThenRefilledPrintsOnceLate();
    void aCablePulledMidReceiptReprintsWholeOnce();
    void aCashSalePulsesTheDrawerOnce();
    void ctrlPReprintsTheLastReceipt();
    void thePaymentsPanelReprintsAnEarlierSale();
    void aManagerOpensTheDrawerWithAReason();
    void aCashRefundOpensTheDrawerAndPrintsItsSlipOnce();
    void theCustomerDisplayNeverSaysPaidEarly();
    void printTestWithoutAWindow();

private:
    void usePrinter(bool autoPrint = true);
    void scan(const QString &code);
    void payByCard();
    bool settled();
    QList<IntentJournal::StaffAction> staffActions();
    QInputDialog *askToOpenTheDrawer();
    // Shift+F8 (the sale just paid is offered), Enter, by amount (Alt+M), `amount`, Enter: the
    // dialog once the refund is made; null if a step did not come.
    RefundDialog *refundCashByAmount(const QString &amount);

    DemoTill m_till;
    std::unique_ptr<TestPrinter> m_printer;
};

void TestCounterDevices::initTestCase()
{
    DemoTill::isolateSettings();
}

void TestCounterDevices::init()
{
    QString error;
    QVERIFY2(m_till.start({}, &error), qPrintable(error));
    m_printer = std::make_unique<TestPrinter>();
    QVERIFY(m_printer->listen());
}

void TestCounterDevices::cleanup()
{
    m_till.stop();
    m_printer.reset();
}

void TestCounterDevices::usePrinter(bool autoPrint)
{
    TillSettings s;
    s.printerUri = m_printer->uri();
    s.autoPrint = autoPrint;
    m_till.printQueue->setRetryMs(50);
    m_till.devices->apply(s);
}

void TestCounterDevices::scan(const QString &code)
{
    auto *search = m_till.window->findChild<QLineEdit *>();
    QVERIFY(search);
    search->setFocus();
    QTest::keyClicks(search, code);
    QTest::keyClick(search, Qt::Key_Return);
}

void TestCounterDevices::payByCard()
{
    QTest::keyClick(m_till.window.get(), Qt::Key_F12);
}

bool TestCounterDevices::settled()
{
    return QTest::qWaitFor([this] {
        return m_till.printQueue->waiting() == 0 && !m_till.printQueue->busy();
    },
        15000);
}

QList<IntentJournal::StaffAction> TestCounterDevices::staffActions()
{
    QList<IntentJournal::StaffAction> out;
    bool done = false;
    QObject context;
    m_till.session->journal()->staffActions(&context, [&](bool, const TillError &, const QList<IntentJournal::StaffAction> &a) {
        out = a;
        done = true;
    });
    if (!QTest::qWaitFor([&done] {
            return done;
        },
            5000))
        qWarning("the journal did not list the staff actions");
    return out;
}

void TestCounterDevices::aPaidSalePrintsOnce()
{
    usePrinter();
    scan(QStringLiteral("6901234500011"));
    payByCard();
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Paid, 15000);
    QTRY_COMPARE_WITH_TIMEOUT(m_printer->log().documents.size(), 1, 10000);
    QVERIFY(settled());
    // The phase shown again (the window refreshed, the same sale): the queue has its receipt.
    emit m_till.window->viewModel()->phaseChanged(CheckoutViewModel::Phase::Paid, QString());
    QVERIFY(settled());
    QCOMPARE(m_printer->log().documents.size(), 1);
    const auto doc = m_printer->log().documents.first();
    QCOMPARE(doc.width(), 576);   // 80 mm at 203 dpi
    QVERIFY2(doc.height() > 300, qPrintable(QString::number(doc.height())));
    QCOMPARE(m_printer->log().pulses, 0);   // a card sale opens no drawer
    QCOMPARE(m_printer->log().partial, 0);
    // What was printed, back into a PNG for docs/ (the decoder of tests/common).
    const QString dir = qEnvironmentVariable("ONCEPAY_SCREENSHOT_DIR");
    if (!dir.isEmpty()) {
        QFile f(dir + QStringLiteral("/printed-receipt.escpos"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(m_printer->received());
    }
}

void TestCounterDevices::paperOutThenRefilledPrintsOnceLate()
{
    m_printer->setState(TestPrinter::State::PaperOut);
    usePrinter();
    scan(QStringLiteral("6901234500011"));
    payByCard();
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Paid, 15000);
    // The status bar says the receipt waits, and why.
    auto *status = DemoTill::named<QLabel>(m_till.window.get(), QStringLiteral("Receipt printer"));
    QVERIFY(status);
    QTRY_VERIFY_WITH_TIMEOUT(status->isVisible() && status->text().contains(QStringLiteral("paper")), 10000);
    QVERIFY2(status->text().contains(QStringLiteral("1 waiting")), qPrintable(status->text()));
    QCOMPARE(m_printer->log().documents.size(), 0);
    // The next customer meanwhile: the sale stays paid, the till sells.
    QCOMPARE(m_till.window->viewModel()->intent()->state, IntentState::Succeeded);
    m_printer->setState(TestPrinter::State::Online);
    QTRY_COMPARE_WITH_TIMEOUT(m_printer->log().documents.size(), 1, 10000);
    QVERIFY(settled());
    QCOMPARE(m_printer->log().documents.size(), 1);
    QTRY_VERIFY(!status->isVisible());
}

void TestCounterDevices::aCablePulledMidReceiptReprintsWholeOnce()
{
    m_printer->cutNextConnectionAfter(15000);   // within the second slice of the receipt's image
    usePrinter();
    scan(QStringLiteral("6901234500011"));
    payByCard();
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Paid, 15000);
    QTRY_COMPARE_WITH_TIMEOUT(m_printer->log().documents.size(), 1, 10000);
    QVERIFY(settled());
    QCOMPARE(m_printer->log().partial, 1);
    QCOMPARE(m_printer->log().documents.size(), 1);
}

void TestCounterDevices::aCashSalePulsesTheDrawerOnce()
{
    usePrinter();
    scan(QStringLiteral("6901234500011"));
    QTest::keyClick(m_till.window.get(), Qt::Key_F10);
    auto *exact = DemoTill::named<QPushButton>(m_till.window.get(), QStringLiteral("Exact amount"));
    QVERIFY(exact);
    QTRY_VERIFY(exact->isVisible());
    QTest::mouseClick(exact, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Paid, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(m_printer->log().pulses, 1, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(m_printer->log().documents.size(), 1, 10000);
    QVERIFY(settled());
    QCOMPARE(m_printer->log().pulses, 1);
    // The journal says the drawer opened, for which sale.
    const auto actions = staffActions();
    const auto opened = std::count_if(actions.cbegin(), actions.cend(), [](const IntentJournal::StaffAction &a) {
        return a.action == QLatin1String("open_drawer");
    });
    QCOMPARE(opened, 1);
}

void TestCounterDevices::ctrlPReprintsTheLastReceipt()
{
    usePrinter();
    scan(QStringLiteral("6901234500011"));
    payByCard();
    QTRY_COMPARE_WITH_TIMEOUT(m_printer->log().documents.size(), 1, 15000);
    QVERIFY(settled());
    QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : m_till.window.get(), Qt::Key_P, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(m_printer->log().documents.size(), 2, 10000);
    QVERIFY(settled());
    QCOMPARE(m_printer->log().documents.size(), 2);
    QCOMPARE(m_printer->log().documents.at(0).height(), m_printer->log().documents.at(1).height());
}

void TestCounterDevices::thePaymentsPanelReprintsAnEarlierSale()
{
    // Sold while no printer was set: nothing printed then.
    scan(QStringLiteral("6901234500011"));
    payByCard();
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Paid, 15000);
    usePrinter(false);
    QVERIFY(settled());
    QCOMPARE(m_printer->log().documents.size(), 0);
    m_till.window->showPayments();
    auto *filter = m_till.window->paymentsPanel()->findChild<QComboBox *>();
    QVERIFY(filter);
    filter->setCurrentIndex(filter->findData(QString()));   // All: paid sales too
    auto *view = m_till.window->paymentsPanel()->findChild<QTableView *>();
    QVERIFY(view);
    QTRY_VERIFY(view->model()->rowCount() > 0);
    view->selectRow(0);
    auto *reprint = DemoTill::named<QPushButton>(m_till.window->paymentsPanel(), QStringLiteral("Reprint the selected receipt"));
    QVERIFY(reprint);
    QTest::mouseClick(reprint, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(m_printer->log().documents.size(), 1, 10000);
    QVERIFY(settled());
    QCOMPARE(m_printer->log().documents.size(), 1);
}

RefundDialog *TestCounterDevices::refundCashByAmount(const QString &amount)
{
    // An earlier refund dialog is gone first (deleted on close), and the window has the keyboard.
    if (!QTest::qWaitFor([this] {
            return m_till.window->findChildren<RefundDialog *>().isEmpty();
        },
            5000))
        return nullptr;
    m_till.window->activateWindow();
    if (!QTest::qWaitFor([this] {
            return QApplication::activeWindow() == m_till.window.get();
        },
            5000))
        return nullptr;
    QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : m_till.window.get(), Qt::Key_F8, Qt::ShiftModifier);
    RefundDialog *dialog = nullptr;
    auto *number = static_cast<QLineEdit *>(nullptr);
    if (!QTest::qWaitFor([&] {
            return (dialog = m_till.window->findChild<RefundDialog *>()) && dialog->isVisible()
                && (number = DemoTill::named<QLineEdit>(dialog, QStringLiteral("Receipt number"))) && QApplication::focusWidget() == number;
        },
            5000))
        return nullptr;
    QTest::keyClick(number, Qt::Key_Return);
    if (!QTest::qWaitFor([dialog] {
            return dialog->viewModel()->phase() == RefundViewModel::Phase::Ready;
        },
            10000))
        return nullptr;
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_M, Qt::AltModifier);
    auto *field = DemoTill::named<QLineEdit>(dialog, QStringLiteral("Amount to refund"));
    if (!QTest::qWaitFor([field] {
            return QApplication::focusWidget() == field;
        },
            5000))
        return nullptr;
    QTest::keyClicks(field, amount);
    if (!QTest::qWaitFor([dialog] {
            return dialog->refundButton()->isEnabled();
        },
            5000))
        return nullptr;
    QTest::keyClick(field, Qt::Key_Return);
    if (!QTest::qWaitFor([dialog] {
            return dialog->viewModel()->phase() == RefundViewModel::Phase::Refunded;
        },
            10000))
        return nullptr;
    return dialog;
}

QInputDialog *TestCounterDevices::askToOpenTheDrawer()
{
    // Sale → Open the drawer…, with the mouse as a cashier would.
    QMenuBar *bar = m_till.window->menuBar();
    QAction *saleMenu = nullptr;
    for (QAction *a : bar->actions()) {
        if (a->text() == QStringLiteral("&Sale"))
            saleMenu = a;
    }
    if (!saleMenu)
        return nullptr;
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->actionGeometry(saleMenu).center());
    QMenu *menu = saleMenu->menu();
    if (!QTest::qWaitFor([menu] {
            return menu->isVisible();
        },
            5000))
        return nullptr;
    QAction *open = nullptr;
    for (QAction *a : menu->actions()) {
        if (a->text() == QStringLiteral("Open the dra&wer…"))
            open = a;
    }
    if (!open)
        return nullptr;
    QSignalSpy triggered(open, &QAction::triggered);
    const QPoint at = menu->actionGeometry(open).center();
    QTest::mouseMove(menu, at);
    QTest::mouseClick(menu, Qt::LeftButton, {}, at);
    if (!triggered.wait(2000) && triggered.isEmpty())
        qWarning("the menu's action was not triggered by the click");
    QInputDialog *ask = nullptr;
    if (!QTest::qWaitFor([&] {
            return (ask = m_till.window->findChild<QInputDialog *>()) && ask->isVisible()
                && QApplication::focusWidget() && ask->isAncestorOf(QApplication::focusWidget());
        },
            5000))
        return nullptr;
    return ask;
}

void TestCounterDevices::aManagerOpensTheDrawerWithAReason()
{
    usePrinter();
    QPointer<QInputDialog> ask = askToOpenTheDrawer();
    QVERIFY(ask);
    // No reason: refused in words, the drawer stays shut.
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    QTRY_VERIFY(!ask || !ask->isVisible());
    const QList<QLabel *> message = m_till.window->findChildren<QLabel *>();
    QVERIFY(std::any_of(message.cbegin(), message.cend(), [](QLabel *l) {
        return l->isVisible() && l->text().contains(QStringLiteral("Say why the drawer is opened"));
    }));
    QCOMPARE(m_printer->log().pulses, 0);
    ask = askToOpenTheDrawer();
    QVERIFY(ask);
    QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("change for the float"));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(m_printer->log().pulses, 1, 10000);
    QTRY_VERIFY([this] {
        const auto actions = staffActions();
        return std::any_of(actions.cbegin(), actions.cend(), [](const IntentJournal::StaffAction &a) {
            return a.action == QLatin1String("open_drawer") && a.detail == QLatin1String("change for the float");
        });
    }());
    QCOMPARE(m_printer->log().documents.size(), 0);
}

void TestCounterDevices::aCashRefundOpensTheDrawerAndPrintsItsSlipOnce()
{
    scan(QStringLiteral("Rice"));
    QTest::keyClick(m_till.window.get(), Qt::Key_F10);
    auto *exact = DemoTill::named<QPushButton>(m_till.window.get(), QStringLiteral("Exact amount"));
    QTRY_VERIFY(exact && exact->isVisible());
    QTest::mouseClick(exact, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Paid, 10000);
    // No printer, no drawer the till can open: cash is taken as before, nothing said, nothing recorded.
    {
        const auto actions = staffActions();
        QVERIFY(std::none_of(actions.cbegin(), actions.cend(), [](const IntentJournal::StaffAction &a) {
            return a.action == QLatin1String("open_drawer");
        }));
        const QList<QLabel *> labels = m_till.window->findChildren<QLabel *>();
        QVERIFY(std::none_of(labels.cbegin(), labels.cend(), [](QLabel *l) {
            return l->isVisible() && l->text().contains(QStringLiteral("drawer"));
        }));
    }
    // The printer comes now: the sale's receipt was never printed, its drawer opened for nobody.
    usePrinter();
    QVERIFY(settled());
    QCOMPARE(m_printer->log().documents.size(), 0);
    RefundDialog *dialog = refundCashByAmount(QStringLiteral("20.00"));
    QVERIFY(dialog);
    QTRY_COMPARE_WITH_TIMEOUT(m_printer->log().pulses, 1, 10000);   // the cash goes out of the drawer
    QTRY_COMPARE_WITH_TIMEOUT(m_printer->log().documents.size(), 1, 10000);   // the slip
    QVERIFY(settled());
    QCOMPARE(m_printer->log().pulses, 1);
    QCOMPARE(m_printer->log().documents.size(), 1);
    const Intent refund = *dialog->viewModel()->refundIntent();
    dialog->close();
    // The refund's slip again from the payments panel: the same picture, a new job.
    m_till.window->showPayments();
    auto *filter = m_till.window->paymentsPanel()->findChild<QComboBox *>();
    filter->setCurrentIndex(filter->findData(QStringLiteral("refunds")));
    auto *view = m_till.window->paymentsPanel()->findChild<QTableView *>();
    QTRY_VERIFY(view->model()->rowCount() > 0);
    view->selectRow(0);
    QCOMPARE(m_till.window->paymentsPanel()->selectedIntent().key, refund.key);
    QTest::mouseClick(DemoTill::named<QPushButton>(m_till.window->paymentsPanel(), QStringLiteral("Reprint the selected receipt")), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(m_printer->log().documents.size(), 2, 10000);
    QCOMPARE(m_printer->log().documents.at(1).height(), m_printer->log().documents.at(0).height());
    QCOMPARE(m_printer->log().pulses, 1);   // a reprint opens no drawer

    // A second refund while slips do not print by themselves: its slip is drawn again from the
    // journal when it is reprinted.
    usePrinter(false);
    dialog = refundCashByAmount(QStringLiteral("10.00"));
    QVERIFY(dialog);
    QTRY_COMPARE_WITH_TIMEOUT(m_printer->log().pulses, 2, 10000);
    QVERIFY(settled());
    QCOMPARE(m_printer->log().documents.size(), 2);   // no slip by itself
    const Intent second = *dialog->viewModel()->refundIntent();
    dialog->close();
    QTRY_VERIFY(view->model()->rowCount() > 1);
    view->selectRow(0);
    QCOMPARE(m_till.window->paymentsPanel()->selectedIntent().key, second.key);
    QTest::mouseClick(DemoTill::named<QPushButton>(m_till.window->paymentsPanel(), QStringLiteral("Reprint the selected receipt")), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(m_printer->log().documents.size(), 3, 10000);
    QVERIFY(settled());
    QCOMPARE(m_printer->log().documents.size(), 3);
    QCOMPARE(m_printer->log().pulses, 2);
}

void TestCounterDevices::theCustomerDisplayNeverSaysPaidEarly()
{
    CustomerDisplayModel model(m_till.window->viewModel());
    model.setLanguage(QStringLiteral("en"));
    model.setShopName(QStringLiteral("OncePay Demo Shop"));
    CustomerDisplay display(&model);
    display.show();
    // Every word the customer saw, and whether the journal held "succeeded" when it was shown.
    QStringList shown;
    bool paidEarly = false;
    connect(&model, &CustomerDisplayModel::changed, &display, [&] {
        const QString words = display.stateShown();
        if (shown.isEmpty() || shown.last() != words)
            shown << words;
        const auto intent = m_till.window->viewModel()->intent();
        if (words == QStringLiteral("Paid, thank you") && (!intent || intent->state != IntentState::Succeeded))
            paidEarly = true;
    });
    scan(QStringLiteral("6901234500011"));
    QTRY_VERIFY(!model.lines().isEmpty());
    QVERIFY(!model.totalText().isEmpty());
    // "Charged but the till timed out": the bank charges, the answer is lost.
    m_till.backend->network()->setSettings({NetSim::Mode::LoseResponses});
    payByCard();
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Checking, 15000);
    QCOMPARE(display.stateShown(), QStringLiteral("Payment pending — please wait"));
    m_till.backend->network()->setSettings({NetSim::Mode::Online});
    QTRY_COMPARE_WITH_TIMEOUT(display.stateShown(), QStringLiteral("Paid, thank you"), 20000);
    QVERIFY(!paidEarly);
    const int pending = int(shown.indexOf(QStringLiteral("Payment pending — please wait")));
    const int paid = int(shown.indexOf(QStringLiteral("Paid, thank you")));
    QVERIFY2(pending >= 0 && paid > pending, qPrintable(shown.join(QStringLiteral(" | "))));
    // Its own language, whatever the cashier's.
    model.setLanguage(QStringLiteral("zh_CN"), QStringLiteral(ONCEPAY_QM_DIR));
    QCOMPARE(model.language(), QStringLiteral("zh_CN"));
    QCOMPARE(display.stateShown(), QStringLiteral("支付成功，谢谢"));
    QCOMPARE(QCoreApplication::translate("OncePay::Ui::CustomerDisplayModel", "Paid, thank you"), QStringLiteral("Paid, thank you"));   // the cashier's stays English
    DemoTill::saveScreenshot(&display, QStringLiteral("customer-display-zh.png"));
}

void TestCounterDevices::printTestWithoutAWindow()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    QProcess pos;
    pos.setProcessEnvironment(env);
    pos.start(QStringLiteral(ONCEPAY_POS_BIN), {QStringLiteral("--print-test"), QStringLiteral("--printer"), m_printer->uri()});
    QTRY_VERIFY_WITH_TIMEOUT(pos.state() == QProcess::NotRunning, 30000);
    QVERIFY2(pos.exitStatus() == QProcess::NormalExit && pos.exitCode() == 0, pos.readAllStandardError().constData());
    QCOMPARE(m_printer->log().documents.size(), 1);
    // A printer that is not there: 1, and one line on stderr that says why.
    m_printer->setPoweredOn(false);
    QProcess again;
    again.setProcessEnvironment(env);
    again.start(QStringLiteral(ONCEPAY_POS_BIN), {QStringLiteral("--print-test"), QStringLiteral("--printer"), m_printer->uri()});
    QTRY_VERIFY_WITH_TIMEOUT(again.state() == QProcess::NotRunning, 30000);
    QCOMPARE(again.exitCode(), 1);
    const QByteArray err = again.readAllStandardError();
    QVERIFY2(err.contains("oncepay-pos: ") && err.contains("cannot be reached"), err.constData());
}

QTEST_MAIN(TestCounterDevices)
#include "tst_counterdevices.moc"
