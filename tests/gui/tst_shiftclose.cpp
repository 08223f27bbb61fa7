// Sale → Close shift on the real till window, driven by keys, against its embedded demo gateway:
// a prepared shift (card and cash payments and a declined one, a card refund and a cash refund
// through the till's engine, a void, one payment still waiting) shows its totals, the drawer's expected cash, the sales per
// hour and its reconciliation rows (server and bank), and closes only after a question that
// names the waiting payment; the next shift carries it.
#include "demobackend.h"
#include "simulatednetwork.h"
#include "idempotencykey.h"
#include "demotill.h"
#include "mainwindow.h"
#include "shiftbook.h"
#include "shiftchartview.h"
#include "shiftclosedialog.h"
#include "shiftreportdocument.h"
#include "pastshiftsdialog.h"
#include "sale.h"
#include "tillsession.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QBarSet>
#include <QChart>
#include <QCheckBox>
#include <QTableWidget>
#include <QTextBrowser>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStackedBarSeries>
#include <QStandardPaths>
#include <QTableView>
#include <QValueAxis>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace OncePay;
using namespace OncePay::Ui;

namespace OncePay {
// Readable QCOMPARE failures for states.
char *toString(IntentState state)
{
    return qstrdup(qPrintable(intentStateName(state)));
}
}   // namespace OncePay

class TestShiftClose final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void closeShiftFromTheKeyboard();
    void closeWhileTheServerDoesNotAnswer();
    void fitsA1024x768Till();
    void firstShiftTakesAnOpeningFloat();
    void aRefundTheTillOwesIsShownAndAsked();

private:
    template <typename W = QWidget>
    static W *named(QWidget *root, const QString &accessibleName) { return DemoTill::named<W>(root, accessibleName); }
    Intent pay(const QString &order, qint64 amount, const QString &token);
    Intent create(Intent intent);
    Intent settle(const std::function<void(SyncEngine::PayCallback)> &make);
    static QString cell(QAbstractItemModel *model, int row, int column) { return model->index(row, column).data().toString(); }

    DemoTill m_till;   // the demo backend, the session and the window
};

void TestShiftClose::initTestCase()
{
    DemoTill::isolateSettings();   // the window reads the till's settings: never the real user's
}

void TestShiftClose::init()
{
    QString error;
    QVERIFY2(m_till.start(DemoTill::Options{false, 4, {}, false}, &error), qPrintable(error));
}

void TestShiftClose::cleanup()
{
    m_till.stop();
}

// A payment or refund made through the till's engine, waited for until final.
Intent TestShiftClose::settle(const std::function<void(SyncEngine::PayCallback)> &make)
{
    Intent stored;
    make([&](bool ok, const TillError &error, const Intent &i) {
        if (!ok)
            qWarning("refused: %s", qPrintable(error.text()));
        stored = ok ? i : Intent();
    });
    if (!QTest::qWaitFor([&] {
            return stored.isValid();
        },
            10000))
        return {};
    // Final once the engine no longer holds it (cash never goes to it).
    if (!QTest::qWaitFor([&] {
            return !m_till.session->engine()->activeIntent(stored.key);
        },
            15000))
        return {};
    auto now = std::make_shared<Intent>();
    m_till.session->journal()->find(stored.key, this, [now](bool, const TillError &, Intent i) {
        *now = i;
    });
    if (!QTest::qWaitFor([now] {
            return now->isValid();
        },
            10000))
        return {};
    return *now;
}

Intent TestShiftClose::pay(const QString &order, qint64 amount, const QString &token)
{
    const Money money(amount, QStringLiteral("CNY"));
    return settle([&](SyncEngine::PayCallback done) {
        if (token.isEmpty())
            m_till.session->engine()->recordCash(order, money, this, done);
        else
            m_till.session->engine()->pay(order, money, token, this, done);
    });
}

