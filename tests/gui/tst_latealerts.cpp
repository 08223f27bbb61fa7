// The till's own refund is said (issue 36, confusion 18), on the real window by keys: the card's
// answer is lost, the customer pays cash, back online the card turns out charged and the till
// refunds it by itself. That was seen only under the payments filter "All"; now the alert says it
// once, with what to tell the customer, and keeps it (across a restart) until acknowledged.
#include "checkoutviewmodel.h"
#include "demobackend.h"
#include "demotill.h"
#include "screenshotrun.h"
#include "lateoutcomes.h"
#include "lateoutcomesdialog.h"
#include "mainwindow.h"
#include "simulatednetwork.h"
#include "tillsession.h"

#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QScreen>
#include <QTranslator>
#include <QtTest>

using namespace OncePay;
using namespace OncePay::Ui;

class TestLateAlerts final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void theTillsOwnRefundIsSaidOnce();

private:
    template <typename W = QWidget>
    static W *named(QWidget *root, const QString &accessibleName) { return DemoTill::named<W>(root, accessibleName); }
    static QWidget *keyboard() { return QApplication::focusWidget(); }

    DemoTill m_till;
};

void TestLateAlerts::initTestCase()
{
    DemoTill::isolateSettings();
    installScreenshotLanguage();
}

void TestLateAlerts::init()
{
    QString error;
    QVERIFY2(m_till.start(DemoTill::Options{false, 16, QSize(1024, 768), true}, &error), qPrintable(error));
}

void TestLateAlerts::cleanup()
{
    m_till.stop();
}

void TestLateAlerts::theTillsOwnRefundIsSaidOnce()
{
    CheckoutViewModel *vm = m_till.window->viewModel();
    vm->setUnconfirmedAfterMs(1500);
    m_till.backend->network()->setSettings({NetSim::Mode::LoseResponses});
    auto *search = named<QLineEdit>(m_till.window.get(), T("OncePay::Ui::MainWindow", "Product code or name"));
    QVERIFY(search);
    QTRY_VERIFY(search->hasFocus());
    QTest::keyClicks(search, QStringLiteral("6901234500011"));   // ¥4.50
    QTest::keyClick(search, Qt::Key_Return);
    QTRY_COMPARE(vm->cart()->rowCount(), 1);
    QTest::keyClick(keyboard(), Qt::Key_F12);
    QTRY_COMPARE_WITH_TIMEOUT(vm->phase(), CheckoutViewModel::Phase::NotConfirmed, 15000);
    const QString number = vm->saleNumber();

    // The customer will not wait and pays cash: Ctrl+N, "pays another way" (A), F10, the amount.
    QTest::keyClick(keyboard(), Qt::Key_N, Qt::ControlModifier);
    QMessageBox *ask = nullptr;
    QTRY_VERIFY((ask = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) && ask->isVisible());
    QTest::keyClick(ask, Qt::Key_A);
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QTRY_VERIFY(vm->canPay());
    QVERIFY(QTest::qWaitForWindowActive(m_till.window.get()));
    QTest::keyClick(keyboard(), Qt::Key_F10);
    auto *cash = named<QLineEdit>(m_till.window.get(), T("OncePay::Ui::CashPanel", "Cash received"));
    QVERIFY(cash);
    QTRY_VERIFY(cash->hasFocus());
    QTest::keyClicks(cash, QStringLiteral("4.50"));
    QTest::keyClick(cash, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(vm->phase(), CheckoutViewModel::Phase::Paid, 10000);
    QVERIFY(m_till.window->lateOutcomes()->alerts().isEmpty());

    // Back online: the card was charged; the till refunds it and says so, once.
    m_till.backend->network()->setSettings({NetSim::Mode::Online});
    m_till.session->engine()->checkConnectionNow();
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->lateOutcomes()->alerts().size(), 1, 40000);
    const Intent refund = m_till.window->lateOutcomes()->alerts().constFirst();
    QVERIFY(refund.isRefund());
    QCOMPARE(refund.state, IntentState::Succeeded);
    auto *alerts = named<QPushButton>(m_till.window.get(), T("OncePay::Ui::MainWindow", "Payments declined after the customer left"));
    QVERIFY(alerts);
    QTRY_VERIFY(alerts->isVisible());
    QVERIFY2(!english() || alerts->text().contains(QStringLiteral("refunded by the till")), qPrintable(alerts->text()));
    LateOutcomesDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_till.window->findChild<LateOutcomesDialog *>()) && dialog->isVisible());
    auto *table = dialog->findChild<QTableWidget *>();
    QTRY_COMPARE(table->rowCount(), 1);
    QCOMPARE(table->item(0, 1)->text(), number);
    const QString said = table->item(0, 3)->text();
    QVERIFY2(said.contains(number) && said.contains(QStringLiteral("¥4.50")) && (!english() || said.contains(QStringLiteral("statement"))), qPrintable(said));
    QVERIFY(DemoTill::saveScreenshot(m_till.window.get(), QStringLiteral("late-refund-window.png")));
    QVERIFY(DemoTill::saveScreenshot(dialog, QStringLiteral("late-refund-dialog.png")));
    saveScreen(QStringLiteral("late-refund-alert"));

    // Kept across a restart until acknowledged (Alt+A in the alert).
    QString error;
    QVERIFY2(m_till.restart(&error), qPrintable(error));
    QTRY_COMPARE(m_till.window->lateOutcomes()->alerts().size(), 1);
    alerts = named<QPushButton>(m_till.window.get(), T("OncePay::Ui::MainWindow", "Payments declined after the customer left"));
    QTRY_VERIFY(alerts->isVisible());
    QTest::mouseClick(alerts, Qt::LeftButton);
    QTRY_VERIFY((dialog = m_till.window->findChild<LateOutcomesDialog *>()) && dialog->isVisible());
    dialog->activateWindow();
    QTRY_VERIFY(dialog->isActiveWindow());
    QTest::keyClick(dialog, Qt::Key_A, Qt::AltModifier);
    QTRY_COMPARE(m_till.window->lateOutcomes()->alerts().size(), 0);
    QTRY_VERIFY(!alerts->isVisible());
    // Said once: a restart does not raise it again.
    QVERIFY2(m_till.restart(&error, false), qPrintable(error));
    bool none = false;
    m_till.session->journal()->lateOutcomes(this, [&none](bool ok, const TillError &, const QList<Intent> &rows) {
        none = ok && rows.isEmpty();
    });
    QTRY_VERIFY(none);
}

QTEST_MAIN(TestLateAlerts)
#include "tst_latealerts.moc"
