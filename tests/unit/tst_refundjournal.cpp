// Refunds and voids in the till's journal, on a real SQLite file: what may be refunded (a
// settled payment of the same tender, one open refund at a time, never more than remains), a
// refund carrying its payment, a succeeded refund crediting its payment once, the one-open-refund
// rule as a property of the file and under concurrent requests; and the void as compare-and-set:
// only a queued intent no try of which may have reached the gateway, race-free against a send.
#include "journaltest.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace OncePay;
using namespace JournalTest;

namespace {

Intent newRefund(const QString &paymentKey, std::optional<qint64> amount, Tender tender = Tender::Card,
    const QString &currency = QStringLiteral("CNY"))
{
    Intent r;
    r.kind = IntentKind::Refund;
    r.key = IdempotencyKey::generate(QStringLiteral("ref")).value();
    r.paymentKey = paymentKey;
    r.amount = amount ? Money(*amount, currency) : Money();
    r.tender = tender;
    r.state = tender == Tender::Cash ? IntentState::Succeeded : IntentState::Queued;
    return r;
}

Attempt postAttempt(Attempt::Transport transport, int httpStatus = 0)
{
    Attempt a;
    a.kind = Attempt::Kind::Post;
    a.transport = transport;
    a.httpStatus = httpStatus;
    a.outcome = QStringLiteral("test");
    return a;
}

}   // namespace

class TestRefundJournal final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void refundRules_data();
    void refundRules();
    void refundCarriesItsPayment();
    void succeededRefundCreditsItsPaymentOnce();
    void cashRefundIsFinalAndCredited();
    void oneOpenRefundIsAPropertyOfTheFile();
    void concurrentRefundsOfOnePayment();
    void voidRules_data();
    void voidRules();
    void voidFreesTheSaleAndNothingIsSentAfter();
    void voidAndSendRace_data();
    void voidAndSendRace();

private:
    Answer<Intent> create(const Intent &i)
    {
        return await<Intent>([&](auto r) {
            m_journal->create(i, this, r);
        });
    }
    Answer<bool> update(const Intent &after, IntentState from, const std::optional<Attempt> &attempt = std::nullopt)
    {
        return await<bool>([&](auto r) {
            m_journal->update(after, from, QStringLiteral("test"), attempt, this, r);
        });
    }
    Answer<Intent> voidIntent(const QString &key)
    {
        return await<Intent>([&](auto r) {
            m_journal->voidIntent(key, this, r);
        });
    }
    Intent find(const QString &key)
    {
        return await<Intent>([&](auto r) {
            m_journal->find(key, this, r);
        }).value;
    }
    QList<JournalEntry> lines(const QString &key)
    {
        return await<QList<JournalEntry>>([&](auto r) {
            m_journal->journal(key, this, r);
        }).value;
    }
    // A payment intent taken to `state` (a card one settled at the gateway gets its payment id).
    Intent payment(const QString &order, IntentState state = IntentState::Succeeded, Tender tender = Tender::Card,
        qint64 amount = 1999, bool withGatewayId = true);
    // Moves a stored intent from its state to `to`; false (and a failure) if that did not apply.
    bool move(Intent &intent, IntentState to, const std::optional<Attempt> &attempt = std::nullopt);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<IntentJournal> m_journal;
};

void TestRefundJournal::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_journal = std::make_unique<IntentJournal>(IntentJournal::Options{m_dir->filePath(QStringLiteral("journal.db"))});
    TillError error;
    QVERIFY2(m_journal->open(&error), qPrintable(error.text()));
}

void TestRefundJournal::cleanup()
{
    m_journal.reset();
    m_dir.reset();
}

Intent TestRefundJournal::payment(const QString &order, IntentState state, Tender tender, qint64 amount, bool withGatewayId)
{
    Intent p = newIntent(order, amount, tender);
    if (tender == Tender::Cash)
        p.state = IntentState::Succeeded;
    const auto c = create(p);
    if (!c.ok) {
        QTest::qFail(qPrintable(QStringLiteral("payment not stored: ") + c.error.text()), __FILE__, __LINE__);
        return {};
    }
    p = c.value;
    if (p.state != state) {
        if (state == IntentState::Succeeded && withGatewayId) {
            p.paymentId = QStringLiteral("pay_") + order;
            p.gatewayStatus = QStringLiteral("succeeded");
            p.cardBrand = QStringLiteral("visa");
            p.cardLast4 = QStringLiteral("4242");
        }
        move(p, state);
    }
    return p;
}

