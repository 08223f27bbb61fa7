// The journal's shifts (schema v5): a shift is the intents after the previous close; closing
// stores the report computed in the closing transaction, refuses what waits unconfirmed, carries
// the waiting payments into the next shift, and is never rewritten. A version-4 journal migrates.
#include "journaltest.h"
#include "salebook.h"
#include "pricing.h"
#include "shiftbook.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>

using namespace OncePay;
using namespace JournalTest;

class TestShiftBook final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void closeStoresTheReportAndOpensTheNextShift();
    void onlyTheFirstShiftTakesAnOpeningFloat();
    void waitingNeedsConfirmationAndIsCarriedOver();
    void intentsAfterTheReportBelongToTheNextShift();
    void aShiftClosesOnce();
    void closedShiftsAreNeverRewritten();
    void earlierKeysAreThoseOfEarlierShifts();
    void version4JournalIsMigrated();
    void itemsGivenBackTakeTheirTaxOff();
    void itemsGivenBackOneByOneGiveBackTheLine();
    void refundsOwedNeedConfirmation();

private:
    std::unique_ptr<IntentJournal> open();
    Intent store(IntentJournal &j, Intent i, IntentState final = IntentState::Queued);
    // A card refund of `payment`, moved to `state`; with `lines` (line -> items) recorded as its.
    Intent storeRefund(IntentJournal &j, const Intent &payment, qint64 amount, IntentState state, const QHash<int, int> &lines = {});
    ShiftBook::Snapshot snapshot(ShiftBook &book);
    Answer<ShiftReport> close(ShiftBook &book, const ShiftBook::Snapshot &s, std::optional<qint64> counted = std::nullopt,
        QStringList confirmed = {}, qint64 nextFloat = 0);
    QVariant sql(const QString &statement);

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
};

void TestShiftBook::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_path = m_dir->filePath(QStringLiteral("journal.db"));
}

void TestShiftBook::cleanup()
{
    m_dir.reset();
}

std::unique_ptr<IntentJournal> TestShiftBook::open()
{
    auto j = std::make_unique<IntentJournal>(IntentJournal::Options{m_path});
    TillError error;
    if (!j->open(&error)) {
        qWarning("%s", qPrintable(error.text()));
        return nullptr;
    }
    return j;
}

// Creates `i` and, unless it is to stay queued, moves it to `final` as the engine would.
Intent TestShiftBook::store(IntentJournal &j, Intent i, IntentState final)
{
    if (i.isCash())
        i.state = IntentState::Succeeded;
    const auto created = await<Intent>([&](auto reply) {
        j.create(i, this, reply);
    });
    if (!created.ok) {
        qWarning("create: %s", qPrintable(created.error.text()));
        return {};
    }
    Intent stored = created.value;
    if (final == IntentState::Queued || stored.state == final)
        return stored;
    Intent after = stored;
    after.state = final;
    if (!after.isRefund())
        after.paymentId = QStringLiteral("pay_") + after.key;
    const auto updated = await<bool>([&](auto reply) {
        j.update(after, stored.state, QStringLiteral("test"), {}, this, reply);
    });
    if (!updated.ok || !updated.value)
        qWarning("update: %s", qPrintable(updated.error.text()));
    return await<Intent>([&](auto reply) {
        j.find(after.key, this, reply);
    }).value;
}

Intent TestShiftBook::storeRefund(IntentJournal &j, const Intent &payment, qint64 amount, IntentState state, const QHash<int, int> &lines)
{
    Intent r = newIntent(payment.orderId, amount, Tender::Card);
    r.kind = IntentKind::Refund;
    r.key = IdempotencyKey::generate(QStringLiteral("ref")).value();
    r.paymentKey = payment.key;
    r.paymentMethod.clear();
    const Intent stored = store(j, r, state);
    if (!lines.isEmpty()) {
        SaleBook sales(&j);
        const auto recorded = await<bool>([&](auto reply) {
            sales.recordRefundLines(stored.key, payment.orderId, lines, this, reply);
        });
        if (!recorded.ok)
            qWarning("refund lines: %s", qPrintable(recorded.error.text()));
    }
    return stored;
}

// A stored sale line: `quantity` items at `unitPrice`, `amount` paid for them (after discounts).
QJsonObject saleLine(qint64 unitPrice, int quantity, int vat, qint64 amount)
{
    return QJsonObject{{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("unit_price"), unitPrice},
        {QStringLiteral("quantity"), quantity}, {QStringLiteral("total"), unitPrice * quantity},
        {QStringLiteral("vat"), vat}, {QStringLiteral("amount"), amount}};
}

