// Wallet payments at the real window (issue 26), offscreen against the embedded demo gateway: the
// customer's payment code is scanned (typed text + Enter) at the pay step and pays with no key
// pressed; a code waiting for the customer's confirmation says so and counts down; "Customer gave
// up" (F6, a real key event) cancels it at the bank, once; offline a code is refused, never
// saved for later. The bank's own ledger is the truth throughout.
#include "demobackend.h"
#include "demotill.h"
#include "intenttext.h"
#include "mainwindow.h"
#include "simulatednetwork.h"
#include "syncengine.h"
#include "tillsession.h"

#include <QApplication>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QtTest>

// Its lambdas capture the locals of a test that waits, running the event loop, until they have
// fired; each connection's context is destroyed before those locals are.
// clazy:excludeall=lambda-in-connect

using namespace OncePay;
using namespace OncePay::Ui;

namespace {

// A new payment code of the brand's prefix whose last digit decides the outcome (API.md).
QString walletCode(const char *prefix, int outcome)
{
    static int serial = 0;
    return QString::fromLatin1(prefix) + QStringLiteral("%1").arg(QCoreApplication::applicationPid() % 100000, 5, 10, QLatin1Char('0'))
        + QStringLiteral("%1").arg(++serial, 10, 10, QLatin1Char('0')) + QString::number(outcome);
}

const QString kTea = QStringLiteral("6901234500011");

}   // namespace

class TestWalletWindow final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void scannedCodePaysWithNoKey();
    void customerConfirmsOnThePhone();
    void customerGaveUp();
    void offlineTheCodeIsRefused();

private:
    void scan(const QString &text);
    GatewayResult toGateway(const QByteArray &method, const QString &path, const QByteArray &body = {});
    QJsonArray ledger(const QString &key);

    DemoTill m_till;
};

void TestWalletWindow::initTestCase()
{
    DemoTill::isolateSettings();
}

void TestWalletWindow::init()
{
    QString error;
    DemoTill::Options o;
    o.waitActive = true;   // real key events: the window must have the keyboard
    QVERIFY2(m_till.start(o, &error), qPrintable(error));
}

void TestWalletWindow::cleanup()
{
    m_till.stop();
}

void TestWalletWindow::scan(const QString &text)
{
    // A scanner types into whatever has the keyboard, then Enter: at the pay step, the scan field.
    QWidget *focus = QApplication::focusWidget();
    QVERIFY(focus);
    QCOMPARE(focus, static_cast<QWidget *>(m_till.window->findChild<QLineEdit *>()));
    QTest::keyClicks(focus, text);
    QTest::keyClick(focus, Qt::Key_Return);
}

GatewayResult TestWalletWindow::toGateway(const QByteArray &method, const QString &path, const QByteArray &body)
{
    // Straight to the gateway, beside the till's own path.
    GatewayClient direct(m_till.backend->gatewayUrl(), Pos::DemoBackend::token(), 5000);
    GatewayResult result;
    bool done = false;
    direct.send(method, path, body, this, [&](const GatewayResult &r) {
        result = r;
        done = true;
    });
    [&] {
        QTRY_VERIFY(done);
    }();
    return result;
}

QJsonArray TestWalletWindow::ledger(const QString &key)
{
    return toGateway("GET", QStringLiteral("/v1/_sim/acquirer/charges?idempotency_key=") + key).json.value(QStringLiteral("data")).toArray();
}

void TestWalletWindow::scannedCodePaysWithNoKey()
{
    scan(kTea);
    QTRY_COMPARE(m_till.window->viewModel()->cart()->rowCount(), 1);
    scan(walletCode("13", 0));
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Paid, 15000);
    const Intent paid = *m_till.window->viewModel()->intent();
    QVERIFY(paid.isWallet());
    QCOMPARE(paid.cardBrand, QStringLiteral("wechat"));
    QCOMPARE(IntentText::paymentMethod(paid), QStringLiteral("WeChat Pay"));
    const QJsonArray rows = ledger(paid.key);
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.at(0).toObject().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    // The scan field has the keyboard again: the next scan starts the next customer's sale.
    QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(m_till.window->findChild<QLineEdit *>()));
}

