// The sale is paid exactly once whatever its tenders (issue 21): the rules the journal checks in
// the transaction that stores a tender, giving up a card part, the refund the till then owes by
// itself (made once), and cancelling a partly paid sale. The journal alone: no network.
#include "journaltest.h"
#include "salebook.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QMetaEnum>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace OncePay;
using namespace JournalTest;

class TestSaleBook final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void salesHaveShortNumbers();
    void salesOpenedTogetherGetTheirOwnOrderIds();
    void tenderRules_data();
    void tenderRules();
    void givenUpPartChargedIsRefundedOnce();
    void partNeverSentIsVoided();
    void cancelHandsBackCashAndRefundsCards();
    void saleSurvivesReopening();
    void intentsCarryTheSaleNumber();
    void linesAndRefundLinesAreInTheJournal();
    void oldSalesFileIsImportedOnce();

private:
    std::unique_ptr<IntentJournal> open();
    Sale newSale(SaleBook &book, qint64 total);
    Answer<Intent> tender(IntentJournal &j, const Sale &sale, const QString &kind, qint64 amount);
    bool finish(IntentJournal &j, Intent *i, IntentState state, Attempt::Transport transport = Attempt::Transport::Answered);
    Sale reread(SaleBook &book, const Sale &sale);

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
};

void TestSaleBook::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_path = m_dir->filePath(QStringLiteral("journal.db"));
}

void TestSaleBook::cleanup()
{
    m_dir.reset();
}

std::unique_ptr<IntentJournal> TestSaleBook::open()
{
    auto j = std::make_unique<IntentJournal>(IntentJournal::Options{m_path});
    TillError error;
    if (!j->open(&error)) {
        qWarning("%s", qPrintable(error.text()));
        return nullptr;
    }
    return j;
}

Sale TestSaleBook::newSale(SaleBook &book, qint64 total)
{
    const QJsonArray lines{QJsonObject{{QStringLiteral("code"), QStringLiteral("1001")},
        {QStringLiteral("unit_price"), total},
        {QStringLiteral("quantity"), 1}}};
    const auto s = await<Sale>([&](auto reply) {
        book.open(Money(total, QStringLiteral("CNY")), lines, this, reply);
    });
    if (!s.ok)
        qWarning("open: %s", qPrintable(s.error.text()));
    return s.value;
}

Answer<Intent> TestSaleBook::tender(IntentJournal &j, const Sale &sale, const QString &kind, qint64 amount)
{
    Intent i = newIntent(sale.orderId, amount, kind == QLatin1String("cash") ? Tender::Cash : Tender::Card);
    if (i.isCash())
        i.state = IntentState::Succeeded;
    return await<Intent>([&](auto reply) {
        j.create(i, this, reply);
    });
}

// Moves `i` to `state` as the engine would after one POST that ended with `transport`.
bool TestSaleBook::finish(IntentJournal &j, Intent *i, IntentState state, Attempt::Transport transport)
{
    Intent after = *i;
    after.state = state;
    after.attempts = i->attempts + 1;
    if (state == IntentState::Succeeded)
        after.paymentId = QStringLiteral("pay_") + i->key.right(12);
    Attempt a;
    a.kind = Attempt::Kind::Post;
    a.transport = transport;
    a.startedAt = a.endedAt = 1;
    const auto u = await<bool>([&](auto reply) {
        j.update(after, i->state, QStringLiteral("test"), a, this, reply);
    });
    if (!u.ok || !u.value)
        return false;
    *i = after;
    return true;
}

Sale TestSaleBook::reread(SaleBook &book, const Sale &sale)
{
    return await<Sale>([&](auto reply) {
        book.find(sale.number, this, reply);
    }).value;
}

void TestSaleBook::salesHaveShortNumbers()
{
    auto j = open();
    QVERIFY(j);
    SaleBook book(j.get());
    book.setTillNumber(3);
    const Sale a = newSale(book, 990);
    const Sale b = newSale(book, 500);
    QCOMPARE(a.number, QStringLiteral("3-000001"));
    QCOMPARE(b.number, QStringLiteral("3-000002"));
    QCOMPARE(a.state, SaleState::Open);
    QCOMPARE(a.lines.size(), 1);
    QCOMPARE(reread(book, a).orderId, a.orderId);
    QCOMPARE(await<Sale>([&](auto reply) {
        book.find(b.orderId, this, reply);
    }).value.number,
        b.number);
    QVERIFY(!await<Sale>([&](auto reply) {
        book.find(QStringLiteral("3-000009"), this, reply);
    }).value.isValid());
    VERIFY_REFUSED(await<Sale>([&](auto reply) {
        book.open(Money(0, QStringLiteral("CNY")), {}, this, reply);
    }));
}

