// Refunds and voids on the till's real window, offscreen, against its embedded demo gateway, with
// real key events and clicks (issue 10): a card sale paid through the window, then refunded from
// the keyboard; a double click or a double Enter on Refund makes one refund intent in the
// journal and one refund at the acquirer; a refund of one line of two gives back that line; a
// cash sale is refunded from the drawer; a card payment queued offline and never sent is voided,
// and one that may have reached the bank is not, with the reason in words.
#include "demobackend.h"
#include "simulatednetwork.h"
#include "intentdetailsdialog.h"
#include "intenttext.h"
#include "demotill.h"
#include "demowindow.h"
#include "mainwindow.h"
#include "queuemodel.h"
#include "queuepanel.h"
#include "receipt.h"
#include "receiptdialog.h"
#include "refunddialog.h"
#include "refundlinesmodel.h"
#include "simulationclient.h"
#include "tillsession.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QDockWidget>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

using namespace OncePay;
using namespace OncePay::Ui;

class TestRefundDialog final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void burstOnRefundRefundsOnce_data();
    void burstOnRefundRefundsOnce();
    void partialRefundByItems();
    void refundStatesInWords();
    void cashSaleIsRefundedFromTheDrawer();
    void unknownReceiptNumberIsSaid();
    void queuedPaymentNeverSentIsVoided();
    void sentPaymentIsNotVoided();

private:
    template <typename W = QWidget>
    static W *named(QWidget *root, const QString &accessibleName) { return DemoTill::named<W>(root, accessibleName); }
    void addItem(const QString &code);
    Intent payByCard(const QStringList &codes);
    RefundDialog *refundDialog();
    // Shift+F8; `scan`: the number typed as a scanner types it, else the one offered (the sale just paid).
    RefundDialog *openByReceiptNumber(const Intent &payment, bool scan = true);
    QList<Intent> refundsOf(const QString &paymentKey);
    Intent stored(const QString &key);
    QJsonArray acquirer(const QString &path);
    void showAllPayments();
    void selectFirstPayment();
    void setBank(const QString &mode);

    DemoTill m_till;   // the demo backend, the session and the window
};

void TestRefundDialog::initTestCase()
{
    DemoTill::isolateSettings();   // the window reads the till's settings: never the real user's
}

void TestRefundDialog::init()
{
    QString error;
    QVERIFY2(m_till.start(DemoTill::Options{true, 16, QSize(1366, 768), true}, &error), qPrintable(error));
}

void TestRefundDialog::cleanup()
{
    m_till.stop();
}

void TestRefundDialog::addItem(const QString &code)
{
    auto *search = named<QLineEdit>(m_till.window.get(), QStringLiteral("Product code or name"));
    QVERIFY(search);
    search->setFocus();
    QTest::keyClicks(search, code);
    QTest::keyClick(search, Qt::Key_Return);
}

Intent TestRefundDialog::payByCard(const QStringList &codes)
{
    for (const QString &code : codes)
        addItem(code);
    QTest::keyClick(m_till.window.get(), Qt::Key_F12);
    [&] {
        QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Paid, 15000);
    }();
    return m_till.window->viewModel()->intent().value_or(Intent());
}

RefundDialog *TestRefundDialog::refundDialog()
{
    RefundDialog *dialog = nullptr;
    [&] {
        QTRY_VERIFY((dialog = m_till.window->findChild<RefundDialog *>()) && dialog->isVisible());
    }();
    return dialog;
}

// Shift+F8, then the receipt number: typed as a scanner types it (the characters and Enter), or offered.
RefundDialog *TestRefundDialog::openByReceiptNumber(const Intent &payment, bool scan)
{
    QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : m_till.window.get(), Qt::Key_F8, Qt::ShiftModifier);
    RefundDialog *dialog = refundDialog();
    if (!dialog)
        return nullptr;
    auto *number = named<QLineEdit>(dialog, QStringLiteral("Receipt number"));
    [&] {
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(number));
    }();
    if (scan)
        QTest::keyClicks(number, Receipt::number(payment, QStringLiteral("till-1")));   // replaces what is offered
    else
        [&] {
            QCOMPARE(number->selectedText(), Receipt::number(payment, QStringLiteral("till-1")));
        }();
    QTest::keyClick(number, Qt::Key_Return);
    [&] {
        QTRY_COMPARE(dialog->viewModel()->phase(), RefundViewModel::Phase::Ready);
    }();
    return dialog;
}

