// Sale → Past shifts on the real till window, by keys (issue 36, confusion 13): a closed shift's
// report shows its reconciliation as the close did (before: "0 of 0 rows need nothing" where the
// close said "2 agree"), and "Print again" prints it on the receipt printer, the same document
// the close printed.
#include "counterdevices.h"
#include "demotill.h"
#include "screenshotrun.h"
#include "mainwindow.h"
#include "pastshiftsdialog.h"
#include "printqueue.h"
#include "shiftclosedialog.h"
#include "testprinter.h"
#include "tillsession.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTextBrowser>
#include <QScreen>
#include <QTranslator>
#include <QtTest>

using namespace OncePay;
using namespace OncePay::Ui;

using OncePay::Test::PrintedDocument;
using OncePay::Test::TestPrinter;

class TestPastShifts final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void pastShiftShowsItsReconciliationAndPrintsAgain();

private:
    template <typename W = QWidget>
    static W *named(QWidget *root, const QString &accessibleName) { return DemoTill::named<W>(root, accessibleName); }
    // A card or cash payment through the till's engine, waited for until final.
    bool pay(const QString &order, qint64 amount, const QString &token);

    DemoTill m_till;
    std::unique_ptr<TestPrinter> m_printer;
};

void TestPastShifts::initTestCase()
{
    DemoTill::isolateSettings();
    installScreenshotLanguage();
}

void TestPastShifts::init()
{
    QString error;
    QVERIFY2(m_till.start(DemoTill::Options{false, 4, {}, true}, &error), qPrintable(error));
    m_printer = std::make_unique<TestPrinter>();
    QVERIFY(m_printer->listen());
    TillSettings s;
    s.printerUri = m_printer->uri();
    s.autoPrint = true;
    m_till.printQueue->setRetryMs(50);
    m_till.devices->apply(s);
}

void TestPastShifts::cleanup()
{
    m_till.stop();
    m_printer.reset();
}

bool TestPastShifts::pay(const QString &order, qint64 amount, const QString &token)
{
    const Money money(amount, QStringLiteral("CNY"));
    QString key;
    auto done = [&key](bool ok, const TillError &, const Intent &i) {
        key = ok ? i.key : QStringLiteral("refused");
    };
    if (token.isEmpty())
        m_till.session->engine()->recordCash(order, money, this, done);
    else
        m_till.session->engine()->pay(order, money, token, this, done);
    return QTest::qWaitFor([&] {
        return !key.isEmpty();
    },
               10000)
        && key != QLatin1String("refused") && QTest::qWaitFor([&] {
               return !m_till.session->engine()->activeIntent(key);
           },
            15000);
}

void TestPastShifts::pastShiftShowsItsReconciliationAndPrintsAgain()
{
    QVERIFY(pay(QStringLiteral("p-card"), 4990, QStringLiteral("tok_visa")));
    QVERIFY(pay(QStringLiteral("p-cash"), 2000, {}));

    // Close the shift from the keyboard; it prints its report by itself, once.
    QTest::keyClick(m_till.window.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    ShiftCloseDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_till.window->findChild<ShiftCloseDialog *>()) != nullptr);
    QTRY_COMPARE_WITH_TIMEOUT(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Ready, 15000);
    QVERIFY(!english() || named<QLabel>(dialog, QStringLiteral("Reconciliation summary"))->text().contains(QStringLiteral("2 agree")));
    auto *counted = named<QLineEdit>(dialog, T("OncePay::Ui::ShiftCloseDialog", "Cash counted"));
    QTRY_VERIFY(counted->hasFocus());
    QTest::keyClicks(counted, QStringLiteral("20.00"));
    ModalAnswerer answer(T("OncePay::Ui::ShiftCloseDialog", "Close the shift"));
    QTest::keyClick(counted, Qt::Key_S, Qt::AltModifier);
    QTRY_COMPARE_WITH_TIMEOUT(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Closed, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(m_printer->log().documents.size(), 1, 10000);
    QTest::keyClick(dialog, Qt::Key_Escape);
    QTRY_VERIFY(!m_till.window->findChild<ShiftCloseDialog *>());

    // Past shifts (Ctrl+Shift+H): the stored reconciliation reads as the close's did.
    m_till.window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_till.window.get()));
    QTest::keyClick(m_till.window.get(), Qt::Key_H, Qt::ControlModifier | Qt::ShiftModifier);
    PastShiftsDialog *past = nullptr;
    QTRY_VERIFY((past = m_till.window->findChild<PastShiftsDialog *>()) && past->isVisible());
    QTRY_COMPARE(named<QTableWidget>(past, T("OncePay::Ui::PastShiftsDialog", "Closed shifts"))->rowCount(), 1);
    auto *kept = named<QTextBrowser>(past, T("OncePay::Ui::PastShiftsDialog", "The shift's report"));
    QTRY_VERIFY(kept->toPlainText().contains(QStringLiteral("¥69.90")));
    QVERIFY2(!english() || kept->toPlainText().contains(QStringLiteral("2 of 2 rows need nothing.")), qPrintable(kept->toPlainText()));
    QVERIFY(DemoTill::saveScreenshot(past, QStringLiteral("past-shifts-print-again.png")));
    saveScreen(QStringLiteral("past-shifts"));

    // Print again (Alt+P): on the receipt printer, the document the close printed.
    auto *again = named<QPushButton>(past, T("OncePay::Ui::PastShiftsDialog", "Print the selected shift's report again"));
    QVERIFY(again && again->isEnabled());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_P, Qt::AltModifier);
    QTRY_COMPARE_WITH_TIMEOUT(m_printer->log().documents.size(), 2, 10000);
    const PrintedDocument &closed = m_printer->log().documents.at(0);
    const PrintedDocument &reprinted = m_printer->log().documents.at(1);
    QCOMPARE(reprinted.height(), closed.height());
    QCOMPARE(reprinted.images.size(), closed.images.size());
    for (qsizetype i = 0; i < closed.images.size(); ++i)
        QVERIFY(reprinted.images.at(i).bits == closed.images.at(i).bits);
    QVERIFY(!english() || named<QLabel>(past, QStringLiteral("Past shifts status"))->text().contains(QStringLiteral("receipt printer")));
    QTest::keyClick(past, Qt::Key_Escape);
    QTRY_VERIFY(!m_till.window->findChild<PastShiftsDialog *>());
}

QTEST_MAIN(TestPastShifts)
#include "tst_pastshifts.moc"
