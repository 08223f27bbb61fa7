// The till's widget-free screen logic (oncepay_tillui_models), without a window: the cart and the
// queue under QAbstractItemModelTester, the checkout view model driven as the window drives it,
// the till's settings in a test-mode settings file, and the receipt document.
//
// The sync engine's client points at a port where nothing listens, so the till is offline: card
// payments wait in the queue, cash is paid at once. No gateway is needed for any of this.
#include "cartmodel.h"
#include "cashtender.h"
#include "catalog.h"
#include "checkoutviewmodel.h"
#include "idempotencykey.h"
#include "intenttext.h"
#include "queuemodel.h"
#include "receipt.h"
#include "tillsession.h"
#include "tillsettings.h"

#include <QAbstractItemModelTester>
#include <QJsonObject>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Ui;

namespace {
QString u(const char *utf8)
{
    return QString::fromUtf8(utf8);
}
QStringList u(std::initializer_list<const char *> utf8)
{
    QStringList out;
    for (const char *s : utf8)
        out << QString::fromUtf8(s);
    return out;
}
}   // namespace

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
    void changeStaysWhileTheConnectionChanges();
    void queueModelFollowsTheJournal();
    void queueModelShowsPeopleNotKeys();
    void needsAttentionFilter();
    void newSaleIsAnnounced();
    void quickTenders_data();
    void quickTenders();
    void journalInWords_data();
    void journalInWords();
    void journalLineNamesTheStates();
    void retryLoopsAreFolded();
    void meaningSaysWhetherMoneyMoved_data();
    void meaningSaysWhetherMoneyMoved();
    void gatewayRecordAsFields();
    void settingsRoundTrip();
    void receiptNamesTheTerminal();
    void receiptFollowsTheSale();

private:
    // An intent written straight to the journal (the engine never sees it), moved to `state`.
    Intent stored(const QString &orderId, const QString &token, IntentState state, int attempts);

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
    m_session->start(this, [&](bool ok, const QString &) {
        started = ok;
    });
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
    QVERIFY2(m_vm->addProduct(QStringLiteral("Rice"), &reason), qPrintable(reason));   // 49.90
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

