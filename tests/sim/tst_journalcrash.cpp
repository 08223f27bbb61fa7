// The till's first promise on the simulator's disk: an intent the journal said it stored is
// there after the machine crashes, whatever the crash does to what was not synced. The journal
// is the real IntentJournal (its SqlBatchWorker, schema and pragmas) opened through CrashVfs;
// the machine crashes while a burst of stores is in flight, and the journal reopened after it
// must hold every intent it confirmed, and be a database SQLite calls sound.
#include "crashvfs.h"
#include "journaltest.h"

#include <QLoggingCategory>
#include <QSet>
#include <QtTest>

using namespace OncePay;
using namespace JournalTest;
using OncePay::Sim::CrashVfs;

class TestJournalCrash final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void confirmedIntentsSurviveEveryCrash();
};

void TestJournalCrash::initTestCase()
{
    // A crashed journal's thread reports its failed writes as warnings: expected here.
    QLoggingCategory::setFilterRules(QStringLiteral("oncepay.core.sql.warning=false"));
}

void TestJournalCrash::confirmedIntentsSurviveEveryCrash()
{
    const QString path = QStringLiteral("/till/journal.db");
    int pendingAtCrashes = 0;
    int confirmedInBursts = 0;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        CrashVfs::seedSqliteRandomness(std::uint32_t(seed));
        CrashVfs vfs(QStringLiteral("journal-%1").arg(seed), seed);
        QSet<QString> confirmed;
        int answered = 0;
        // Outside the journal's scope: the burst's answers arrive after it is closed, and read it.
        std::atomic<bool> dead{false};
        constexpr int burst = 40;
        {
            IntentJournal j({path, 0, false, vfs.name()});
            TillError error;
            QVERIFY2(j.open(&error), qPrintable(error.text()));
            // One at a time, each answered before the next.
            for (int i = 0; i < 10; ++i) {
                const Intent intent = newIntent(QStringLiteral("ord-%1-%2").arg(seed).arg(i), 100 + i);
                const Answer<Intent> a = await<Intent>([&](auto reply) {
                    j.create(intent, this, reply);
                });
                VERIFY_OK(a);
                confirmed.insert(intent.key);
            }
            // A burst the journal batches; the machine dies while its commits are on their way.
            // What it answered ok before it died is the promise; what it answers after is the
            // dead process talking, and is not counted.
            for (int i = 0; i < burst; ++i) {
                const Intent intent = newIntent(QStringLiteral("burst-%1-%2").arg(seed).arg(i), 5000 + i);
                j.create(intent, this, [&, key = intent.key](bool ok, const TillError &, const Intent &) {
                    ++answered;
                    if (ok && !dead.load()) {
                        confirmed.insert(key);
                        ++confirmedInBursts;
                    }
                });
                if (i == burst / 2)
                    QTRY_VERIFY_WITH_TIMEOUT(answered > 0, kWaitMs);   // some commits are in, others queued
            }
            // Answers already handed to this thread were given before the crash: take them in.
            QCoreApplication::processEvents();
            dead.store(true);
            pendingAtCrashes += vfs.crash(seed);
            j.close();
        }
        QTRY_COMPARE_WITH_TIMEOUT(answered, burst, kWaitMs);

        IntentJournal again({path, 0, false, vfs.name()});
        TillError error;
        QVERIFY2(again.open(&error), qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(error.text())));
        IntentJournal::Query all;
        all.limit = 1000;
        const Answer<QList<Intent>> stored = await<QList<Intent>>([&](auto reply) {
            again.list(all, this, reply);
        });
        VERIFY_OK(stored);
        QSet<QString> keys;
        for (const Intent &i : stored.value)
            keys.insert(i.key);
        for (const QString &key : std::as_const(confirmed))
            QVERIFY2(keys.contains(key), qPrintable(QStringLiteral("seed %1: the journal confirmed %2, and the crash lost it").arg(seed).arg(key)));
        const Answer<bool> sound = await<bool>([&](auto reply) {
            again.transact<bool>(
                this, [](SqlTx &tx) {
                    QSqlQuery &q = tx.exec(QStringLiteral("PRAGMA integrity_check"));
                    return q.next() && q.value(0).toString() == QLatin1String("ok");
                },
                reply);
        });
        VERIFY_OK(sound);
        QVERIFY2(sound.value, qPrintable(QStringLiteral("seed %1: integrity_check failed").arg(seed)));
    }
    // The runs did crash something: commits were in flight, and some of the burst was confirmed.
    QVERIFY2(pendingAtCrashes > 0, "no crash found anything unsynced: the test crashed nothing");
    QVERIFY(confirmedInBursts > 0);
}

QTEST_GUILESS_MAIN(TestJournalCrash)
#include "tst_journalcrash.moc"