QList<Intent> TestRefundDialog::refundsOf(const QString &paymentKey)
{
    IntentJournal::Query q;
    q.paymentKey = paymentKey;
    q.kind = IntentKind::Refund;
    QList<Intent> out;
    bool done = false;
    m_till.session->journal()->list(q, this, [&](bool ok, const TillError &, const QList<Intent> &rows) {
        out = rows;
        done = ok;
    });
    [&] {
        QTRY_VERIFY(done);
    }();
    return out;
}

Intent TestRefundDialog::stored(const QString &key)
{
    Intent out;
    bool done = false;
    m_till.session->journal()->find(key, this, [&](bool ok, const TillError &, const Intent &i) {
        out = i;
        done = ok;
    });
    [&] {
        QTRY_VERIFY(done);
    }();
    return out;
}

QJsonArray TestRefundDialog::acquirer(const QString &path)
{
    // Straight to the gateway, not through the simulator on the till's path.
    GatewayClient direct(m_till.backend->gatewayUrl(), Pos::DemoBackend::token(), 5000);
    GatewayResult result;
    bool done = false;
    direct.send("GET", path, {}, this, [&](const GatewayResult &r) {
        result = r;
        done = true;
    });
    [&] {
        QTRY_VERIFY(done);
    }();
    return result.json.value(QStringLiteral("data")).toArray();
}

// "All" in the payments panel's filter, with the keyboard: Needs attention, Waiting (the default), All.
void TestRefundDialog::showAllPayments()
{
    auto *filter = named<QComboBox>(m_till.window.get(), QStringLiteral("Filter payments by state"));
    QVERIFY(filter);
    filter->setFocus();
    QTest::keyClick(filter, Qt::Key_Down);
    QCOMPARE(filter->currentText(), QStringLiteral("All"));
}

void TestRefundDialog::selectFirstPayment()
{
    auto *view = named<QTableView>(m_till.window.get(), QStringLiteral("Payments"));
    QVERIFY(view);
    QTRY_VERIFY(view->model()->rowCount() > 0);
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Home);
    QTRY_VERIFY(m_till.window->paymentsPanel()->selectedIntent().isValid());
}

void TestRefundDialog::burstOnRefundRefundsOnce_data()
{
    QTest::addColumn<QString>("how");
    QTest::newRow("double click") << QStringLiteral("dclick");
    QTest::newRow("double Enter") << QStringLiteral("enter");
}

void TestRefundDialog::burstOnRefundRefundsOnce()
{
    QFETCH(QString, how);
    const Intent paid = payByCard({QStringLiteral("6901234500011"), QStringLiteral("6901234500097")});
    QVERIFY(paid.isValid());
    RefundDialog *dialog = openByReceiptNumber(paid);
    QVERIFY(dialog);
    RefundViewModel *vm = dialog->viewModel();
    QCOMPARE(vm->payment()->key, paid.key);
    QCOMPARE(vm->lines()->rowCount(), 2);   // the sale's lines, kept when it was paid
    QVERIFY(!dialog->refundButton()->isEnabled());   // nothing chosen yet
    // "All that remains" by its mnemonic, then Refund.
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_A, Qt::AltModifier);
    QTRY_VERIFY(dialog->refundButton()->isEnabled());
    QCOMPARE(vm->amount(), paid.amount);
    QSignalSpy phases(vm, &RefundViewModel::phaseChanged);
    if (how == QLatin1String("dclick")) {
        QTest::mouseClick(dialog->refundButton(), Qt::LeftButton);
        QTest::mouseDClick(dialog->refundButton(), Qt::LeftButton);
    } else {
        QWidget *focused = QApplication::focusWidget();
        QVERIFY(focused && dialog->isAncestorOf(focused));
        QTest::keyClick(focused, Qt::Key_Return);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    }
    QVERIFY(!dialog->refundButton()->isEnabled());   // locked by the first, before any answer
    QTRY_COMPARE_WITH_TIMEOUT(vm->phase(), RefundViewModel::Phase::Refunded, 15000);
    for (const QList<QVariant> &p : std::as_const(phases))
        QVERIFY(p.at(0).value<RefundViewModel::Phase>() != RefundViewModel::Phase::Failed);   // never asked twice
    auto *state = named<QLabel>(dialog, QStringLiteral("Refund state"));
    QVERIFY2(state->text().contains(QStringLiteral("Refunded ") + paid.amount.toDisplayString()), qPrintable(state->text()));

    const QList<Intent> refunds = refundsOf(paid.key);
    QCOMPARE(refunds.size(), 1);
    QCOMPARE(refunds.first().amount, paid.amount);
    QCOMPARE(refunds.first().state, IntentState::Succeeded);
    const QJsonArray atTheBank = acquirer(QStringLiteral("/v1/_sim/acquirer/refunds?charge_key=") + paid.key);
    QCOMPARE(atTheBank.size(), 1);
    QCOMPARE(qint64(atTheBank.first().toObject().value(QStringLiteral("amount")).toDouble()), paid.amount.minorUnits());
    QTRY_COMPARE(stored(paid.key).amountRefunded, paid.amount.minorUnits());
    QTRY_COMPARE(vm->remaining().minorUnits(), qint64(0));
    QVERIFY(!dialog->refundButton()->isEnabled());   // this dialog refunds once
    QTest::keyClick(dialog, Qt::Key_Escape);
}