// An intent written to the journal as another process of this till would have (the engine of
// this window does not know it).
Intent TestShiftClose::create(Intent intent)
{
    Intent stored;
    bool answered = false;
    m_till.session->journal()->create(intent, this, [&](bool ok, const TillError &error, Intent i) {
        if (!ok)
            qWarning("create: %s", qPrintable(error.text()));
        stored = i;
        answered = true;
    });
    if (!QTest::qWaitFor([&] {
            return answered;
        },
            10000))
        return {};
    return stored;
}

void TestShiftClose::closeShiftFromTheKeyboard()
{
    // The prepared shift.
    const Intent card = pay(QStringLiteral("s-card"), 4990, QStringLiteral("tok_visa"));
    QCOMPARE(card.state, IntentState::Succeeded);
    const Intent cash = pay(QStringLiteral("s-cash"), 2000, {});
    QCOMPARE(cash.state, IntentState::Succeeded);
    const Intent declined = pay(QStringLiteral("s-declined"), 700, QStringLiteral("tok_chargeDeclined"));
    QCOMPARE(declined.state, IntentState::Declined);

    // A card refund of 10.00 through the till's engine (to the gateway and the bank), and a cash
    // refund of 5.00 from the drawer.
    const Intent refund = settle([&](SyncEngine::PayCallback done) {
        m_till.session->engine()->refund(card.key, Money(1000, QStringLiteral("CNY")), QStringLiteral("damaged"), this, done);
    });
    QCOMPARE(refund.state, IntentState::Succeeded);
    const Intent cashRefund = settle([&](SyncEngine::PayCallback done) {
        m_till.session->engine()->recordCashRefund(cash.key, Money(500, QStringLiteral("CNY")), this, done);
    });
    QCOMPARE(cashRefund.state, IntentState::Succeeded);
    // A card payment voided before it was sent, and one still waiting to be sent.
    Intent toVoid;
    toVoid.key = IdempotencyKey::generate(QStringLiteral("pay")).value();
    toVoid.orderId = QStringLiteral("s-void");
    toVoid.amount = Money(300, QStringLiteral("CNY"));
    toVoid.paymentMethod = QStringLiteral("tok_visa");
    QVERIFY(create(toVoid).isValid());
    bool voided = false;
    m_till.session->journal()->voidIntent(toVoid.key, this, [&](bool ok, const TillError &, Intent) {
        voided = ok;
    });
    QTRY_VERIFY(voided);
    Intent waiting = toVoid;
    waiting.key = IdempotencyKey::generate(QStringLiteral("pay")).value();
    waiting.orderId = QStringLiteral("s-waiting");
    waiting.amount = Money(1234, QStringLiteral("CNY"));
    QVERIFY(create(waiting).isValid());

    // Sale → Close shift, from the keyboard.
    QTest::failOnWarning(QRegularExpression(QStringLiteral("Ambiguous shortcut")));
    QTest::keyClick(m_till.window.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    ShiftCloseDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_till.window->findChild<ShiftCloseDialog *>()) != nullptr);
    QTRY_COMPARE_WITH_TIMEOUT(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Ready, 15000);
    QVERIFY(dialog->isVisible());

    // Totals, as the table shows them.
    QAbstractItemModel *totals = named<QTableView>(dialog, QStringLiteral("Shift totals"))->model();
    QAbstractItemModelTester totalsTester(totals, QAbstractItemModelTester::FailureReportingMode::QtTest);
    using Line = ShiftTotalsModel::Line;
    auto line = [&](Line l) {
        return cell(totals, int(l), 1) + QLatin1Char(' ') + cell(totals, int(l), 2);
    };
    QCOMPARE(line(Line::CardSales), QStringLiteral("1 ¥49.90"));
    QCOMPARE(line(Line::CashSales), QStringLiteral("1 ¥20.00"));
    QCOMPARE(line(Line::CardRefunds), QStringLiteral("1 ¥10.00"));
    QCOMPARE(line(Line::CashRefunds), QStringLiteral("1 ¥5.00"));
    QCOMPARE(line(Line::Declined), QStringLiteral("1 ¥7.00"));
    QCOMPARE(line(Line::Voided), QStringLiteral("1 ¥3.00"));
    QCOMPARE(line(Line::WaitingPayments), QStringLiteral("1 ¥12.34"));
    QCOMPARE(cell(totals, int(Line::Net), 2), QStringLiteral("¥54.90"));
    QVERIFY2(named<QLabel>(dialog, QStringLiteral("Cash expected"))->text().startsWith(QStringLiteral("¥15.00")),
        qPrintable(named<QLabel>(dialog, QStringLiteral("Cash expected"))->text()));
    QVERIFY(named<QLabel>(dialog, QStringLiteral("Still waiting"))->text().contains(QStringLiteral("s-waiting")));

    // Sales per hour: one bar, card and cash.
    auto *series = qobject_cast<QStackedBarSeries *>(dialog->findChild<ShiftChartView *>()->chart()->series().value(0));
    QVERIFY(series);
    QCOMPARE(series->barSets().size(), 2);
    auto sum = [](const QBarSet *set) {
        double total = 0;
        for (int i = 0; i < set->count(); ++i)
            total += set->at(i);
        return total;
    };
    QCOMPARE(sum(series->barSets().at(0)), 49.90);   // card (the test may cross an hour)
    QCOMPARE(sum(series->barSets().at(1)), 20.0);   // cash

    // What waits or needs a person first and alone; the rows that agree one key (Alt+A) away.
    QAbstractItemModel *rows = named<QTableView>(dialog, QStringLiteral("Reconciliation"))->model();
    QCOMPARE(rows->rowCount(), 1);
    QCOMPARE(rows->index(0, 0).data(ShiftFindingsModel::KeyRole).toString(), waiting.key);
    auto *showAgreeing = named<QCheckBox>(dialog, QStringLiteral("Show the rows that agree"));
    QVERIFY(showAgreeing && showAgreeing->isVisible() && !showAgreeing->isChecked());
    QVERIFY2(showAgreeing->text().contains(QStringLiteral("7 row")), qPrintable(showAgreeing->text()));
    QTRY_VERIFY(named<QLineEdit>(dialog, QStringLiteral("Cash counted"))->hasFocus());   // where the count goes
    QTest::keyClick(dialog, Qt::Key_A, Qt::AltModifier);
    QTRY_COMPARE(rows->rowCount(), 8);
    QTest::keyClick(dialog, Qt::Key_C, Qt::AltModifier);   // back to the count
    // Reconciliation rows: each key, its finding, the bank's column and what to do.
    QAbstractItemModelTester rowsTester(rows, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QMap<QString, QStringList> byKey;
    for (int r = 0; r < rows->rowCount(); ++r) {
        const QString key = rows->index(r, 0).data(ShiftFindingsModel::KeyRole).toString();
        byKey[key] << QStringList{cell(rows, r, 1), cell(rows, r, 4), cell(rows, r, 5)}.join(QStringLiteral(" | "));
    }
    auto rowOf = [&](const QString &key) {
        return byKey.value(key).join(QStringLiteral(" || "));
    };
    QCOMPARE(rowOf(card.key), QStringLiteral("matched | charged once | Nothing to do. || refunded amounts agree | – | Nothing to do."));
    QCOMPARE(rowOf(declined.key), QStringLiteral("matched | nothing charged | Nothing to do."));
    QCOMPARE(rowOf(cash.key), QStringLiteral("cash, in the drawer | – | Nothing: cash, counted in the drawer."));
    QCOMPARE(rowOf(refund.key), QStringLiteral("matched | refunded once | Nothing to do."));
    QCOMPARE(rowOf(cashRefund.key), QStringLiteral("cash, in the drawer | – | Nothing: a cash refund, from the drawer."));
    QCOMPARE(rowOf(toVoid.key), QStringLiteral("voided on the till | nothing charged | Nothing: voided before it was sent."));
    QVERIFY2(rowOf(waiting.key).startsWith(QStringLiteral("not at the server yet | nothing charged | Wait:")), qPrintable(rowOf(waiting.key)));
    QCOMPARE(rows->rowCount(), 8);
    QCOMPARE(rows->index(0, 0).data(ShiftFindingsModel::KeyRole).toString(), waiting.key);   // what needs something first
    QVERIFY(named<QLabel>(dialog, QStringLiteral("Reconciliation summary"))->text().contains(QStringLiteral("7 agree, 1 to wait for, 0 for a person")));

    // The cash counted: typed, compared.
    auto *counted = named<QLineEdit>(dialog, QStringLiteral("Cash counted"));
    QTRY_VERIFY(counted->hasFocus());
    QTest::keyClicks(counted, QStringLiteral("14.50"));
    QCOMPARE(named<QLabel>(dialog, QStringLiteral("Cash difference"))->text(), QStringLiteral("¥0.50 missing"));

    if (const QString dir = qEnvironmentVariable("ONCEPAY_SCREENSHOT_DIR"); !dir.isEmpty()) {
        dialog->grab().save(dir + QStringLiteral("/shift-close.png"));
        dialog->repaint();   // the screen shows what the widgets hold now
        QCoreApplication::processEvents();
        if (QScreen *screen = dialog->screen())   // the whole screen, the window manager's frames too
            screen->grabWindow(0).save(dir + QStringLiteral("/shift-close-screen.png"));
    }

    // Close shift (Alt+S): the question names the waiting payment; answered from a timer while it runs.
    ModalAnswerer answer(QStringLiteral("Close with 1 waiting"));
    QTest::keyClick(counted, Qt::Key_S, Qt::AltModifier);
    QTRY_VERIFY(!answer.asked.isEmpty());
    QVERIFY2(answer.asked.contains(QStringLiteral("Sale s-waiting: ¥12.34")) && answer.asked.contains(QStringLiteral("next shift")), qPrintable(answer.asked));
    // Issue 25 item 11: the shortage is said in the question that decides.
    QVERIFY2(answer.asked.contains(QStringLiteral("Counted ¥14.50: ¥0.50 missing.")), qPrintable(answer.asked));
    QTRY_COMPARE_WITH_TIMEOUT(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Closed, 10000);
    QVERIFY(named<QLabel>(dialog, QStringLiteral("Shift status"))->text().contains(QStringLiteral("shift 2")));

    // The journal kept the report; the next shift carries the waiting payment.
    ShiftBook book(m_till.session->journal());
    QJsonArray closes;
    book.closedShifts(5, this, [&](bool, const TillError &, QJsonArray a) {
        closes = a;
    });
    QTRY_COMPARE(closes.size(), 1);
    const QJsonObject report = closes.at(0).toObject().value(QStringLiteral("report")).toObject();
    QCOMPARE(report.value(QStringLiteral("cash_drawer")).toObject().value(QStringLiteral("difference")).toInteger(), qint64(-50));
    QCOMPARE(closes.at(0).toObject().value(QStringLiteral("reconciliation")).toObject().value(QStringLiteral("rows")).toArray().size(), 8);
    ShiftBook::Snapshot next;
    book.current(this, [&](bool, const TillError &, ShiftBook::Snapshot s) {
        next = s;
    });
    QTRY_COMPARE(next.number, 2);
    QCOMPARE(next.carriedOver.size(), 1);
    QCOMPARE(next.carriedOver.constFirst().key, waiting.key);

    QVERIFY(DemoTill::saveScreenshot(dialog, QStringLiteral("shift-closed.png")));

    // Issue 25 item 11: the kept report opens again from the till (Ctrl+Shift+H, Past shifts).
    QTest::keyClick(dialog, Qt::Key_Escape);
    QTRY_VERIFY(!m_till.window->findChild<ShiftCloseDialog *>());
    m_till.window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_till.window.get()));
    QTest::keyClick(m_till.window.get(), Qt::Key_H, Qt::ControlModifier | Qt::ShiftModifier);
    PastShiftsDialog *past = nullptr;
    QTRY_VERIFY((past = m_till.window->findChild<PastShiftsDialog *>()) && past->isVisible());
    auto *shifts = named<QTableWidget>(past, QStringLiteral("Closed shifts"));
    QTRY_COMPARE(shifts->rowCount(), 1);
    QCOMPARE(shifts->item(0, 0)->text(), QStringLiteral("1"));
    QCOMPARE(shifts->item(0, 3)->text(), QStringLiteral("¥14.50"));
    QCOMPARE(shifts->item(0, 4)->text(), QStringLiteral("¥0.50 missing"));
    QCOMPARE(shifts->item(0, 5)->text(), QStringLiteral("yes"));
    auto *kept = named<QTextBrowser>(past, QStringLiteral("The shift's report"));
    QTRY_VERIFY(kept->toPlainText().contains(QStringLiteral("¥54.90")));   // its net takings, as printed
    QVERIFY(DemoTill::saveScreenshot(past, QStringLiteral("past-shifts.png")));
    QTest::keyClick(past, Qt::Key_Escape);
    QTRY_VERIFY(!m_till.window->findChild<PastShiftsDialog *>());
}