bool TestRefundJournal::move(Intent &intent, IntentState to, const std::optional<Attempt> &attempt)
{
    Intent after = intent;
    after.state = to;
    const auto u = update(after, intent.state, attempt);
    if (!u.ok || !u.value) {
        QTest::qFail(qPrintable(QStringLiteral("%1 -> %2 did not apply: %3")
                                    .arg(intentStateName(intent.state), intentStateName(to), u.error.text())),
            __FILE__, __LINE__);
        return false;
    }
    intent = after;
    return true;
}

void TestRefundJournal::refundRules_data()
{
    QTest::addColumn<QString>("paymentState");
    QTest::addColumn<QString>("paymentTender");
    QTest::addColumn<bool>("paymentHasGatewayId");
    QTest::addColumn<QStringList>("earlier");   // earlier refunds of it, "state amount", oldest first
    QTest::addColumn<QString>("refundTender");
    QTest::addColumn<QString>("amount");   // empty: what remains; "500" or "500 USD"
    QTest::addColumn<TillError::Kind>("refused");   // None: stored
    QTest::addColumn<QStringList>("names");   // what the refusal names, when it matters
    QTest::addColumn<qint64>("storedAmount");

    const QString ok = QStringLiteral("succeeded");
    const QString card = QStringLiteral("card");
    const QString cash = QStringLiteral("cash");
    using K = TillError::Kind;
    const TillError inProgress(K::RefundStillOpen);
    auto row = [&](const char *name, const QString &state, const QString &tender, bool id, const QStringList &earlier,
                   const QString &refundTender, const QString &amount, const TillError &refusal, qint64 stored) {
        QTest::newRow(name) << state << tender << id << earlier << refundTender << amount << refusal.kind()
                            << refusal.args() << stored;
    };
    // The amount: all of it, part, more than paid, what remains after refunds that succeeded.
    row("card, the whole payment", ok, card, true, {}, card, {}, {}, 1999);
    row("card, part of it", ok, card, true, {}, card, QStringLiteral("500"), {}, 500);
    row("card, exactly all", ok, card, true, {}, card, QStringLiteral("1999"), {}, 1999);
    row("card, more than paid", ok, card, true, {}, card, QStringLiteral("2000"), TillError(K::AboveRefundRemainder, {QStringLiteral("¥19.99"), QStringLiteral("¥19.99")}), 0);
    row("after a refund, the rest", ok, card, true, {QStringLiteral("succeeded 500")}, card, {}, {}, 1499);
    row("after a refund, too much", ok, card, true, {QStringLiteral("succeeded 500")}, card, QStringLiteral("1500"),
        TillError(K::AboveRefundRemainder, {QStringLiteral("¥14.99"), QStringLiteral("¥19.99")}), 0);
    row("after two refunds, all gone", ok, card, true, {QStringLiteral("succeeded 500"), QStringLiteral("succeeded 1499")},
        card, {}, TillError(K::RefundedInFull), 0);
    row("in another currency", ok, card, true, {}, card, QStringLiteral("500 USD"), TillError(K::RefundInOtherCurrency, {QStringLiteral("CNY")}), 0);
    row("nothing", ok, card, true, {}, card, QStringLiteral("0"), TillError(K::RefundOfNothing), 0);
    // One open refund at a time; one that ended without giving anything back does not count.
    row("a refund still queued", ok, card, true, {QStringLiteral("queued 500")}, card, QStringLiteral("100"), inProgress, 0);
    row("a refund still unknown", ok, card, true, {QStringLiteral("unknown 500")}, card, QStringLiteral("100"), inProgress, 0);
    row("a refund still processing", ok, card, true, {QStringLiteral("processing 500")}, card, {}, inProgress, 0);
    row("a declined refund", ok, card, true, {QStringLiteral("declined 1999")}, card, {}, {}, 1999);
    row("a refund needing attention", ok, card, true, {QStringLiteral("needs_attention 1999")}, card, {}, {}, 1999);
    row("a voided refund", ok, card, true, {QStringLiteral("voided 1999")}, card, {}, {}, 1999);
    // Only a payment the gateway settled, and by the tender it was paid with.
    const TillError notYet(K::RefundUnconfirmedPayment);
    row("payment queued", QStringLiteral("queued"), card, false, {}, card, {}, notYet, 0);
    row("payment sending", QStringLiteral("sending"), card, false, {}, card, {}, notYet, 0);
    row("payment processing", QStringLiteral("processing"), card, false, {}, card, {}, notYet, 0);
    row("payment unknown", QStringLiteral("unknown"), card, false, {}, card, {}, notYet, 0);
    row("payment declined", QStringLiteral("declined"), card, false, {}, card, {}, TillError(K::RefundDeclinedPayment), 0);
    row("payment voided", QStringLiteral("voided"), card, false, {}, card, {}, TillError(K::RefundVoidedPayment), 0);
    row("payment needs attention", QStringLiteral("needs_attention"), card, false, {}, card, {},
        TillError(K::RefundUnexecutedPayment), 0);
    row("card payment without a gateway id", ok, card, false, {}, card, {}, TillError(K::RefundNoGatewayId), 0);
    row("card payment, cash refund", ok, card, true, {}, cash, {}, TillError(K::RefundCardToCard), 0);
    row("cash payment, card refund", ok, cash, false, {}, card, {}, TillError(K::RefundCashInCash), 0);
    row("cash payment, cash refund", ok, cash, false, {}, cash, QStringLiteral("300"), {}, 300);
    row("cash, after a cash refund, too much", ok, cash, false, {QStringLiteral("succeeded 300")}, cash,
        QStringLiteral("1800"), TillError(K::AboveRefundRemainder, {QStringLiteral("¥16.99"), QStringLiteral("¥19.99")}), 0);
}

