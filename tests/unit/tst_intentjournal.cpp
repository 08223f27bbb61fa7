// The till's durable memory on a real SQLite file in a QTemporaryDir: intents with their key,
// the append-only journal and the attempts; "one sale, one payment"; recovery after a crash in
// `sending`; and the ways a disk lets the till down (full, unwritable, corrupt).
#include "journaltest.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>

#include <unistd.h>

using namespace OncePay;
using namespace JournalTest;

Q_DECLARE_METATYPE(OncePay::IntentState)

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The tables the first version of the journal created (schema v1), for the migration tests.
const QStringList kVersion1Schema{
    QStringLiteral("CREATE TABLE intents (id INTEGER PRIMARY KEY AUTOINCREMENT, idem_key TEXT NOT NULL UNIQUE,"
                   " order_id TEXT NOT NULL, amount INTEGER NOT NULL, currency TEXT NOT NULL,"
                   " payment_method TEXT NOT NULL, state TEXT NOT NULL, payment_id TEXT, gateway_status TEXT,"
                   " decline_code TEXT, attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER NOT NULL DEFAULT 0,"
                   " last_problem TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)"),
    QStringLiteral("CREATE TABLE journal (id INTEGER PRIMARY KEY AUTOINCREMENT, idem_key TEXT NOT NULL,"
                   " at INTEGER NOT NULL, from_state TEXT, to_state TEXT NOT NULL, detail TEXT)"),
    QStringLiteral("CREATE TABLE attempts (id INTEGER PRIMARY KEY AUTOINCREMENT, idem_key TEXT NOT NULL,"
                   " kind TEXT NOT NULL, started_at INTEGER NOT NULL, ended_at INTEGER NOT NULL, outcome TEXT NOT NULL,"
                   " http_status INTEGER NOT NULL, replayed INTEGER NOT NULL, latency_ms INTEGER NOT NULL)"),
};

// Version 2 = version 1 + the tender and transport columns; version 3 = version 2 + the customer
// and card columns, as their migrations added them.
const QStringList kVersion2Changes{
    QStringLiteral("ALTER TABLE intents ADD COLUMN tender TEXT NOT NULL DEFAULT 'card'"),
    QStringLiteral("ALTER TABLE attempts ADD COLUMN transport TEXT NOT NULL DEFAULT 'answered'"),
};
const QStringList kVersion3Changes{
    QStringLiteral("ALTER TABLE intents ADD COLUMN customer_left_at INTEGER"),
    QStringLiteral("ALTER TABLE intents ADD COLUMN acknowledged_at INTEGER"),
    QStringLiteral("CREATE INDEX intents_customer_left ON intents (customer_left_at) WHERE customer_left_at IS NOT NULL"),
    QStringLiteral("ALTER TABLE intents ADD COLUMN card_brand TEXT"),
    QStringLiteral("ALTER TABLE intents ADD COLUMN card_last4 TEXT"),
    QStringLiteral("ALTER TABLE intents ADD COLUMN authorization_code TEXT"),
};

// Writes a journal file as an earlier version left it; empty, or what failed.
QString writeOldJournal(const QString &path, const QStringList &statements)
{
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("old-journal"));
        db.setDatabaseName(path);
        if (!db.open()) {
            error = db.lastError().text();
        } else {
            QSqlQuery q(db);
            for (const QString &sql : statements) {
                if (error.isEmpty() && !q.exec(sql))
                    error = sql.left(60) + QStringLiteral(": ") + q.lastError().text();
            }
            q.finish();
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("old-journal"));
    return error;
}

}   // namespace

class TestIntentJournal final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void roundTrip();
    void keyIsStoredWithTheIntent();
    void oneSaleOnePayment_data();
    void oneSaleOnePayment();
    void recoverInterrupted();
    void journalIsAppendOnly();
    void fullDisk();
    void unwritableLocation_data();
    void unwritableLocation();
    void corruptFile_data();
    void corruptFile();
    void foreignDatabaseIsRefusedUntouched();
    void secondOwnerIsRefused();
    void readOnlyReadsBesideTheOwner();
    void updateIsCompareAndSet();
    void version1JournalIsMigrated();
    void customerLeftThenAcknowledged();
    void cardDetailsRoundTrip();
    void version2JournalIsMigrated();
    void version3JournalIsMigrated();

private:
    std::unique_ptr<IntentJournal> open(int maxPageCount = 0);
    // The journal's calls, waited for.
    Answer<Intent> create(IntentJournal &j, const Intent &i)
    {
        return await<Intent>([&](auto r) {
            j.create(i, this, r);
        });
    }
    Answer<bool> update(IntentJournal &j, const Intent &after, IntentState from, const QString &detail = {},
        const std::optional<Attempt> &attempt = std::nullopt)
    {
        return await<bool>([&](auto r) {
            j.update(after, from, detail, attempt, this, r);
        });
    }
    Answer<Intent> find(IntentJournal &j, const QString &key)
    {
        return await<Intent>([&](auto r) {
            j.find(key, this, r);
        });
    }
    Answer<QList<JournalEntry>> lines(IntentJournal &j, const QString &key)
    {
        return await<QList<JournalEntry>>([&](auto r) {
            j.journal(key, this, r);
        });
    }
    Answer<qint64> count(IntentJournal &j, const IntentJournal::Query &q)
    {
        return await<qint64>([&](auto r) {
            j.count(q, this, r);
        });
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
};

void TestIntentJournal::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_path = m_dir->filePath(QStringLiteral("journal.db"));
}

