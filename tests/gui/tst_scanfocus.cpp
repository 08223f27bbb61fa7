// A barcode scanner wherever the keyboard is (issue 36, confusions 3 and 4), on the real window
// against the embedded demo gateway. A scan is a code typed at a scanner's pace (8 ms a key, the
// window system's times: tests/common/timedkeys.h) then Enter, into whatever widget has the
// keyboard, as a scanner types it.
// - After an offline card sale ("you may serve the next customer") the scan reaches the checkout:
//   the one-key question asks whether the customer left, and the item is the next cart's first.
// - A scan while a question is open (Ctrl+N's "has the customer left?", "discard this sale?") is
//   kept, never its answer (its Enter was "Go back"), and goes into the cart once answered.
// - After a split tender (the cart has the keyboard), while a wallet payment waits, after the
//   payments filter was used: the scan is not lost.
// - A person typing fast into a field that takes typing (the card amount, the cash received)
//   keeps every key.
#include "demobackend.h"
#include "demotill.h"
#include "lateoutcomes.h"
#include "mainwindow.h"
#include "simulatednetwork.h"
#include "timedkeys.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QTableView>
#include <QTranslator>
#include <QtTest>

// Its lambdas capture the locals of a test that waits, running the event loop, until they have
// fired; each connection's context is destroyed before those locals are.
// clazy:excludeall=lambda-in-connect

using namespace OncePay;
using namespace OncePay::Ui;

namespace {

const QString kTea = QStringLiteral("6901234500011");   // 4.50
const QString kEgg = QStringLiteral("6901234500066");   // 2.50
const QString kRice = QStringLiteral("6901234500097");   // 49.90

// A wallet payment code of WeChat Pay's prefix whose last digit decides the outcome (API.md: 0
// succeeds at once, 1 waits for the customer's confirmation).
QString walletCode(int outcome)
{
    static int serial = 0;
    return QStringLiteral("13") + QStringLiteral("%1").arg(QCoreApplication::applicationPid() % 100000, 5, 10, QLatin1Char('0'))
        + QStringLiteral("%1").arg(++serial, 10, 10, QLatin1Char('0')) + QString::number(outcome);
}

}   // namespace

class TestScanFocus final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void scanAfterServeTheNextCustomerStartsTheNextCart();
    void scanWhileCtrlNAsksIsKept_data();
    void scanWhileCtrlNAsksIsKept();
    void scanWhileDiscardAsksIsKept();
    void scanAfterASplitTenderPaysTheRest();
    void scanWhileAWalletWaitsIsNotLost();
    void scanAfterThePaymentsFilterAddsTheItem();
    void fastTypingInAFieldIsTheFields();
    void aKeyInAScanIsNoShortcut();

private:
    void start(const QString &language = QStringLiteral("en"));
    // A scanner's burst and Enter into the widget that has the keyboard.
    void scan(const QString &code);
    QWidget *focusWidget() const;
    QMessageBox *openQuestion() const;
    QString scanMessage() const;
    CheckoutViewModel *vm() const { return m_till.window->viewModel(); }
    // The cart's codes, in order.
    QStringList cartCodes() const;
    // The window with its open question over it, as the cashier sees them, in
    // $ONCEPAY_SCREENSHOT_DIR (nothing when unset).
    bool saveScreenshot(QWidget *question, const QString &name) const;

    DemoTill m_till;
    QTranslator m_translator;
    bool m_translated = false;
    quint64 m_t = 1'000'000;   // the window system's clock of the keys sent, in ms
};

void TestScanFocus::initTestCase()
{
    DemoTill::isolateSettings();
}

void TestScanFocus::start(const QString &language)
{
    // The till's own words in the language under test, installed before the window is built.
    if (language != QLatin1String("en")) {
        QVERIFY(m_translator.load(QStringLiteral("oncepay_") + language, QStringLiteral(ONCEPAY_QM_DIR)));
        QVERIFY(QCoreApplication::installTranslator(&m_translator));
        m_translated = true;
    }
    QString error;
    QVERIFY2(m_till.start(DemoTill::Options{true, 16, QSize(1024, 768), true}, &error), qPrintable(error));
    QTRY_VERIFY(focusWidget());
}

void TestScanFocus::cleanup()
{
    m_till.stop();
    if (m_translated)
        QCoreApplication::removeTranslator(&m_translator);
    m_translated = false;
}

QWidget *TestScanFocus::focusWidget() const
{
    return QApplication::focusWidget();
}

