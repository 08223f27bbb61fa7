// The till's outbox (issue 38, OFFICE.md "Events: the till's outbox"): every change the office
// hears of appends its event in the transaction that makes the change, with seqs 1, 2, 3, ...
// never skipped, and `data` carrying OFFICE.md's fields by their names. The journal alone.
#include "journaltest.h"
#include "officeevents.h"
#include "salebook.h"
#include "shiftbook.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace OncePay;
using namespace JournalTest;
using namespace Qt::StringLiterals;

namespace {

struct Row
{
    qint64 seq = 0;
    QString kind;
    QString at;
    QJsonObject data;
    bool sent = false;
};

void requireKeys(const QJsonObject &o, const QStringList &keys, const char *what)
{
    for (const QString &k : keys) {
        if (!o.contains(k))
            QTest::qFail(qPrintable(QStringLiteral("%1 has no \"%2\": %3").arg(QString::fromLatin1(what), k, QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)))), __FILE__, __LINE__);
    }
}

}   // namespace

class TestOutbox final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void everyKindCarriesOfficeFields();
    void eventAndChangeCommitTogether();
    void rolledBackUnitsSkipNoSeq();
    void seqsContinueAcrossReopening();
    void acknowledgedEventsAreSent();
    void oldJournalStartsAtItsNextChange();

private:
    std::unique_ptr<IntentJournal> open();
    Sale newSale(SaleBook &book, qint64 total);
    Answer<Intent> tender(IntentJournal &j, const Sale &sale, Tender kind, qint64 amount);
    bool finish(IntentJournal &j, Intent *i, IntentState state);
    QList<Row> outbox();
    bool sql(const QString &statement);

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
};

void TestOutbox::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_path = m_dir->filePath(QStringLiteral("journal.db"));
}

void TestOutbox::cleanup()
{
    m_dir.reset();
}

std::unique_ptr<IntentJournal> TestOutbox::open()
{
    auto j = std::make_unique<IntentJournal>(IntentJournal::Options{m_path});
    TillError error;
    if (!j->open(&error)) {
        qWarning("%s", qPrintable(error.text()));
        return nullptr;
    }
    return j;
}

Sale TestOutbox::newSale(SaleBook &book, qint64 total)
{
    // Two lines: a 13 % one at 1.00 x 2 with 0.20 off, and the rest at 9 %.
    const QJsonArray lines{QJsonObject{{QStringLiteral("code"), QStringLiteral("1001")}, {QStringLiteral("name"), QStringLiteral("Tea")},
                               {QStringLiteral("name_zh"), QStringLiteral("茶")}, {QStringLiteral("category"), QStringLiteral("Drinks")},
                               {QStringLiteral("unit_price"), 100}, {QStringLiteral("quantity"), 2}, {QStringLiteral("total"), 200},
                               {QStringLiteral("discount"), 20}, {QStringLiteral("vat"), 1300}, {QStringLiteral("amount"), 180}},
        QJsonObject{{QStringLiteral("code"), QStringLiteral("1002")}, {QStringLiteral("name"), QStringLiteral("Rice")},
            {QStringLiteral("name_zh"), QStringLiteral("米")}, {QStringLiteral("unit_price"), total - 180},
            {QStringLiteral("quantity"), 1}, {QStringLiteral("total"), total - 180}, {QStringLiteral("vat"), 900},
            {QStringLiteral("amount"), total - 180}}};
    const auto s = await<Sale>([&](auto reply) {
        book.open(Money(total, QStringLiteral("CNY")), lines, this, reply);
    });
    if (!s.ok)
        qWarning("open: %s", qPrintable(s.error.text()));
    return s.value;
}

Answer<Intent> TestOutbox::tender(IntentJournal &j, const Sale &sale, Tender kind, qint64 amount)
{
    Intent i = newIntent(sale.orderId, amount, kind);
    if (i.isCash())
        i.state = IntentState::Succeeded;
    return await<Intent>([&](auto reply) {
        j.create(i, this, reply);
    });
}

bool TestOutbox::finish(IntentJournal &j, Intent *i, IntentState state)
{
    Intent after = *i;
    after.state = state;
    after.attempts = i->attempts + 1;
    after.cardBrand = QStringLiteral("visa");
    if (state == IntentState::Succeeded)
        after.paymentId = QStringLiteral("pay_") + i->key.right(12);
    const auto u = await<bool>([&](auto reply) {
        j.update(after, i->state, QStringLiteral("test"), std::nullopt, this, reply);
    });
    if (!u.ok || !u.value)
        return false;
    *i = after;
    return true;
}