void TestIntentJournal::cleanup()
{
    // Give back any permission a row took away, so QTemporaryDir can clean up.
    QFile::setPermissions(m_dir->path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QFile::setPermissions(m_path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    m_dir.reset();
}

std::unique_ptr<IntentJournal> TestIntentJournal::open(int maxPageCount)
{
    auto j = std::make_unique<IntentJournal>(IntentJournal::Options{m_path, maxPageCount});
    TillError error;
    if (!j->open(&error)) {
        qWarning() << "cannot open the journal:" << error;
        return nullptr;
    }
    return j;
}

void TestIntentJournal::roundTrip()
{
    auto j = open();
    QVERIFY(j);
    const Intent a = newIntent(QStringLiteral("ord-1"), 1999);
    const Intent b = newIntent(QStringLiteral("ord-2"), 500, Tender::Cash);
    const auto ca = create(*j, a);
    VERIFY_OK(ca);
    QVERIFY(ca.value.isValid());
    QCOMPARE(ca.value.key, a.key);
    QCOMPARE(ca.value.orderId, a.orderId);
    QCOMPARE(ca.value.amount, a.amount);
    QCOMPARE(ca.value.paymentMethod, a.paymentMethod);
    QCOMPARE(ca.value.state, IntentState::Queued);
    QCOMPARE(ca.value.attempts, 0);
    QVERIFY(ca.value.createdAt > 0);
    const auto cb = create(*j, b);
    VERIFY_OK(cb);
    QVERIFY(cb.value.id > ca.value.id);

    // queued -> sending -> succeeded, with one attempt recorded.
    Intent sending = ca.value;
    sending.state = IntentState::Sending;
    sending.attempts = 1;
    VERIFY_OK(update(*j, sending, IntentState::Queued, QStringLiteral("attempt 1")));
    Intent done = sending;
    done.state = IntentState::Succeeded;
    done.paymentId = QStringLiteral("pay_abc");
    done.gatewayStatus = QStringLiteral("succeeded");
    Attempt attempt;
    attempt.kind = Attempt::Kind::Post;
    attempt.transport = Attempt::Transport::Answered;
    attempt.startedAt = 1000;
    attempt.endedAt = 1042;
    attempt.outcome = QStringLiteral("201 succeeded (replayed)");
    attempt.httpStatus = 201;
    attempt.replayed = true;
    attempt.latencyMs = 42;
    VERIFY_OK(update(*j, done, IntentState::Sending, QStringLiteral("201 succeeded"), attempt));

    // Reopening reads back exactly what was written.
    j.reset();
    j = open();
    QVERIFY(j);
    const auto fa = find(*j, a.key);
    VERIFY_OK(fa);
    QCOMPARE(fa.value.id, ca.value.id);
    QCOMPARE(fa.value.state, IntentState::Succeeded);
    QCOMPARE(fa.value.paymentId, QStringLiteral("pay_abc"));
    QCOMPARE(fa.value.gatewayStatus, QStringLiteral("succeeded"));
    QCOMPARE(fa.value.attempts, 1);
    QCOMPARE(fa.value.amount, a.amount);
    QVERIFY(fa.value.updatedAt >= fa.value.createdAt);
    QVERIFY(!find(*j, QStringLiteral("pay-no-such-key")).value.isValid());

    const auto att = await<QList<Attempt>>([&](auto reply) {
        j->attempts(a.key, this, reply);
    });
    VERIFY_OK(att);
    QCOMPARE(att.value.size(), 1);
    const Attempt &got = att.value[0];
    QCOMPARE((QStringList{got.key, got.outcome}), (QStringList{a.key, attempt.outcome}));
    QCOMPARE(got.kind, Attempt::Kind::Post);
    QCOMPARE(got.transport, Attempt::Transport::Answered);
    QCOMPARE((QList<qint64>{got.startedAt, got.endedAt, got.httpStatus, got.replayed, got.latencyMs}),
        (QList<qint64>{1000, 1042, 201, 1, 42}));

    const auto jl = lines(*j, a.key);
    VERIFY_OK(jl);
    QStringList history;
    for (const JournalEntry &e : std::as_const(jl.value))
        history << QStringLiteral("%1>%2: %3").arg(e.fromState, e.toState, e.detail);
    QCOMPARE(history, (QStringList{QStringLiteral(">queued: created"), QStringLiteral("queued>sending: attempt 1"), QStringLiteral("sending>succeeded: 201 succeeded")}));
    QVERIFY(jl.value[0].id < jl.value[1].id && jl.value[1].id < jl.value[2].id);

    // list and count agree on every filter.
    IntentJournal::Query all;
    IntentJournal::Query active;
    active.activeOnly = true;
    IntentJournal::Query succeeded;
    succeeded.state = IntentState::Succeeded;
    IntentJournal::Query byOrder;
    byOrder.orderId = QStringLiteral("ord-2");
    const QList<std::pair<IntentJournal::Query, QStringList>> expected{
        {all, {a.key, b.key}}, {active, {b.key}}, {succeeded, {a.key}}, {byOrder, {b.key}}};
    for (const auto &row : expected) {
        // Named, not a structured binding: the lambda below refers to it (C++17).
        const IntentJournal::Query &query = row.first;
        const QStringList &keys = row.second;
        const auto l = await<QList<Intent>>([&](auto reply) {
            j->list(query, this, reply);
        });
        VERIFY_OK(l);
        QStringList got;
        for (const Intent &i : l.value)
            got << i.key;
        QCOMPARE(got, keys);
        const auto c = count(*j, query);
        VERIFY_OK(c);
        QCOMPARE(c.value, qint64(keys.size()));
    }
    IntentJournal::Query page;
    page.limit = 1;
    page.offset = 1;
    const auto second = await<QList<Intent>>([&](auto reply) {
        j->list(page, this, reply);
    });
    VERIFY_OK(second);
    QCOMPARE(second.value.size(), 1);
    QCOMPARE(second.value[0].key, b.key);
    const auto act = await<QList<Intent>>([&](auto reply) {
        j->activeIntents(this, reply);
    });
    VERIFY_OK(act);
    QCOMPARE(act.value.size(), 1);
    QCOMPARE(act.value[0].key, b.key);
}

void TestIntentJournal::keyIsStoredWithTheIntent()
{
    auto j = open();
    QVERIFY(j);
    const Intent a = newIntent(QStringLiteral("ord-key"));
    VERIFY_OK(create(*j, a));
    {
        // Another connection sees the committed row as soon as create() has answered.
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("tst-raw"));
        db.setDatabaseName(m_path);
        QVERIFY2(db.open(), qPrintable(db.lastError().text()));
        QSqlQuery q(db);
        QVERIFY(q.prepare(QStringLiteral("SELECT idem_key, state FROM intents WHERE order_id = ?")));
        q.addBindValue(a.orderId);
        QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), a.key);
        QCOMPARE(q.value(1).toString(), QStringLiteral("queued"));
        QVERIFY(!q.next());
    }
    QSqlDatabase::removeDatabase(QStringLiteral("tst-raw"));

    // A key is one intent's forever: the same key for another sale is refused.
    Intent twin = newIntent(QStringLiteral("ord-other"));
    twin.key = a.key;
    const auto t = create(*j, twin);
    VERIFY_REFUSED_AS(t, TillError::Kind::Storage);   // the key's UNIQUE constraint
    IntentJournal::Query other;
    other.orderId = twin.orderId;
    QCOMPARE(count(*j, other).value, qint64(0));
}