void TestScanFocus::scan(const QString &code)
{
    QWidget *focus = focusWidget();
    QVERIFY(focus);
    m_t = TimedKeys::scan(focus, code, m_t + 2'000);
}

QMessageBox *TestScanFocus::openQuestion() const
{
    QMessageBox *ask = nullptr;
    (void)QTest::qWaitFor([&] {
        ask = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        return ask && ask->isVisible() && focusWidget() && focusWidget()->window() == ask;
    });
    return ask && ask->isVisible() ? ask : nullptr;
}

QString TestScanFocus::scanMessage() const
{
    auto *label = DemoTill::named<QLabel>(m_till.window.get(), QCoreApplication::translate("OncePay::Ui::MainWindow", "Scan message"));
    return label && label->isVisible() ? label->text() : QString();
}

QStringList TestScanFocus::cartCodes() const
{
    QStringList codes;
    for (const SaleLine &line : vm()->cart()->saleLines())
        codes << line.code;
    return codes;
}

bool TestScanFocus::saveScreenshot(QWidget *question, const QString &name) const
{
    const QString dir = qEnvironmentVariable("ONCEPAY_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return true;
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QPixmap shot = m_till.window->grab();
    QPainter painter(&shot);
    painter.drawPixmap(question->frameGeometry().topLeft() - m_till.window->geometry().topLeft(), question->grab());
    painter.end();
    return shot.save(dir + QLatin1Char('/') + name);
}

// Confusion 3: offline, the card payment waits ("you may serve the next customer"). The scanner's
// next code reaches the checkout (it went to the cart, which did nothing with it): asked in one key
// whether the customer left, it is the next customer's first item; scanned while that asks, kept.
void TestScanFocus::scanAfterServeTheNextCustomerStartsTheNextCart()
{
    start();
    m_till.backend->network()->setSettings({NetSim::Mode::Offline});
    scan(kTea);
    QTRY_COMPARE(cartCodes(), QStringList{kTea});
    QTest::keyClick(focusWidget(), Qt::Key_F12);
    QTRY_COMPARE_WITH_TIMEOUT(vm()->phase(), CheckoutViewModel::Phase::WaitingForConnection, 10000);
    QVERIFY2(vm()->message().contains(QStringLiteral("you may serve the next customer")), qPrintable(vm()->message()));
    const QString waiting = vm()->intent()->key;
    // The scan field has the keyboard again.
    QTRY_COMPARE(focusWidget(), static_cast<QWidget *>(m_till.window->findChild<QLineEdit *>()));
    // The next customer's items, scanned without looking at the screen: the first asks, the
    // second comes while it asks (into its Go back button) and is kept, not its answer.
    scan(kEgg);
    QMessageBox *ask = openQuestion();
    QVERIFY(ask);
    scan(kRice);
    QVERIFY2(scanMessage().contains(QStringLiteral("2 scanned items are kept")), qPrintable(scanMessage()));
    QVERIFY(saveScreenshot(ask, QStringLiteral("scan-kept-while-asked-en.png")));
    QVERIFY(ask->isVisible());
    QCOMPARE(vm()->intent()->key, waiting);
    QTest::keyClick(ask, Qt::Key_L);   // the customer left
    QTRY_COMPARE(cartCodes(), (QStringList{kEgg, kRice}));
    QVERIFY(!vm()->intent());
    QTRY_COMPARE(m_till.window->lateOutcomes()->followedCount(), 1);   // the left payment is followed
    QTRY_COMPARE(focusWidget(), static_cast<QWidget *>(m_till.window->findChild<QLineEdit *>()));
}

void TestScanFocus::scanWhileCtrlNAsksIsKept_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("English") << QStringLiteral("en");
    QTest::newRow("Chinese") << QStringLiteral("zh_CN");
}

// Confusion 3: Ctrl+N while the card payment is not final asks whether the customer left; the
// scanner's Enter was its "Go back" and the code was lost. Now it is kept and answers nothing;
// L starts the next sale with it.
void TestScanFocus::scanWhileCtrlNAsksIsKept()
{
    QFETCH(QString, language);
    start(language);
    vm()->setUnconfirmedAfterMs(800);
    m_till.backend->network()->setSettings({NetSim::Mode::LoseResponses});
    scan(kTea);
    QTRY_COMPARE(cartCodes(), QStringList{kTea});
    QTest::keyClick(focusWidget(), Qt::Key_F12);
    QTRY_COMPARE_WITH_TIMEOUT(vm()->phase(), CheckoutViewModel::Phase::NotConfirmed, 15000);
    const QString key = vm()->intent()->key;
    QTest::keyClick(focusWidget(), Qt::Key_N, Qt::ControlModifier);
    QMessageBox *ask = openQuestion();
    QVERIFY(ask);
    scan(kEgg);
    scan(kRice);
    QVERIFY2(ask->isVisible(), "the scanner's Enter answered the question");
    QCOMPARE(vm()->intent()->key, key);
    QCOMPARE(cartCodes(), QStringList{kTea});
    QVERIFY2(scanMessage().contains(QStringLiteral("2")), qPrintable(scanMessage()));
    QVERIFY(saveScreenshot(ask, QStringLiteral("scan-kept-ctrl-n-%1.png").arg(language)));
    QTest::keyClick(ask, Qt::Key_L);
    QTRY_COMPARE(cartCodes(), (QStringList{kEgg, kRice}));
    QVERIFY(!vm()->intent());
}

// Confusion 3: "Discard this sale?" (Ctrl+N with items and nothing paid): a scan is kept, not
// "Go back"; D discards and the scan is the new sale's first item.
void TestScanFocus::scanWhileDiscardAsksIsKept()
{
    start();
    scan(kTea);
    QTRY_COMPARE(cartCodes(), QStringList{kTea});
    QTest::keyClick(focusWidget(), Qt::Key_N, Qt::ControlModifier);
    QMessageBox *ask = openQuestion();
    QVERIFY(ask);
    scan(kRice);
    QVERIFY2(ask->isVisible(), "the scanner's Enter answered the question");
    QCOMPARE(cartCodes(), QStringList{kTea});
    QTest::keyClick(ask, Qt::Key_D);
    QTRY_COMPARE(cartCodes(), QStringList{kRice});
    // Asked again and answered Go back (Esc): the scan kept meanwhile joins this sale.
    QTest::keyClick(focusWidget(), Qt::Key_N, Qt::ControlModifier);
    ask = openQuestion();
    QVERIFY(ask);
    scan(kEgg);
    QTest::keyClick(ask, Qt::Key_Escape);
    QTRY_COMPARE(cartCodes(), (QStringList{kRice, kEgg}));
}

// Confusion 4: a card pays part of the sale; the cart has the keyboard (the scan field takes no
// item now). The customer's wallet code, scanned there, pays the rest.
void TestScanFocus::scanAfterASplitTenderPaysTheRest()
{
    start();
    scan(kRice);
    QTRY_COMPARE(cartCodes(), QStringList{kRice});
    auto *cardAmount = DemoTill::named<QLineEdit>(m_till.window.get(), QStringLiteral("Amount on this card"));
    QVERIFY(cardAmount);
    QTest::keyClick(m_till.window.get(), Qt::Key_A, Qt::AltModifier);
    QTRY_COMPARE(focusWidget(), static_cast<QWidget *>(cardAmount));
    QTest::keyClicks(cardAmount, QStringLiteral("20.00"));
    QTest::keyClick(cardAmount, Qt::Key_F12);
    QTRY_COMPARE_WITH_TIMEOUT(vm()->remaining().minorUnits(), qint64(2990), 15000);
    QTRY_COMPARE(focusWidget(), static_cast<QWidget *>(DemoTill::named<QTableView>(m_till.window.get(), QStringLiteral("Cart"))));
    // An item now is refused in words, never silently.
    scan(kTea);
    QTRY_VERIFY2(!scanMessage().isEmpty(), "the scan went nowhere");
    QCOMPARE(cartCodes(), QStringList{kRice});
    // The wallet code pays what remains.
    scan(walletCode(0));
    QTRY_COMPARE_WITH_TIMEOUT(vm()->phase(), CheckoutViewModel::Phase::Paid, 15000);
    QVERIFY(vm()->intent()->isWallet());
    QCOMPARE(vm()->intent()->amount.minorUnits(), qint64(2990));
    // Paid: the next scan is the next customer's.
    scan(kEgg);
    QTRY_COMPARE(cartCodes(), QStringList{kEgg});
}

// Confusion 4: while the wallet payment waits for the customer's phone, a scan reaches the
// checkout: asked whether the customer left (the code kept for the next sale), never lost.
void TestScanFocus::scanWhileAWalletWaitsIsNotLost()
{
    start();
    GatewayClient direct(m_till.backend->gatewayUrl(), Pos::DemoBackend::token(), 5000);
    int status = 0;
    direct.send("PUT", QStringLiteral("/v1/_sim/acquirer"), R"({"wallet_confirm_ms":20000})", this, [&](const GatewayResult &r) {
        status = r.status;
    });
    QTRY_COMPARE(status, 200);
    scan(kTea);
    QTRY_COMPARE(cartCodes(), QStringList{kTea});
    scan(walletCode(1));
    QTRY_COMPARE_WITH_TIMEOUT(vm()->phase(), CheckoutViewModel::Phase::BankProcessing, 10000);
    QVERIFY(vm()->waitsForWallet());
    const QString wallet = vm()->intent()->key;
    scan(kEgg);
    QMessageBox *ask = openQuestion();
    QVERIFY2(ask, qPrintable(QStringLiteral("the scan went nowhere; the keyboard is on %1").arg(focusWidget() ? QString::fromLatin1(focusWidget()->metaObject()->className()) : QStringLiteral("nothing"))));
    QTest::keyClick(ask, Qt::Key_Escape);   // go back: the customer is still there
    QTRY_VERIFY2(scanMessage().contains(kEgg), qPrintable(scanMessage()));
    QCOMPARE(vm()->intent()->key, wallet);
    QCOMPARE(cartCodes(), QStringList{kTea});
}

// Confusion 4: the cashier looked at the payments panel and chose another filter with the keys;
// the next scan is the sale's, and the filter stays as chosen.
void TestScanFocus::scanAfterThePaymentsFilterAddsTheItem()
{
    start();
    auto *filter = DemoTill::named<QComboBox>(m_till.window.get(), QStringLiteral("Filter payments by state"));
    QVERIFY(filter);
    filter->setFocus(Qt::MouseFocusReason);
    QTRY_COMPARE(focusWidget(), static_cast<QWidget *>(filter));
    QTest::keyClick(filter, Qt::Key_Down);
    const int chosen = filter->currentIndex();
    scan(kTea);
    QTRY_COMPARE(cartCodes(), QStringList{kTea});
    QCOMPARE(filter->currentIndex(), chosen);
    scan(kEgg);
    QTRY_COMPARE(cartCodes(), (QStringList{kTea, kEgg}));
}

// Confusion 4, the other side: a field that takes typing keeps its keys, however fast. The card
// amount typed at a scanner's pace is the card's amount; so is the cash received.
void TestScanFocus::fastTypingInAFieldIsTheFields()
{
    start();
    scan(kRice);
    QTRY_COMPARE(cartCodes(), QStringList{kRice});
    auto *cardAmount = DemoTill::named<QLineEdit>(m_till.window.get(), QStringLiteral("Amount on this card"));
    QVERIFY(cardAmount);
    QTest::keyClick(m_till.window.get(), Qt::Key_A, Qt::AltModifier);
    QTRY_COMPARE(focusWidget(), static_cast<QWidget *>(cardAmount));
    m_t = TimedKeys::scan(cardAmount, QStringLiteral("20.00"), m_t + 2'000);   // its Enter pays
    QTRY_COMPARE_WITH_TIMEOUT(vm()->remaining().minorUnits(), qint64(2990), 15000);
    QCOMPARE(cartCodes(), QStringList{kRice});
    QTest::keyClick(focusWidget(), Qt::Key_F10);
    auto *cash = DemoTill::named<QLineEdit>(m_till.window.get(), QStringLiteral("Cash received"));
    QVERIFY(cash);
    QTRY_COMPARE(focusWidget(), static_cast<QWidget *>(cash));
    m_t = TimedKeys::scan(cash, QStringLiteral("50.00"), m_t + 2'000);
    QTRY_COMPARE_WITH_TIMEOUT(vm()->phase(), CheckoutViewModel::Phase::Paid, 10000);
    QVERIFY2(vm()->message().contains(QStringLiteral("20.10")), qPrintable(vm()->message()));   // the change
}

// A scan whose code has a '-' (a receipt number), scanned with the cart's line selected: the '-'
// is part of the code, not the cart's "one less" (its shortcut), and the code reaches the checkout.
void TestScanFocus::aKeyInAScanIsNoShortcut()
{
    start();
    scan(kTea);
    scan(kTea);
    QTRY_COMPARE(vm()->cart()->itemCount(), 2);
    auto *cart = DemoTill::named<QTableView>(m_till.window.get(), QStringLiteral("Cart"));
    QVERIFY(cart);
    cart->setFocus(Qt::MouseFocusReason);
    cart->selectRow(0);
    QTRY_COMPARE(focusWidget(), static_cast<QWidget *>(cart));
    scan(QStringLiteral("1-000009"));
    QTRY_VERIFY2(scanMessage().contains(QStringLiteral("1-000009")), qPrintable(scanMessage()));
    QCOMPARE(vm()->cart()->itemCount(), 2);
    // A person's '-' on the selected line is still "one less".
    QTest::keyClick(cart, Qt::Key_Minus);
    QTRY_COMPARE(vm()->cart()->itemCount(), 1);
}

QTEST_MAIN(TestScanFocus)
#include "tst_scanfocus.moc"