// Order ids are the time to the millisecond and three random digits: sales opened in a burst
// (the till and oncepay-ctl at once) share milliseconds, and some of them their digits too. Each
// is opened all the same, under an order id of its own.
void TestSaleBook::salesOpenedTogetherGetTheirOwnOrderIds()
{
    auto j = open();
    QVERIFY(j);
    SaleBook book(j.get());
    constexpr int burst = 300;
    int answered = 0;
    QStringList refusals;
    QSet<QString> orderIds;
    for (int n = 0; n < burst; ++n) {
        book.open(Money(100 + n, QStringLiteral("CNY")), {}, this, [&](bool ok, const TillError &error, const Sale &s) {
            ++answered;
            if (!ok)
                refusals << error.text();
            else
                orderIds.insert(s.orderId);
        });
    }
    QTRY_COMPARE_WITH_TIMEOUT(answered, burst, 20000);
    QVERIFY2(refusals.isEmpty(), qPrintable(refusals.join(QLatin1Char('\n'))));
    QCOMPARE(orderIds.size(), burst);
}

// A script of tenders for a sale of 1000: "card:600:succeeded" (a card part, then its outcome),
// "card:400" (stays queued), "cash:400", "giveup:N" (the card part of step N). `refused` lists
// the steps the journal must refuse; `state` and `paid` are the sale's afterwards.
void TestSaleBook::tenderRules_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<QString>("refused");
    QTest::addColumn<QString>("state");
    QTest::addColumn<qint64>("paid");

    QTest::newRow("card for all") << "card:1000:succeeded"
                                  << ""
                                  << "paid" << qint64(1000);
    QTest::newRow("cash part, card for the rest") << "cash:400;card:600:succeeded"
                                                  << ""
                                                  << "paid" << qint64(1000);
    QTest::newRow("two cards") << "card:300:succeeded;card:700:succeeded"
                               << ""
                               << "paid" << qint64(1000);
    QTest::newRow("card over the total") << "card:1001"
                                         << "0=AboveSaleRemainder"
                                         << "open" << qint64(0);
    QTest::newRow("cash over what remains") << "card:600:succeeded;cash:401"
                                            << "1=AboveSaleRemainder"
                                            << "paying" << qint64(600);
    QTest::newRow("second card while the first waits") << "card:500;card:500"
                                                       << "1=CardPartStillOpen"
                                                       << "paying" << qint64(0);
    QTest::newRow("cash for the rest while a card waits") << "card:500;cash:500"
                                                          << ""
                                                          << "paying" << qint64(500);
    QTest::newRow("cash for the waiting card's part too") << "card:500;cash:501"
                                                          << "1=AboveSaleRemainder"
                                                          << "paying" << qint64(0);
    QTest::newRow("declined, then another card") << "card:1000:declined;card:1000:succeeded"
                                                 << ""
                                                 << "paid" << qint64(1000);
    QTest::newRow("given up, then cash for all") << "card:1000:unknown;giveup:0;cash:1000"
                                                 << ""
                                                 << "paid" << qint64(1000);
    QTest::newRow("given up, then another card") << "card:1000:unknown;giveup:0;card:1000:succeeded"
                                                 << ""
                                                 << "paid" << qint64(1000);
    QTest::newRow("given up part charged late") << "card:1000:unknown;giveup:0;cash:1000;finish:0:succeeded"
                                                << ""
                                                << "paid" << qint64(1000);
    QTest::newRow("paid sale takes nothing more") << "cash:1000;cash:1"
                                                  << "1=SaleAlreadyPaid"
                                                  << "paid" << qint64(1000);
    QTest::newRow("a final part cannot be given up") << "card:1000:declined;giveup:0"
                                                     << "1=GiveUpFinal"
                                                     << "paying" << qint64(0);
    QTest::newRow("cash cannot be given up") << "cash:500;giveup:0"
                                             << "1=GiveUpNotCard"
                                             << "paying" << qint64(500);
}

