// oncepay-bench-simdisk: what a commit costs on the simulator's disk (CrashVfs), next to the
// same commit on the real one, and whether that cost grows with the data. Commits one row per
// transaction, synchronous=FULL, WAL (the journal's settings), and reports the microseconds per
// commit over the first and the last 1,000, then a crash and the reopen after it.
//
//   oncepay-bench-simdisk [--rows N] [--dir PATH]   (PATH: where the real-disk run writes)
#include "crashvfs.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <cstdio>

using OncePay::Sim::CrashVfs;

namespace {

struct Run
{
    double firstUs = 0;   // per commit, the first 1,000
    double lastUs = 0;   // per commit, the last 1,000
    double totalS = 0;
    bool ok = false;
};

Run commit(const QString &connection, int rows)
{
    Run r;
    QSqlDatabase db = QSqlDatabase::database(connection, false);
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("PRAGMA journal_mode=WAL")) || !q.exec(QStringLiteral("PRAGMA synchronous=FULL"))
        || !q.exec(QStringLiteral("CREATE TABLE intents (id INTEGER PRIMARY KEY, body BLOB NOT NULL)"))) {
        std::fprintf(stderr, "oncepay-bench-simdisk: %s\n", qPrintable(q.lastError().text()));
        return r;
    }
    q.prepare(QStringLiteral("INSERT INTO intents (id, body) VALUES (?, ?)"));
    const QByteArray body(300, 'x');   // about an intent's row
    QElapsedTimer total;
    total.start();
    QElapsedTimer window;
    window.start();
    for (int id = 1; id <= rows; ++id) {
        q.bindValue(0, id);
        q.bindValue(1, body);
        if (!q.exec()) {
            std::fprintf(stderr, "oncepay-bench-simdisk: %s\n", qPrintable(q.lastError().text()));
            return r;
        }
        if (id == 1000)
            r.firstUs = double(window.nsecsElapsed()) / 1000.0 / 1000.0;
        if (id == rows - 1000)
            window.restart();
    }
    r.lastUs = double(window.nsecsElapsed()) / 1000.0 / 1000.0;
    r.totalS = double(total.nsecsElapsed()) / 1e9;
    r.ok = true;
    return r;
}

}   // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int rows = 20000;
    QString dir = QDir::currentPath();
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args.at(i) == QLatin1String("--rows") && i + 1 < args.size())
            rows = args.at(++i).toInt();
        else if (args.at(i) == QLatin1String("--dir") && i + 1 < args.size())
            dir = args.at(++i);
        else {
            std::fprintf(stderr, "oncepay-bench-simdisk: unknown option %s (use --rows N, --dir PATH)\n", qPrintable(args.at(i)));
            return 2;
        }
    }
    if (rows < 2000) {
        std::fprintf(stderr, "oncepay-bench-simdisk: --rows must be at least 2000\n");
        return 2;
    }

    CrashVfs::seedSqliteRandomness(1);
    CrashVfs vfs(QStringLiteral("bench"));
    Run sim;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("sim"));
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_URI"));
        db.setDatabaseName(vfs.uri(QStringLiteral("/disk/bench.db")));
        if (!db.open()) {
            std::fprintf(stderr, "oncepay-bench-simdisk: %s\n", qPrintable(db.lastError().text()));
            return 1;
        }
        sim = commit(QStringLiteral("sim"), rows);
        vfs.crash(1);
    }
    QSqlDatabase::removeDatabase(QStringLiteral("sim"));
    // The reopen after the crash: SQLite rebuilds the WAL index from the WAL.
    QElapsedTimer reopen;
    reopen.start();
    qint64 survived = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("again"));
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_URI"));
        db.setDatabaseName(vfs.uri(QStringLiteral("/disk/bench.db")));
        QSqlQuery q(db);
        if (db.open() && q.exec(QStringLiteral("SELECT count(*) FROM intents")) && q.next())
            survived = q.value(0).toLongLong();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("again"));
    const double reopenMs = double(reopen.nsecsElapsed()) / 1e6;

    QTemporaryDir tmp(QDir(dir).filePath(QStringLiteral("oncepay-bench-simdisk-XXXXXX")));
    Run real;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("real"));
        db.setDatabaseName(tmp.filePath(QStringLiteral("bench.db")));
        if (!db.open()) {
            std::fprintf(stderr, "oncepay-bench-simdisk: %s\n", qPrintable(db.lastError().text()));
            return 1;
        }
        real = commit(QStringLiteral("real"), rows);
    }
    QSqlDatabase::removeDatabase(QStringLiteral("real"));

    std::printf("simulated disk: %d commits in %.2f s = %.0f/s; per commit %.1f us (first 1000), %.1f us (last 1000); "
                "crash, reopen and count: %.1f ms, %lld of %d rows\n",
        rows, sim.totalS, rows / sim.totalS, sim.firstUs, sim.lastUs, reopenMs, static_cast<long long>(survived), rows);
    std::printf("real disk (%s): %d commits in %.2f s = %.0f/s; per commit %.1f us (first 1000), %.1f us (last 1000)\n",
        qPrintable(dir), rows, real.totalS, rows / real.totalS, real.firstUs, real.lastUs);
    return sim.ok && real.ok && survived == rows ? 0 : 1;
}