QList<Row> TestOutbox::outbox()
{
    QList<Row> rows;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("peek"));
        db.setDatabaseName(m_path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        if (db.open()) {
            QSqlQuery q(db);
            q.exec(QStringLiteral("SELECT seq, kind, at, data, seq <= (SELECT last_seq FROM outbox_sent) FROM outbox ORDER BY seq"));
            while (q.next())
                rows.append({q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(),
                    QJsonDocument::fromJson(q.value(3).toByteArray()).object(), q.value(4).toBool()});
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("peek"));
    return rows;
}

bool TestOutbox::sql(const QString &statement)
{
    bool ok = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("poke"));
        db.setDatabaseName(m_path);
        if (db.open()) {
            QSqlQuery q(db);
            ok = q.exec(statement);
            if (!ok)
                qWarning("%s", qPrintable(q.lastError().text()));
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("poke"));
    return ok;
}

void TestOutbox::everyKindCarriesOfficeFields()
{
    auto j = open();
    QVERIFY(j);
    SaleBook book(j.get());
    j->setActor(QStringLiteral("Li Na"));
    // A sale paid by cash and card.
    const Sale paid = newSale(book, 1000);
    QVERIFY(tender(*j, paid, Tender::Cash, 400).ok);
    auto card = tender(*j, paid, Tender::Card, 600);
    QVERIFY(card.ok);
    QCOMPARE(outbox().size(), 0);   // not ended yet: nothing for the office
    QVERIFY(finish(*j, &card.value, IntentState::Succeeded));
    // A sale cancelled with cash taken (handed back), a cart thrown away.
    const Sale cancelled = newSale(book, 500);
    QVERIFY(tender(*j, cancelled, Tender::Cash, 200).ok);
    VERIFY_OK(await<QList<Intent>>([&](auto reply) {
        j->cancelSale(cancelled.orderId, {}, this, reply);
    }));
    VERIFY_OK(await<Sale>([&](auto reply) {
        book.discard(Money(300, QStringLiteral("CNY")), {}, this, reply);
    }));
    // A card refund that succeeds.
    Intent refund;
    refund.kind = IntentKind::Refund;
    refund.key = QStringLiteral("ref-test-1");
    refund.paymentKey = card.value.key;
    refund.orderId = paid.orderId;
    refund.amount = Money(100, QStringLiteral("CNY"));
    refund.reason = QStringLiteral("damaged");
    auto r = await<Intent>([&](auto reply) {
        j->create(refund, this, reply);
    });
    QVERIFY2(r.ok, qPrintable(r.error.text()));
    QVERIFY(finish(*j, &r.value, IntentState::Succeeded));
    // Staff: a sign-in, a drawer opened without a sale.
    VERIFY_OK(await<bool>([&](auto reply) {
        j->recordStaffAction({0, {}, QStringLiteral("sign_in"), {}, 0, {}, QStringLiteral("cashier")}, this, reply);
    }));
    VERIFY_OK(await<bool>([&](auto reply) {
        j->recordStaffAction({0, {}, QStringLiteral("open_drawer"), {}, 0, QStringLiteral("Wang"), QStringLiteral("change")}, this, reply);
    }));
    // The shift closed.
    ShiftBook shifts(j.get());
    const auto s = await<ShiftBook::Snapshot>([&](auto reply) {
        shifts.current(this, reply);
    });
    QVERIFY(s.ok);
    ShiftBook::Close c;
    c.number = s.value.number;
    c.lastIntentId = s.value.lastIntentId;
    c.currency = QStringLiteral("CNY");
    c.countedCash = 20'000;
    c.openingFloat = 10'000;
    VERIFY_OK(await<ShiftReport>([&](auto reply) {
        shifts.close(c, this, reply);
    }));

    const QList<Row> rows = outbox();
    QStringList kinds;
    for (const Row &row : rows)
        kinds << row.kind;
    QCOMPARE(kinds, (QStringList{u"sale"_s, u"refund"_s, u"sale"_s, u"discard"_s, u"refund"_s, u"staff"_s, u"cash"_s, u"shift"_s}));
    static const QRegularExpression iso8601(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$"));
    for (qsizetype n = 0; n < rows.size(); ++n) {
        QCOMPARE(rows.at(n).seq, n + 1);
        QVERIFY2(iso8601.match(rows.at(n).at).hasMatch(),
            qPrintable(rows.at(n).at));
        QVERIFY(!rows.at(n).sent);
    }
    // sale: number, state, currency, staff, lines[], tenders[], totals.
    const QJsonObject sale = rows.at(0).data;
    requireKeys(sale, {u"number"_s, u"state"_s, u"currency"_s, u"staff"_s, u"lines"_s, u"tenders"_s, u"totals"_s}, "sale");
    QCOMPARE(sale.value(u"number"_s).toString(), paid.number);
    QCOMPARE(sale.value(u"state"_s).toString(), QStringLiteral("paid"));
    QCOMPARE(sale.value(u"currency"_s).toString(), QStringLiteral("CNY"));
    QCOMPARE(sale.value(u"staff"_s).toString(), QStringLiteral("Li Na"));
    const QJsonArray lines = sale.value(u"lines"_s).toArray();
    QCOMPARE(lines.size(), 2);
    for (const QJsonValue &l : lines)
        requireKeys(l.toObject(), {u"code"_s, u"name"_s, u"name_zh"_s, u"category"_s, u"quantity"_s, u"unit_price"_s, u"amount"_s, u"vat"_s}, "line");
    QCOMPARE(lines.at(0)[u"category"_s].toString(), QStringLiteral("Drinks"));
    QCOMPARE(lines.at(0)[u"amount"_s].toInteger(), 180);
    QCOMPARE(lines.at(0)[u"vat"_s].toInt(), 1300);
    QCOMPARE(lines.at(1)[u"vat"_s].toInt(), 900);
    const QJsonArray tenders = sale.value(u"tenders"_s).toArray();
    QCOMPARE(tenders.size(), 2);
    for (const QJsonValue &t : tenders)
        requireKeys(t.toObject(), {u"kind"_s, u"brand"_s, u"amount"_s, u"state"_s, u"key"_s}, "tender");
    QCOMPARE(tenders.at(0)[u"kind"_s].toString(), QStringLiteral("cash"));
    QCOMPARE(tenders.at(1)[u"kind"_s].toString(), QStringLiteral("card"));
    QCOMPARE(tenders.at(1)[u"brand"_s].toString(), QStringLiteral("visa"));
    QCOMPARE(tenders.at(1)[u"state"_s].toString(), QStringLiteral("succeeded"));
    QCOMPARE(tenders.at(1)[u"amount"_s].toInteger(), 600);
    const QJsonObject totals = sale.value(u"totals"_s).toObject();
    requireKeys(totals, {u"subtotal"_s, u"discounts"_s, u"tax"_s, u"total"_s}, "totals");
    QCOMPARE(totals[u"total"_s].toInteger(), 1000);
    QCOMPARE(totals[u"subtotal"_s].toInteger(), 1020);
    QCOMPARE(totals[u"discounts"_s].toInteger(), 20);
    QVERIFY(totals[u"tax"_s].toInteger() > 0);
    // The cancelled sale's cash handed back is a refund of its own, then the sale.
    QCOMPARE(rows.at(1).data[u"tender"_s].toString(), QStringLiteral("cash"));
    QCOMPARE(rows.at(2).data[u"state"_s].toString(), QStringLiteral("cancelled"));
    QCOMPARE(rows.at(2).data[u"number"_s].toString(), cancelled.number);
    requireKeys(rows.at(3).data, {u"lines"_s, u"total"_s, u"staff"_s}, "discard");
    QCOMPARE(rows.at(3).data[u"total"_s].toInteger(), 300);
    // refund: key, amount, tender, state, lines[], reason, staff, approver.
    const QJsonObject ref = rows.at(4).data;
    requireKeys(ref, {u"key"_s, u"amount"_s, u"tender"_s, u"state"_s, u"lines"_s, u"reason"_s, u"staff"_s, u"approver"_s, u"payment_key"_s}, "refund");
    QCOMPARE(ref[u"key"_s].toString(), QStringLiteral("ref-test-1"));
    QCOMPARE(ref[u"amount"_s].toInteger(), 100);
    QCOMPARE(ref[u"tender"_s].toString(), QStringLiteral("card"));
    QCOMPARE(ref[u"state"_s].toString(), QStringLiteral("succeeded"));
    requireKeys(rows.at(5).data, {u"who"_s, u"what"_s, u"approver"_s}, "staff");
    QCOMPARE(rows.at(5).data[u"what"_s].toString(), QStringLiteral("sign_in"));
    requireKeys(rows.at(6).data, {u"amount"_s, u"reason"_s, u"staff"_s, u"approver"_s}, "cash");
    QCOMPARE(rows.at(6).data[u"approver"_s].toString(), QStringLiteral("Wang"));
    // shift: report, totals {sales, gross, refunds, net}, counted cash, difference, staff.
    const QJsonObject shift = rows.at(7).data;
    requireKeys(shift, {u"report"_s, u"totals"_s, u"counted_cash"_s, u"difference"_s, u"staff"_s}, "shift");
    const QJsonObject st = shift[u"totals"_s].toObject();
    requireKeys(st, {u"sales"_s, u"gross"_s, u"refunds"_s, u"net"_s}, "shift totals");
    QCOMPARE(st[u"sales"_s].toInt(), 1);
    QCOMPARE(st[u"gross"_s].toInteger(), 1200);   // 400 + 600 + the cancelled sale's 200 taken
    QCOMPARE(st[u"refunds"_s].toInteger(), 300);   // 200 handed back, 100 refunded
    QCOMPARE(st[u"net"_s].toInteger(), 900);
    QCOMPARE(shift[u"report"_s].toObject().value(u"shift"_s).toInt(), 1);
}

// The change and its event are one: the event refused (a trigger standing in for any failure
// of the transaction after the change) leaves the change unmade, and the change made, its event.
void TestOutbox::eventAndChangeCommitTogether()
{
    auto j = open();
    QVERIFY(j);
    SaleBook book(j.get());
    const Sale sale = newSale(book, 1000);
    auto card = tender(*j, sale, Tender::Card, 1000);
    QVERIFY(card.ok);
    QVERIFY(sql(QStringLiteral("CREATE TRIGGER refuse_sale AFTER INSERT ON outbox WHEN NEW.kind = 'sale'"
                               " BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")));
    QVERIFY(!finish(*j, &card.value, IntentState::Succeeded));
    const Sale after = await<Sale>([&](auto reply) {
        book.find(sale.number, this, reply);
    }).value;
    QCOMPARE(saleStateName(after.state), QStringLiteral("paying"));   // nothing of the change stayed
    QCOMPARE(after.intents.value(0).state, IntentState::Queued);
    QCOMPARE(outbox().size(), 0);
    // A cart thrown away in a transaction that fails: no sale, no event.
    VERIFY_REFUSED(await<Sale>([&](auto reply) {
        book.discard(Money(0, QStringLiteral("CNY")), {}, this, reply);
    }));
    QCOMPARE(outbox().size(), 0);
    QVERIFY(sql(QStringLiteral("DROP TRIGGER refuse_sale")));
    QVERIFY(finish(*j, &card.value, IntentState::Succeeded));
    const QList<Row> rows = outbox();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.at(0).seq, 1);
    QCOMPARE(rows.at(0).data[u"state"_s].toString(), QStringLiteral("paid"));
}