ShiftBook::Snapshot TestShiftBook::snapshot(ShiftBook &book)
{
    const auto s = await<ShiftBook::Snapshot>([&](auto reply) {
        book.current(this, reply);
    });
    if (!s.ok)
        qWarning("current: %s", qPrintable(s.error.text()));
    return s.value;
}

Answer<ShiftReport> TestShiftBook::close(ShiftBook &book, const ShiftBook::Snapshot &s, std::optional<qint64> counted,
    QStringList confirmed, qint64 nextFloat)
{
    ShiftBook::Close c;
    c.number = s.number;
    c.lastIntentId = s.lastIntentId;
    c.currency = QStringLiteral("CNY");
    c.countedCash = counted;
    c.nextFloat = nextFloat;
    c.confirmedWaiting = confirmed;
    c.reconciliation = QJsonObject{{QStringLiteral("all_agree"), true}};
    return await<ShiftReport>([&](auto reply) {
        book.close(c, this, reply);
    });
}

// One value from the file, read beside the journal.
QVariant TestShiftBook::sql(const QString &statement)
{
    QVariant value;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("peek"));
        db.setDatabaseName(m_path);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(statement))
                value = q.next() ? q.value(0) : QVariant(true);
            else
                value = q.lastError().text();
            q.finish();
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("peek"));
    return value;
}

void TestShiftBook::closeStoresTheReportAndOpensTheNextShift()
{
    auto j = open();
    QVERIFY(j);
    ShiftBook book(j.get());
    ShiftBook::Snapshot s = snapshot(book);
    QCOMPARE(s.number, 1);
    QVERIFY(s.intents.isEmpty());
    QCOMPARE(s.openedAt, qint64(0));

    const Intent card = store(*j, newIntent(QStringLiteral("o1"), 1999), IntentState::Succeeded);
    store(*j, newIntent(QStringLiteral("o2"), 500, Tender::Cash));
    store(*j, newIntent(QStringLiteral("o3"), 700), IntentState::Declined);
    s = snapshot(book);
    QCOMPARE(s.number, 1);
    QCOMPARE(s.intents.size(), 3);
    QCOMPARE(s.openedAt, card.createdAt);
    QCOMPARE(s.firstIntentId, qint64(1));
    QCOMPARE(s.lastIntentId, s.intents.constLast().id);

    const auto closed = close(book, s, 480, {}, 10000);
    QVERIFY2(closed.ok, qPrintable(closed.error.text()));
    QCOMPARE(closed.value.number, 1);
    QCOMPARE(closed.value.cardSales.amount, qint64(1999));
    QCOMPARE(closed.value.cashSales.amount, qint64(500));
    QCOMPARE(closed.value.declined.count, 1);
    QCOMPARE(closed.value.cashExpected(), qint64(500));
    QCOMPARE(*closed.value.cashDifference(), qint64(-20));
    QVERIFY(closed.value.closedAt >= closed.value.generatedAt);

    // The next shift is empty until the next intent, and starts with the float left for it.
    s = snapshot(book);
    QCOMPARE(s.number, 2);
    QVERIFY(s.intents.isEmpty());
    QCOMPARE(s.openingFloat, qint64(10000));
    QCOMPARE(s.previousClosedAt, closed.value.closedAt);
    const Intent next = store(*j, newIntent(QStringLiteral("o4"), 300, Tender::Cash));
    s = snapshot(book);
    QCOMPARE(s.intents.size(), 1);
    QCOMPARE(s.intents.constFirst().key, next.key);
    QCOMPARE(s.firstIntentId, closed.value.lastIntentId + 1);
    QCOMPARE(ShiftReport::compute(s.reportInput({}, std::nullopt)).cashExpected(), qint64(10300));

    // What the close stored: the report as computed, the counted cash, the reconciliation shown.
    const auto stored = await<QJsonArray>([&](auto reply) {
        book.closedShifts(10, this, reply);
    });
    QVERIFY(stored.ok);
    QCOMPARE(stored.value.size(), 1);
    const QJsonObject row = stored.value.at(0).toObject();
    QCOMPARE(row.value(QStringLiteral("shift")).toInt(), 1);
    QCOMPARE(row.value(QStringLiteral("counted_cash")).toInteger(), qint64(480));
    QCOMPARE(row.value(QStringLiteral("next_float")).toInteger(), qint64(10000));
    QCOMPARE(row.value(QStringLiteral("report")).toObject(), closed.value.toJson());
    QVERIFY(row.value(QStringLiteral("reconciliation")).toObject().value(QStringLiteral("all_agree")).toBool());
}