// Issue 21, item 5: the shift is closed while the server does not answer (before, it could not
// be): the question names the unconfirmed payment, the kept report says it was not checked, and
// the next shift's report says how that payment ended.
void TestShiftClose::closeWhileTheServerDoesNotAnswer()
{
    m_till.backend->network()->setSettings({NetSim::Mode::Offline});
    Intent stored;
    m_till.session->engine()->pay(QStringLiteral("s-offline"), Money(420, QStringLiteral("CNY")), QStringLiteral("tok_visa"), this,
        [&](bool ok, const TillError &, const Intent &i) {
            stored = ok ? i : Intent();
        });
    QTRY_VERIFY(stored.isValid());

    QTest::keyClick(m_till.window.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    ShiftCloseDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_till.window->findChild<ShiftCloseDialog *>()) != nullptr);
    QTRY_COMPARE_WITH_TIMEOUT(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Unreconciled, 20000);
    QVERIFY(!dialog->viewModel()->isReconciled());
    QVERIFY2(named<QLabel>(dialog, QStringLiteral("Shift status"))->text().contains(QStringLiteral("without the check")),
        qPrintable(named<QLabel>(dialog, QStringLiteral("Shift status"))->text()));
    auto *close = named<QPushButton>(dialog, QStringLiteral("Close the shift"));
    QVERIFY(close && close->isEnabled());

    ModalAnswerer answer(QStringLiteral("Close without the server's check"));
    QTest::keyClick(named<QLineEdit>(dialog, QStringLiteral("Cash counted")), Qt::Key_S, Qt::AltModifier);
    QTRY_VERIFY(!answer.asked.isEmpty());
    QVERIFY2(answer.asked.contains(QStringLiteral("Sale s-offline: ¥4.20")) && answer.asked.contains(QStringLiteral("without its check")),
        qPrintable(answer.asked));
    QTRY_COMPARE_WITH_TIMEOUT(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Closed, 10000);
    QVERIFY(named<QLabel>(dialog, QStringLiteral("Shift status"))->text().contains(QStringLiteral("not checked with the server")));
    ShiftBook book(m_till.session->journal());
    QJsonArray closes;
    book.closedShifts(5, this, [&](bool, const TillError &, QJsonArray a) {
        closes = a;
    });
    QTRY_COMPARE(closes.size(), 1);
    QCOMPARE(closes.at(0).toObject().value(QStringLiteral("reconciliation")).toObject().value(QStringLiteral("checked")),
        QJsonValue(false));
    QTest::keyClick(dialog, Qt::Key_Escape);
    QTRY_VERIFY(!m_till.window->findChild<ShiftCloseDialog *>());

    // Back online: the payment is sent and paid. Shift 2's report says how it ended.
    m_till.backend->network()->setSettings({NetSim::Mode::Online});
    m_till.session->engine()->checkConnectionNow();
    QTRY_VERIFY_WITH_TIMEOUT(!m_till.session->engine()->activeIntent(stored.key), 20000);
    m_till.window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_till.window.get()));
    QTest::keyClick(m_till.window.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY((dialog = m_till.window->findChild<ShiftCloseDialog *>()) != nullptr);
    QTRY_COMPARE_WITH_TIMEOUT(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Ready, 15000);
    QCOMPARE(dialog->viewModel()->report().number, 2);
    QCOMPARE(dialog->viewModel()->endedLines(), QStringList{QStringLiteral("Sale s-offline: ¥4.20, Paid")});
    QVERIFY2(named<QLabel>(dialog, QStringLiteral("Still waiting"))->text().contains(QStringLiteral("how they ended")),
        qPrintable(named<QLabel>(dialog, QStringLiteral("Still waiting"))->text()));
}