void TestRefundJournal::refundRules()
{
    QFETCH(QString, paymentState);
    QFETCH(QString, paymentTender);
    QFETCH(bool, paymentHasGatewayId);
    QFETCH(QStringList, earlier);
    QFETCH(QString, refundTender);
    QFETCH(QString, amount);
    QFETCH(TillError::Kind, refused);
    QFETCH(QStringList, names);
    QFETCH(qint64, storedAmount);
    const Tender tender = tenderFromName(paymentTender).value();
    const Intent paid = payment(QStringLiteral("ord-r"), intentStateFromName(paymentState).value(), tender, 1999,
        paymentHasGatewayId);
    QVERIFY(paid.isValid());
    for (const QString &e : std::as_const(earlier)) {
        const QStringList parts = e.split(QLatin1Char(' '));
        Intent r = newRefund(paid.key, parts[1].toLongLong(), tender);
        const auto c = create(r);
        VERIFY_OK(c);
        r = c.value;
        const IntentState to = intentStateFromName(parts[0]).value();
        if (r.state != to)
            QVERIFY(move(r, to));
    }
    IntentJournal::Query refunds;
    refunds.paymentKey = paid.key;
    auto refundCount = [&] {
        return await<qint64>([&](auto r) {
            m_journal->count(refunds, this, r);
        }).value;
    };
    const qint64 before = refundCount();

    const QStringList a = amount.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    const Intent asked = newRefund(paid.key, a.isEmpty() ? std::nullopt : std::optional<qint64>(a[0].toLongLong()),
        tenderFromName(refundTender).value(), a.size() > 1 ? a[1] : QStringLiteral("CNY"));
    const auto c = create(asked);
    QVERIFY(c.done);
    if (refused != TillError::Kind::None) {
        VERIFY_REFUSED_AS(c, refused);
        if (!names.isEmpty())
            QCOMPARE(c.error.args(), names);
        QCOMPARE(refundCount(), before);   // nothing stored
        QVERIFY(!find(asked.key).isValid());
        return;
    }
    VERIFY_OK(c);
    QCOMPARE(c.value.key, asked.key);
    QCOMPARE(c.value.kind, IntentKind::Refund);
    QCOMPARE(c.value.amount, Money(storedAmount, QStringLiteral("CNY")));
    QCOMPARE(c.value.state, asked.state);
    QCOMPARE(refundCount(), before + 1);
}