// Issue 10: "a partial refund by items (refund 1 of 2 lines)": from the payments panel (F8 on
// the selected sale), + on the first line, Enter.
void TestRefundDialog::partialRefundByItems()
{
    const Intent paid = payByCard({QStringLiteral("6901234500011"), QStringLiteral("Rice")});   // ¥4.50 + ¥49.90
    QCOMPARE(paid.amount.minorUnits(), qint64(450 + 4990));
    showAllPayments();
    selectFirstPayment();
    QCOMPARE(m_till.window->paymentsPanel()->selectedIntent().key, paid.key);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_F8);
    RefundDialog *dialog = refundDialog();
    QVERIFY(dialog);
    RefundViewModel *vm = dialog->viewModel();
    QTRY_COMPARE(vm->phase(), RefundViewModel::Phase::Ready);
    QCOMPARE(vm->mode(), RefundViewModel::Mode::Items);
    auto *lines = named<QTableView>(dialog, QStringLiteral("Items of the sale"));
    QVERIFY(lines);
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(lines));
    QCOMPARE(lines->currentIndex().row(), 0);
    QTest::keyClick(lines, Qt::Key_Plus);   // one tea
    QTest::keyClick(lines, Qt::Key_Plus);   // clamped: one was sold
    QCOMPARE(vm->lines()->chosen(0), 1);
    // Typed: a digit opens the line's quantity with it, Enter takes it (and only that).
    QTest::keyClick(lines, Qt::Key_0);
    QTRY_VERIFY(QApplication::focusWidget() != lines);   // the quantity's editor
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    QTRY_COMPARE(vm->lines()->chosen(0), 0);
    QCOMPARE(vm->phase(), RefundViewModel::Phase::Ready);   // nothing refunded by that Enter
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(lines));
    QTest::keyClick(lines, Qt::Key_1);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    QTRY_COMPARE(vm->lines()->chosen(0), 1);
    QCOMPARE(vm->amount().minorUnits(), qint64(450));
    auto *reason = named<QComboBox>(dialog, QStringLiteral("Reason for the refund"));
    reason->setCurrentIndex(1);   // returned by the customer
    QVERIFY(DemoTill::saveScreenshot(dialog, QStringLiteral("refund-dialog.png")));
    lines->setFocus();
    QTest::keyClick(lines, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(vm->phase(), RefundViewModel::Phase::Refunded, 15000);

    const QList<Intent> refunds = refundsOf(paid.key);
    QCOMPARE(refunds.size(), 1);
    QCOMPARE(refunds.first().amount.minorUnits(), qint64(450));
    QCOMPARE(refunds.first().reason, QStringLiteral("Returned by the customer"));
    const QJsonArray atTheBank = acquirer(QStringLiteral("/v1/_sim/acquirer/refunds?charge_key=") + paid.key);
    QCOMPARE(atTheBank.size(), 1);
    QCOMPARE(qint64(atTheBank.first().toObject().value(QStringLiteral("amount")).toDouble()), qint64(450));
    QTRY_COMPARE(stored(paid.key).amountRefunded, qint64(450));
    const Intent payment = stored(paid.key);
    QCOMPARE(payment.gatewayStatus, QStringLiteral("partially_refunded"));
    QCOMPARE(IntentText::stateOf(payment), QStringLiteral("Partly refunded"));

    // The slip: the shop, REFUND, the sale's receipt number, the amount, the card, the state.
    const QString slip = dialog->slipHtml();
    for (const QString &part : {QStringLiteral("REFUND"), Receipt::number(paid, QStringLiteral("till-1")),
             QStringLiteral("¥4.50"), QStringLiteral("Visa ··4242"), QStringLiteral("Refunded"),
             QStringLiteral("Returned by the customer")})
        QVERIFY2(slip.contains(part.toHtmlEscaped()), qPrintable(part));
    auto *slipButton = named<QPushButton>(dialog, QStringLiteral("Show the refund slip"));
    QTRY_VERIFY(slipButton->isEnabled());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_S, Qt::AltModifier);
    ReceiptDialog *slipDialog = nullptr;
    QTRY_VERIFY((slipDialog = dialog->findChild<ReceiptDialog *>()) && slipDialog->isVisible());
    QVERIFY(slipDialog->findChild<QTextBrowser *>()->toPlainText().contains(QStringLiteral("REFUND")));
    QVERIFY(DemoTill::saveScreenshot(slipDialog, QStringLiteral("refund-slip.png")));
    QTest::keyClick(slipDialog, Qt::Key_Escape);
    QTRY_VERIFY(!slipDialog->isVisible());
    QTest::keyClick(dialog, Qt::Key_Escape);
    QTRY_VERIFY(!m_till.window->findChild<RefundDialog *>());
    m_till.window->activateWindow();   // what the window manager does when a dialog closes
    QVERIFY(QTest::qWaitForWindowActive(m_till.window.get()));

    // The payments panel: the refund is a row of its own under the sale, money going back.
    auto *view = named<QTableView>(m_till.window.get(), QStringLiteral("Payments"));
    QTRY_COMPARE(view->model()->rowCount(), 2);
    auto cell = [view](int row, QueueModel::Column c) {
        return view->model()->index(row, int(c)).data().toString();
    };
    QTRY_COMPARE(cell(0, QueueModel::Column::Kind), QStringLiteral("Refund"));
    QCOMPARE(cell(0, QueueModel::Column::Order), paid.saleNumber);   // the short number ("1-000001")
    QVERIFY(!paid.saleNumber.isEmpty());
    QCOMPARE(cell(0, QueueModel::Column::Amount), QStringLiteral("−¥4.50"));
    QCOMPARE(cell(0, QueueModel::Column::State), QStringLiteral("Refunded"));
    QCOMPARE(cell(1, QueueModel::Column::Kind), QStringLiteral("Payment"));
    QTRY_COMPARE(cell(1, QueueModel::Column::State), QStringLiteral("Partly refunded"));
    QVERIFY(DemoTill::saveScreenshot(m_till.window.get(), QStringLiteral("refund-payments-panel.png")));

    // The refund's details: its journal in a refund's words, and the gateway's refund record.
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Home);
    QTRY_VERIFY(m_till.window->paymentsPanel()->selectedIntent().isRefund());
    QTest::mouseClick(named<QPushButton>(m_till.window.get(), QStringLiteral("Show the selected payment's details")), Qt::LeftButton);
    IntentDetailsDialog *details = nullptr;
    QTRY_VERIFY((details = m_till.window->findChild<IntentDetailsDialog *>()) && details->isVisible());
    auto *journal = named<QPlainTextEdit>(details, QStringLiteral("Journal of state changes"));
    QTRY_VERIFY2(journal->toPlainText().contains(QStringLiteral("Refunded: the gateway answered: refunded")), qPrintable(journal->toPlainText()));
    QVERIFY2(journal->toPlainText().contains(QStringLiteral("created: a refund of payment ") + paid.key), qPrintable(journal->toPlainText()));
    QPushButton *ask = nullptr;
    for (QPushButton *b : details->findChildren<QPushButton *>())
        ask = b->text() == QLatin1String("Ask the gateway") ? b : ask;
    QVERIFY(ask);
    QTest::mouseClick(ask, Qt::LeftButton);
    QWidget *remote = named(details, QStringLiteral("The gateway's record"));
    auto remoteText = [remote] {
        QStringList texts;
        for (QLabel *l : remote->findChildren<QLabel *>())
            texts << l->text();
        return texts.join(QLatin1Char('|'));
    };
    QTRY_VERIFY2_WITH_TIMEOUT(remoteText().contains(QStringLiteral("Refund id:")), qPrintable(remoteText()), 5000);
    QVERIFY2(remoteText().contains(QStringLiteral("Refunded")) && remoteText().contains(QStringLiteral("Returned by the customer")),
        qPrintable(remoteText()));
    QTest::keyClick(details, Qt::Key_Escape);
    QTRY_VERIFY(!m_till.window->findChild<IntentDetailsDialog *>());
    m_till.window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_till.window.get()));

    // Again on the same sale: the tea is given back already; the rice remains.
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Home);   // the refund's row: F8 opens its sale
    QTRY_VERIFY(m_till.window->paymentsPanel()->selectedIntent().isRefund());
    QTest::keyClick(view, Qt::Key_F8);
    dialog = refundDialog();
    vm = dialog->viewModel();
    QTRY_COMPARE(vm->phase(), RefundViewModel::Phase::Ready);
    QCOMPARE(vm->payment()->key, paid.key);
    QCOMPARE(vm->refunded().minorUnits(), qint64(450));
    QCOMPARE(vm->remaining().minorUnits(), qint64(4990));
    QCOMPARE(vm->lines()->refundable(0), 0);
    QCOMPARE(vm->lines()->refundable(1), 1);
    QCOMPARE(vm->lines()->data(vm->lines()->index(0, int(RefundLinesModel::Column::Refunded))).toInt(), 1);
    QTest::keyClick(dialog, Qt::Key_Escape);
}

