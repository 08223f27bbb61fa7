// Closing a shift with the cash off (issue 36, confusion 14), on the real window by keys: a
// cashier whose counted cash is further than the limit set in Settings from what the drawer should
// hold (either way; 0: any difference) closes only once a manager typed their PIN, as for a refund
// above its limit, and the journal keeps who approved it; within the limit, or on a till without
// staff, the shift closes as before.
#include "demotill.h"
#include "intentjournal.h"
#include "mainwindow.h"
#include "shiftclosedialog.h"
#include "signindialog.h"
#include "staffsession.h"
#include "tillsession.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QtTest>

using namespace OncePay;
using namespace OncePay::Ui;

class TestShiftApproval final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void cashDifferenceAboveTheLimitNeedsAManager_data();
    void cashDifferenceAboveTheLimitNeedsAManager();

private:
    template <typename W = QWidget>
    static W *named(QWidget *root, const QString &accessibleName) { return DemoTill::named<W>(root, accessibleName); }
    void addStaffAndSignInTheCashier();
    bool payCash(qint64 amount);
    QList<IntentJournal::StaffAction> actions();

    DemoTill m_till;
};

void TestShiftApproval::initTestCase()
{
    DemoTill::isolateSettings();
}

void TestShiftApproval::init()
{
    QString error;
    QVERIFY2(m_till.start(DemoTill::Options{false, 4, QSize(1024, 768), true}, &error), qPrintable(error));
}

void TestShiftApproval::cleanup()
{
    m_till.stop();
    DemoTill::isolateSettings();
}

void TestShiftApproval::addStaffAndSignInTheCashier()
{
    int added = 0;
    QObject context;
    auto count = [&](bool ok, const QString &, const StaffStore::Answer &a) {
        added += ok && a.refusal == StaffStore::Refusal::None;
    };
    m_till.staffStore->add(QStringLiteral("Li Na"), StaffRole::Manager, QStringLiteral("482916"), &context, count);
    m_till.staffStore->add(QStringLiteral("Wang Wei"), StaffRole::Cashier, QStringLiteral("1357"), &context, count);
    QTRY_COMPARE(added, 2);
    QTRY_VERIFY(m_till.staff->required());
    QDialog *lock = nullptr;
    QTRY_VERIFY((lock = qobject_cast<QDialog *>(QApplication::activeModalWidget())) && lock->accessibleName() == QLatin1String("Sign in"));
    auto *names = named<QComboBox>(lock, QStringLiteral("Name"));
    auto *pin = named<QLineEdit>(lock, QStringLiteral("PIN"));
    QTRY_VERIFY(pin->hasFocus());
    QTest::keyClick(pin, Qt::Key_Backtab);
    QTRY_VERIFY(names->hasFocus());
    QTest::keyClick(names, Qt::Key_Home);
    for (int i = 0; i < names->count() && names->currentText() != QLatin1String("Wang Wei"); ++i)
        QTest::keyClick(names, Qt::Key_Down);
    QTest::keyClick(names, Qt::Key_Tab);
    QTRY_VERIFY(pin->hasFocus());
    QTest::keyClicks(pin, QStringLiteral("1357"));
    QTest::keyClick(pin, Qt::Key_Return);
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QCOMPARE(m_till.staff->current().name, QStringLiteral("Wang Wei"));
}

bool TestShiftApproval::payCash(qint64 amount)
{
    bool done = false;
    m_till.session->engine()->recordCash(QStringLiteral("cash-sale"), Money(amount, QStringLiteral("CNY")), this,
        [&done](bool ok, const TillError &, const Intent &) {
            done = ok;
        });
    return QTest::qWaitFor([&done] {
        return done;
    },
        10000);
}

QList<IntentJournal::StaffAction> TestShiftApproval::actions()
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
        }))
        qWarning("the journal did not answer");
    return out;
}

