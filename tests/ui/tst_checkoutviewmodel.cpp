// The till's widget-free screen logic (oncepay_tillui_models), without a window: the cart and the
// queue under QAbstractItemModelTester, the checkout view model driven as the window drives it,
// the till's settings in a test-mode settings file, and the receipt document.
//
// The sync engine's client points at a port where nothing listens, so the till is offline: card
// payments wait in the queue, cash is paid at once. No gateway is needed for any of this.
#include "cartmodel.h"
#include "catalog.h"
#include "checkoutviewmodel.h"
#include "queuemodel.h"
#include "receipt.h"
#include "tillsession.h"
#include "tillsettings.h"

#include <QAbstractItemModelTester>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Ui;

class TestCheckoutViewModel final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void cartKeepsItsTotal();
    void unknownCodeIsRefused();
    void cashIsPaidAtOnce_data();
    void cashIsPaidAtOnce();
    void cardWaitsOfflineAndLocksTheSale();
    void queueModelFollowsTheJournal();
    void settingsRoundTrip();
    void receiptNamesTheTerminal();
    void receiptFollowsTheSale();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    Catalog m_catalog;
    std::unique_ptr<TillSession> m_session;
    std::unique_ptr<CheckoutViewModel> m_vm;
};

void TestCheckoutViewModel::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);   // never the real user's settings
    QString error;
    QVERIFY2(m_catalog.load(QStringLiteral(ONCEPAY_CATALOG), &error), qPrintable(error));
}

void TestCheckoutViewModel::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    TillSession::Config c;
    c.gatewayUrls = {QUrl(QStringLiteral("http://127.0.0.1:9"))};   // discard: nothing answers
    c.token = QStringLiteral("sk_test_demo_till1");
    c.journal.path = m_dir->filePath(QStringLiteral("till.db"));
    c.engine.probeCapMs = 60'000;   // offline for the whole test
    m_session = std::make_unique<TillSession>(c);
    QString error;
    QVERIFY2(m_session->open(&error), qPrintable(error));
    bool started = false;
    m_session->start([&](bool ok, const QString &) { started = ok; });
    QTRY_VERIFY(started);
    m_vm = std::make_unique<CheckoutViewModel>(m_session->engine(), &m_catalog);
}

void TestCheckoutViewModel::cleanup()
{
    m_vm.reset();
    m_session.reset();
    m_dir.reset();
}