// Issue 25 item 11: a till's first shift opens with the cash the cashier put in the drawer; every
// later one with what the previous close left, which nobody can type over.
void TestShiftBook::onlyTheFirstShiftTakesAnOpeningFloat()
{
    auto j = open();
    QVERIFY(j);
    ShiftBook book(j.get());
    store(*j, newIntent(QStringLiteral("o1"), 500, Tender::Cash));
    ShiftBook::Snapshot s = snapshot(book);
    QVERIFY(s.isFirst());
    ShiftBook::Close c;
    c.number = s.number;
    c.lastIntentId = s.lastIntentId;
    c.currency = QStringLiteral("CNY");
    c.countedCash = 20500;
    c.nextFloat = 15000;
    c.openingFloat = ShiftBook::kMaxFloat + 1;   // more than any drawer holds: refused, nothing stored
    auto closed = await<ShiftReport>([&](auto reply) {
        book.close(c, this, reply);
    });
    QVERIFY(!closed.ok);
    QCOMPARE(snapshot(book).number, 1);
    c.openingFloat = 20000;
    closed = await<ShiftReport>([&](auto reply) {
        book.close(c, this, reply);
    });
    QVERIFY2(closed.ok, qPrintable(closed.error.text()));
    QCOMPARE(closed.value.openingFloat, qint64(20000));
    QCOMPARE(closed.value.cashExpected(), qint64(20500));   // the float + the cash sale
    QCOMPARE(*closed.value.cashDifference(), qint64(0));
    QCOMPARE(sql(QStringLiteral("SELECT opening_float FROM shifts WHERE id = 1")).toLongLong(), qint64(20000));

    // The second shift opens with the 150.00 left; a typed float is refused, in words.
    store(*j, newIntent(QStringLiteral("o2"), 300, Tender::Cash));
    s = snapshot(book);
    QVERIFY(!s.isFirst());
    QCOMPARE(s.openingFloat, qint64(15000));
    c.number = s.number;
    c.lastIntentId = s.lastIntentId;
    c.countedCash = 15300;
    c.openingFloat = 99900;
    closed = await<ShiftReport>([&](auto reply) {
        book.close(c, this, reply);
    });
    QVERIFY(!closed.ok);
    QCOMPARE(closed.error.kind(), TillError::Kind::FloatCarriedOver);
    QCOMPARE(closed.error.args(), (QStringList{QStringLiteral("2"), QStringLiteral("¥150.00")}));
    QCOMPARE(snapshot(book).number, 2);
    c.openingFloat.reset();
    closed = await<ShiftReport>([&](auto reply) {
        book.close(c, this, reply);
    });
    QVERIFY2(closed.ok, qPrintable(closed.error.text()));
    QCOMPARE(closed.value.cashExpected(), qint64(15300));
}

void TestShiftBook::waitingNeedsConfirmationAndIsCarriedOver()
{
    auto j = open();
    QVERIFY(j);
    ShiftBook book(j.get());
    store(*j, newIntent(QStringLiteral("o1"), 1000), IntentState::Succeeded);
    const Intent waiting = store(*j, newIntent(QStringLiteral("o2"), 2500));   // queued: waits for the gateway
    ShiftBook::Snapshot s = snapshot(book);

    const auto refused = close(book, s);
    QVERIFY(!refused.ok);
    QCOMPARE(refused.error.kind(), TillError::Kind::ShiftStillWaiting);
    QCOMPARE(refused.error.args(), QStringList{waiting.key});
    QCOMPARE(snapshot(book).number, 1);   // nothing was stored

    const auto closed = close(book, s, std::nullopt, {waiting.key});
    QVERIFY2(closed.ok, qPrintable(closed.error.text()));
    QCOMPARE(closed.value.waiting.size(), 1);
    QCOMPARE(closed.value.waitingPayments.amount, qint64(2500));

    // The next shift carries it; once it is paid it counts as settled since, not as a sale.
    s = snapshot(book);
    QCOMPARE(s.number, 2);
    QCOMPARE(s.carriedOver.size(), 1);
    QCOMPARE(s.carriedOver.constFirst().key, waiting.key);
    ShiftReport report = ShiftReport::compute(s.reportInput({}, std::nullopt));
    QCOMPARE(report.waiting.size(), 1);
    QVERIFY(report.waiting.constFirst().carriedOver);
    QVERIFY(!close(book, s).ok);   // still waiting: still needs confirming

    Intent paid = waiting;
    paid.state = IntentState::Succeeded;
    const auto updated = await<bool>([&](auto reply) {
        j->update(paid, IntentState::Queued, {}, {}, this, reply);
    });
    QVERIFY(updated.ok && updated.value);
    s = snapshot(book);
    report = ShiftReport::compute(s.reportInput({}, std::nullopt));
    QVERIFY(!report.hasWaiting());
    QCOMPARE(report.carriedOverSettled.amount, qint64(2500));
    QCOMPARE(report.cardSales.amount, qint64(0));
    const auto second = close(book, s);
    QVERIFY2(second.ok, qPrintable(second.error.text()));
    QCOMPARE(snapshot(book).carriedOver.size(), 0);   // nothing carried any further
}