// Units of one group commit, some rolled back (their savepoint): the others' seqs close up.
void TestOutbox::rolledBackUnitsSkipNoSeq()
{
    auto j = open();
    QVERIFY(j);
    SaleBook book(j.get());
    // Every discard of 13 fails after its event was appended.
    QVERIFY(sql(QStringLiteral("CREATE TRIGGER refuse_13 AFTER INSERT ON outbox WHEN json_extract(NEW.data, '$.total') = 13"
                               " BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")));
    int answered = 0;
    int refused = 0;
    constexpr int burst = 120;
    for (int n = 0; n < burst; ++n) {
        book.discard(Money(n % 3 == 0 ? 13 : 100 + n, QStringLiteral("CNY")), {}, this, [&](bool ok, const TillError &, const Sale &) {
            ++answered;
            refused += ok ? 0 : 1;
        });
    }
    QTRY_COMPARE_WITH_TIMEOUT(answered, burst, 20000);
    QCOMPARE(refused, burst / 3);
    const QList<Row> rows = outbox();
    QCOMPARE(rows.size(), burst - burst / 3);
    for (qsizetype n = 0; n < rows.size(); ++n) {
        QCOMPARE(rows.at(n).seq, n + 1);
        QVERIFY(rows.at(n).data[u"total"_s].toInteger() != 13);
    }
}

