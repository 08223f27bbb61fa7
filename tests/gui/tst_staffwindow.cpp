// Staff on the till's real window (issue 23), offscreen, by keys: once a manager exists the
// till is locked until someone signs in with name and PIN; a wrong PIN is said and five lock
// the person out; what the cashier rings up is stamped with their name in the journal; a
// discount above the limit waits for a manager's PIN typed on the spot, and the journal keeps
// who approved it; Ctrl+L locks the till again. A scanner at the lock screen (issue 36) tries no
// PIN: its codes wait for the sale and no one is locked out; nor is an empty PIN a try.
#include "demotill.h"
#include "intentjournal.h"
#include "mainwindow.h"
#include "salebook.h"
#include "signindialog.h"
#include "staffsession.h"
#include "timedkeys.h"

#include <QComboBox>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QtTest>

using namespace OncePay;
using namespace OncePay::Ui;

class TestStaffWindow final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void noManagerNoSignIn();
    void signInThenSalesCarryTheCashier();
    void discountAboveTheLimitWaitsForAManager();
    void ctrlLLocksAndFiveWrongPinsLockOut();
    void scansAtTheLockScreenAreNoPinTries();
    void anEmptyPinIsNoTry();

private:
    template <typename W = QWidget>
    static W *named(QWidget *root, const QString &accessibleName) { return DemoTill::named<W>(root, accessibleName); }
    void addStaff();
    QDialog *lockScreen(const QString &accessibleName = QStringLiteral("Sign in"));
    // Picks `name` in the dialog's list by keys and types `pin` + Enter.
    void typeCredentials(QDialog *dialog, const QString &name, const QString &pin);
    // Picks `name` in the dialog's list by keys; the PIN field has the keyboard again.
    void chooseName(QDialog *dialog, const QString &name);
    // The dialog's Sign in (or Approve) button: enabled again once a PIN was answered.
    static QPushButton *okButton(QDialog *dialog) { return dialog->findChildren<QPushButton *>().constFirst(); }
    void scan(const QString &code);
    void press(Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier);
    QList<Intent> journal();
    QList<IntentJournal::StaffAction> actions();

    DemoTill m_till;
};

void TestStaffWindow::initTestCase()
{
    DemoTill::isolateSettings();
}

void TestStaffWindow::init()
{
    QString error;
    QVERIFY2(m_till.start(DemoTill::Options{true, 16, QSize(1024, 768), true}, &error), qPrintable(error));
}

void TestStaffWindow::cleanup()
{
    m_till.stop();
}

void TestStaffWindow::addStaff()
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
}

QDialog *TestStaffWindow::lockScreen(const QString &accessibleName)
{
    QDialog *dialog = nullptr;
    if (!QTest::qWaitFor([&] {
            dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
            return dialog && dialog->accessibleName() == accessibleName;
        }))
        return nullptr;
    return dialog;
}

void TestStaffWindow::chooseName(QDialog *dialog, const QString &name)
{
    auto *names = named<QComboBox>(dialog, QStringLiteral("Name"));
    auto *field = named<QLineEdit>(dialog, QStringLiteral("PIN"));
    QVERIFY(names && field);
    QTRY_VERIFY(field->hasFocus());   // the PIN has the keyboard at once
    QTest::keyClick(field, Qt::Key_Backtab);   // to the names
    QTRY_VERIFY(names->hasFocus());
    QTest::keyClick(names, Qt::Key_Home);
    for (int i = 0; i < names->count() && names->currentText() != name; ++i)
        QTest::keyClick(names, Qt::Key_Down);
    QCOMPARE(names->currentText(), name);
    QTest::keyClick(names, Qt::Key_Tab);
    QTRY_VERIFY(field->hasFocus());
}

void TestStaffWindow::typeCredentials(QDialog *dialog, const QString &name, const QString &pin)
{
    chooseName(dialog, name);
    auto *field = named<QLineEdit>(dialog, QStringLiteral("PIN"));
    QVERIFY(field);
    QTest::keyClicks(field, pin);
    QTest::keyClick(field, Qt::Key_Return);
}