void TestIntentJournal::oneSaleOnePayment_data()
{
    QTest::addColumn<QStringList>("earlier");   // states of the sale's earlier intents, oldest first
    QTest::addColumn<TillError::Kind>("refused");   // None: a new intent is allowed

    using K = TillError::Kind;
    const K inProgress = K::OrderPaymentInProgress;
    QTest::newRow("first payment") << QStringList{} << K::None;
    QTest::newRow("queued") << QStringList{QStringLiteral("queued")} << inProgress;
    QTest::newRow("sending") << QStringList{QStringLiteral("sending")} << inProgress;
    QTest::newRow("processing") << QStringList{QStringLiteral("processing")} << inProgress;
    QTest::newRow("unknown") << QStringList{QStringLiteral("unknown")} << inProgress;
    QTest::newRow("succeeded") << QStringList{QStringLiteral("succeeded")} << K::SaleAlreadyPaid;
    QTest::newRow("needs_attention") << QStringList{QStringLiteral("needs_attention")}
                                     << K::OrderPaymentNeedsAttention;
    QTest::newRow("declined") << QStringList{QStringLiteral("declined")} << K::None;
    QTest::newRow("declined twice") << QStringList{QStringLiteral("declined"), QStringLiteral("declined")} << K::None;
    QTest::newRow("declined, then queued") << QStringList{QStringLiteral("declined"), QStringLiteral("queued")}
                                           << inProgress;
    QTest::newRow("declined, then succeeded") << QStringList{QStringLiteral("declined"), QStringLiteral("succeeded")}
                                              << K::SaleAlreadyPaid;
    // Voided: cancelled before it was sent, nothing charged: the sale may be paid again.
    QTest::newRow("voided") << QStringList{QStringLiteral("voided")} << K::None;
    QTest::newRow("voided, then queued") << QStringList{QStringLiteral("voided"), QStringLiteral("queued")} << inProgress;
    QTest::newRow("declined, voided, then succeeded")
        << QStringList{QStringLiteral("declined"), QStringLiteral("voided"), QStringLiteral("succeeded")}
        << K::SaleAlreadyPaid;
}

void TestIntentJournal::oneSaleOnePayment()
{
    QFETCH(QStringList, earlier);
    QFETCH(TillError::Kind, refused);
    auto j = open();
    QVERIFY(j);
    const QString order = QStringLiteral("ord-sale");
    for (const QString &name : earlier) {
        const auto c = create(*j, newIntent(order));
        VERIFY_OK(c);
        Intent after = c.value;
        after.state = intentStateFromName(name).value();
        VERIFY_OK(update(*j, after, IntentState::Queued, QStringLiteral("test")));
    }
    IntentJournal::Query sale;
    sale.orderId = order;
    const Intent next = newIntent(order);
    const auto c = create(*j, next);
    QVERIFY(c.done);
    if (refused == TillError::Kind::None) {
        VERIFY_OK(c);
        QCOMPARE(count(*j, sale).value, qint64(earlier.size() + 1));
    } else {
        VERIFY_REFUSED_AS(c, refused);
        QCOMPARE(count(*j, sale).value, qint64(earlier.size()));   // nothing stored
        QVERIFY(!find(*j, next.key).value.isValid());
    }
    // Another sale is never held up by this one.
    VERIFY_OK(create(*j, newIntent(QStringLiteral("ord-another-sale"))));
}

void TestIntentJournal::recoverInterrupted()
{
    auto j = open();
    QVERIFY(j);
    QMap<QString, Intent> byName;
    const QStringList states{QStringLiteral("sending"), QStringLiteral("queued"), QStringLiteral("processing"),
        QStringLiteral("sending"), QStringLiteral("succeeded"), QStringLiteral("unknown")};
    for (int n = 0; n < states.size(); ++n) {
        const auto c = create(*j, newIntent(QStringLiteral("ord-r%1").arg(n)));
        VERIFY_OK(c);
        Intent after = c.value;
        after.state = intentStateFromName(states[n]).value();
        after.nextAttemptAt = 4'000'000'000'000;   // far away: recovery makes it due now
        VERIFY_OK(update(*j, after, IntentState::Queued, QStringLiteral("test")));
        byName.insert(QStringLiteral("%1-%2").arg(states[n]).arg(n), after);
    }
    // The process dies; the next start finds the file as it was.
    j.reset();
    j = open();
    QVERIFY(j);
    const auto r = await<int>([&](auto reply) {
        j->recoverInterrupted(this, reply);
    });
    VERIFY_OK(r);
    QCOMPARE(r.value, 2);
    for (auto it = byName.cbegin(); it != byName.cend(); ++it) {
        const auto f = find(*j, it->key);
        VERIFY_OK(f);
        const auto jl = lines(*j, it->key);
        VERIFY_OK(jl);
        if (it->state == IntentState::Sending) {
            QCOMPARE(f.value.state, IntentState::Unknown);
            QCOMPARE(f.value.nextAttemptAt, qint64(0));
            QCOMPARE(jl.value.size(), 3);
            QCOMPARE(jl.value.last().fromState, QStringLiteral("sending"));
            QCOMPARE(jl.value.last().toState, QStringLiteral("unknown"));
            QVERIFY2(jl.value.last().detail.contains(QLatin1String("interrupted")), qPrintable(jl.value.last().detail));
        } else {
            QCOMPARE(f.value.state, it->state);
            QCOMPARE(f.value.nextAttemptAt, it->nextAttemptAt);
            QCOMPARE(jl.value.size(), 2);
        }
    }
    const auto again = await<int>([&](auto reply) {
        j->recoverInterrupted(this, reply);
    });
    VERIFY_OK(again);
    QCOMPARE(again.value, 0);
}