// Issue 21, item 5: the change to give back stays on screen until the next sale starts, whatever
// the connection does meanwhile (an earlier card payment waits offline and is probed for).
void TestCheckoutViewModel::changeStaysWhileTheConnectionChanges()
{
    QString reason;
    QVERIFY(m_vm->addProduct(QStringLiteral("6901234500059"), &reason));
    m_vm->payByCard(QStringLiteral("tok_visa"));
    QTRY_COMPARE_WITH_TIMEOUT(m_vm->phase(), CheckoutViewModel::Phase::WaitingForConnection, 10000);
    m_vm->startNewSale();
    QVERIFY(m_vm->addProduct(QStringLiteral("6901234500011"), &reason));
    Money change;
    QVERIFY(m_vm->payCash(*Money::parse(QStringLiteral("10"), QStringLiteral("CNY")), &change, &reason));
    QTRY_COMPARE(m_vm->phase(), CheckoutViewModel::Phase::Paid);
    const QString said = m_vm->message();
    QVERIFY2(said.contains(QStringLiteral("5.50")), qPrintable(said));
    QSignalSpy changes(m_session->engine(), &SyncEngine::connectivityChanged);
    m_session->engine()->checkConnectionNow();   // a probe: Reconnecting, then Offline again
    QTRY_VERIFY_WITH_TIMEOUT(changes.size() >= 2, 10000);
    QCOMPARE(m_vm->phase(), CheckoutViewModel::Phase::Paid);
    QCOMPARE(m_vm->message(), said);
    m_vm->startNewSale();
    QVERIFY(!m_vm->message().contains(QStringLiteral("5.50")));
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

Intent TestCheckoutViewModel::stored(const QString &orderId, const QString &token, IntentState state, int attempts)
{
    Intent i;
    i.key = IdempotencyKey::generate(QStringLiteral("pay")).value();
    i.orderId = orderId;
    i.amount = Money(1234, QStringLiteral("CNY"));
    i.paymentMethod = token;
    Intent created;
    bool done = false;
    m_session->journal()->create(i, this, [&](bool ok, const TillError &, Intent c) {
        created = c;
        done = ok;
    });
    [&] {
        QTRY_VERIFY(done);
    }();
    if (state == IntentState::Queued)
        return created;
    Intent after = created;
    after.state = state;
    after.attempts = attempts;
    done = false;
    m_session->journal()->update(after, IntentState::Queued, QStringLiteral("402 declined"), std::nullopt, this,
        [&](bool ok, const TillError &, bool set) {
            done = ok && set;
        });
    [&] {
        QTRY_VERIFY(done);
    }();
    return after;
}

void TestCheckoutViewModel::queueModelShowsPeopleNotKeys()
{
    const Intent visa = stored(QStringLiteral("S-visa"), QStringLiteral("tok_visa"), IntentState::Queued, 0);
    const Intent test = stored(QStringLiteral("S-test"), QStringLiteral("tok_chargeDeclined"), IntentState::Queued, 0);
    QueueModel model(m_session->journal());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setFilter(std::nullopt, false);
    QTRY_COMPARE(model.rowCount(), 2);
    QStringList headers;
    for (int c = 0; c < model.columnCount(); ++c)
        headers << model.headerData(c, Qt::Horizontal).toString();
    QCOMPARE(headers, (QStringList{QStringLiteral("Time"), QStringLiteral("Kind"), QStringLiteral("Sale"), QStringLiteral("Amount"), QStringLiteral("Paid with"), QStringLiteral("State")}));
    for (int row = 0; row < model.rowCount(); ++row) {
        const QString key = model.intentAt(row).key;
        QCOMPARE(model.data(model.index(row, 0), QueueModel::KeyRole).toString(), key);   // for the details
        for (int c = 0; c < model.columnCount(); ++c) {
            const QString text = model.data(model.index(row, c)).toString();
            QVERIFY2(!text.contains(key) && !text.contains(QStringLiteral("tok_")), qPrintable(text));
        }
    }
    // Newest first: the test card without a brand, then the Visa.
    QCOMPARE(model.data(model.index(0, int(QueueModel::Column::Method))).toString(), QStringLiteral("Card"));
    QCOMPARE(model.data(model.index(1, int(QueueModel::Column::Method))).toString(), QStringLiteral("Visa"));
    QCOMPARE(model.data(model.index(1, int(QueueModel::Column::Order))).toString(), visa.orderId);
    QCOMPARE(model.data(model.index(1, int(QueueModel::Column::Amount))).toString(), QStringLiteral("¥12.34"));
    QCOMPARE(model.data(model.index(0, int(QueueModel::Column::State))).toString(), QStringLiteral("Waiting for connection"));
    // The state is a coloured badge: its colours on the State cell only.
    QVERIFY(model.data(model.index(0, int(QueueModel::Column::State)), Qt::BackgroundRole).canConvert<QColor>());
    QVERIFY(!model.data(model.index(0, int(QueueModel::Column::Order)), Qt::BackgroundRole).isValid());
    QCOMPARE(IntentText::card(QStringLiteral("Visa"), QStringLiteral("4242")), QStringLiteral("Visa ··4242"));
    Q_UNUSED(test);
}

void TestCheckoutViewModel::needsAttentionFilter()
{
    stored(QStringLiteral("S-waiting"), QStringLiteral("tok_visa"), IntentState::Queued, 0);
    stored(QStringLiteral("S-declined-at-once"), QStringLiteral("tok_chargeDeclined"), IntentState::Declined, 1);
    const Intent late = stored(QStringLiteral("S-declined-late"), QStringLiteral("tok_chargeDeclined"), IntentState::Declined, 2);
    const Intent attention = stored(QStringLiteral("S-attention"), QStringLiteral("tok_visa"), IntentState::NeedsAttention, 1);
    QueueModel model(m_session->journal());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    qint64 count = -1;
    connect(&model, &QueueModel::countChanged, this, [&](qint64 n) {
        count = n;
    });
    model.setNeedsAttentionFilter();
    QTRY_COMPARE(count, qint64(2));
    QTRY_COMPARE(model.rowCount(), 2);
    QCOMPARE(model.intentAt(0).orderId, attention.orderId);
    QCOMPARE(model.intentAt(1).orderId, late.orderId);
    QCOMPARE(model.data(model.index(1, int(QueueModel::Column::State))).toString(), QStringLiteral("Declined"));
    // A change that leaves the set takes the row out; the SQL and needsCashierAttention() agree.
    Intent settled = late;
    settled.state = IntentState::Declined;
    settled.attempts = 1;
    settled.updatedAt = settled.createdAt;
    QVERIFY(!needsCashierAttention(settled));
    model.intentChanged(settled);
    QCOMPARE(model.rowCount(), 1);
    model.setFilter(std::nullopt, true);
    QTRY_COMPARE(count, qint64(1));   // waiting: the queued one only
}

void TestCheckoutViewModel::newSaleIsAnnounced()
{
    QSignalSpy started(m_vm.get(), &CheckoutViewModel::saleStarted);
    QString reason;
    QVERIFY(m_vm->addProduct(QStringLiteral("6901234500011"), &reason));
    m_vm->startNewSale();   // even from a sale that was never paid: per-sale choices reset
    QCOMPARE(started.count(), 1);
}

void TestCheckoutViewModel::quickTenders_data()
{
    QTest::addColumn<qint64>("total");
    QTest::addColumn<QString>("currency");
    QTest::addColumn<QStringList>("tenders");
    const QString cny = QStringLiteral("CNY");
    QTest::newRow("small") << qint64(900) << cny << u({"¥9.00", "¥10.00", "¥20.00", "¥50.00", "¥100.00"});
    QTest::newRow("a note exactly") << qint64(2000) << cny << u({"¥20.00", "¥50.00", "¥100.00"});
    QTest::newRow("between notes") << qint64(4550) << cny << u({"¥45.50", "¥50.00", "¥100.00"});
    QTest::newRow("over every note") << qint64(15000) << cny << u({"¥150.00"});
    QTest::newRow("no minor unit") << qint64(1200) << QStringLiteral("JPY") << u({"¥1200"});
    QTest::newRow("nothing to pay") << qint64(0) << cny << QStringList{};
}

void TestCheckoutViewModel::quickTenders()
{
    QFETCH(qint64, total);
    QFETCH(QString, currency);
    QFETCH(QStringList, tenders);
    QStringList shown;
    for (const Money &m : Ui::quickTenders(Money(total, currency)))
        shown << m.toDisplayString();
    QCOMPARE(shown, tenders);
}

void TestCheckoutViewModel::journalInWords_data()
{
    QTest::addColumn<QString>("detail");
    QTest::addColumn<QString>("words");
    QTest::newRow("created") << u("created") << u("created");
    QTest::newRow("attempt") << u("attempt 3") << u("attempt 3");
    QTest::newRow("recovered") << u("interrupted while sending; ask the gateway first")
                               << u("interrupted while sending; ask the gateway first");
    QTest::newRow("not sent") << u("not sent: Connection refused") << u("not sent: the gateway did not take the connection");
    QTest::newRow("closed") << u("not sent: Connection closed") << u("not sent: the connection closed");
    QTest::newRow("timed out") << u("no answer after sending: timed out") << u("no answer after sending: no answer in time");
    QTest::newRow("answer lost") << u("no answer after sending: Socket operation timed out")
                                 << u("no answer after sending: Socket operation timed out");
    QTest::newRow("paid") << u("201 succeeded") << u("the gateway answered: paid");
    QTest::newRow("declined") << u("402 declined") << u("the gateway answered: declined");
    QTest::newRow("processing") << u("202 processing") << u("the gateway answered: bank processing");
    QTest::newRow("replayed") << u("200 succeeded (replayed)") << u("the gateway answered: paid (the same answer again)");
    QTest::newRow("never executed") << u("404 not-found") << u("the gateway has no payment with this key");
    QTest::newRow("token refused") << u("401 unauthorized") << u("the gateway refused this till's token");
    QTest::newRow("refused") << u("422 idempotency-key-reused") << u("the gateway refused the payment (idempotency-key-reused)");
    QTest::newRow("unknown words stay") << u("moved by support") << u("moved by support");
}

void TestCheckoutViewModel::journalInWords()
{
    QFETCH(QString, detail);
    QFETCH(QString, words);
    QCOMPARE(IntentText::journalDetail(detail), words);
}

void TestCheckoutViewModel::journalLineNamesTheStates()
{
    JournalEntry e;
    e.at = QDateTime(QDate(2026, 1, 2), QTime(12, 0, 3)).toMSecsSinceEpoch();
    e.fromState = QStringLiteral("queued");
    e.toState = QStringLiteral("sending");
    e.detail = QStringLiteral("attempt 2");
    QCOMPARE(IntentText::journalLine(e), QStringLiteral("12:00:03  Waiting for connection → Sending: attempt 2"));
    e.fromState.clear();
    e.toState = QStringLiteral("queued");
    e.detail = QStringLiteral("created");
    QCOMPARE(IntentText::journalLine(e), QStringLiteral("12:00:03  Waiting for connection: created"));
}

void TestCheckoutViewModel::retryLoopsAreFolded()
{
    // Created, then 40 rounds of "send, connection closed", then the answer: what a till that
    // was offline for a while writes for one payment.
    const qint64 t0 = QDateTime(QDate(2026, 1, 2), QTime(12, 0, 0)).toMSecsSinceEpoch();
    QList<JournalEntry> entries;
    auto add = [&entries, t0](const char *from, const char *to, const QString &detail) {
        JournalEntry e;
        e.at = t0 + qint64(entries.size()) * 500;
        e.fromState = QString::fromLatin1(from);
        e.toState = QString::fromLatin1(to);
        e.detail = detail;
        entries << e;
    };
    add("", "queued", u("created"));
    for (int attempt = 1; attempt <= 40; ++attempt) {
        add("queued", "sending", u("attempt %1").arg(attempt));
        add("sending", "queued", u("not sent: Connection closed"));
    }
    add("queued", "sending", u("attempt 41"));
    add("sending", "succeeded", u("201 succeeded"));
    const QStringList lines = IntentText::journalLines(entries);
    QCOMPARE(lines.size(), 6);
    QCOMPARE(lines.at(0), u("12:00:00  Waiting for connection: created"));
    QCOMPARE(lines.at(1), u("12:00:00  Waiting for connection → Sending: attempt 1"));
    QCOMPARE(lines.at(2), u("12:00:01  Sending → Waiting for connection: not sent: the connection closed"));
    // 40 rounds and the 41st send (its own line: it was followed by the answer, not a failure).
    QVERIFY2(lines.at(3).contains(u("… and the same 39 more times, until 12:00:40")), qPrintable(lines.at(3)));
    QCOMPARE(lines.at(4), u("12:00:40  Waiting for connection → Sending: attempt 41"));
    QCOMPARE(lines.at(5), u("12:00:41  Sending → Paid: the gateway answered: paid"));
    // Nothing repeated, nothing folded.
    QCOMPARE(IntentText::journalLines(entries.mid(0, 3)).size(), 3);
}

void TestCheckoutViewModel::meaningSaysWhetherMoneyMoved_data()
{
    QTest::addColumn<int>("state");
    QTest::addColumn<bool>("cash");
    QTest::addColumn<bool>("refund");
    QTest::addColumn<bool>("givenUp");
    QTest::addColumn<QString>("words");
    using S = IntentState;
    QTest::newRow("queued") << int(S::Queued) << false << false << false << u("the card is charged once at most");
    QTest::newRow("unknown") << int(S::Unknown) << false << false << false << u("it never charges it twice");
    QTest::newRow("processing") << int(S::Processing) << false << false << false << u("do not take the payment again");
    QTest::newRow("paid") << int(S::Succeeded) << false << false << false << u("The card was charged ¥12.34.");
    QTest::newRow("declined") << int(S::Declined) << false << false << false << u("It was not charged.");
    QTest::newRow("voided") << int(S::Voided) << false << false << false << u("nothing was charged");
    QTest::newRow("needs a person") << int(S::NeedsAttention) << false << false << false << u("Call support");
    QTest::newRow("cash") << int(S::Succeeded) << true << false << false << u("Cash is counted in the drawer");
    QTest::newRow("given up, checking") << int(S::Unknown) << false << false << true << u("the till refunds it by itself");
    QTest::newRow("refund queued") << int(S::Queued) << false << true << false << u("never twice");
    QTest::newRow("refund done") << int(S::Succeeded) << false << true << false << u("¥12.34 went back to the customer's card.");
    QTest::newRow("cash refund") << int(S::Succeeded) << true << true << false << u("¥12.34 was handed back in cash.");
}

void TestCheckoutViewModel::meaningSaysWhetherMoneyMoved()
{
    QFETCH(int, state);
    QFETCH(bool, cash);
    QFETCH(bool, refund);
    QFETCH(bool, givenUp);
    QFETCH(QString, words);
    Intent i;
    i.state = IntentState(state);
    i.tender = cash ? Tender::Cash : Tender::Card;
    i.kind = refund ? IntentKind::Refund : IntentKind::Payment;
    i.amount = Money(1234, QStringLiteral("CNY"));
    i.givenUpAt = givenUp ? 1 : 0;
    const QString text = IntentText::meaning(i);
    QVERIFY2(text.contains(words), qPrintable(text));
}

void TestCheckoutViewModel::gatewayRecordAsFields()
{
    const QJsonObject payment{{QStringLiteral("id"), QStringLiteral("pay_123")},
        {QStringLiteral("object"), QStringLiteral("payment")},
        {QStringLiteral("status"), QStringLiteral("declined")},
        {QStringLiteral("amount"), 1234},
        {QStringLiteral("currency"), QStringLiteral("CNY")},
        {QStringLiteral("order_id"), QStringLiteral("S-1")},
        {QStringLiteral("payment_method"), QStringLiteral("tok_visa")},
        {QStringLiteral("decline_code"), QStringLiteral("insufficient_funds")},
        {QStringLiteral("created_at"), QStringLiteral("2026-01-02T03:04:05Z")}};
    QMap<QString, QString> fields;
    QStringList labels;
    for (const auto &[label, value] : IntentText::gatewayFields(payment)) {
        labels << label;
        fields.insert(label, value);
    }
    QCOMPARE(labels, u({"Status", "Amount", "Order id", "Payment id", "Card", "Created", "Decline reason"}));
    QCOMPARE(fields.value(QStringLiteral("Status")), QStringLiteral("Declined"));
    QCOMPARE(fields.value(QStringLiteral("Amount")), QStringLiteral("¥12.34"));   // money, not minor units
    QCOMPARE(fields.value(QStringLiteral("Order id")), QStringLiteral("S-1"));
    QCOMPARE(fields.value(QStringLiteral("Payment id")), QStringLiteral("pay_123"));
    QCOMPARE(fields.value(QStringLiteral("Card")), QStringLiteral("Visa"));
    QCOMPARE(fields.value(QStringLiteral("Decline reason")), QStringLiteral("insufficient funds"));
    const QDateTime created = QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC).toLocalTime();
    QCOMPARE(fields.value(QStringLiteral("Created")), created.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
}

void TestCheckoutViewModel::settingsRoundTrip()
{
    QSettings().clear();
    const TillSettings defaults = TillSettings::load();
    QVERIFY(defaults.gatewayUrls.isEmpty());   // the embedded demo
    QCOMPARE(defaults.terminal, QStringLiteral("till-1"));
    QVERIFY(!defaults.shopName.isEmpty());   // the demo shop until the merchant names theirs
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
    const QString receipt = Receipt::html(paid, *m_vm->cart(), ReceiptContext{QStringLiteral("till-3"), QStringLiteral("Corner Tea House"), QString(), m_vm->cashTendered()});
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