void TestWalletWindow::customerConfirmsOnThePhone()
{
    QCOMPARE(toGateway("PUT", QStringLiteral("/v1/_sim/acquirer"), R"({"wallet_confirm_ms":1500})").status, 200);
    scan(kTea);
    QTRY_COMPARE(m_till.window->viewModel()->cart()->rowCount(), 1);
    scan(walletCode("28", 1));
    // The window says what the customer must do, and how long is left.
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::BankProcessing, 10000);
    QVERIFY2(m_till.window->viewModel()->message().contains(QStringLiteral("confirm the payment on the phone")),
        qPrintable(m_till.window->viewModel()->message()));
    QVERIFY2(m_till.window->viewModel()->message().contains(QStringLiteral(" s left")), qPrintable(m_till.window->viewModel()->message()));
    auto *gaveUp = DemoTill::named<QPushButton>(m_till.window.get(), QStringLiteral("Customer gave up"));
    QVERIFY(gaveUp);
    QVERIFY(gaveUp->isVisible());
    QVERIFY(gaveUp->text().contains(QStringLiteral("Customer gave up")));
    // The customer confirms: paid, once.
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Paid, 30000);
    const Intent paid = *m_till.window->viewModel()->intent();
    QCOMPARE(IntentText::paymentMethod(paid), QStringLiteral("Alipay"));
    QCOMPARE(ledger(paid.key).size(), 1);
}

void TestWalletWindow::customerGaveUp()
{
    scan(kTea);
    QTRY_COMPARE(m_till.window->viewModel()->cart()->rowCount(), 1);
    scan(walletCode("11", 2));   // never confirmed on the phone
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::BankProcessing, 10000);
    const QString key = m_till.window->viewModel()->intent()->key;
    auto *gaveUp = DemoTill::named<QPushButton>(m_till.window.get(), QStringLiteral("Customer gave up"));
    QVERIFY(gaveUp);
    QTRY_VERIFY(gaveUp->isEnabled());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_F6);
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Selling, 10000);
    QVERIFY2(m_till.window->viewModel()->message().contains(QStringLiteral("cancelled at the bank")),
        qPrintable(m_till.window->viewModel()->message()));
    // Cancelled at the bank through the gateway: the payment ends declined, nothing charged.
    QTRY_COMPARE_WITH_TIMEOUT(toGateway("GET", QStringLiteral("/v1/payments?idempotency_key=") + key).payment().value(QStringLiteral("decline_code")).toString(),
        QStringLiteral("cancelled"), 15000);
    QCOMPARE(ledger(key).size(), 0);
    // The sale stays for cash (F10 would take it); the pay button is live again.
    QVERIFY(m_till.window->payButton()->isEnabled());
}

void TestWalletWindow::offlineTheCodeIsRefused()
{
    m_till.backend->network()->setSettings({NetSim::Mode::Offline});
    scan(kTea);
    QTRY_COMPARE(m_till.window->viewModel()->cart()->rowCount(), 1);
    // A card payment finds the network down: the till knows it is offline.
    m_till.window->payButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::WaitingForConnection, 15000);
    QTRY_VERIFY(m_till.session->engine()->connectivity() != SyncEngine::Connectivity::Online);
    const int waiting = m_till.session->engine()->waitingCount();
    // Serve the next customer: the window asks whether this one left (L) or pays another way.
    QWidget *focused = QApplication::focusWidget();
    QTest::keyClick(focused ? focused : m_till.window.get(), Qt::Key_N, Qt::ControlModifier);
    QMessageBox *ask = nullptr;
    QTRY_VERIFY((ask = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) != nullptr);
    QTRY_VERIFY(ask->isVisible());
    QTest::keyClick(ask, Qt::Key_L);
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QVERIFY(QTest::qWaitForWindowActive(m_till.window.get()));
    QTRY_VERIFY(m_till.window->viewModel()->canEditCart());
    m_till.window->findChild<QLineEdit *>()->setFocus();
    scan(kTea);
    QTRY_COMPARE(m_till.window->viewModel()->cart()->rowCount(), 1);
    scan(walletCode("25", 0));
    // Refused in words, nothing stored: the queue holds only the card payment.
    auto *message = DemoTill::named<QLabel>(m_till.window.get(), QStringLiteral("Scan message"));
    QVERIFY(message);
    QTRY_VERIFY2(message->text().contains(QStringLiteral("cannot be saved and sent later")), qPrintable(message->text()));
    QCOMPARE(m_till.session->engine()->waitingCount(), waiting);
    QCOMPARE(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Selling);
}

QTEST_MAIN(TestWalletWindow)
#include "tst_walletwindow.moc"