void TestIntentJournal::journalIsAppendOnly()
{
    auto j = open();
    QVERIFY(j);
    const auto c = create(*j, newIntent(QStringLiteral("ord-audit")));
    VERIFY_OK(c);
    Intent after = c.value;
    after.state = IntentState::Sending;
    VERIFY_OK(update(*j, after, IntentState::Queued, QStringLiteral("attempt 1")));
    const auto before = lines(*j, c.value.key);
    VERIFY_OK(before);
    QCOMPARE(before.value.size(), 2);

    {
        // While the till runs, from a connection of its own, as a tool or a careless fix would.
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("tst-audit"));
        db.setDatabaseName(m_path);
        QVERIFY2(db.open(), qPrintable(db.lastError().text()));
        const QStringList rewrites{
            QStringLiteral("UPDATE journal SET detail = 'rewritten'"),
            QStringLiteral("UPDATE journal SET to_state = 'succeeded' WHERE idem_key = '%1'").arg(c.value.key),
            QStringLiteral("DELETE FROM journal WHERE idem_key = '%1'").arg(c.value.key),
            QStringLiteral("DELETE FROM journal"),
        };
        for (const QString &sql : rewrites) {
            QSqlQuery q(db);
            QVERIFY2(!q.exec(sql), qPrintable(sql));
            QVERIFY2(q.lastError().text().contains(QLatin1String("append-only")), qPrintable(q.lastError().text()));
        }
        QSqlQuery n(db);
        QVERIFY(n.exec(QStringLiteral("SELECT COUNT(*) FROM journal")));
        QVERIFY(n.next());
        QCOMPARE(n.value(0).toInt(), 2);
    }
    QSqlDatabase::removeDatabase(QStringLiteral("tst-audit"));

    const auto now = lines(*j, c.value.key);
    VERIFY_OK(now);
    auto rows = [](const QList<JournalEntry> &l) {
        QStringList out;
        for (const JournalEntry &e : l)
            out << QStringLiteral("%1 %2 %3>%4 %5").arg(e.id).arg(e.at).arg(e.fromState, e.toState, e.detail);
        return out;
    };
    QCOMPARE(rows(now.value), rows(before.value));
    // Appending stays possible: the journal grows with the next change.
    after.state = IntentState::Unknown;
    VERIFY_OK(update(*j, after, IntentState::Sending, QStringLiteral("timed out")));
    QCOMPARE(lines(*j, c.value.key).value.size(), 3);
}

void TestIntentJournal::fullDisk()
{
    auto j = open(40);   // 40 pages of 4 KiB: a disk that fills after a few dozen intents
    QVERIFY(j);
    QStringList stored;
    QStringList refused;
    QString error;
    const QString padding(600, QLatin1Char('x'));   // long order numbers fill the pages faster
    for (int round = 0; refused.isEmpty() && round < 200; ++round) {
        // A few at once, as a busy till would: they share a transaction, each in its savepoint.
        QList<std::shared_ptr<Answer<Intent>>> answers;
        QList<Intent> intents;
        for (int n = 0; n < 4; ++n) {
            intents << newIntent(QStringLiteral("ord-%1-%2-%3").arg(round).arg(n).arg(padding));
            auto a = std::make_shared<Answer<Intent>>();
            answers << a;
            j->create(intents.last(), this, [a](bool ok, const TillError &e, Intent v) {
                *a = Answer<Intent>{true, ok, e, v};
            });
        }
        QVERIFY(QTest::qWaitFor([&] {
            return std::all_of(answers.cbegin(), answers.cend(), [](const auto &a) {
                return a->done;
            });
        },
            kWaitMs));
        for (int n = 0; n < answers.size(); ++n) {
            if (answers[n]->ok) {
                stored << intents[n].key;
            } else {
                refused << intents[n].key;
                QCOMPARE(answers[n]->error.kind(), TillError::Kind::Storage);
                error = answers[n]->error.detail();   // SQLite's own words, not ours
            }
        }
    }
    QVERIFY2(!stored.isEmpty(), "nothing fitted at all");
    QVERIFY2(!refused.isEmpty(), "the disk never filled up");
    QVERIFY2(error.contains(QLatin1String("full"), Qt::CaseInsensitive), qPrintable(error));

    // A full disk loses nothing: what was acknowledged is there, what was refused is not,
    // and the file opens again (without the limit, as after freeing space) and takes more.
    j.reset();
    j = open();
    QVERIFY(j);
    IntentJournal::Query all;
    all.limit = -1;
    const auto l = await<QList<Intent>>([&](auto reply) {
        j->list(all, this, reply);
    });
    VERIFY_OK(l);
    QSet<QString> keys;
    for (const Intent &i : l.value)
        keys.insert(i.key);
    QCOMPARE(keys, QSet<QString>(stored.cbegin(), stored.cend()));
    for (const QString &key : std::as_const(stored))
        QCOMPARE(lines(*j, key).value.size(), 1);
    for (const QString &key : std::as_const(refused)) {
        QVERIFY(!keys.contains(key));
        QCOMPARE(lines(*j, key).value.size(), 0);
    }
    VERIFY_OK(create(*j, newIntent(QStringLiteral("ord-after-space-freed"))));
}