void TestShiftBook::intentsAfterTheReportBelongToTheNextShift()
{
    auto j = open();
    QVERIFY(j);
    ShiftBook book(j.get());
    store(*j, newIntent(QStringLiteral("o1"), 100, Tender::Cash));
    const ShiftBook::Snapshot shown = snapshot(book);
    const Intent late = store(*j, newIntent(QStringLiteral("o2"), 200, Tender::Cash));   // while the report is on screen
    const auto closed = close(book, shown);
    QVERIFY2(closed.ok, qPrintable(closed.error.text()));
    QCOMPARE(closed.value.cashSales.amount, qint64(100));
    const ShiftBook::Snapshot next = snapshot(book);
    QCOMPARE(next.number, 2);
    QCOMPARE(next.intents.size(), 1);
    QCOMPARE(next.intents.constFirst().key, late.key);
}

void TestShiftBook::aShiftClosesOnce()
{
    auto j = open();
    QVERIFY(j);
    ShiftBook book(j.get());
    store(*j, newIntent(QStringLiteral("o1"), 100, Tender::Cash));
    const ShiftBook::Snapshot shown = snapshot(book);
    QVERIFY(close(book, shown).ok);
    const auto again = close(book, shown);   // a second window, a second ctl: the same shift
    QVERIFY(!again.ok);
    QCOMPARE(again.error.kind(), TillError::Kind::ShiftClosedMeanwhile);
    QCOMPARE(snapshot(book).number, 2);
}

void TestShiftBook::closedShiftsAreNeverRewritten()
{
    {
        auto j = open();
        QVERIFY(j);
        ShiftBook book(j.get());
        store(*j, newIntent(QStringLiteral("o1"), 100, Tender::Cash));
        QVERIFY(close(book, snapshot(book), 100).ok);
    }
    QCOMPARE(sql(QStringLiteral("SELECT counted_cash FROM shifts WHERE id = 1")).toLongLong(), qint64(100));
    QVERIFY(sql(QStringLiteral("UPDATE shifts SET counted_cash = 999")).toString().contains(QLatin1String("never changed")));
    QVERIFY(sql(QStringLiteral("DELETE FROM shifts")).toString().contains(QLatin1String("never changed")));
    QCOMPARE(sql(QStringLiteral("SELECT counted_cash FROM shifts WHERE id = 1")).toLongLong(), qint64(100));
}

void TestShiftBook::earlierKeysAreThoseOfEarlierShifts()
{
    auto j = open();
    QVERIFY(j);
    ShiftBook book(j.get());
    const Intent first = store(*j, newIntent(QStringLiteral("o1"), 100, Tender::Cash));
    QVERIFY(close(book, snapshot(book)).ok);
    const Intent second = store(*j, newIntent(QStringLiteral("o2"), 100, Tender::Cash));
    const ShiftBook::Snapshot s = snapshot(book);
    QStringList keys{first.key, second.key, QStringLiteral("pay-unknown")};
    for (int i = 0; i < 450; ++i)   // more than one statement's worth
        keys << QStringLiteral("pay-none-%1").arg(i);
    const auto known = await<QSet<QString>>([&](auto reply) {
        book.earlierKeys(keys, s.firstIntentId - 1, this, reply);
    });
    QVERIFY(known.ok);
    QCOMPARE(known.value, QSet<QString>{first.key});
}