void TestRefundDialog::setBank(const QString &mode)
{
    bool set = false;
    m_till.simulation->setAcquirerMode(mode, this, [&](bool ok, const QString &, bool) {
        set = ok;
    });
    QTRY_VERIFY(set);
}

// The refund's state in words as it goes: declined by the bank (nothing given back; the sale may
// be refunded again), then waiting for the connection, then refunded once the network is back.
void TestRefundDialog::refundStatesInWords()
{
    const Intent paid = payByCard({QStringLiteral("Rice")});
    setBank(QStringLiteral("decline_all"));
    RefundDialog *dialog = openByReceiptNumber(paid);
    QVERIFY(dialog);
    RefundViewModel *vm = dialog->viewModel();
    auto *state = named<QLabel>(dialog, QStringLiteral("Refund state"));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_A, Qt::AltModifier);
    QTRY_VERIFY(dialog->refundButton()->isEnabled());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(vm->phase(), RefundViewModel::Phase::Declined, 15000);
    QVERIFY2(state->text().contains(QStringLiteral("declined (the bank declined the refund)"))
            && state->text().contains(QStringLiteral("Nothing was given back")),
        qPrintable(state->text()));
    QVERIFY(dialog->slipHtml().contains(QStringLiteral("This refund was not made")));
    QTest::keyClick(dialog, Qt::Key_Escape);
    QTRY_VERIFY(!m_till.window->findChild<RefundDialog *>());
    m_till.window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_till.window.get()));

    setBank(QStringLiteral("normal"));
    m_till.backend->network()->setSettings({NetSim::Mode::Offline});
    dialog = openByReceiptNumber(paid);
    QVERIFY(dialog);
    vm = dialog->viewModel();
    state = named<QLabel>(dialog, QStringLiteral("Refund state"));
    QCOMPARE(vm->refunded().minorUnits(), qint64(0));   // the declined one gave nothing back
    QCOMPARE(vm->remaining(), paid.amount);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_A, Qt::AltModifier);
    QTRY_VERIFY(dialog->refundButton()->isEnabled());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(vm->phase(), RefundViewModel::Phase::WaitingForConnection, 15000);
    QVERIFY2(state->text().contains(QStringLiteral("Waiting for connection")) && state->text().contains(QStringLiteral("never made twice")),
        qPrintable(state->text()));
    QVERIFY(dialog->slipHtml().contains(QStringLiteral("PENDING")));
    m_till.backend->network()->setSettings({NetSim::Mode::Online});
    m_till.session->engine()->checkConnectionNow();
    QTRY_COMPARE_WITH_TIMEOUT(vm->phase(), RefundViewModel::Phase::Refunded, 30000);
    QVERIFY2(state->text().startsWith(QStringLiteral("Refunded ¥49.90 to Visa ··4242")), qPrintable(state->text()));
    const QList<Intent> refunds = refundsOf(paid.key);
    QCOMPARE(refunds.size(), 2);
    QCOMPARE(IntentText::stateOf(refunds.at(0)), QStringLiteral("Declined"));
    QCOMPARE(IntentText::stateOf(refunds.at(1)), QStringLiteral("Refunded"));
    const QJsonArray atTheBank = acquirer(QStringLiteral("/v1/_sim/acquirer/refunds?charge_key=") + paid.key);
    QCOMPARE(atTheBank.size(), 2);
    int succeeded = 0;
    for (const QJsonValue &r : atTheBank)
        succeeded += r.toObject().value(QStringLiteral("status")).toString() == QLatin1String("succeeded");
    QCOMPARE(succeeded, 1);
    QTRY_COMPARE(stored(paid.key).amountRefunded, paid.amount.minorUnits());
}