void TestShiftApproval::cashDifferenceAboveTheLimitNeedsAManager_data()
{
    QTest::addColumn<bool>("staff");
    QTest::addColumn<qint64>("limit");   // -1: the default (¥1.00)
    QTest::addColumn<QString>("counted");   // of ¥20.00 expected
    QTest::addColumn<bool>("needsManager");
    QTest::newRow("¥1.50 short, cashier") << true << qint64(-1) << QStringLiteral("18.50") << true;
    QTest::newRow("¥1.50 over, cashier") << true << qint64(-1) << QStringLiteral("21.50") << true;
    QTest::newRow("¥1.00 short: the limit itself") << true << qint64(-1) << QStringLiteral("19.00") << false;
    QTest::newRow("right, cashier") << true << qint64(-1) << QStringLiteral("20.00") << false;
    QTest::newRow("limit 0: ¥0.10 short") << true << qint64(0) << QStringLiteral("19.90") << true;
    QTest::newRow("no staff: ¥1.50 short") << false << qint64(-1) << QStringLiteral("18.50") << false;
}

void TestShiftApproval::cashDifferenceAboveTheLimitNeedsAManager()
{
    QFETCH(bool, staff);
    QFETCH(qint64, limit);
    QFETCH(QString, counted);
    QFETCH(bool, needsManager);
    if (limit >= 0) {
        TillSettings s = TillSettings::load();
        s.cashDifferenceLimit = limit;
        s.save();
    }
    if (staff)
        addStaffAndSignInTheCashier();
    QVERIFY(payCash(2000));

    m_till.window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_till.window.get()));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    ShiftCloseDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_till.window->findChild<ShiftCloseDialog *>()) != nullptr);
    QTRY_COMPARE_WITH_TIMEOUT(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Ready, 15000);
    auto *field = named<QLineEdit>(dialog, QStringLiteral("Cash counted"));
    QTRY_VERIFY(field->hasFocus());
    QTest::keyClicks(field, counted);
    ModalAnswerer answer(QStringLiteral("Close the shift"));
    QTest::keyClick(field, Qt::Key_S, Qt::AltModifier);
    QTRY_VERIFY(!answer.asked.isEmpty());
    if (!needsManager) {
        QTRY_COMPARE_WITH_TIMEOUT(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Closed, 10000);
        return;
    }
    // The manager's approval, as for a refund above its limit; nothing closed until it is given.
    QDialog *approval = nullptr;
    QTRY_VERIFY((approval = qobject_cast<QDialog *>(QApplication::activeModalWidget()))
        && approval->accessibleName() == QLatin1String("Manager approval"));
    QCOMPARE(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Ready);
    auto *pin = named<QLineEdit>(approval, QStringLiteral("PIN"));
    QCOMPARE(named<QComboBox>(approval, QStringLiteral("Name"))->currentText(), QStringLiteral("Li Na"));
    QTRY_VERIFY(pin->hasFocus());
    QTest::keyClicks(pin, QStringLiteral("1357"));   // the cashier's own PIN approves nothing
    QTest::keyClick(pin, Qt::Key_Return);
    QTRY_VERIFY(approval->findChildren<QPushButton *>().constFirst()->isEnabled());   // answered
    QCOMPARE(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Ready);
    QTRY_VERIFY(pin->hasFocus());
    QTest::keyClicks(pin, QStringLiteral("482916"));
    QTest::keyClick(pin, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(dialog->viewModel()->phase(), ShiftCloseViewModel::Phase::Closed, 10000);
    const auto all = actions();
    QVERIFY(!all.isEmpty());
    QCOMPARE(all.last().action, QStringLiteral("approve"));
    QCOMPARE(all.last().approvedBy, QStringLiteral("Li Na"));
    QVERIFY2(all.last().detail.contains(QStringLiteral("shift 1")), qPrintable(all.last().detail));
}

QTEST_MAIN(TestShiftApproval)
#include "tst_shiftapproval.moc"