// Issue 23: the shift's tax per rate is the tax of its sales less that of the goods that came
// back, each refund's as its slip shows it (read from refund_lines); a refund given as an amount
// is listed apart; a refund the bank declined gives nothing back.
void TestShiftBook::itemsGivenBackTakeTheirTaxOff()
{
    auto j = open();
    QVERIFY(j);
    SaleBook sales(j.get());
    ShiftBook book(j.get());
    // Two teas at 4.50 (13 %) and rice at 49.90 (9 %), paid by card.
    const auto sale = await<Sale>([&](auto reply) {
        sales.open(Money(5890, QStringLiteral("CNY")), QJsonArray{saleLine(450, 2, 1300, 900), saleLine(4990, 1, 900, 4990)}, this, reply);
    });
    VERIFY_OK(sale);
    const Intent paid = store(*j, newIntent(sale.value.orderId, 5890), IntentState::Succeeded);
    QVERIFY(!paid.key.isEmpty());
    const Intent oneTea = storeRefund(*j, paid, 450, IntentState::Succeeded, {{0, 1}});
    const Intent declined = storeRefund(*j, paid, 4990, IntentState::Declined, {{1, 1}});
    const Intent goodwill = storeRefund(*j, paid, 100, IntentState::Succeeded);
    QVERIFY(!oneTea.key.isEmpty() && !declined.key.isEmpty() && !goodwill.key.isEmpty());

    const ShiftBook::Snapshot s = snapshot(book);
    QCOMPARE(s.paidSales.size(), 1);
    const ShiftReport r = ShiftReport::compute(s.reportInput(QStringLiteral("CNY"), std::nullopt));
    QCOMPARE(r.taxBands.size(), 2);
    // 13 %: 9.00 sold (1.04 tax) less one tea (4.50: 0.52, 51.77 half up) = 4.50, 0.52.
    QCOMPARE(r.taxBands.at(0), (TaxBand{1300, 450 - 52, 52, 450}));
    // 9 %: the rice's return was declined: 49.90 sold, 4.12 tax.
    QCOMPARE(r.taxBands.at(1), (TaxBand{900, 4990 - 412, 412, 4990}));
    QCOMPARE(r.refundsNotByItem.count, 1);
    QCOMPARE(r.refundsNotByItem.amount, qint64(100));
}

// Issue 35: items given back one refund at a time are priced after those given back before
// (refundOfItems), as the refund dialog priced them: three items bought for 10.00 come back as
// 3.33, 3.33 and 3.34 (the Z report said 3.33 for the last), and the line's rate ends at zero. A
// refund the bank declined gave nothing back and does not count as before.
void TestShiftBook::itemsGivenBackOneByOneGiveBackTheLine()
{
    auto j = open();
    QVERIFY(j);
    SaleBook sales(j.get());
    ShiftBook book(j.get());
    const auto sale = await<Sale>([&](auto reply) {
        sales.open(Money(1000, QStringLiteral("CNY")), QJsonArray{saleLine(400, 3, 1300, 1000)}, this, reply);
    });
    VERIFY_OK(sale);
    const Intent paid = store(*j, newIntent(sale.value.orderId, 1000), IntentState::Succeeded);
    QStringList keys;
    for (int before = 0; before < 3; ++before) {
        const qint64 amount = refundOfItems(1000, 3, before, 1);
        if (before == 1)
            QVERIFY(!storeRefund(*j, paid, amount, IntentState::Declined, {{0, 1}}).key.isEmpty());
        keys << storeRefund(*j, paid, amount, IntentState::Succeeded, {{0, 1}}).key;
    }
    const ShiftBook::Snapshot s = snapshot(book);
    QList<qint64> returned;
    for (const QString &key : std::as_const(keys)) {
        QCOMPARE(s.returns.value(key).size(), 1);
        returned << s.returns.value(key).constFirst().gross;
    }
    QCOMPARE(returned, (QList<qint64>{333, 333, 334}));
    // Every item back: the rate took in nothing (each slip's tax is rounded on its own).
    const ShiftReport r = ShiftReport::compute(s.reportInput(QStringLiteral("CNY"), std::nullopt));
    QCOMPARE(r.taxBands.size(), 1);
    QCOMPARE(r.taxBands.constFirst().gross, 0);
}