void TestRefundDialog::cashSaleIsRefundedFromTheDrawer()
{
    addItem(QStringLiteral("Rice"));
    QTest::keyClick(m_till.window.get(), Qt::Key_F10);
    auto *exact = named<QPushButton>(m_till.window.get(), QStringLiteral("Exact amount"));
    QTRY_VERIFY(exact && exact->isVisible());
    QTest::mouseClick(exact, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Paid, 10000);
    const Intent paid = *m_till.window->viewModel()->intent();
    QVERIFY(paid.isCash());
    RefundDialog *dialog = openByReceiptNumber(paid, false);   // the sale just paid is offered
    QVERIFY(dialog);
    RefundViewModel *vm = dialog->viewModel();
    QVERIFY(named<QLabel>(dialog, QStringLiteral("Where the money goes"))->text().contains(QStringLiteral("drawer")));
    // By amount, with its mnemonic: Alt+M, then type, then Enter.
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_M, Qt::AltModifier);
    auto *amount = named<QLineEdit>(dialog, QStringLiteral("Amount to refund"));
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(amount));
    QTest::keyClicks(amount, QStringLiteral("60"));
    QTRY_VERIFY(named<QLabel>(dialog, QStringLiteral("Why it cannot be refunded"))->text().contains(QStringLiteral("At most ¥49.90")));
    QVERIFY(!dialog->refundButton()->isEnabled());
    amount->selectAll();
    QTest::keyClicks(amount, QStringLiteral("20.00"));
    QTRY_VERIFY(dialog->refundButton()->isEnabled());
    QTest::keyClick(amount, Qt::Key_Return);
    QTRY_COMPARE(vm->phase(), RefundViewModel::Phase::Refunded);
    QVERIFY(vm->message().contains(QStringLiteral("from the drawer")));
    const QList<Intent> refunds = refundsOf(paid.key);
    QCOMPARE(refunds.size(), 1);
    QVERIFY(refunds.first().isCash());
    QCOMPARE(refunds.first().amount.minorUnits(), qint64(2000));
    QTRY_COMPARE(stored(paid.key).amountRefunded, qint64(2000));
    QVERIFY(dialog->slipHtml().contains(QStringLiteral("Cash, from the drawer")));
    QCOMPARE(acquirer(QStringLiteral("/v1/_sim/acquirer/refunds?charge_key=") + paid.key).size(), 0);   // never at the bank
}

