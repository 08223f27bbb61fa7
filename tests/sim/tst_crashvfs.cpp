// CrashVfs, the simulator's disk: through Qt's SQLite driver, what was synced survives every
// crash, what was not may be lost or torn but never leaves a database SQLite calls corrupt, the
// same seed makes the same crash, a full disk is an error that loses nothing, and the handles
// of the crashed process are dead.
#include "crashvfs.h"

#include <QCryptographicHash>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QtTest>

using OncePay::Sim::CrashVfs;

namespace {

constexpr char kPath[] = "/disk/journal.db";

// One connection on the simulated disk; removed from Qt's registry when it goes.
class Connection final
{
public:
    Connection(const CrashVfs &vfs, const QString &synchronous)
        : m_name(QStringLiteral("crashvfs-%1").arg(++s_count))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_URI"));
        db.setDatabaseName(vfs.uri(QLatin1String(kPath)));
        m_open = db.open();
        m_error = db.lastError().text();
        if (m_open) {
            // A small page cache: a long transaction spills its pages into the WAL before it
            // commits, so that a crash has unsynced, uncommitted frames to keep, lose or tear.
            m_open = exec(QStringLiteral("PRAGMA journal_mode=WAL")) && exec(QStringLiteral("PRAGMA synchronous=") + synchronous)
                && exec(QStringLiteral("PRAGMA cache_size=4"))
                && exec(QStringLiteral("CREATE TABLE IF NOT EXISTS intents (id INTEGER PRIMARY KEY, body BLOB NOT NULL)"));
        }
    }
    ~Connection()
    {
        {
            QSqlDatabase db = QSqlDatabase::database(m_name, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_name);
    }
    bool isOpen() const { return m_open; }
    QString error() const { return m_error; }

    bool exec(const QString &sql)
    {
        QSqlQuery q(QSqlDatabase::database(m_name, false));
        if (q.exec(sql))
            return true;
        m_error = q.lastError().text();
        return false;
    }
    bool insert(int id, const QByteArray &body)
    {
        QSqlQuery q(QSqlDatabase::database(m_name, false));
        q.prepare(QStringLiteral("INSERT INTO intents (id, body) VALUES (?, ?)"));
        q.addBindValue(id);
        q.addBindValue(body);
        if (q.exec())
            return true;
        m_error = q.lastError().text();
        return false;
    }
    QString scalar(const QString &sql)
    {
        QSqlQuery q(QSqlDatabase::database(m_name, false));
        if (!q.exec(sql) || !q.next()) {
            m_error = q.lastError().text();
            return QStringLiteral("<%1>").arg(m_error);
        }
        return q.value(0).toString();
    }
    QList<int> ids()
    {
        QList<int> out;
        QSqlQuery q(QSqlDatabase::database(m_name, false));
        q.exec(QStringLiteral("SELECT id FROM intents ORDER BY id"));
        while (q.next())
            out.append(q.value(0).toInt());
        return out;
    }

private:
    static inline int s_count = 0;
    QString m_name;
    bool m_open = false;
    QString m_error;
};

QByteArray body(int id)
{
    // Several sectors per row, so that a torn write cuts through one.
    return QByteArray(1500, char('a' + id % 26));
}

// The rows 1..n, as a crash may leave them: a prefix of what was committed.
bool isPrefix(const QList<int> &ids, int n)
{
    if (ids.size() > n)
        return false;
    for (int i = 0; i < ids.size(); ++i) {
        if (ids.at(i) != i + 1)
            return false;
    }
    return true;
}

struct AfterCrash
{
    int pendingChanges = 0;
    QString integrity;
    QList<int> ids;
    QByteArray diskHash;
};

// Commits `committed` rows one transaction each, starts one more it never commits, crashes with
// `seed` while the connection is open, and reopens.
AfterCrash commitThenCrash(std::uint64_t seed, const QString &synchronous, int committed)
{
    CrashVfs::seedSqliteRandomness(std::uint32_t(seed));
    CrashVfs vfs(QStringLiteral("crash-%1").arg(seed), seed);
    AfterCrash r;
    {
        Connection c(vfs, synchronous);
        if (!c.isOpen())
            return {0, QStringLiteral("open: ") + c.error(), {}, {}};
        for (int id = 1; id <= committed; ++id) {
            if (!c.insert(id, body(id)))
                return {0, QStringLiteral("insert: ") + c.error(), {}, {}};
        }
        c.exec(QStringLiteral("BEGIN"));
        for (int id = committed + 1; id <= committed + 20; ++id)
            c.insert(id, body(id));
        r.pendingChanges = vfs.crash(seed);
        // The dead process's connection closes on a disk it can no longer touch.
    }
    Connection again(vfs, synchronous);
    if (!again.isOpen())
        return {r.pendingChanges, QStringLiteral("reopen: ") + again.error(), {}, {}};
    r.integrity = again.scalar(QStringLiteral("PRAGMA integrity_check"));
    r.ids = again.ids();
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(vfs.durableContent(QLatin1String(kPath)));
    hash.addData(vfs.durableContent(QLatin1String(kPath) + QStringLiteral("-wal")));
    r.diskHash = hash.result().toHex();
    return r;
}

}   // namespace

class TestCrashVfs final : public QObject
{
    Q_OBJECT

private slots:
    void syncedCommitsSurviveEveryCrash();
    void unsyncedCommitsMayGoButNeverCorrupt();
    void theSameSeedMakesTheSameCrash();
    void aCheckpointSurvivesACrash();
    void aFullDiskRefusesAndLosesNothing();
    void handlesOfTheCrashedProcessAreDead();
};