void TestOutbox::seqsContinueAcrossReopening()
{
    for (int round = 0; round < 3; ++round) {
        auto j = open();
        QVERIFY(j);
        SaleBook book(j.get());
        for (int n = 0; n < 5; ++n)
            VERIFY_OK(await<Sale>([&](auto reply) {
                book.discard(Money(100 + n, QStringLiteral("CNY")), {}, this, reply);
            }));
        j->close();
    }
    const QList<Row> rows = outbox();
    QCOMPARE(rows.size(), 15);
    for (qsizetype n = 0; n < rows.size(); ++n)
        QCOMPARE(rows.at(n).seq, n + 1);
    // Nobody rewrites or takes out an event: SQLite refuses.
    QVERIFY(!sql(QStringLiteral("DELETE FROM outbox WHERE seq = 3")));
    QVERIFY(!sql(QStringLiteral("UPDATE outbox SET data = '{}' WHERE seq = 3")));
    QCOMPARE(outbox().size(), 15);
}

void TestOutbox::acknowledgedEventsAreSent()
{
    auto j = open();
    QVERIFY(j);
    SaleBook book(j.get());
    for (int n = 0; n < 7; ++n)
        VERIFY_OK(await<Sale>([&](auto reply) {
            book.discard(Money(100 + n, QStringLiteral("CNY")), {}, this, reply);
        }));
    auto status = [&] {
        return await<OfficeEvents::Status>([&](auto reply) {
            j->transact<OfficeEvents::Status>(
                this, [](SqlTx &tx) {
                    return OfficeEvents::status(tx);
                },
                reply);
        }).value;
    };
    QCOMPARE(status().waiting, 7);
    QCOMPARE(status().lastSentSeq, 0);
    QVERIFY(status().oldestWaitingAtMs > 0);
    VERIFY_OK(await<bool>([&](auto reply) {
        j->transact<bool>(
            this, [](SqlTx &tx) {
                OfficeEvents::acknowledgeUpTo(tx, 5, 1);
                return true;
            },
            reply);
    }));
    QCOMPARE(status().waiting, 2);
    QCOMPARE(status().lastSentSeq, 5);
    const auto waiting = await<QList<OfficeEvents::Event>>([&](auto reply) {
        j->transact<QList<OfficeEvents::Event>>(
            this, [](SqlTx &tx) {
                return OfficeEvents::waiting(tx, 500);
            },
            reply);
    }).value;
    QCOMPARE(waiting.size(), 2);
    QCOMPARE(waiting.at(0).seq, 6);
    // An office that lost some (restored from a copy) says where it stands: those after go again.
    VERIFY_OK(await<bool>([&](auto reply) {
        j->transact<bool>(
            this, [](SqlTx &tx) {
                OfficeEvents::acknowledgeUpTo(tx, 3, 1);
                return true;
            },
            reply);
    }));
    QCOMPARE(status().waiting, 4);
    QCOMPARE(status().lastSentSeq, 3);
}