// Issue 35: a refund the till owes (its own refund of a card part, declined) is closed over only
// once the cashier was shown it and said so, as the close computes it in its own transaction; it
// is kept with the report.
void TestShiftBook::refundsOwedNeedConfirmation()
{
    auto j = open();
    QVERIFY(j);
    ShiftBook book(j.get());
    const Intent charged = store(*j, newIntent(QStringLiteral("o1"), 450), IntentState::Succeeded);
    Intent r = newIntent(charged.orderId, 450, Tender::Card);
    r.kind = IntentKind::Refund;
    r.key = autoRefundKey(charged.key);
    r.paymentKey = charged.key;
    r.paymentMethod.clear();
    const Intent declined = store(*j, r, IntentState::Declined);
    QCOMPARE(declined.state, IntentState::Declined);
    const ShiftBook::Snapshot s = snapshot(book);

    const auto refused = close(book, s);
    QVERIFY(!refused.ok);
    QCOMPARE(refused.error.kind(), TillError::Kind::ShiftRefundsOwed);
    QCOMPARE(refused.error.args(), QStringList{declined.key});
    QCOMPARE(snapshot(book).number, 1);   // nothing was stored

    ShiftBook::Close c;
    c.number = s.number;
    c.lastIntentId = s.lastIntentId;
    c.currency = QStringLiteral("CNY");
    c.confirmedOwed = {declined.key};
    const auto closed = await<ShiftReport>([&](auto reply) {
        book.close(c, this, reply);
    });
    QVERIFY2(closed.ok, qPrintable(closed.error.text()));
    QCOMPARE(closed.value.refundsOwed.size(), 1);
    const auto kept = await<QJsonArray>([&](auto reply) {
        book.closedShifts(1, this, reply);
    });
    QVERIFY(kept.ok);
    const QJsonObject owed = kept.value.at(0).toObject().value(QStringLiteral("report")).toObject().value(QStringLiteral("refunds_owed")).toObject();
    QCOMPARE(owed.value(QStringLiteral("count")).toInt(), 1);
    QCOMPARE(owed.value(QStringLiteral("amount")).toInteger(), qint64(450));
}

void TestShiftBook::version4JournalIsMigrated()
{
    // A version-4 journal is today's without the shifts table (version 5), without the sales
    // and given-up parts (version 6), without the line tables (version 7) and without who did
    // what (version 8), nor parked sales (version 9): made so, it opens
    // as today's with every earlier intent in shift 1.
    QString key;
    {
        auto j = open();
        QVERIFY(j);
        key = store(*j, newIntent(QStringLiteral("o1"), 1999), IntentState::Succeeded).key;
        store(*j, newIntent(QStringLiteral("o2"), 500, Tender::Cash));
    }
    QCOMPARE(sql(QStringLiteral("DROP TABLE parked_sales")), QVariant(true));
    QCOMPARE(sql(QStringLiteral("DROP TABLE shifts")), QVariant(true));
    QCOMPARE(sql(QStringLiteral("DROP TABLE staff_actions")), QVariant(true));
    QCOMPARE(sql(QStringLiteral("ALTER TABLE intents DROP COLUMN staff")), QVariant(true));
    QCOMPARE(sql(QStringLiteral("ALTER TABLE intents DROP COLUMN approved_by")), QVariant(true));
    QCOMPARE(sql(QStringLiteral("DROP TABLE refund_lines")), QVariant(true));
    QCOMPARE(sql(QStringLiteral("DROP TABLE imported_sale_lines")), QVariant(true));
    QCOMPARE(sql(QStringLiteral("DROP TABLE sales")), QVariant(true));
    QCOMPARE(sql(QStringLiteral("DROP INDEX intents_given_up")), QVariant(true));
    QCOMPARE(sql(QStringLiteral("ALTER TABLE intents DROP COLUMN given_up_at")), QVariant(true));
    QCOMPARE(sql(QStringLiteral("PRAGMA user_version=4")), QVariant(true));
    QCOMPARE(sql(QStringLiteral("PRAGMA user_version")).toInt(), 4);

    auto j = open();
    QVERIFY(j);
    QCOMPARE(sql(QStringLiteral("PRAGMA user_version")).toInt(), IntentJournal::schemaVersion);
    ShiftBook book(j.get());
    const ShiftBook::Snapshot s = snapshot(book);
    QCOMPARE(s.number, 1);
    QCOMPARE(s.intents.size(), 2);
    QCOMPARE(s.intents.constFirst().key, key);
    const auto closed = close(book, s, 500);
    QVERIFY2(closed.ok, qPrintable(closed.error.text()));
    QCOMPARE(closed.value.netTotal(), qint64(2499));
    QCOMPARE(sql(QStringLiteral("SELECT COUNT(*) FROM shifts")).toInt(), 1);
}

QTEST_GUILESS_MAIN(TestShiftBook)
#include "tst_shiftbook.moc"