void TestRefundDialog::unknownReceiptNumberIsSaid()
{
    QTest::keyClick(m_till.window.get(), Qt::Key_F8);   // nothing selected: F8 asks for the receipt number
    RefundDialog *dialog = refundDialog();
    QVERIFY(dialog);
    auto *number = named<QLineEdit>(dialog, QStringLiteral("Receipt number"));
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(number));
    QTest::keyClicks(number, QStringLiteral("till-2-000001"));
    QTest::keyClick(number, Qt::Key_Return);
    QTRY_COMPARE(dialog->viewModel()->phase(), RefundViewModel::Phase::NotFound);
    QCOMPARE(dialog->viewModel()->lastError().kind(), TillError::Kind::ReceiptOfOtherTill);
    QCOMPARE(dialog->viewModel()->lastError().args().value(1), QStringLiteral("till-2"));
    number->selectAll();
    QTest::keyClicks(number, QStringLiteral("till-1-000999"));
    QTest::keyClick(number, Qt::Key_Return);
    QTRY_COMPARE(dialog->viewModel()->lastError().kind(), TillError::Kind::NoSuchReceipt);
    QVERIFY(dialog->isVisible());   // Enter in the number field only looks the sale up
    QVERIFY(!dialog->refundButton()->isEnabled());
}