// A journal from before the outbox (version 9): its sales stay as they were, and its outbox
// starts at its next change, seq 1, nothing sent.
void TestOutbox::oldJournalStartsAtItsNextChange()
{
    {
        auto j = open();
        QVERIFY(j);
        SaleBook book(j.get());
        VERIFY_OK(await<Sale>([&](auto reply) {
            book.discard(Money(100, QStringLiteral("CNY")), {}, this, reply);
        }));
    }
    QVERIFY(sql(QStringLiteral("DROP TABLE outbox")));
    QVERIFY(sql(QStringLiteral("DROP TABLE outbox_sent")));
    QVERIFY(sql(QStringLiteral("PRAGMA user_version=9")));
    auto j = open();
    QVERIFY(j);
    QCOMPARE(outbox().size(), 0);
    SaleBook book(j.get());
    VERIFY_OK(await<Sale>([&](auto reply) {
        book.discard(Money(200, QStringLiteral("CNY")), {}, this, reply);
    }));
    const QList<Row> rows = outbox();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.at(0).seq, 1);
    QCOMPARE(rows.at(0).data[u"total"_s].toInteger(), 200);
    QVERIFY(!rows.at(0).sent);
}

QTEST_GUILESS_MAIN(TestOutbox)
#include "tst_outbox.moc"