void TestSaleBook::tenderRules()
{
    QFETCH(QString, script);
    QFETCH(QString, refused);
    QFETCH(QString, state);
    QFETCH(qint64, paid);
    auto j = open();
    QVERIFY(j);
    SaleBook book(j.get());
    const Sale sale = newSale(book, 1000);
    QList<Intent> steps;
    // "step=Kind,...": the steps refused, each with its TillError::Kind.
    QHash<int, QString> expectRefused;
    for (const QString &r : refused.split(QLatin1Char(','), Qt::SkipEmptyParts))
        expectRefused.insert(r.section(QLatin1Char('='), 0, 0).toInt(), r.section(QLatin1Char('='), 1));
    const QStringList parts = script.split(QLatin1Char(';'));
    for (int n = 0; n < parts.size(); ++n) {
        const QStringList f = parts[n].split(QLatin1Char(':'));
        bool ok = true;
        TillError error;
        Intent stepIntent;
        if (f[0] == QLatin1String("giveup")) {
            const auto g = await<Intent>([&](auto reply) {
                j->giveUp(steps[f[1].toInt()].key, true, this, reply);
            });
            ok = g.ok;
            error = g.error;
        } else if (f[0] == QLatin1String("finish")) {
            Intent &target = steps[f[1].toInt()];
            ok = finish(*j, &target, intentStateFromName(f[2]).value());
        } else {
            const auto t = tender(*j, sale, f[0], f[1].toLongLong());
            ok = t.ok;
            error = t.error;
            stepIntent = t.value;
            if (ok && f.size() > 2) {
                // An unknown outcome follows a POST whose answer was lost: it may have reached the bank.
                const IntentState to = intentStateFromName(f[2]).value();
                QVERIFY(finish(*j, &stepIntent, to, to == IntentState::Unknown ? Attempt::Transport::AnswerLost : Attempt::Transport::Answered));
            }
        }
        steps.append(stepIntent);
        const bool shouldRefuse = expectRefused.contains(n);
        QVERIFY2(ok != shouldRefuse,
            qPrintable(QStringLiteral("step %1 (%2): %3").arg(n).arg(parts[n], ok ? QStringLiteral("accepted") : error.text())));
        if (!ok) {
            const QMetaEnum kinds = QMetaEnum::fromType<TillError::Kind>();
            QCOMPARE(QString::fromLatin1(kinds.valueToKey(int(error.kind()))), expectRefused.value(n));
        }
    }
    const Sale after = reread(book, sale);
    QCOMPARE(saleStateName(after.state), state);
    QCOMPARE(positionOf(after).paid, paid);
}

void TestSaleBook::givenUpPartChargedIsRefundedOnce()
{
    auto j = open();
    QVERIFY(j);
    SaleBook book(j.get());
    const Sale sale = newSale(book, 990);
    auto card = tender(*j, sale, QStringLiteral("card"), 990);
    VERIFY_OK(card);
    QVERIFY(finish(*j, &card.value, IntentState::Unknown, Attempt::Transport::AnswerLost));
    // The customer pays cash: the card part may have reached the bank, so it is given up, not voided.
    const auto given = await<Intent>([&](auto reply) {
        j->giveUp(card.value.key, true, this, reply);
    });
    VERIFY_OK(given);
    QCOMPARE(given.value.state, IntentState::Unknown);
    QVERIFY(given.value.givenUpAt > 0);
    VERIFY_REFUSED(await<Intent>([&](auto reply) {
        j->giveUp(card.value.key, true, this, reply);
    }));
    VERIFY_OK(tender(*j, sale, QStringLiteral("cash"), 990));
    QCOMPARE(reread(book, sale).state, SaleState::Paid);
    QCOMPARE(await<QStringList>([&](auto reply) {
        j->dueAutoRefunds(this, reply);
    }).value,
        QStringList());

    // Back online, the card turns out charged: the till owes its refund.
    QVERIFY(finish(*j, &card.value, IntentState::Succeeded));
    QCOMPARE(await<QStringList>([&](auto reply) {
        j->dueAutoRefunds(this, reply);
    }).value,
        QStringList{card.value.key});
    const auto first = await<Intent>([&](auto reply) {
        j->createAutoRefund(card.value.key, this, reply);
    });
    VERIFY_OK(first);
    QCOMPARE(first.value.key, autoRefundKey(card.value.key));
    QCOMPARE(first.value.amount.minorUnits(), qint64(990));
    QCOMPARE(first.value.state, IntentState::Queued);
    // Asked again (a second engine, a restart): the same refund, nothing new written.
    const auto second = await<Intent>([&](auto reply) {
        j->createAutoRefund(card.value.key, this, reply);
    });
    VERIFY_OK(second);
    QCOMPARE(second.value.id, first.value.id);
    QCOMPARE(await<QStringList>([&](auto reply) {
        j->dueAutoRefunds(this, reply);
    }).value,
        QStringList());
    Intent refund = first.value;
    QVERIFY(finish(*j, &refund, IntentState::Succeeded));
    const Sale done = reread(book, sale);
    QCOMPARE(done.state, SaleState::Paid);
    const SalePosition p = positionOf(done);
    QCOMPARE(p.paid, qint64(990));
    QCOMPARE(p.refundedByTill, qint64(990));
    // The invariant: card charged - card refunded + cash taken - cash handed back = the total.
    QCOMPARE(990 - p.refundedByTill + 990 - p.handedBack, qint64(990));
    const auto parts = done.intents;
    QCOMPARE(tenderStateName(parts.at(0)), QStringLiteral("succeeded"));
}