void TestRefundJournal::refundCarriesItsPayment()
{
    const Intent paid = payment(QStringLiteral("ord-carry"));
    Intent asked = newRefund(paid.key, 700);
    asked.reason = QStringLiteral("wrong size");
    const auto c = create(asked);
    VERIFY_OK(c);
    const Intent r = find(asked.key);
    QCOMPARE(r.id, c.value.id);
    QCOMPARE(r.kind, IntentKind::Refund);
    QCOMPARE(r.paymentKey, paid.key);
    QCOMPARE(r.orderId, paid.orderId);   // the sale's
    QCOMPARE(r.paymentId, QStringLiteral("pay_ord-carry"));   // what the POST goes to
    QCOMPARE(r.cardBrand, QStringLiteral("visa"));   // the card the money goes back to
    QCOMPARE(r.cardLast4, QStringLiteral("4242"));
    QCOMPARE(r.reason, QStringLiteral("wrong size"));
    QCOMPARE(r.tender, Tender::Card);
    QVERIFY(r.paymentMethod.isEmpty());
    QVERIFY(r.refundId.isEmpty());
    QCOMPARE(r.state, IntentState::Queued);
    QCOMPARE(lines(r.key).value(0).detail, QStringLiteral("created: refund of %1").arg(paid.key));
    // The gateway's refund id is kept once an answer brings it.
    Intent sending = r;
    QVERIFY(move(sending, IntentState::Sending));
    sending.refundId = QStringLiteral("re_1");
    QVERIFY(move(sending, IntentState::Processing));
    QCOMPARE(find(r.key).refundId, QStringLiteral("re_1"));
    // A refund is not a payment of the sale: the paid sale stays paid, and lists find it by kind.
    const auto again = create(newIntent(paid.orderId));
    VERIFY_REFUSED_AS(again, TillError::Kind::SaleAlreadyPaid);
    IntentJournal::Query refunds;
    refunds.kind = IntentKind::Refund;
    const auto listed = await<QList<Intent>>([&](auto reply) {
        m_journal->list(refunds, this, reply);
    });
    VERIFY_OK(listed);
    QCOMPARE(listed.value.size(), 1);
    QCOMPARE(listed.value[0].key, r.key);
}

void TestRefundJournal::succeededRefundCreditsItsPaymentOnce()
{
    const Intent paid = payment(QStringLiteral("ord-credit"));
    QCOMPARE(find(paid.key).amountRefunded, qint64(0));
    auto refundOf = [&](std::optional<qint64> amount) {
        Intent r = newRefund(paid.key, amount);
        const auto c = create(r);
        if (!c.ok)
            QTest::qFail(qPrintable(c.error.text()), __FILE__, __LINE__);
        return c.value;
    };
    Intent first = refundOf(500);
    QVERIFY(move(first, IntentState::Sending));
    QCOMPARE(find(paid.key).amountRefunded, qint64(0));   // not before it succeeded
    QVERIFY(move(first, IntentState::Succeeded));
    Intent p = find(paid.key);
    QCOMPARE(p.amountRefunded, qint64(500));
    QCOMPARE(p.gatewayStatus, QStringLiteral("partially_refunded"));
    QCOMPARE(p.state, IntentState::Succeeded);
    const QList<JournalEntry> paymentLines = lines(paid.key);
    QVERIFY2(paymentLines.last().detail.contains(first.key) && paymentLines.last().detail.contains(QLatin1String("5.00")),
        qPrintable(paymentLines.last().detail));
    // A change that keeps it succeeded (a detail) does not give back twice.
    QVERIFY(move(first, IntentState::Succeeded));
    QCOMPARE(find(paid.key).amountRefunded, qint64(500));
    // A refund that fails gives back nothing.
    Intent failed = refundOf(100);
    QVERIFY(move(failed, IntentState::Declined));
    QCOMPARE(find(paid.key).amountRefunded, qint64(500));
    // The rest: refunded in full.
    Intent rest = refundOf(std::nullopt);
    QCOMPARE(rest.amount.minorUnits(), qint64(1499));
    QVERIFY(move(rest, IntentState::Succeeded));
    p = find(paid.key);
    QCOMPARE(p.amountRefunded, qint64(1999));
    QCOMPARE(p.gatewayStatus, QStringLiteral("refunded"));
    // Reopened: what was written is what is read.
    m_journal.reset();
    m_journal = std::make_unique<IntentJournal>(IntentJournal::Options{m_dir->filePath(QStringLiteral("journal.db"))});
    TillError error;
    QVERIFY2(m_journal->open(&error), qPrintable(error.text()));
    QCOMPARE(find(paid.key).amountRefunded, qint64(1999));
}

