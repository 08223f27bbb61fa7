// The lock screen offers the person who signed in last (issue 36, confusion 16), on the real
// window by keys: after Ctrl+L, and after the till starts again (the journal's sign-ins), the name
// list starts at them, so a one-person shop types its PIN and Enter, nothing else.
#include "demotill.h"
#include "intentjournal.h"
#include "mainwindow.h"
#include "staffsession.h"
#include "tillsession.h"

#include <QComboBox>
#include <QDialog>
#include <QLineEdit>
#include <QtTest>

using namespace OncePay;
using namespace OncePay::Ui;

class TestLastSignIn final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void theLockScreenOffersWhoSignedInLast();

private:
    template <typename W = QWidget>
    static W *named(QWidget *root, const QString &accessibleName) { return DemoTill::named<W>(root, accessibleName); }
    static QDialog *lockScreen();
    // Types `pin` and Enter in the lock screen's PIN field, which has the keyboard; the name as offered.
    static void typePin(QDialog *lock, const QString &pin);
    int signIns();

    DemoTill m_till;
};

void TestLastSignIn::initTestCase()
{
    DemoTill::isolateSettings();
}

void TestLastSignIn::init()
{
    QString error;
    QVERIFY2(m_till.start(DemoTill::Options{false, 4, QSize(1024, 768), true}, &error), qPrintable(error));
}

void TestLastSignIn::cleanup()
{
    m_till.stop();
}

QDialog *TestLastSignIn::lockScreen()
{
    QDialog *dialog = nullptr;
    if (!QTest::qWaitFor([&] {
            dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
            return dialog && dialog->accessibleName() == QLatin1String("Sign in");
        }))
        return nullptr;
    return dialog;
}

void TestLastSignIn::typePin(QDialog *lock, const QString &pin)
{
    auto *field = named<QLineEdit>(lock, QStringLiteral("PIN"));
    QVERIFY(field);
    QTRY_VERIFY(field->hasFocus());
    QTest::keyClicks(field, pin);
    QTest::keyClick(field, Qt::Key_Return);
}

int TestLastSignIn::signIns()
{
    int n = -1;
    QObject context;
    m_till.session->journal()->staffActions(&context, [&n](bool, const TillError &, const QList<IntentJournal::StaffAction> &all) {
        n = int(std::count_if(all.cbegin(), all.cend(), [](const IntentJournal::StaffAction &a) {
            return a.action == QLatin1String("sign_in");
        }));
    });
    if (!QTest::qWaitFor([&n] {
            return n >= 0;
        }))
        return -1;
    return n;
}

void TestLastSignIn::theLockScreenOffersWhoSignedInLast()
{
    int added = 0;
    QObject context;
    auto count = [&](bool ok, const QString &, const StaffStore::Answer &a) {
        added += ok && a.refusal == StaffStore::Refusal::None;
    };
    m_till.staffStore->add(QStringLiteral("Li Na"), StaffRole::Manager, QStringLiteral("482916"), &context, count);
    m_till.staffStore->add(QStringLiteral("Wang Wei"), StaffRole::Cashier, QStringLiteral("1357"), &context, count);
    QTRY_COMPARE(added, 2);

    // No one ever signed in: the first name. Wang Wei picks his name by keys once.
    QDialog *lock = lockScreen();
    QVERIFY(lock);
    auto *names = named<QComboBox>(lock, QStringLiteral("Name"));
    QCOMPARE(names->currentText(), QStringLiteral("Li Na"));
    QTRY_VERIFY(named<QLineEdit>(lock, QStringLiteral("PIN"))->hasFocus());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab);
    QTRY_VERIFY(names->hasFocus());
    QTest::keyClick(names, Qt::Key_Down);
    QCOMPARE(names->currentText(), QStringLiteral("Wang Wei"));
    QTest::keyClick(names, Qt::Key_Tab);
    typePin(lock, QStringLiteral("1357"));
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QCOMPARE(m_till.staff->current().name, QStringLiteral("Wang Wei"));

    // Ctrl+L: the lock screen offers him; his PIN and Enter sign him in.
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_L, Qt::ControlModifier);
    QVERIFY((lock = lockScreen()));
    QCOMPARE(named<QComboBox>(lock, QStringLiteral("Name"))->currentText(), QStringLiteral("Wang Wei"));
    typePin(lock, QStringLiteral("1357"));
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QCOMPARE(m_till.staff->current().name, QStringLiteral("Wang Wei"));
    QTRY_COMPARE(signIns(), 2);   // in the journal before the till stops

    // The till starts again: the journal's last sign-in is offered.
    QString error;
    QVERIFY2(m_till.restart(&error), qPrintable(error));
    QVERIFY((lock = lockScreen()));
    // Opened while the new window was being shown: given the keyboard, as a window manager would.
    lock->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(lock));
    QCOMPARE(named<QComboBox>(lock, QStringLiteral("Name"))->currentText(), QStringLiteral("Wang Wei"));
    typePin(lock, QStringLiteral("1357"));
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QCOMPARE(m_till.staff->current().name, QStringLiteral("Wang Wei"));
}

QTEST_MAIN(TestLastSignIn)
#include "tst_lastsignin.moc"