void TestSaleBook::partNeverSentIsVoided()
{
    auto j = open();
    QVERIFY(j);
    SaleBook book(j.get());
    const Sale sale = newSale(book, 500);
    const auto card = tender(*j, sale, QStringLiteral("card"), 500);
    VERIFY_OK(card);
    // Held by the engine (mayVoid false: on the wire now): given up, never voided.
    const auto held = await<Intent>([&](auto reply) {
        j->giveUp(card.value.key, false, this, reply);
    });
    VERIFY_OK(held);
    QCOMPARE(held.value.state, IntentState::Queued);
    QVERIFY(held.value.givenUpAt > 0);

    const Sale other = newSale(book, 500);
    const auto queued = tender(*j, other, QStringLiteral("card"), 500);
    VERIFY_OK(queued);
    const auto voided = await<Intent>([&](auto reply) {
        j->giveUp(queued.value.key, true, this, reply);
    });
    VERIFY_OK(voided);
    QCOMPARE(voided.value.state, IntentState::Voided);
    QCOMPARE(reread(book, other).state, SaleState::Paying);
    VERIFY_OK(tender(*j, other, QStringLiteral("card"), 500));
}

void TestSaleBook::cancelHandsBackCashAndRefundsCards()
{
    auto j = open();
    QVERIFY(j);
    SaleBook book(j.get());
    const Sale sale = newSale(book, 1000);
    const auto cash = tender(*j, sale, QStringLiteral("cash"), 300);
    VERIFY_OK(cash);
    auto card = tender(*j, sale, QStringLiteral("card"), 400);
    VERIFY_OK(card);
    QVERIFY(finish(*j, &card.value, IntentState::Succeeded));
    auto open = tender(*j, sale, QStringLiteral("card"), 300);
    VERIFY_OK(open);
    QVERIFY(finish(*j, &open.value, IntentState::Unknown, Attempt::Transport::AnswerLost));

    const auto cancelled = await<QList<Intent>>([&](auto reply) {
        j->cancelSale(sale.orderId, {open.value.key}, this, reply);
    });
    VERIFY_OK(cancelled);
    QCOMPARE(cancelled.value.size(), 2);   // the cash handed back, the open card part given up
    const Sale after = reread(book, sale);
    QCOMPARE(after.state, SaleState::Cancelled);
    const SalePosition p = positionOf(after);
    QCOMPARE(p.handedBack, qint64(300));
    QCOMPARE(p.givenUpOpen, 1);
    QCOMPARE(await<QStringList>([&](auto reply) {
        j->dueAutoRefunds(this, reply);
    }).value,
        QStringList{card.value.key});
    VERIFY_REFUSED(tender(*j, sale, QStringLiteral("cash"), 100));
    VERIFY_REFUSED(await<QList<Intent>>([&](auto reply) {
        j->cancelSale(sale.orderId, {}, this, reply);
    }));
    // The given-up part charged late is owed back too.
    QVERIFY(finish(*j, &open.value, IntentState::Succeeded));
    const QStringList due = await<QStringList>([&](auto reply) {
        j->dueAutoRefunds(this, reply);
    }).value;
    QCOMPARE(due, (QStringList{card.value.key, open.value.key}));

    // A paid sale is refunded, not cancelled.
    const Sale paid = newSale(book, 100);
    VERIFY_OK(tender(*j, paid, QStringLiteral("cash"), 100));
    VERIFY_REFUSED(await<QList<Intent>>([&](auto reply) {
        j->cancelSale(paid.orderId, {}, this, reply);
    }));
}