void TestRefundJournal::cashRefundIsFinalAndCredited()
{
    const Intent paid = payment(QStringLiteral("ord-cash"), IntentState::Succeeded, Tender::Cash, 5000);
    const auto c = create(newRefund(paid.key, 1200, Tender::Cash));
    VERIFY_OK(c);
    QCOMPARE(c.value.state, IntentState::Succeeded);   // out of the drawer: final at once
    QCOMPARE(c.value.tender, Tender::Cash);
    QVERIFY(c.value.paymentId.isEmpty());
    const Intent p = find(paid.key);
    QCOMPARE(p.amountRefunded, qint64(1200));
    QVERIFY(p.gatewayStatus.isEmpty());   // cash never had a gateway status
    IntentJournal::Query active;
    active.activeOnly = true;
    QCOMPARE(await<qint64>([&](auto r) {
        m_journal->count(active, this, r);
    }).value,
        qint64(0));   // nothing to send
}

void TestRefundJournal::oneOpenRefundIsAPropertyOfTheFile()
{
    const Intent paid = payment(QStringLiteral("ord-index"));
    VERIFY_OK(create(newRefund(paid.key, 100)));
    // A writer that skipped the rules (a careless tool, a bug) still cannot open a second one.
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("tst-raw"));
        db.setDatabaseName(m_dir->filePath(QStringLiteral("journal.db")));
        QVERIFY2(db.open(), qPrintable(db.lastError().text()));
        QSqlQuery q(db);
        const QString insert = QStringLiteral(
            "INSERT INTO intents (idem_key, kind, order_id, amount, currency, payment_method, state, payment_key,"
            " created_at, updated_at) VALUES ('%1', 'refund', 'ord-index', 100, 'CNY', '', '%2', '%3', 1, 1)");
        QVERIFY(!q.exec(insert.arg(QStringLiteral("ref-raw-1"), QStringLiteral("unknown"), paid.key)));
        QVERIFY2(q.lastError().text().contains(QLatin1String("UNIQUE")), qPrintable(q.lastError().text()));
        // A final one is not open: allowed.
        QVERIFY2(q.exec(insert.arg(QStringLiteral("ref-raw-2"), QStringLiteral("declined"), paid.key)),
            qPrintable(q.lastError().text()));
        q.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("tst-raw"));
}

void TestRefundJournal::concurrentRefundsOfOnePayment()
{
    // Several requests at once (a double click, two scripts): they share one batch of the journal,
    // and the rule is checked inside each one's transaction: exactly one is stored.
    const Intent paid = payment(QStringLiteral("ord-burst"));
    constexpr int n = 6;
    QList<std::shared_ptr<Answer<Intent>>> answers;
    for (int k = 0; k < n; ++k) {
        auto a = std::make_shared<Answer<Intent>>();
        answers << a;
        m_journal->create(newRefund(paid.key, 100 + k), this, [a](bool ok, const TillError &e, Intent v) {
            *a = Answer<Intent>{true, ok, e, v};
        });
    }
    QVERIFY(QTest::qWaitFor([&] {
        return std::all_of(answers.cbegin(), answers.cend(), [](const auto &a) {
            return a->done;
        });
    },
        kWaitMs));
    int stored = 0;
    for (const auto &a : std::as_const(answers)) {
        stored += a->ok;
        if (!a->ok)
            QCOMPARE(a->error.kind(), TillError::Kind::RefundStillOpen);
    }
    QCOMPARE(stored, 1);
}