void TestStaffWindow::scan(const QString &code)
{
    auto *search = named<QLineEdit>(m_till.window.get(), QStringLiteral("Product code or name"));
    QVERIFY(search);
    QTRY_VERIFY(search->hasFocus());
    QTest::keyClicks(search, code);
    QTest::keyClick(search, Qt::Key_Return);
}

void TestStaffWindow::press(Qt::Key key, Qt::KeyboardModifiers modifiers)
{
    QTRY_VERIFY(QApplication::focusWidget());
    QTest::keyClick(QApplication::focusWidget(), key, modifiers);
}

namespace {

// One call of the journal, waited for; its value (empty if it never answered).
template <typename T, typename Call>
T askJournal(Call call)
{
    T out{};
    bool done = false;
    QObject context;
    call(&context, [&](bool, const TillError &, const T &value) {
        out = value;
        done = true;
    });
    if (!QTest::qWaitFor([&] {
            return done;
        }))
        qWarning("the journal did not answer");
    return out;
}

}   // namespace

QList<Intent> TestStaffWindow::journal()
{
    return askJournal<QList<Intent>>([this](QObject *context, auto reply) {
        m_till.session->journal()->list({}, context, reply);
    });
}

QList<IntentJournal::StaffAction> TestStaffWindow::actions()
{
    return askJournal<QList<IntentJournal::StaffAction>>([this](QObject *context, auto reply) {
        m_till.session->journal()->staffActions(context, reply);
    });
}

void TestStaffWindow::noManagerNoSignIn()
{
    // A till whose staff has no manager works as before staff existed.
    QVERIFY(!m_till.staff->required());
    QVERIFY(!QApplication::activeModalWidget());
    scan(QStringLiteral("6901234500011"));
    QCOMPARE(m_till.window->viewModel()->cart()->rowCount(), 1);
}

void TestStaffWindow::signInThenSalesCarryTheCashier()
{
    addStaff();
    QDialog *dialog = lockScreen();
    QVERIFY(dialog);
    // Esc does not dismiss it.
    QTest::keyClick(named<QLineEdit>(dialog, QStringLiteral("PIN")), Qt::Key_Escape);
    QVERIFY(dialog->isVisible());
    // A wrong PIN is said, and the field is empty again.
    typeCredentials(dialog, QStringLiteral("Wang Wei"), QStringLiteral("0000"));
    auto *message = named<QLabel>(dialog, QStringLiteral("Sign-in message"));
    QTRY_VERIFY(dialog->findChildren<QPushButton *>().constFirst()->isEnabled());   // answered
    QVERIFY(message->text().contains(QStringLiteral("Wang Wei")));
    QVERIFY(named<QLineEdit>(dialog, QStringLiteral("PIN"))->text().isEmpty());
    typeCredentials(dialog, QStringLiteral("Wang Wei"), QStringLiteral("1357"));
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QCOMPARE(m_till.staff->current().name, QStringLiteral("Wang Wei"));
    QTRY_COMPARE(named<QLabel>(m_till.window.get(), QStringLiteral("Signed in"))->text(), QStringLiteral("Wang Wei"));

    // A cash sale: the sale and its tender carry the cashier.
    scan(QStringLiteral("6901234500011"));
    press(Qt::Key_F10);
    QPushButton *exact = named<QPushButton>(m_till.window.get(), QStringLiteral("Exact amount"));
    QTRY_VERIFY(exact && exact->isVisible());
    QTest::mouseClick(exact, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Paid, 10000);
    const QList<Intent> intents = journal();
    QCOMPARE(intents.size(), 1);
    QCOMPARE(intents.first().staff, QStringLiteral("Wang Wei"));
    SaleBook book(m_till.session->journal());
    Sale sale;
    bool done = false;
    QObject context;
    book.find(intents.first().saleNumber, &context, [&](bool, const TillError &, const Sale &s) {
        sale = s;
        done = true;
    });
    QTRY_VERIFY(done);
    QCOMPARE(sale.cashier, QStringLiteral("Wang Wei"));
    const auto all = actions();
    QVERIFY(!all.isEmpty());
    QCOMPARE(all.last().action, QStringLiteral("sign_in"));
    QCOMPARE(all.last().staff, QStringLiteral("Wang Wei"));
}