void TestSaleBook::saleSurvivesReopening()
{
    Sale sale;
    QString cardKey;
    {
        auto j = open();
        QVERIFY(j);
        SaleBook book(j.get());
        sale = newSale(book, 800);
        VERIFY_OK(tender(*j, sale, QStringLiteral("cash"), 300));
        const auto card = tender(*j, sale, QStringLiteral("card"), 500);
        VERIFY_OK(card);
        cardKey = card.value.key;
    }
    auto j = open();
    QVERIFY(j);
    SaleBook book(j.get());
    const auto unfinished = await<QList<Sale>>([&](auto reply) {
        book.unfinished(this, reply);
    });
    VERIFY_OK(unfinished);
    QCOMPARE(unfinished.value.size(), 1);
    const Sale back = unfinished.value.first();
    QCOMPARE(back.number, sale.number);
    QCOMPARE(back.state, SaleState::Paying);
    QCOMPARE(back.intents.size(), 2);
    const SalePosition p = positionOf(back);
    QCOMPARE(p.paid, qint64(300));
    QCOMPARE(p.waiting, qint64(500));
    QCOMPARE(p.openCardKey, cardKey);
}

void TestSaleBook::intentsCarryTheSaleNumber()
{
    auto j = open();
    QVERIFY(j);
    SaleBook book(j.get());
    book.setTillNumber(3);
    const Sale sale = newSale(book, 900);
    QVERIFY(sale.number.startsWith(QStringLiteral("3-")));
    const auto card = tender(*j, sale, QStringLiteral("card"), 900);
    VERIFY_OK(card);
    QCOMPARE(card.value.saleNumber, sale.number);
    QCOMPARE(card.value.saleLabel(), sale.number);
    // The payments panel and the refund lookup find the sale's intents by the number people read.
    IntentJournal::Query q;
    q.saleNumber = sale.number;
    const auto found = await<QList<Intent>>([&](auto reply) {
        j->list(q, this, reply);
    });
    VERIFY_OK(found);
    QCOMPARE(found.value.size(), 1);
    QCOMPARE(found.value.first().key, card.value.key);
    // An order that is not a sale (a script's order id) keeps its order id as its label.
    const auto loose = await<Intent>([&](auto reply) {
        j->create(newIntent(QStringLiteral("ORDER-7"), 100), this, reply);
    });
    VERIFY_OK(loose);
    QVERIFY(loose.value.saleNumber.isEmpty());
    QCOMPARE(loose.value.saleLabel(), QStringLiteral("ORDER-7"));
}

void TestSaleBook::linesAndRefundLinesAreInTheJournal()
{
    auto j = open();
    QVERIFY(j);
    SaleBook book(j.get());
    const Sale sale = newSale(book, 450);
    const auto lines = await<QJsonArray>([&](auto reply) {
        book.lines(sale.orderId, this, reply);
    });
    VERIFY_OK(lines);
    QCOMPARE(lines.value.size(), 1);
    QCOMPARE(lines.value.at(0).toObject().value(QStringLiteral("code")).toString(), QStringLiteral("1001"));
    QCOMPARE(lines.value.at(0).toObject().value(QStringLiteral("currency")).toString(), QStringLiteral("CNY"));
    VERIFY_OK(await<bool>([&](auto reply) {
        book.recordRefundLines(QStringLiteral("r1"), sale.orderId, {{0, 1}}, this, reply);
    }));
    VERIFY_OK(await<bool>([&](auto reply) {
        book.recordRefundLines(QStringLiteral("r2"), sale.orderId, {{0, 2}}, this, reply);
    }));
    const auto back = await<QHash<int, int>>([&](auto reply) {
        book.refundedQuantities({QStringLiteral("r1"), QStringLiteral("r2")}, this, reply);
    });
    VERIFY_OK(back);
    QCOMPARE(back.value.value(0), 3);
    // No other file beside the journal.
    QVERIFY(!QFileInfo::exists(SaleBook::legacyLinesPath(m_path)));
}