void TestRefundJournal::voidRules_data()
{
    QTest::addColumn<QString>("history");   // how the intent got where it is
    QTest::addColumn<TillError::Kind>("refused");   // None: voided
    using K = TillError::Kind;
    const K mayHave = K::VoidPaymentMayHaveReached;
    const K earlierTry = K::VoidPaymentEarlierTry;
    QTest::newRow("queued, never tried") << QStringLiteral("queued") << K::None;
    QTest::newRow("queued after a try that was never sent") << QStringLiteral("not sent") << K::None;
    QTest::newRow("queued after two tries never sent") << QStringLiteral("not sent twice") << K::None;
    QTest::newRow("queued after an answered try (502)") << QStringLiteral("answered 502") << earlierTry;
    QTest::newRow("queued after an answer lost, then 404") << QStringLiteral("answer lost") << earlierTry;
    QTest::newRow("queued after a crash while sending") << QStringLiteral("crash") << earlierTry;
    QTest::newRow("sending") << QStringLiteral("sending") << mayHave;
    QTest::newRow("processing") << QStringLiteral("processing") << mayHave;
    QTest::newRow("unknown") << QStringLiteral("unknown") << mayHave;
    QTest::newRow("paid by card") << QStringLiteral("succeeded") << K::VoidPaymentPaid;
    QTest::newRow("declined") << QStringLiteral("declined") << K::VoidPaymentDeclined;
    QTest::newRow("needs attention") << QStringLiteral("needs_attention") << K::VoidRefusedByGateway;
    QTest::newRow("voided already") << QStringLiteral("voided") << K::VoidedAlready;
    QTest::newRow("paid in cash") << QStringLiteral("cash") << K::VoidCashPaymentFinal;
    QTest::newRow("refund queued, never sent") << QStringLiteral("refund") << K::None;
    QTest::newRow("refund lost after sending") << QStringLiteral("refund unknown") << K::VoidRefundMayHaveReached;
    QTest::newRow("cash refund") << QStringLiteral("cash refund") << K::VoidCashRefundFinal;
    QTest::newRow("no such key") << QStringLiteral("none") << K::NoIntentWithKey;
}

void TestRefundJournal::voidRules()
{
    QFETCH(QString, history);
    QFETCH(TillError::Kind, refused);
    using T = Attempt::Transport;
    Intent i;
    if (history == QLatin1String("none")) {
        i.key = QStringLiteral("pay-nobody");
    } else if (history.startsWith(QLatin1String("refund")) || history == QLatin1String("cash refund")) {
        const bool cash = history == QLatin1String("cash refund");
        const Intent paid = payment(QStringLiteral("ord-v"), IntentState::Succeeded, cash ? Tender::Cash : Tender::Card);
        const auto c = create(newRefund(paid.key, 100, cash ? Tender::Cash : Tender::Card));
        VERIFY_OK(c);
        i = c.value;
        if (history == QLatin1String("refund unknown")) {
            QVERIFY(move(i, IntentState::Sending));
            QVERIFY(move(i, IntentState::Unknown, postAttempt(T::AnswerLost)));
        }
    } else if (history == QLatin1String("cash")) {
        i = payment(QStringLiteral("ord-v"), IntentState::Succeeded, Tender::Cash);
    } else {
        i = payment(QStringLiteral("ord-v"), IntentState::Queued);
        // Each try: `sending` with the attempt counted, then how it ended.
        auto tried = [&](IntentState to, const std::optional<Attempt> &a) {
            i.attempts += 1;
            return move(i, IntentState::Sending) && move(i, to, a);
        };
        if (history == QLatin1String("not sent")) {
            QVERIFY(tried(IntentState::Queued, postAttempt(T::NotSent)));
        } else if (history == QLatin1String("not sent twice")) {
            QVERIFY(tried(IntentState::Queued, postAttempt(T::NotSent)));
            QVERIFY(tried(IntentState::Queued, postAttempt(T::NotSent)));
        } else if (history == QLatin1String("answered 502")) {
            QVERIFY(tried(IntentState::Queued, postAttempt(T::Answered, 502)));
        } else if (history == QLatin1String("answer lost")) {
            QVERIFY(tried(IntentState::Unknown, postAttempt(T::AnswerLost)));
            Attempt lookup;
            lookup.kind = Attempt::Kind::Lookup;
            lookup.httpStatus = 404;
            QVERIFY(move(i, IntentState::Queued, lookup));
        } else if (history == QLatin1String("crash")) {
            i.attempts += 1;
            QVERIFY(move(i, IntentState::Sending));
            QVERIFY(await<int>([&](auto r) {
                m_journal->recoverInterrupted(this, r);
            }).value
                == 1);
            i = find(i.key);
            Attempt lookup;
            lookup.kind = Attempt::Kind::Lookup;
            lookup.httpStatus = 404;
            QVERIFY(move(i, IntentState::Queued, lookup));   // the gateway had not seen it (yet)
        } else if (history != QLatin1String("queued")) {
            const IntentState to = intentStateFromName(history).value();
            if (to != IntentState::Queued)
                QVERIFY(move(i, to));
        }
    }
    const IntentState before = i.isValid() ? find(i.key).state : IntentState::Queued;
    const qsizetype linesBefore = i.isValid() ? lines(i.key).size() : 0;
    const auto v = voidIntent(i.key);
    QVERIFY(v.done);
    if (refused != TillError::Kind::None) {
        VERIFY_REFUSED_AS(v, refused);
        if (i.isValid()) {
            QCOMPARE(v.value.key, i.key);   // the intent as stored
            QCOMPARE(find(i.key).state, before);
            QCOMPARE(lines(i.key).size(), linesBefore);
        }
        return;
    }
    VERIFY_OK(v);
    QCOMPARE(v.value.state, IntentState::Voided);
    QCOMPARE(find(i.key).state, IntentState::Voided);
    const QList<JournalEntry> after = lines(i.key);
    QCOMPARE(after.size(), linesBefore + 1);
    QCOMPARE(after.last().fromState, QStringLiteral("queued"));
    QCOMPARE(after.last().toState, QStringLiteral("voided"));
    // Voided once: a second void says so.
    const auto again = voidIntent(i.key);
    VERIFY_REFUSED_AS(again, TillError::Kind::VoidedAlready);
}