// Issue 25 item 9: on a 1024x768 till nothing of Close shift is cut, its Close button and chart
// included; with no sales the chart's axis reads 0 and 1, not "1 1 1 0 0 0".
void TestShiftClose::fitsA1024x768Till()
{
    QTest::keyClick(m_till.window.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    ShiftCloseDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_till.window->findChild<ShiftCloseDialog *>()) != nullptr && dialog->isVisible());
    // What a 1024x768 screen leaves for a dialog's client area (title bar and frame taken off).
    const QSize room(1024 - 24, 768 - 48 - 30);
    QVERIFY2(dialog->minimumSizeHint().width() <= room.width() && dialog->minimumSizeHint().height() <= room.height(),
        qPrintable(QStringLiteral("%1x%2").arg(dialog->minimumSizeHint().width()).arg(dialog->minimumSizeHint().height())));
    dialog->resize(room);
    QTRY_COMPARE(dialog->size(), room);
    for (QWidget *w : {static_cast<QWidget *>(named<QPushButton>(dialog, QStringLiteral("Close the shift"))),
             static_cast<QWidget *>(dialog->findChild<ShiftChartView *>())}) {
        QVERIFY(w && w->isVisible());
        const QRect at(w->mapTo(dialog, QPoint(0, 0)), w->size());
        QVERIFY2(dialog->rect().contains(at), w->metaObject()->className());
    }
    auto *y = qobject_cast<QValueAxis *>(dialog->findChild<ShiftChartView *>()->chart()->axes(Qt::Vertical).value(0));
    QVERIFY(y);
    QCOMPARE(y->tickCount(), 2);
    QCOMPARE(y->max(), 1.0);
    QVERIFY(DemoTill::saveScreenshot(dialog, QStringLiteral("shift-close-1024.png")));
}