void TestIntentJournal::unwritableLocation_data()
{
    QTest::addColumn<QString>("how");
    // Each of these fails for root as well, except the last, which only binds other users.
    QTest::newRow("parent is a regular file") << QStringLiteral("parent-file");
    QTest::newRow("journal path is a directory") << QStringLiteral("directory");
    QTest::newRow("parent directory missing") << QStringLiteral("missing-parent");
    QTest::newRow("read-only file and directory") << QStringLiteral("chmod");
}

void TestIntentJournal::unwritableLocation()
{
    QFETCH(QString, how);
    QString path = m_path;
    QByteArray before;
    if (how == QLatin1String("parent-file")) {
        QFile f(m_dir->filePath(QStringLiteral("not-a-dir")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("a regular file\n");
        f.close();
        path = f.fileName() + QStringLiteral("/journal.db");
    } else if (how == QLatin1String("directory")) {
        QVERIFY(QDir(m_dir->path()).mkdir(QStringLiteral("journal.db")));
    } else if (how == QLatin1String("missing-parent")) {
        path = m_dir->filePath(QStringLiteral("no/such/dir/journal.db"));
    } else if (how == QLatin1String("chmod")) {
        if (::geteuid() == 0)
            QSKIP("running as root: permission bits do not stop root's writes (the other rows fail for root too)");
        {
            auto j = open();
            QVERIFY(j);
            VERIFY_OK(create(*j, newIntent(QStringLiteral("ord-before"))));
        }
        before = readAll(m_path);
        QVERIFY(QFile::setPermissions(m_path, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
        QVERIFY(QFile::setPermissions(m_dir->path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner));
    }

    IntentJournal j(IntentJournal::Options{path, 0});
    TillError error;
    const bool opened = j.open(&error);
    QVERIFY2(!opened, "a journal opened where none can be written");
    // Either its lock file cannot be made beside it, or the database cannot be: both name the file.
    QVERIFY2(error.kind() == TillError::Kind::JournalLockUnavailable || error.kind() == TillError::Kind::JournalUnusable,
        qPrintable(error.text()));
    QVERIFY2(!error.args().isEmpty() && error.args().first().startsWith(path), qPrintable(error.text()));
    QVERIFY2(error.text().contains(path), qPrintable(error.text()));
    if (how == QLatin1String("chmod")) {
        // The lock file is there from before: SQLite itself refuses, and its reason is kept.
        QCOMPARE(error.kind(), TillError::Kind::JournalUnusable);
        QVERIFY2(error.detail().contains(QLatin1String("readonly"), Qt::CaseInsensitive), qPrintable(error.detail()));
    }
    VERIFY_REFUSED(create(j, newIntent(QStringLiteral("ord-after"))));
    // Whatever the failure, the till did not leave a half-made journal behind.
    if (how == QLatin1String("parent-file"))
        QCOMPARE(readAll(m_dir->filePath(QStringLiteral("not-a-dir"))), QByteArray("a regular file\n"));
    if (how == QLatin1String("directory")) {
        QVERIFY(QFileInfo(path).isDir());
        QVERIFY(QDir(path).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System));
    }
    if (how == QLatin1String("missing-parent"))
        QVERIFY(!QFileInfo::exists(m_dir->filePath(QStringLiteral("no"))));
    if (how == QLatin1String("chmod")) {
        j.close();
        QCOMPARE(readAll(m_path), before);
    }
}

void TestIntentJournal::corruptFile_data()
{
    QTest::addColumn<QByteArray>("content");   // empty: a real journal cut in half
    QRandomGenerator rng(1234);
    QByteArray random(64 * 1024, Qt::Uninitialized);
    for (char &c : random)
        c = char(rng.bounded(256));
    QTest::newRow("random bytes") << random;
    QTest::newRow("a text file") << QByteArray("order,amount\nord-1,19.99\n").repeated(200);
    QByteArray header("SQLite format 3", 16);   // with its terminating NUL
    QTest::newRow("SQLite header, garbage after") << (header + random.left(8192));
    QTest::newRow("journal cut in half") << QByteArray();
}

void TestIntentJournal::corruptFile()
{
    QFETCH(QByteArray, content);
    if (content.isEmpty()) {
        {
            auto j = open();
            QVERIFY(j);
            for (int n = 0; n < 60; ++n)
                VERIFY_OK(create(*j, newIntent(QStringLiteral("ord-%1-%2").arg(n).arg(QString(200, QLatin1Char('x'))))));
        }
        QVERIFY(!QFileInfo::exists(m_path + QStringLiteral("-wal")));   // checkpointed on close
        content = readAll(m_path);
        QVERIFY(content.size() > 8 * 4096);
        content.truncate(content.size() / 2);
    }
    {
        QFile f(m_path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QCOMPARE(f.write(content), qint64(content.size()));
    }
    IntentJournal j(IntentJournal::Options{m_path, 0});
    TillError error;
    QVERIFY2(!j.open(&error), "a corrupt file opened as a journal");
    QCOMPARE(error.kind(), TillError::Kind::JournalUnusable);
    QCOMPARE(error.args(), QStringList{m_path});
    // SQLite's own reason, for support (the cashier's words come from the kind).
    QVERIFY2(error.detail().contains(QLatin1String("not a database"), Qt::CaseInsensitive)
            || error.detail().contains(QLatin1String("malformed"), Qt::CaseInsensitive),
        qPrintable(error.detail()));
    // The evidence is kept as it was: never replaced, never "repaired".
    QCOMPARE(readAll(m_path), content);
    // Every call on the journal that did not open says so, and nothing is created.
    const auto c = create(j, newIntent(QStringLiteral("ord-corrupt")));
    VERIFY_REFUSED_AS(c, TillError::Kind::JournalNotOpen);
    QCOMPARE(readAll(m_path), content);
}

void TestIntentJournal::foreignDatabaseIsRefusedUntouched()
{
    // Another program's SQLite file (the gateway's, say) given by mistake: never converted.
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("foreign"));
        db.setDatabaseName(m_path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("CREATE TABLE payments (id TEXT PRIMARY KEY, amount INTEGER)")));
        QVERIFY(q.exec(QStringLiteral("INSERT INTO payments VALUES ('pay_1', 100)")));
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version=1")));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("foreign"));
    const QByteArray before = readAll(m_path);
    IntentJournal j(IntentJournal::Options{m_path, 0});
    TillError error;
    QVERIFY2(!j.open(&error), "another program's database opened as a journal");
    QCOMPARE(error.kind(), TillError::Kind::JournalForeign);
    QCOMPARE(error.args(), QStringList{m_path});
    QCOMPARE(readAll(m_path), before);
    QVERIFY(!QFileInfo::exists(m_path + QStringLiteral("-wal")));
}

void TestIntentJournal::secondOwnerIsRefused()
{
    auto owner = open();
    QVERIFY(owner);
    // A second process (or a second journal object: the lock file does not know the difference)
    // that would change the journal is refused, naming the owner.
    IntentJournal second(IntentJournal::Options{m_path});
    TillError error;
    QVERIFY(!second.open(&error));
    QCOMPARE(error.kind(), TillError::Kind::JournalInUse);
    // The owner as its lock file names it: its process id, then its program's name.
    QCOMPARE(error.args().size(), 2);
    QCOMPARE(error.args().at(0), m_path);
    QCOMPARE(error.args().at(1).section(QLatin1Char(' '), 0, 0), QString::number(QCoreApplication::applicationPid()));
    // It takes the journal once the owner is gone.
    owner.reset();
    QVERIFY2(second.open(&error), qPrintable(error.text()));
}

void TestIntentJournal::readOnlyReadsBesideTheOwner()
{
    IntentJournal::Options ro{m_path};
    ro.readOnly = true;
    {
        IntentJournal missing(ro);
        TillError error;
        QVERIFY(!missing.open(&error));
        QCOMPARE(error.kind(), TillError::Kind::JournalMissing);
        QCOMPARE(error.args(), QStringList{m_path});
        QVERIFY(!QFile::exists(m_path));   // nothing created
    }
    auto owner = open();
    QVERIFY(owner);
    const auto created = create(*owner, newIntent(QStringLiteral("ord-ro")));
    VERIFY_OK(created);
    Intent sending = created.value;
    sending.state = IntentState::Sending;
    VERIFY_OK(update(*owner, sending, IntentState::Queued, QStringLiteral("attempt 1")));

    IntentJournal reader(ro);
    TillError error;
    QVERIFY2(reader.open(&error), qPrintable(error.text()));
    const auto seen = find(reader, sending.key);
    VERIFY_OK(seen);
    QCOMPARE(seen.value.state, IntentState::Sending);
    // A reader changes nothing: not the owner's live `sending` intent, not anything else.
    const auto recovered = await<int>([&](auto r) {
        reader.recoverInterrupted(this, r);
    });
    VERIFY_REFUSED(recovered);
    Intent unknown = sending;
    unknown.state = IntentState::Unknown;
    VERIFY_REFUSED(update(reader, unknown, IntentState::Sending, QStringLiteral("not mine")));
    QCOMPARE(find(*owner, sending.key).value.state, IntentState::Sending);
    QCOMPARE(lines(*owner, sending.key).value.size(), 2);   // created, attempt 1
}

void TestIntentJournal::updateIsCompareAndSet()
{
    auto j = open();
    QVERIFY(j);
    const auto created = create(*j, newIntent(QStringLiteral("ord-cas")));
    VERIFY_OK(created);
    Intent sending = created.value;
    sending.state = IntentState::Sending;
    const auto first = update(*j, sending, IntentState::Queued, QStringLiteral("attempt 1"));
    VERIFY_OK(first);
    QVERIFY(first.value);
    // A decision made from a state the journal no longer holds is not applied, and leaves no line.
    Intent processing = created.value;
    processing.state = IntentState::Processing;
    Attempt attempt;
    attempt.kind = Attempt::Kind::Post;
    attempt.httpStatus = 202;
    const auto stale = update(*j, processing, IntentState::Queued, QStringLiteral("202 from a stale decision"), attempt);
    VERIFY_OK(stale);
    QVERIFY(!stale.value);
    QCOMPARE(find(*j, sending.key).value.state, IntentState::Sending);
    QCOMPARE(lines(*j, sending.key).value.size(), 2);
    QCOMPARE(await<QList<Attempt>>([&](auto r) {
        j->attempts(sending.key, this, r);
    }).value.size(),
        0);
    // From the state it holds, it applies.
    const auto fresh = update(*j, processing, IntentState::Sending, QStringLiteral("202"), attempt);
    VERIFY_OK(fresh);
    QVERIFY(fresh.value);
    QCOMPARE(find(*j, sending.key).value.state, IntentState::Processing);
}

void TestIntentJournal::version1JournalIsMigrated()
{
    // A journal written by the first version: cash was the payment method "cash", and how an
    // attempt ended was only in its English outcome.
    const QString error = writeOldJournal(m_path, kVersion1Schema + QStringList{
                                                      QStringLiteral("INSERT INTO intents (idem_key, order_id, amount, currency, payment_method, state, created_at,"
                                                                     " updated_at) VALUES ('pay-cash', 'o1', 500, 'CNY', 'cash', 'succeeded', 1, 1),"
                                                                     " ('pay-card', 'o2', 700, 'CNY', 'tok_visa', 'unknown', 1, 1)"),
                                                      QStringLiteral("INSERT INTO attempts (idem_key, kind, started_at, ended_at, outcome, http_status, replayed,"
                                                                     " latency_ms) VALUES ('pay-card', 'post', 1, 2, 'no answer after sending: timed out', 0, 0, 1),"
                                                                     " ('pay-card', 'lookup', 3, 4, 'not sent: connection refused', 0, 0, 1),"
                                                                     " ('pay-card', 'poll', 5, 6, '202 processing', 202, 0, 1)"),
                                                      QStringLiteral("PRAGMA user_version=1"),
                                                  });
    QVERIFY2(error.isEmpty(), qPrintable(error));

    auto j = open();
    QVERIFY(j);
    const Intent cash = find(*j, QStringLiteral("pay-cash")).value;
    QCOMPARE(cash.tender, Tender::Cash);
    QVERIFY(cash.isCash());
    QVERIFY(cash.paymentMethod.isEmpty());
    const Intent card = find(*j, QStringLiteral("pay-card")).value;
    QCOMPARE(card.tender, Tender::Card);
    QCOMPARE(card.paymentMethod, QStringLiteral("tok_visa"));
    const QList<Attempt> tries = await<QList<Attempt>>([&](auto r) {
        j->attempts(card.key, this, r);
    }).value;
    QCOMPARE(tries.size(), 3);
    QCOMPARE(tries[0].kind, Attempt::Kind::Post);
    QCOMPARE(tries[0].transport, Attempt::Transport::AnswerLost);
    QCOMPARE(tries[1].kind, Attempt::Kind::Lookup);
    QCOMPARE(tries[1].transport, Attempt::Transport::NotSent);
    QCOMPARE(tries[2].kind, Attempt::Kind::Poll);
    QCOMPARE(tries[2].transport, Attempt::Transport::Answered);
}

void TestIntentJournal::customerLeftThenAcknowledged()
{
    auto j = open();
    QVERIFY(j);
    const auto created = create(*j, newIntent(QStringLiteral("ord-left")));
    VERIFY_OK(created);
    const Intent queued = created.value;
    auto late = [&] {
        return await<QList<Intent>>([&](auto r) {
            j->lateOutcomes(this, r);
        });
    };
    QCOMPARE(late().value.size(), 0);
    // The customer leaves while it waits: followed, with a journal line.
    const auto left = await<bool>([&](auto r) {
        j->markCustomerLeft(queued.key, this, r);
    });
    VERIFY_OK(left);
    QVERIFY(left.value);
    QVERIFY(!await<bool>([&](auto r) {
        j->markCustomerLeft(queued.key, this, r);
    }).value);   // once
    QCOMPARE(late().value.size(), 1);
    QVERIFY(late().value.first().customerLeftAt > 0);
    QCOMPARE(lines(*j, queued.key).value.size(), 2);
    // Not acknowledgeable while it is not final.
    QVERIFY(!await<bool>([&](auto r) {
        j->acknowledge(queued.key, this, r);
    }).value);
    // Declined later: still listed (an alert) until acknowledged, then gone for good.
    Intent declined = queued;
    declined.state = IntentState::Declined;
    declined.declineCode = QStringLiteral("card_declined");
    VERIFY_OK(update(*j, declined, IntentState::Queued, QStringLiteral("402 declined")));
    QCOMPARE(late().value.size(), 1);
    QCOMPARE(late().value.first().state, IntentState::Declined);
    const auto ack = await<bool>([&](auto r) {
        j->acknowledge(queued.key, this, r);
    });
    VERIFY_OK(ack);
    QVERIFY(ack.value);
    QCOMPARE(late().value.size(), 0);
    QVERIFY(find(*j, queued.key).value.acknowledgedAt > 0);
    QCOMPARE(lines(*j, queued.key).value.size(), 4);   // created, left, declined, acknowledged

    // A paid one is never an alert; a final one cannot be left.
    const auto paid = create(*j, newIntent(QStringLiteral("ord-left-paid")));
    VERIFY_OK(paid);
    VERIFY_OK(await<bool>([&](auto r) {
        j->markCustomerLeft(paid.value.key, this, r);
    }));
    Intent succeeded = paid.value;
    succeeded.state = IntentState::Succeeded;
    VERIFY_OK(update(*j, succeeded, IntentState::Queued, QStringLiteral("201")));
    QCOMPARE(late().value.size(), 0);
    QVERIFY(!await<bool>([&](auto r) {
        j->markCustomerLeft(paid.value.key, this, r);
    }).value);
}

void TestIntentJournal::cardDetailsRoundTrip()
{
    auto j = open();
    QVERIFY(j);
    const auto created = create(*j, newIntent(QStringLiteral("ord-card")));
    VERIFY_OK(created);
    QVERIFY(created.value.cardBrand.isEmpty());
    QVERIFY(created.value.authorizationCode.isEmpty());
    Intent sending = created.value;
    sending.state = IntentState::Sending;
    VERIFY_OK(update(*j, sending, IntentState::Queued, QStringLiteral("attempt 1")));
    // The gateway's payment names the card and the authorization code: the receipt prints them.
    Intent paid = sending;
    paid.state = IntentState::Succeeded;
    paid.paymentId = QStringLiteral("pay_1");
    paid.cardBrand = QStringLiteral("visa");
    paid.cardLast4 = QStringLiteral("4242");
    paid.authorizationCode = QStringLiteral("A1B2C3");
    VERIFY_OK(update(*j, paid, IntentState::Sending, QStringLiteral("201")));
    const Intent back = find(*j, paid.key).value;
    QCOMPARE(back.cardBrand, QStringLiteral("visa"));
    QCOMPARE(back.cardLast4, QStringLiteral("4242"));
    QCOMPARE(back.authorizationCode, QStringLiteral("A1B2C3"));
    // And after the journal is opened again.
    j.reset();
    j = open();
    QVERIFY(j);
    const Intent reopened = find(*j, paid.key).value;
    QCOMPARE(reopened.cardLast4, QStringLiteral("4242"));
    QCOMPARE(reopened.authorizationCode, QStringLiteral("A1B2C3"));
}

void TestIntentJournal::version2JournalIsMigrated()
{
    // A journal written by version 2 (tender and transport columns, no card): it opens, its
    // intents read with no card, and a later answer stores one.
    // Version 2 = version 1 + the tender and transport columns, as its migration added them.
    const QString error = writeOldJournal(m_path, kVersion1Schema + kVersion2Changes + QStringList{
                                                      QStringLiteral("INSERT INTO intents (idem_key, order_id, amount, currency, payment_method, state, payment_id,"
                                                                     " created_at, updated_at, tender) VALUES"
                                                                     " ('pay-old', 'o1', 500, 'CNY', 'tok_visa', 'succeeded', 'pay_old', 1, 1, 'card'),"
                                                                     " ('pay-wait', 'o2', 700, 'CNY', 'tok_visa', 'unknown', NULL, 1, 1, 'card')"),
                                                      QStringLiteral("PRAGMA user_version=2"),
                                                  });
    QVERIFY2(error.isEmpty(), qPrintable(error));

    auto j = open();
    QVERIFY(j);
    const Intent old = find(*j, QStringLiteral("pay-old")).value;
    QCOMPARE(old.state, IntentState::Succeeded);
    QCOMPARE(old.paymentId, QStringLiteral("pay_old"));
    QVERIFY(old.cardBrand.isEmpty());
    QVERIFY(old.cardLast4.isEmpty());
    QVERIFY(old.authorizationCode.isEmpty());
    Intent settled = find(*j, QStringLiteral("pay-wait")).value;
    QCOMPARE(settled.state, IntentState::Unknown);
    settled.state = IntentState::Succeeded;
    settled.cardBrand = QStringLiteral("mastercard");
    settled.cardLast4 = QStringLiteral("4444");
    settled.authorizationCode = QStringLiteral("Z9Y8X7");
    VERIFY_OK(update(*j, settled, IntentState::Unknown, QStringLiteral("lookup 200")));
    const Intent back = find(*j, QStringLiteral("pay-wait")).value;
    QCOMPARE(back.cardBrand, QStringLiteral("mastercard"));
    QCOMPARE(back.authorizationCode, QStringLiteral("Z9Y8X7"));
}

void TestIntentJournal::version3JournalIsMigrated()
{
    // A journal written by version 3 (no kinds: every intent was a payment; no voided state): it
    // opens as version 4, its intents read as payments with nothing refunded, and the sale rules
    // read the kind (a sale paid before the upgrade stays paid).
    const QString error = writeOldJournal(m_path, kVersion1Schema + kVersion2Changes + kVersion3Changes + QStringList{
                                                      QStringLiteral("INSERT INTO intents (idem_key, order_id, amount, currency, payment_method, state, payment_id,"
                                                                     " gateway_status, created_at, updated_at, tender, card_brand, card_last4, authorization_code)"
                                                                     " VALUES ('pay-paid', 'o1', 1999, 'CNY', 'tok_visa', 'succeeded', 'pay_1', 'succeeded', 1, 1,"
                                                                     " 'card', 'visa', '4242', 'A1B2C3'),"
                                                                     " ('pay-cash', 'o2', 500, 'CNY', '', 'succeeded', NULL, NULL, 1, 1, 'cash', NULL, NULL, NULL),"
                                                                     " ('pay-wait', 'o3', 700, 'CNY', 'tok_visa', 'queued', NULL, NULL, 1, 1, 'card', NULL, NULL, NULL)"),
                                                      QStringLiteral("PRAGMA user_version=3"),
                                                  });
    QVERIFY2(error.isEmpty(), qPrintable(error));

    auto j = open();
    QVERIFY(j);
    const Intent paid = find(*j, QStringLiteral("pay-paid")).value;
    QVERIFY(paid.isValid());
    QCOMPARE(paid.kind, IntentKind::Payment);
    QVERIFY(!paid.isRefund());
    QCOMPARE(paid.state, IntentState::Succeeded);
    QCOMPARE(paid.paymentId, QStringLiteral("pay_1"));
    QCOMPARE(paid.cardLast4, QStringLiteral("4242"));
    QCOMPARE(paid.amountRefunded, qint64(0));
    QVERIFY(paid.paymentKey.isEmpty() && paid.refundId.isEmpty() && paid.reason.isEmpty());
    QCOMPARE(find(*j, QStringLiteral("pay-cash")).value.kind, IntentKind::Payment);
    IntentJournal::Query payments;
    payments.kind = IntentKind::Payment;
    QCOMPARE(count(*j, payments).value, qint64(3));
    IntentJournal::Query refunds;
    refunds.kind = IntentKind::Refund;
    QCOMPARE(count(*j, refunds).value, qint64(0));
    VERIFY_REFUSED(create(*j, newIntent(QStringLiteral("o1"))));   // still paid
    VERIFY_REFUSED(create(*j, newIntent(QStringLiteral("o3"))));   // still in progress

    // A queued payment of the old file can now end voided, which frees its sale.
    Intent voided = find(*j, QStringLiteral("pay-wait")).value;
    voided.state = IntentState::Voided;
    VERIFY_OK(update(*j, voided, IntentState::Queued, QStringLiteral("test")));
    IntentJournal::Query active;
    active.activeOnly = true;
    QCOMPARE(count(*j, active).value, qint64(0));
    VERIFY_OK(create(*j, newIntent(QStringLiteral("o3"))));
    j.reset();

    // The file says the latest version (4 added the refund columns and the one-open-refund index).
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("tst-v4"));
        db.setDatabaseName(m_path);
        QVERIFY2(db.open(), qPrintable(db.lastError().text()));
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version")) && q.next());
        QCOMPARE(q.value(0).toInt(), IntentJournal::schemaVersion);
        QVERIFY(q.exec(QStringLiteral("SELECT kind, payment_key, refund_id, reason, amount_refunded FROM intents"
                                      " WHERE idem_key = 'pay-paid'"))
            && q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("payment"));
        QVERIFY(q.value(1).isNull() && q.value(2).isNull() && q.value(3).isNull());
        QCOMPARE(q.value(4).toLongLong(), qint64(0));
        QVERIFY(q.exec(QStringLiteral("SELECT sql FROM sqlite_master WHERE name = 'intents_one_open_refund'")) && q.next());
        QVERIFY2(q.value(0).toString().contains(QLatin1String("UNIQUE")), qPrintable(q.value(0).toString()));
        q.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("tst-v4"));
}

QTEST_GUILESS_MAIN(TestIntentJournal)
#include "tst_intentjournal.moc"
