// oncepay-bench-intent: click to durable intent. How long IntentJournal::create takes from the
// call to its callback (the intent and its key committed with synchronous=FULL), next to one
// fdatasync of the same disk (DESIGN.md: p99 within 2x one fdatasync).
//
// Two runs on one journal in a fresh directory on the disk given by --dir: creates issued one at
// a time (the next one from the previous one's callback, as a cashier's clicks), then with
// --concurrency creates outstanding at once (several tills' worth of clicks; group commit shares
// one fsync between them). The disk's fdatasync is measured in blocks interleaved with the creates.
#include "fsyncprobe.h"

#include "idempotencykey.h"
#include "intentjournal.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <functional>

using namespace OncePay;

namespace {

struct Run
{
    std::vector<bench::Nanos> samples;   // call -> callback, sorted after the run
    bench::Nanos elapsed = 0;
    int failures = 0;
    QString firstError;
};

Intent newIntent(qint64 n)
{
    Intent i;
    i.key = IdempotencyKey::generate(QStringLiteral("pay")).value();
    i.orderId = QStringLiteral("bench-%1").arg(n);
    i.amount = Money(1999, QStringLiteral("CNY"));
    i.paymentMethod = QStringLiteral("tok_visa");
    i.state = IntentState::Queued;
    return i;
}

// `count` creates with at most `outstanding` at a time; each new one starts from a callback.
Run measure(IntentJournal &journal, qint64 &serial, int count, int outstanding)
{
    Run run;
    run.samples.reserve(std::size_t(count));
    QEventLoop loop;
    int issued = 0;
    int answered = 0;
    std::function<void()> issue = [&] {
        if (issued >= count)
            return;
        ++issued;
        const bench::Nanos t0 = bench::nowNs();
        journal.create(newIntent(++serial), &loop, [&, t0](bool ok, const TillError &error, const Intent &) {
            run.samples.push_back(bench::nowNs() - t0);
            if (!ok && run.failures++ == 0)
                run.firstError = error.text();
            if (++answered == count)
                loop.quit();
            else
                issue();
        });
    };
    const bench::Nanos start = bench::nowNs();
    for (int i = 0; i < outstanding; ++i)
        issue();
    if (answered < count)
        loop.exec();
    run.elapsed = bench::nowNs() - start;
    std::sort(run.samples.begin(), run.samples.end());
    return run;
}

double us(bench::Nanos ns)
{
    return double(ns) / 1e3;
}

// One run of creates, cut into blocks with a block of fdatasync rounds before each: the disk of
// a shared machine changes speed within seconds, so the two are measured over the same time.
struct Phase
{
    Run creates;
    std::vector<bench::Nanos> fsync;   // sorted
    QString error;
};

Phase runPhase(IntentJournal &journal, qint64 &serial, const std::string &dir, int count, int outstanding,
    long fsyncCount, int blocks)
{
    Phase phase;
    for (int b = 0; b < blocks; ++b) {
        const long rounds = fsyncCount / blocks + (b < fsyncCount % blocks ? 1 : 0);
        const int creates = count / blocks + (b < count % blocks ? 1 : 0);
        if (rounds > 0) {
            bench::FsyncProbe probe = bench::probeFdatasync(dir, rounds);
            if (!probe.ok) {
                phase.error = QString::fromStdString(probe.error);
                return phase;
            }
            phase.fsync.insert(phase.fsync.end(), probe.samples.begin(), probe.samples.end());
        }
        if (creates > 0) {
            Run r = measure(journal, serial, creates, outstanding);
            phase.creates.samples.insert(phase.creates.samples.end(), r.samples.begin(), r.samples.end());
            phase.creates.elapsed += r.elapsed;
            if (r.failures && phase.creates.failures == 0)
                phase.creates.firstError = r.firstError;
            phase.creates.failures += r.failures;
        }
    }
    std::sort(phase.fsync.begin(), phase.fsync.end());
    std::sort(phase.creates.samples.begin(), phase.creates.samples.end());
    return phase;
}

void printPhase(const std::string &label, const Phase &phase)
{
    const Run &r = phase.creates;
    const double p50 = us(bench::percentile(r.samples, 0.50));
    const double p99 = us(bench::percentile(r.samples, 0.99));
    const double max = us(bench::percentile(r.samples, 1.0));
    const double rate = double(r.samples.size()) * 1e9 / double(std::max<bench::Nanos>(1, r.elapsed));
    const double f50 = us(bench::percentile(phase.fsync, 0.50));
    const double f99 = us(bench::percentile(phase.fsync, 0.99));
    std::printf("%s\n", label.c_str());
    std::printf("  create     %6zu calls  p50 %7.0f us  p99 %7.0f us  max %7.0f us  %6.0f creates/s\n", r.samples.size(),
        p50, p99, max, rate);
    std::printf("  fdatasync  %6zu calls  p50 %7.0f us  p99 %7.0f us  max %7.0f us  (4 KiB appended, interleaved)\n",
        phase.fsync.size(), f50, f99, us(bench::percentile(phase.fsync, 1.0)));
    std::printf("  create p50 = %.2fx fdatasync p50; create p99 = %.2fx one fdatasync (p50), %.2fx fdatasync p99"
                " (target: p99 within 2x one fdatasync)\n",
        p50 / std::max(1.0, f50), p99 / std::max(1.0, f50), p99 / std::max(1.0, f99));
    if (r.failures)
        std::printf("  FAILED: %d creates, first: %s\n", r.failures, qPrintable(r.firstError));
}

}   // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Click-to-durable-intent latency of the till's journal."));
    p.addHelpOption();
    p.addOptions({{QStringLiteral("dir"), QStringLiteral("Directory on the disk to measure (default: current)."), QStringLiteral("PATH"), QStringLiteral(".")},
        {QStringLiteral("count"), QStringLiteral("Creates per run (default 2000)."), QStringLiteral("N"), QStringLiteral("2000")},
        {QStringLiteral("concurrency"), QStringLiteral("Outstanding creates in the second run (default 8)."), QStringLiteral("C"), QStringLiteral("8")},
        {QStringLiteral("fsync-count"), QStringLiteral("fdatasync rounds of each disk probe (default 2000)."), QStringLiteral("N"), QStringLiteral("2000")}});
    if (!p.parse(QCoreApplication::arguments())) {
        std::fprintf(stderr, "oncepay-bench-intent: %s (see --help)\n", qPrintable(p.errorText()));
        return 2;
    }
    if (p.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(p.helpText()), stdout);
        return 0;
    }
    if (!p.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "oncepay-bench-intent: unexpected argument %s (see --help)\n", qPrintable(p.positionalArguments().constFirst()));
        return 2;
    }
    const std::string dirArg = p.value(QStringLiteral("dir")).toStdString();
    const int count = bench::parseValue("--count", p.value(QStringLiteral("count")).toStdString(), 1, 10'000'000);
    const int concurrency = bench::parseValue("--concurrency", p.value(QStringLiteral("concurrency")).toStdString(), 1, 10'000);
    const long fsyncCount = bench::parseValue("--fsync-count", p.value(QStringLiteral("fsync-count")).toStdString(), 1L, 10'000'000L);

    QTemporaryDir dir(QDir(QString::fromStdString(dirArg)).filePath(QStringLiteral("oncepay-bench-intent-XXXXXX")));
    if (!dir.isValid()) {
        std::fprintf(stderr, "oncepay-bench-intent: cannot create a directory in %s: %s\n", dirArg.c_str(), qPrintable(dir.errorString()));
        return 1;
    }
    IntentJournal journal({dir.filePath(QStringLiteral("journal.db"))});
    TillError error;
    if (!journal.open(&error)) {
        std::fprintf(stderr, "oncepay-bench-intent: %s\n", qPrintable(error.text()));
        return 1;
    }
    const std::string where = dir.path().toStdString();
    const bench::FsyncProbe disk = bench::probeFdatasync(where, 1);
    if (!disk.ok) {
        std::fprintf(stderr, "oncepay-bench-intent: %s\n", disk.error.c_str());
        return 1;
    }
    qint64 serial = 0;
    measure(journal, serial, std::min(count, 50), 1);   // warm-up: file growth, statement cache
    const int blocks = std::min(10, count);
    const Phase sequential = runPhase(journal, serial, where, count, 1, fsyncCount, blocks);
    const Phase concurrent = runPhase(journal, serial, where, count, concurrency, fsyncCount, blocks);
    journal.close();
    for (const Phase *phase : {&sequential, &concurrent}) {
        if (!phase->error.isEmpty()) {
            std::fprintf(stderr, "oncepay-bench-intent: %s\n", qPrintable(phase->error));
            return 1;
        }
    }

    std::printf("journal (SQLite WAL, synchronous=FULL) in %s%s\n", qPrintable(dir.path()),
        disk.tmpfs ? "  (tmpfs: fdatasync is a no-op there)" : "");
    printPhase("IntentJournal::create, one at a time (call -> callback):", sequential);
    printPhase("IntentJournal::create, " + std::to_string(concurrency) + " outstanding:", concurrent);
    return sequential.creates.failures || concurrent.creates.failures ? 1 : 0;
}