// Issue 25 item 11: the first shift of a till takes the cash put in the drawer at the start
// (Alt+O), counted in what the drawer should hold; the next shift opens with what the close left
// and does not offer the field.
void TestShiftClose::firstShiftTakesAnOpeningFloat()
{
    QVERIFY(pay(QStringLiteral("s-cash"), 2000, {}).isValid());
    QTest::keyClick(m_till.window.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    ShiftCloseDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_till.window->findChild<ShiftCloseDialog *>()) != nullptr && dialog->isVisible());
    QTRY_COMPARE_WITH_TIMEOUT(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Ready, 15000);
    auto *opening = named<QLineEdit>(dialog, QStringLiteral("Opening float"));
    QVERIFY(opening);
    QTRY_VERIFY(opening->isVisible());
    auto *expected = named<QLabel>(dialog, QStringLiteral("Cash expected"));
    QVERIFY2(expected->text().startsWith(QStringLiteral("¥20.00")), qPrintable(expected->text()));
    QTest::keyClick(dialog, Qt::Key_O, Qt::AltModifier);
    QTRY_VERIFY(opening->hasFocus());
    QTest::keyClicks(opening, QStringLiteral("200"));
    QTRY_VERIFY2(expected->text().startsWith(QStringLiteral("¥220.00 (float ¥200.00")), qPrintable(expected->text()));
    QTest::keyClick(dialog, Qt::Key_C, Qt::AltModifier);
    auto *counted = named<QLineEdit>(dialog, QStringLiteral("Cash counted"));
    QTRY_VERIFY(counted->hasFocus());
    QTest::keyClicks(counted, QStringLiteral("220"));
    QCOMPARE(named<QLabel>(dialog, QStringLiteral("Cash difference"))->text(), QStringLiteral("none: the drawer is right"));

    ModalAnswerer answer(QStringLiteral("Close the shift"));
    QTest::keyClick(counted, Qt::Key_S, Qt::AltModifier);
    QTRY_COMPARE_WITH_TIMEOUT(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Closed, 10000);
    QCOMPARE(dialog->viewModel()->report().openingFloat, qint64(20000));
    QCOMPARE(dialog->viewModel()->report().cashExpected(), qint64(22000));
    QTest::keyClick(dialog, Qt::Key_Escape);
    QTRY_VERIFY(!m_till.window->findChild<ShiftCloseDialog *>());

    // Shift 2 opens with what the close left (nothing typed: ¥0.00), and asks for no float.
    QVERIFY(pay(QStringLiteral("s-cash-2"), 500, {}).isValid());
    m_till.window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_till.window.get()));
    QTest::keyClick(m_till.window.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY((dialog = m_till.window->findChild<ShiftCloseDialog *>()) != nullptr && dialog->isVisible());
    QTRY_COMPARE_WITH_TIMEOUT(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Ready, 15000);
    QCOMPARE(dialog->viewModel()->report().number, 2);
    QVERIFY(!named<QLineEdit>(dialog, QStringLiteral("Opening float"))->isVisible());
    QVERIFY2(named<QLabel>(dialog, QStringLiteral("Cash expected"))->text().startsWith(QStringLiteral("¥5.00 (float ¥0.00")),
        qPrintable(named<QLabel>(dialog, QStringLiteral("Cash expected"))->text()));
}