// Issue 10: "a card payment still queued and never sent can be cancelled locally".
void TestRefundDialog::queuedPaymentNeverSentIsVoided()
{
    m_till.backend->network()->setSettings({NetSim::Mode::Offline});
    addItem(QStringLiteral("6901234500059"));
    QTest::keyClick(m_till.window.get(), Qt::Key_F12);
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::WaitingForConnection, 10000);
    const Intent queued = *m_till.window->viewModel()->intent();
    QTRY_COMPARE(m_till.session->engine()->requestsInFlight(), 0);   // refused at once: nothing is on the wire
    selectFirstPayment();   // the "Waiting" filter shows it
    QCOMPARE(m_till.window->paymentsPanel()->selectedIntent().key, queued.key);
    QVERIFY(m_till.window->paymentsPanel()->voidAction()->isEnabled());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_F7);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_F7);   // a repeat asks nothing more
    QMessageBox *question = nullptr;
    QTRY_VERIFY((question = named<QMessageBox>(m_till.window.get(), QStringLiteral("Void question"))) && question->isVisible());
    QCOMPARE(m_till.window->findChildren<QMessageBox *>().size(), 1);
    QVERIFY(question->text().contains(queued.amount.toDisplayString()));
    QTest::keyClick(question, Qt::Key_Return);   // "Void it" is the default
    QTRY_COMPARE_WITH_TIMEOUT(stored(queued.key).state, IntentState::Voided, 10000);
    QTRY_COMPARE(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Voided);
    QVERIFY(m_till.window->viewModel()->canPay());   // the sale may be paid again, with a new intent
    QCOMPARE(m_till.session->engine()->waitingCount(), 0);
    QVERIFY(!named<QMessageBox>(m_till.window.get(), QStringLiteral("Void refused")));
    // Back online, nothing goes out for it.
    m_till.backend->network()->setSettings({NetSim::Mode::Online});
    m_till.session->engine()->checkConnectionNow();
    QTRY_VERIFY_WITH_TIMEOUT(m_till.session->engine()->connectivity() == SyncEngine::Connectivity::Online
            || m_till.session->engine()->waitingCount() == 0,
        10000);
    QCOMPARE(acquirer(QStringLiteral("/v1/_sim/acquirer/charges?idempotency_key=") + queued.key).size(), 0);
    QCOMPARE(IntentText::stateOf(stored(queued.key)), QStringLiteral("Voided"));
}

// Issue 10: "one that may have been sent cannot be voided, only refunded once it is paid: the
// till explains why".
void TestRefundDialog::sentPaymentIsNotVoided()
{
    m_till.backend->network()->setSettings({NetSim::Mode::LoseResponses});   // charged, the answer lost
    addItem(QStringLiteral("6901234500134"));
    QTest::keyClick(m_till.window.get(), Qt::Key_F12);
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Checking, 15000);
    const Intent sent = *m_till.window->viewModel()->intent();
    selectFirstPayment();
    QCOMPARE(m_till.window->paymentsPanel()->selectedIntent().key, sent.key);
    // Issue 25 item 4: what cannot be done is not offered. No "Void it?": the reason at once.
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_F7);
    QMessageBox *refused = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((refused = named<QMessageBox>(m_till.window.get(), QStringLiteral("Void refused"))) && refused->isVisible(), 10000);
    QVERIFY(!named<QMessageBox>(m_till.window.get(), QStringLiteral("Void question")));
    QCOMPARE(refused->windowTitle(), QStringLiteral("This payment cannot be voided"));
    const QString words = refused->text() + QLatin1Char('\n') + refused->informativeText();
    QVERIFY2(words.contains(QStringLiteral("sent already")) && words.contains(QStringLiteral("refund it")), qPrintable(words));
    static const QRegularExpression httpStatusShape(QStringLiteral("\\b[2-5]\\d\\d\\b"));
    QVERIFY2(!words.contains(httpStatusShape), qPrintable(words));   // words, no HTTP codes
    QVERIFY(DemoTill::saveScreenshot(refused, QStringLiteral("void-refused.png")));
    QTest::keyClick(refused, Qt::Key_Return);
    QVERIFY(stored(sent.key).state != IntentState::Voided);
    // It was charged: once the answer comes, it is paid, once, and may then be refunded.
    m_till.backend->network()->setSettings({NetSim::Mode::Online});
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Paid, 20000);
    QCOMPARE(acquirer(QStringLiteral("/v1/_sim/acquirer/charges?idempotency_key=") + sent.key).size(), 1);
}

QTEST_MAIN(TestRefundDialog)
#include "tst_refunddialog.moc"