void TestStaffWindow::discountAboveTheLimitWaitsForAManager()
{
    addStaff();
    typeCredentials(lockScreen(), QStringLiteral("Wang Wei"), QStringLiteral("1357"));
    QTRY_VERIFY(!QApplication::activeModalWidget());
    scan(QStringLiteral("6901234500097"));   // rice, 49.90
    CartModel *cart = m_till.window->viewModel()->cart();
    auto *view = named<QTableView>(m_till.window.get(), QStringLiteral("Cart"));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(cart->index(0, 0)).center());
    press(Qt::Key_F4);
    // 50 % is above the 10 % a cashier may give alone.
    QInputDialog *discount = nullptr;
    QTRY_VERIFY((discount = qobject_cast<QInputDialog *>(QApplication::activeModalWidget())) != nullptr);
    auto *field = discount->findChild<QLineEdit *>();
    QTRY_VERIFY(field->hasFocus());
    QTest::keyClicks(field, QStringLiteral("50%"));
    QTest::keyClick(field, Qt::Key_Return);
    QDialog *approval = lockScreen(QStringLiteral("Manager approval"));
    QVERIFY(approval);
    QCOMPARE(cart->total().minorUnits(), qint64(4990));   // nothing yet
    // The cashier's own PIN is no manager's: the list has managers only, and a wrong PIN is said.
    typeCredentials(approval, QStringLiteral("Li Na"), QStringLiteral("1357"));
    QTRY_VERIFY(approval->findChildren<QPushButton *>().constFirst()->isEnabled());   // answered
    QVERIFY(named<QLabel>(approval, QStringLiteral("Sign-in message"))->text().contains(QStringLiteral("Li Na")));
    QCOMPARE(cart->total().minorUnits(), qint64(4990));
    typeCredentials(approval, QStringLiteral("Li Na"), QStringLiteral("482916"));
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QCOMPARE(cart->total().minorUnits(), qint64(2495));
    const auto all = actions();
    QVERIFY(all.size() >= 3);
    QCOMPARE(all.at(all.size() - 2).action, QStringLiteral("approve"));
    QCOMPARE(all.last().action, QStringLiteral("discount"));
    QCOMPARE(all.last().staff, QStringLiteral("Wang Wei"));
    QCOMPARE(all.last().approvedBy, QStringLiteral("Li Na"));
    QCOMPARE(all.last().amount, qint64(2495));
    // 10 % needs no one.
    press(Qt::Key_F4, Qt::ShiftModifier);
    QInputDialog *sale = nullptr;
    QTRY_VERIFY((sale = qobject_cast<QInputDialog *>(QApplication::activeModalWidget())) != nullptr);
    QTRY_VERIFY(sale->findChild<QLineEdit *>()->hasFocus());
    QTest::keyClicks(sale->findChild<QLineEdit *>(), QStringLiteral("10%"));
    QTest::keyClick(sale->findChild<QLineEdit *>(), Qt::Key_Return);
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QCOMPARE(cart->total().minorUnits(), qint64(2495 - 250));
}

void TestStaffWindow::ctrlLLocksAndFiveWrongPinsLockOut()
{
    addStaff();
    typeCredentials(lockScreen(), QStringLiteral("Li Na"), QStringLiteral("482916"));
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QTRY_COMPARE(named<QLabel>(m_till.window.get(), QStringLiteral("Signed in"))->text(), QStringLiteral("Li Na (manager)"));
    press(Qt::Key_L, Qt::ControlModifier);
    QDialog *dialog = lockScreen();
    QVERIFY(dialog);
    QVERIFY(!m_till.staff->isSignedIn());
    for (int i = 0; i < StaffStore::kMaxWrongPins; ++i) {
        typeCredentials(dialog, QStringLiteral("Wang Wei"), QStringLiteral("9999"));
        auto *ok = dialog->findChildren<QPushButton *>().constFirst();
        QTRY_VERIFY(ok->isEnabled());   // answered
    }
    // Locked out: even the right PIN is refused now.
    typeCredentials(dialog, QStringLiteral("Wang Wei"), QStringLiteral("1357"));
    QTRY_VERIFY(dialog->findChildren<QPushButton *>().constFirst()->isEnabled());
    QVERIFY(dialog->isVisible());
    QVERIFY(!m_till.staff->isSignedIn());
    // The lock-out is in the journal once, in Wang Wei's name (and so an event for the office).
    int lockOuts = 0;
    for (const IntentJournal::StaffAction &a : actions()) {
        if (a.action == QLatin1String("lock_out")) {
            ++lockOuts;
            QCOMPARE(a.staff, QStringLiteral("Wang Wei"));
        }
    }
    QCOMPARE(lockOuts, 1);
    // Someone else may still sign in.
    typeCredentials(dialog, QStringLiteral("Li Na"), QStringLiteral("482916"));
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QCOMPARE(m_till.staff->current().name, QStringLiteral("Li Na"));
}