void TestRefundJournal::voidFreesTheSaleAndNothingIsSentAfter()
{
    const Intent queued = payment(QStringLiteral("ord-free"), IntentState::Queued);
    VERIFY_REFUSED(create(newIntent(queued.orderId)));   // locked while it waits
    VERIFY_OK(voidIntent(queued.key));
    // A send decided earlier (from `queued`) finds it voided: nothing is written, nothing may go out.
    Intent sending = queued;
    sending.state = IntentState::Sending;
    sending.attempts = 1;
    const auto stale = update(sending, IntentState::Queued);
    VERIFY_OK(stale);
    QVERIFY(!stale.value);
    QCOMPARE(find(queued.key).state, IntentState::Voided);
    QCOMPARE(find(queued.key).attempts, 0);
    IntentJournal::Query active;
    active.activeOnly = true;
    QCOMPARE(await<qint64>([&](auto r) {
        m_journal->count(active, this, r);
    }).value,
        qint64(0));
    // The sale takes a new payment, with a new key.
    const auto next = create(newIntent(queued.orderId));
    VERIFY_OK(next);
    QVERIFY(next.value.key != queued.key);
}

void TestRefundJournal::voidAndSendRace_data()
{
    QTest::addColumn<bool>("sendFirst");
    QTest::newRow("send recorded first: the void is refused") << true;
    QTest::newRow("void first: the send is not applied") << false;
}

void TestRefundJournal::voidAndSendRace()
{
    // Both asked without waiting in between, as the engine and a cashier's click would: the
    // journal runs them one after the other, and exactly one of them applies.
    QFETCH(bool, sendFirst);
    const Intent queued = payment(QStringLiteral("ord-race"), IntentState::Queued);
    Intent sending = queued;
    sending.state = IntentState::Sending;
    sending.attempts = 1;
    auto sent = std::make_shared<Answer<bool>>();
    auto voided = std::make_shared<Answer<Intent>>();
    auto send = [&] {
        m_journal->update(sending, IntentState::Queued, QStringLiteral("attempt 1"), std::nullopt, this,
            [sent](bool ok, const TillError &e, bool v) {
                *sent = Answer<bool>{true, ok, e, v};
            });
    };
    auto cancel = [&] {
        m_journal->voidIntent(queued.key, this, [voided](bool ok, const TillError &e, Intent v) {
            *voided = Answer<Intent>{true, ok, e, v};
        });
    };
    if (sendFirst) {
        send();
        cancel();
    } else {
        cancel();
        send();
    }
    QVERIFY(QTest::qWaitFor([&] {
        return sent->done && voided->done;
    },
        kWaitMs));
    QVERIFY2(sent->ok, qPrintable(sent->error.text()));
    QCOMPARE(sent->value, sendFirst);
    QCOMPARE(voided->ok, !sendFirst);
    if (sendFirst)
        QCOMPARE(voided->error.kind(), TillError::Kind::VoidPaymentMayHaveReached);
    QCOMPARE(find(queued.key).state, sendFirst ? IntentState::Sending : IntentState::Voided);
}

QTEST_GUILESS_MAIN(TestRefundJournal)
#include "tst_refundjournal.moc"