// Issue 35: a card part the till refunded by itself, the refund declined by the bank: the window
// shows what the till owes with what to do, before anything else, and asks about it when the
// shift closes; the Z report kept and printed has it.
void TestShiftClose::aRefundTheTillOwesIsShownAndAsked()
{
    const Intent charged = pay(QStringLiteral("s-twice"), 450, QStringLiteral("tok_visa"));
    QCOMPARE(charged.state, IntentState::Succeeded);
    Intent declined;   // as the till's engine records it when the bank declines its refund
    declined.kind = IntentKind::Refund;
    declined.key = autoRefundKey(charged.key);
    declined.paymentKey = charged.key;
    declined.amount = charged.amount;
    declined.state = IntentState::Declined;
    declined.reason = chargedLateReason();
    QVERIFY(create(declined).isValid());

    QTest::keyClick(m_till.window.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    ShiftCloseDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_till.window->findChild<ShiftCloseDialog *>()) != nullptr);
    QTRY_COMPARE_WITH_TIMEOUT(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Ready, 15000);
    const QStringList owed = dialog->viewModel()->owedLines();
    QCOMPARE(owed.size(), 1);
    QVERIFY2(owed.constFirst().contains(QStringLiteral("¥4.50 owed to the customer")) && owed.constFirst().contains(charged.key),
        qPrintable(owed.constFirst()));
    QVERIFY2(named<QLabel>(dialog, QStringLiteral("Still waiting"))->text().startsWith(QStringLiteral("Refunds the till owes")),
        qPrintable(named<QLabel>(dialog, QStringLiteral("Still waiting"))->text()));
    QVERIFY(!dialog->viewModel()->reconciliation().allAgree());

    ModalAnswerer answer(QStringLiteral("Close the shift"));
    QTest::keyClick(named<QLineEdit>(dialog, QStringLiteral("Cash counted")), Qt::Key_S, Qt::AltModifier);
    QTRY_VERIFY(!answer.asked.isEmpty());
    QVERIFY2(answer.asked.contains(owed.constFirst()), qPrintable(answer.asked));
    QTRY_COMPARE_WITH_TIMEOUT(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Closed, 10000);
    QCOMPARE(dialog->viewModel()->report().refundsOwed.size(), 1);   // kept with the report
    QVERIFY(ShiftReportDocument::html(dialog->viewModel()->report(), {}, {}).contains(owed.constFirst().toHtmlEscaped()));
}

QTEST_MAIN(TestShiftClose)
#include "tst_shiftclose.moc"