void TestStaffWindow::scansAtTheLockScreenAreNoPinTries()
{
    addStaff();
    QDialog *dialog = lockScreen();
    QVERIFY(dialog);
    chooseName(dialog, QStringLiteral("Wang Wei"));
    auto *field = named<QLineEdit>(dialog, QStringLiteral("PIN"));
    // More scans than the tries a person has, at a scanner's pace (8 ms a key, then Enter): none
    // is a try, none is lost.
    quint64 t = 1'000'000;
    for (int i = 0; i <= StaffStore::kMaxWrongPins; ++i) {
        QTRY_VERIFY(field->hasFocus());
        t = TimedKeys::scan(field, QStringLiteral("6901234500011"), t + 3'000);   // tea, 4.50
        QVERIFY(field->text().isEmpty());
        QVERIFY(okButton(dialog)->isEnabled());   // nothing is being checked
    }
    QCOMPARE(qobject_cast<SignInDialog *>(dialog)->scannedCodes(),
        QStringList(StaffStore::kMaxWrongPins + 1, QStringLiteral("6901234500011")));
    // The right PIN, typed by hand, signs Wang Wei in: the scans locked no one out.
    TimedKeys::byHand(field, QStringLiteral("1357"), t + 3'000);
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QCOMPARE(m_till.staff->current().name, QStringLiteral("Wang Wei"));
    // What was scanned is the sale's now.
    CartModel *cart = m_till.window->viewModel()->cart();
    QTRY_COMPARE(cart->total().minorUnits(), qint64(450 * (StaffStore::kMaxWrongPins + 1)));

    // A wrong PIN typed by hand, at a person's pace, is still a try: five lock Wang Wei out.
    press(Qt::Key_L, Qt::ControlModifier);
    dialog = lockScreen();
    QVERIFY(dialog);
    chooseName(dialog, QStringLiteral("Wang Wei"));
    field = named<QLineEdit>(dialog, QStringLiteral("PIN"));
    t += 10'000;
    for (int i = 0; i < StaffStore::kMaxWrongPins; ++i) {
        QTRY_VERIFY(field->hasFocus());
        t = TimedKeys::byHand(field, QStringLiteral("9999"), t + 3'000);
        QTRY_VERIFY(okButton(dialog)->isEnabled());   // answered
    }
    TimedKeys::byHand(field, QStringLiteral("1357"), t + 3'000);
    QTRY_VERIFY(okButton(dialog)->isEnabled());
    QVERIFY(dialog->isVisible());
    QVERIFY(!m_till.staff->isSignedIn());
    QVERIFY(qobject_cast<SignInDialog *>(dialog)->scannedCodes().isEmpty());
}

void TestStaffWindow::anEmptyPinIsNoTry()
{
    addStaff();
    QDialog *dialog = lockScreen();
    QVERIFY(dialog);
    chooseName(dialog, QStringLiteral("Wang Wei"));
    auto *field = named<QLineEdit>(dialog, QStringLiteral("PIN"));
    // Enter on the empty field, more often than the tries a person has.
    for (int i = 0; i <= StaffStore::kMaxWrongPins; ++i) {
        QTRY_VERIFY(field->hasFocus());
        QTest::keyClick(field, Qt::Key_Return);
        QTRY_VERIFY(okButton(dialog)->isEnabled());
    }
    typeCredentials(dialog, QStringLiteral("Wang Wei"), QStringLiteral("1357"));
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QCOMPARE(m_till.staff->current().name, QStringLiteral("Wang Wei"));
}

QTEST_MAIN(TestStaffWindow)
#include "tst_staffwindow.moc"