void TestSaleBook::oldSalesFileIsImportedOnce()
{
    // The file a till of the previous version kept beside its journal, as it wrote it.
    const QString legacy = SaleBook::legacyLinesPath(m_path);
    QCOMPARE(QFileInfo(legacy).fileName(), QStringLiteral("journal-sales.db"));
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("legacy-writer"));
        db.setDatabaseName(legacy);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral(
            "CREATE TABLE sale_lines (order_id TEXT NOT NULL, line INTEGER NOT NULL, code TEXT NOT NULL,"
            " name_en TEXT NOT NULL, name_zh TEXT NOT NULL, unit_price INTEGER NOT NULL, currency TEXT NOT NULL,"
            " quantity INTEGER NOT NULL, PRIMARY KEY (order_id, line))")));
        QVERIFY(q.exec(QStringLiteral(
            "CREATE TABLE refund_lines (refund_key TEXT NOT NULL, order_id TEXT NOT NULL, line INTEGER NOT NULL,"
            " quantity INTEGER NOT NULL, PRIMARY KEY (refund_key, line))")));
        QVERIFY(q.exec(QStringLiteral("INSERT INTO sale_lines VALUES ('S-old', 0, '6901', 'Tea', '茶', 450, 'CNY', 2),"
                                      " ('S-old', 1, '6902', 'Rice', '米', 4990, 'CNY', 1)")));
        QVERIFY(q.exec(QStringLiteral("INSERT INTO refund_lines VALUES ('old-refund', 'S-old', 0, 1)")));
        q.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("legacy-writer"));

    auto j = open();
    QVERIFY(j);
    SaleBook book(j.get());
    const auto copied = await<int>([&](auto reply) {
        book.importLegacyLines(legacy, this, reply);
    });
    VERIFY_OK(copied);
    QCOMPARE(copied.value, 2);
    QVERIFY(!QFileInfo::exists(legacy));
    QVERIFY(QFileInfo::exists(legacy + QStringLiteral(".imported")));
    // Run again (the till started again): nothing to read, nothing copied twice.
    const auto again = await<int>([&](auto reply) {
        book.importLegacyLines(legacy, this, reply);
    });
    VERIFY_OK(again);
    QCOMPARE(again.value, 0);
    // A crash between the copy and the rename: the copy runs again and adds nothing.
    QVERIFY(QFile::copy(legacy + QStringLiteral(".imported"), legacy));
    const auto replay = await<int>([&](auto reply) {
        book.importLegacyLines(legacy, this, reply);
    });
    VERIFY_OK(replay);
    QCOMPARE(replay.value, 0);

    const auto lines = await<QJsonArray>([&](auto reply) {
        book.lines(QStringLiteral("S-old"), this, reply);
    });
    VERIFY_OK(lines);
    QCOMPARE(lines.value.size(), 2);
    QCOMPARE(lines.value.at(1).toObject().value(QStringLiteral("name_zh")).toString(), QStringLiteral("米"));
    QCOMPARE(lines.value.at(0).toObject().value(QStringLiteral("quantity")).toInt(), 2);
    const auto refunded = await<QHash<int, int>>([&](auto reply) {
        book.refundedQuantities({QStringLiteral("old-refund")}, this, reply);
    });
    VERIFY_OK(refunded);
    QCOMPARE(refunded.value.value(0), 1);

    // A file that is not a sales file is refused in words, and left where it is.
    QFile junk(legacy);
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("not a database at all, just bytes that were there");
    junk.close();
    const auto refused = await<int>([&](auto reply) {
        book.importLegacyLines(legacy, this, reply);
    });
    QVERIFY(!refused.ok);
    QCOMPARE(refused.error.kind(), TillError::Kind::OldSalesUnreadable);
    QCOMPARE(refused.error.args(), QStringList{legacy});
    QVERIFY(QFileInfo::exists(legacy));
}

QTEST_GUILESS_MAIN(TestSaleBook)
#include "tst_salebook.moc"