void TestCheckoutViewModel::cartKeepsItsTotal()
{
    CartModel *cart = m_vm->cart();
    QAbstractItemModelTester tester(cart, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy totals(cart, &CartModel::totalChanged);
    QString reason;
    QVERIFY2(m_vm->addProduct(QStringLiteral("6901234500011"), &reason), qPrintable(reason));   // tea 4.50
    QVERIFY2(m_vm->addProduct(QStringLiteral("6901234500011"), &reason), qPrintable(reason));
    QVERIFY2(m_vm->addProduct(QStringLiteral("Rice"), &reason), qPrintable(reason));            // 49.90
    QCOMPARE(cart->rowCount(), 2);
    QCOMPARE(cart->total(), Money(450 * 2 + 4990, QStringLiteral("CNY")));
    QCOMPARE(cart->data(cart->index(0, int(CartModel::Column::LineTotal))).toString(), QStringLiteral("¥9.00"));
    m_vm->changeQuantity(1, 2);
    QCOMPARE(cart->total(), Money(450 * 2 + 4990 * 3, QStringLiteral("CNY")));
    m_vm->changeQuantity(0, -2);   // to zero removes the line
    QCOMPARE(cart->rowCount(), 1);
    m_vm->removeLine(0);
    QVERIFY(cart->isEmpty());
    QCOMPARE(cart->total().minorUnits(), qint64(0));
    QVERIFY(totals.count() >= 5);
    // Names follow the language.
    QVERIFY(m_vm->addProduct(QStringLiteral("6901234500011"), &reason));
    const QString english = cart->data(cart->index(0, 0)).toString();
    cart->setLanguage(Language::SimplifiedChinese);
    QVERIFY(cart->data(cart->index(0, 0)).toString() != english);
}

void TestCheckoutViewModel::unknownCodeIsRefused()
{
    QString reason;
    QVERIFY(!m_vm->addProduct(QStringLiteral("0000000000000"), &reason));
    QVERIFY(!reason.isEmpty());
    QVERIFY(m_vm->cart()->isEmpty());
    QVERIFY(!m_vm->canPay());
}

void TestCheckoutViewModel::cashIsPaidAtOnce_data()
{
    QTest::addColumn<QString>("tendered");
    QTest::addColumn<bool>("accepted");
    QTest::addColumn<qint64>("change");
    QTest::newRow("exact") << QStringLiteral("9.00") << true << qint64(0);
    QTest::newRow("with change") << QStringLiteral("20") << true << qint64(1100);
    QTest::newRow("short") << QStringLiteral("8.99") << false << qint64(0);
}

void TestCheckoutViewModel::cashIsPaidAtOnce()
{
    QFETCH(QString, tendered);
    QFETCH(bool, accepted);
    QFETCH(qint64, change);
    QString reason;
    QVERIFY(m_vm->addProduct(QStringLiteral("6901234500011"), &reason));
    QVERIFY(m_vm->addProduct(QStringLiteral("6901234500011"), &reason));
    Money given;
    QVERIFY(m_vm->payCash(*Money::parse(tendered, QStringLiteral("CNY")), &given, &reason) == accepted);
    if (!accepted) {
        QVERIFY(!reason.isEmpty());
        QCOMPARE(m_vm->phase(), CheckoutViewModel::Phase::Selling);
        return;
    }
    QTRY_COMPARE(m_vm->phase(), CheckoutViewModel::Phase::Paid);
    QCOMPARE(given.minorUnits(), change);
    QVERIFY(m_vm->intent()->isCash());
    QCOMPARE(m_vm->intent()->state, IntentState::Succeeded);
    QCOMPARE(m_session->engine()->waitingCount(), 0);   // cash never waits for the network
}

void TestCheckoutViewModel::cardWaitsOfflineAndLocksTheSale()
{
    QString reason;
    QVERIFY(m_vm->addProduct(QStringLiteral("6901234500059"), &reason));
    QVERIFY(m_vm->canPay());
    m_vm->payByCard(QStringLiteral("tok_visa"));
    m_vm->payByCard(QStringLiteral("tok_visa"));   // a double click: still one intent
    QVERIFY(!m_vm->canPay());
    QVERIFY(!m_vm->canEditCart());
    QTRY_COMPARE_WITH_TIMEOUT(m_vm->phase(), CheckoutViewModel::Phase::WaitingForConnection, 10000);
    QCOMPARE(m_session->engine()->waitingCount(), 1);
    QVERIFY(m_vm->canStartNewSale());   // the next customer can be served; the queue keeps it
    QVERIFY(!m_vm->canPay());
    m_vm->startNewSale();
    QCOMPARE(m_vm->phase(), CheckoutViewModel::Phase::Selling);
    QVERIFY(m_vm->cart()->isEmpty());
    QCOMPARE(m_session->engine()->waitingCount(), 1);
}

void TestCheckoutViewModel::queueModelFollowsTheJournal()
{
    QueueModel model(m_session->journal());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    connect(m_session->engine(), &SyncEngine::intentChanged, &model, &QueueModel::intentChanged);
    QString reason;
    QVERIFY(m_vm->addProduct(QStringLiteral("6901234500011"), &reason));
    Money change;
    QVERIFY(m_vm->payCash(Money(450, QStringLiteral("CNY")), &change, &reason));
    QTRY_COMPARE(m_vm->phase(), CheckoutViewModel::Phase::Paid);
    m_vm->startNewSale();
    QVERIFY(m_vm->addProduct(QStringLiteral("6901234500059"), &reason));
    m_vm->payByCard(QStringLiteral("tok_visa"));
    QTRY_COMPARE_WITH_TIMEOUT(m_vm->phase(), CheckoutViewModel::Phase::WaitingForConnection, 10000);
    model.reload();
    QTRY_COMPARE(model.rowCount(), 2);
    // Newest first: the card payment waiting, then the cash sale.
    QCOMPARE(model.intentAt(0).state, IntentState::Queued);
    QCOMPARE(model.intentAt(1).tender, Tender::Cash);
    QCOMPARE(model.data(model.index(1, int(QueueModel::Column::Method))).toString(), QStringLiteral("Cash"));
    model.setFilter(IntentState::Queued, false);
    QTRY_COMPARE(model.rowCount(), 1);
    model.setFilter(std::nullopt, true);
    QTRY_COMPARE(model.rowCount(), 1);
}

void TestCheckoutViewModel::settingsRoundTrip()
{
    QSettings().clear();
    const TillSettings defaults = TillSettings::load();
    QVERIFY(defaults.gatewayUrls.isEmpty());   // the embedded demo
    QCOMPARE(defaults.terminal, QStringLiteral("till-1"));
    QVERIFY(!defaults.shopName.isEmpty());      // the demo shop until the merchant names theirs
    QVERIFY(!defaults.shopAddress.isEmpty());
    TillSettings s = defaults;
    s.shopName = QStringLiteral("Corner Tea House");
    s.shopAddress = QStringLiteral("8 Fuzhou Road, Shanghai");
    s.gatewayUrls = {QUrl(QStringLiteral("http://192.0.2.10:8080")), QUrl(QStringLiteral("http://192.0.2.11:8080"))};
    s.terminal = QStringLiteral("front-2");
    s.limits.maxSingleAmount = 123'45;
    s.language = QStringLiteral("zh_CN");
    s.save();
    const TillSettings back = TillSettings::load();
    QCOMPARE(back.gatewayUrls, s.gatewayUrls);
    QCOMPARE(back.terminal, s.terminal);
    QCOMPARE(back.limits.maxSingleAmount, s.limits.maxSingleAmount);
    QCOMPARE(back.language, s.language);
    QCOMPARE(back.shopName, s.shopName);
    QCOMPARE(back.shopAddress, s.shopAddress);
    QSettings().clear();
}

void TestCheckoutViewModel::receiptNamesTheTerminal()
{
    QString reason;
    QVERIFY(m_vm->addProduct(QStringLiteral("6901234500011"), &reason));
    Money change;
    QVERIFY(m_vm->payCash(Money(450, QStringLiteral("CNY")), &change, &reason));
    QTRY_COMPARE(m_vm->phase(), CheckoutViewModel::Phase::Paid);
    const QString html = receiptHtml(*m_vm->intent(), *m_vm->cart(), QStringLiteral("front-2"));
    QVERIFY2(html.contains(QStringLiteral("front-2")), qPrintable(html));
    QVERIFY(html.contains(QStringLiteral("¥4.50")));
}

void TestCheckoutViewModel::receiptFollowsTheSale()
{
    // A card sale queued offline: a slip that says it is not a receipt, named as such.
    QString reason;
    QVERIFY(m_vm->addProduct(QStringLiteral("6901234500059"), &reason));
    m_vm->payByCard(QStringLiteral("tok_visa"));
    QTRY_COMPARE_WITH_TIMEOUT(m_vm->phase(), CheckoutViewModel::Phase::WaitingForConnection, 10000);
    const Intent waiting = *m_vm->intent();
    QCOMPARE(Receipt::kindFor(waiting), Receipt::Kind::PendingSlip);
    const ReceiptContext shop{QStringLiteral("till-3"), QStringLiteral("Corner Tea House"), QString(), m_vm->cashTendered()};
    const QString slip = Receipt::html(waiting, *m_vm->cart(), shop);
    QVERIFY2(slip.contains(QStringLiteral("NOT A RECEIPT")), qPrintable(slip));
    QVERIFY(slip.contains(QStringLiteral("Corner Tea House")));
    QVERIFY(Receipt::fileName(waiting, QStringLiteral("till-3")).endsWith(QStringLiteral("-pending.pdf")));

    // Cash: the receipt shows what was handed over and the change; the next sale forgets it.
    m_vm->startNewSale();
    QVERIFY(m_vm->addProduct(QStringLiteral("6901234500011"), &reason));
    Money change;
    QVERIFY(m_vm->payCash(Money(1000, QStringLiteral("CNY")), &change, &reason));
    QTRY_COMPARE(m_vm->phase(), CheckoutViewModel::Phase::Paid);
    QVERIFY(m_vm->cashTendered());
    QCOMPARE(*m_vm->cashTendered(), Money(1000, QStringLiteral("CNY")));
    const Intent paid = *m_vm->intent();
    QCOMPARE(Receipt::kindFor(paid), Receipt::Kind::Receipt);
    const QString receipt = Receipt::html(paid, *m_vm->cart(), ReceiptContext{QStringLiteral("till-3"), QStringLiteral("Corner Tea House"),
                                                                               QString(), m_vm->cashTendered()});
    QVERIFY2(receipt.contains(QStringLiteral("¥10.00")), qPrintable(receipt));
    QVERIFY(receipt.contains(change.toDisplayString()));
    QVERIFY(receipt.contains(Receipt::number(paid, QStringLiteral("till-3"))));
    QVERIFY(!receipt.contains(QStringLiteral("NOT A RECEIPT")));
    QCOMPARE(Receipt::fileName(paid, QStringLiteral("till-3")), Receipt::number(paid, QStringLiteral("till-3")) + QStringLiteral(".pdf"));
    m_vm->startNewSale();
    QVERIFY(!m_vm->cashTendered());
}

QTEST_GUILESS_MAIN(TestCheckoutViewModel)
#include "tst_checkoutviewmodel.moc"