void TestCrashVfs::syncedCommitsSurviveEveryCrash()
{
    // synchronous=FULL: every commit synced the WAL. Whatever the crash does to what is pending
    // (the open transaction's pages, nothing else), all 20 commits are there.
    int pendingSeen = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        const AfterCrash r = commitThenCrash(seed, QStringLiteral("FULL"), 20);
        QVERIFY2(r.integrity == QLatin1String("ok"), qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(r.integrity)));
        QCOMPARE(r.ids.size(), 20);
        QVERIFY(isPrefix(r.ids, 20));
        pendingSeen += r.pendingChanges;
    }
    QVERIFY2(pendingSeen > 0, "no crash had anything pending: the test crashed nothing");
}

void TestCrashVfs::unsyncedCommitsMayGoButNeverCorrupt()
{
    // synchronous=OFF: commits are never synced (until a checkpoint). A crash keeps, loses or
    // tears each pending write; SQLite's WAL checksums keep a prefix of the commits, and the
    // database is never corrupt. Across seeds, some lose commits and some keep some: the disk
    // really models the crash.
    int lostSome = 0;
    int keptSome = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        const AfterCrash r = commitThenCrash(seed, QStringLiteral("OFF"), 12);
        QVERIFY2(r.integrity == QLatin1String("ok"), qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(r.integrity)));
        QVERIFY2(isPrefix(r.ids, 12), qPrintable(QStringLiteral("seed %1: not a prefix of the commits").arg(seed)));
        lostSome += r.ids.size() < 12 ? 1 : 0;
        keptSome += r.ids.isEmpty() ? 0 : 1;
    }
    QVERIFY2(lostSome > 0, "no crash lost an unsynced commit");
    QVERIFY2(keptSome > 0, "every crash lost every unsynced commit");
}

void TestCrashVfs::theSameSeedMakesTheSameCrash()
{
    const AfterCrash a = commitThenCrash(7, QStringLiteral("OFF"), 12);
    const AfterCrash b = commitThenCrash(7, QStringLiteral("OFF"), 12);
    QCOMPARE(a.ids, b.ids);
    QCOMPARE(a.diskHash, b.diskHash);
    // And some other seed crashes differently.
    bool differs = false;
    for (std::uint64_t seed = 8; seed < 40 && !differs; ++seed)
        differs = commitThenCrash(seed, QStringLiteral("OFF"), 12).diskHash != a.diskHash;
    QVERIFY(differs);
}

void TestCrashVfs::aCheckpointSurvivesACrash()
{
    // The WAL copied into the database file and truncated (the database file's own writes and a
    // truncate), more commits after it, then a crash: everything synced is there.
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        CrashVfs::seedSqliteRandomness(std::uint32_t(seed));
        CrashVfs vfs(QStringLiteral("checkpoint-%1").arg(seed), seed);
        {
            Connection c(vfs, QStringLiteral("FULL"));
            QVERIFY2(c.isOpen(), qPrintable(c.error()));
            for (int id = 1; id <= 200; ++id)
                QVERIFY2(c.insert(id, body(id)), qPrintable(c.error()));
            QVERIFY2(c.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)")), qPrintable(c.error()));
            QVERIFY(vfs.durableContent(QLatin1String(kPath)).size() > 200 * 1500);
            for (int id = 201; id <= 210; ++id)
                QVERIFY2(c.insert(id, body(id)), qPrintable(c.error()));
            c.exec(QStringLiteral("BEGIN"));
            for (int id = 211; id <= 240; ++id)
                c.insert(id, body(id));
            vfs.crash(seed);
        }
        Connection again(vfs, QStringLiteral("FULL"));
        QVERIFY2(again.isOpen(), qPrintable(again.error()));
        QCOMPARE(again.scalar(QStringLiteral("PRAGMA integrity_check")), QStringLiteral("ok"));
        const QList<int> ids = again.ids();
        QCOMPARE(ids.size(), 210);
        QVERIFY(isPrefix(ids, 210));
    }
}

void TestCrashVfs::aFullDiskRefusesAndLosesNothing()
{
    CrashVfs vfs(QStringLiteral("full"));
    Connection c(vfs, QStringLiteral("FULL"));
    QVERIFY2(c.isOpen(), qPrintable(c.error()));
    for (int id = 1; id <= 5; ++id)
        QVERIFY2(c.insert(id, body(id)), qPrintable(c.error()));
    vfs.setCapacity(vfs.bytesUsed() + 1000);
    QByteArray big(64 * 1024, 'x');
    QVERIFY(!c.insert(6, big));
    QVERIFY2(c.error().contains(QLatin1String("full"), Qt::CaseInsensitive), qPrintable(c.error()));
    vfs.setCapacity(0);
    QCOMPARE(c.ids(), (QList<int>{1, 2, 3, 4, 5}));
    QVERIFY2(c.insert(6, big), qPrintable(c.error()));
    QCOMPARE(c.scalar(QStringLiteral("PRAGMA integrity_check")), QStringLiteral("ok"));
}

void TestCrashVfs::handlesOfTheCrashedProcessAreDead()
{
    CrashVfs vfs(QStringLiteral("dead"));
    Connection c(vfs, QStringLiteral("FULL"));
    QVERIFY2(c.isOpen(), qPrintable(c.error()));
    QVERIFY(c.insert(1, body(1)));
    const int syncs = vfs.syncCount();
    QVERIFY(syncs > 0);
    vfs.crash(1);
    QVERIFY(!c.insert(2, body(2)));   // the dead process writes nothing
    QCOMPARE(vfs.syncCount(), syncs);
    Connection fresh(vfs, QStringLiteral("FULL"));
    QVERIFY2(fresh.isOpen(), qPrintable(fresh.error()));
    QCOMPARE(fresh.ids(), QList<int>{1});
}

QTEST_GUILESS_MAIN(TestCrashVfs)
#include "tst_crashvfs.moc"
