// oncepay-sim: the deterministic simulator (issue 22, docs/simulation.md).
//
//   oncepay-sim --seed S [--seeds N] [--payments N] [--tills T] [--gateways G] [--faults LIST]
//
// Runs seeds S .. S+N-1, one world each, on this one thread and virtual time. Prints a line per
// seed that broke an invariant (with the command that reproduces it and a shrunk one), a summary,
// and last `trace <hex>`: the SHA-256 of every seed's trace, the same for the same seeds on the
// same commit. Exit 0: every invariant held; 1: one did not; 2: bad usage.
#include "simworld.h"
#include "virtualtime.h"

#include "crashvfs.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QHashSeed>
#include <QLoggingCategory>

#include <cstdio>
#include <limits>

using namespace OncePay::Sim;

namespace {

QString commandFor(const WorldOptions &o)
{
    QString line = QStringLiteral("oncepay-sim --seed %1 --payments %2 --tills %3 --gateways %4")
                       .arg(o.seed)
                       .arg(o.payments)
                       .arg(o.tills)
                       .arg(o.gateways);
    const QStringList kinds = allFaultKinds();
    if (o.faults != QSet<QString>(kinds.cbegin(), kinds.cend())) {
        QStringList enabled;
        for (const QString &k : kinds) {
            if (o.faults.contains(k))
                enabled.append(k);
        }
        line += QStringLiteral(" --faults ") + (enabled.isEmpty() ? QStringLiteral("none") : enabled.join(QLatin1Char(',')));
    }
    return line;
}

// The smallest world found that still breaks an invariant: fewer payments, then fewer fault kinds.
WorldOptions shrink(WorldOptions o, VirtualTime *time, WorldReport *last)
{
    auto fails = [&](const WorldOptions &candidate) {
        WorldReport r = runWorld(candidate, time);
        if (r.violations.isEmpty())
            return false;
        *last = r;
        return true;
    };
    while (o.payments > 1) {
        WorldOptions fewer = o;
        fewer.payments = o.payments / 2;
        if (!fails(fewer))
            break;
        o = fewer;
    }
    for (const QString &kind : allFaultKinds()) {
        if (!o.faults.contains(kind))
            continue;
        WorldOptions without = o;
        without.faults.remove(kind);
        if (fails(without))
            o = without;
    }
    return o;
}

}   // namespace

int main(int argc, char **argv)
{
    // Before the application exists: the main thread's event dispatcher is virtual time, and
    // QHash's seed is fixed, so that iteration orders are the same on every run.
    QHashSeed::setDeterministicGlobalSeed();
    // The wall clock starts on 2027-01-15; jumps move it by minutes, never before 1970.
    auto *time = new VirtualTime(1, 1'800'000'000'000);
    QCoreApplication::setEventDispatcher(time);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("oncepay-sim"));
    OncePay::World::install(time);
    // The product's logs are for its operators; the simulator prints its own trace.
    // ONCEPAY_SIM_LOG: rules of its own, to look inside one seed (e.g. "oncepay.core.*=true"),
    // printed at once with the virtual time (not part of the trace).
    const QByteArray rules = qgetenv("ONCEPAY_SIM_LOG");
    static VirtualTime *clock = time;
    if (!rules.isEmpty()) {
        qInstallMessageHandler([](QtMsgType, const QMessageLogContext &context, const QString &message) {
            std::printf("%lld log %s: %s\n", static_cast<long long>(clock->now()), context.category, qPrintable(message));
        });
    }
    QLoggingCategory::setFilterRules(rules.isEmpty() ? QStringLiteral("*.debug=false\n*.info=false\n*.warning=false\noncepay.*=false")
                                                     : QString::fromUtf8(rules).replace(QLatin1Char(';'), QLatin1Char('\n')));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The deterministic simulator of OncePay: tills, gateways and the bank on one thread and virtual time, faults chosen by a seed, the exactly-once invariants checked."));
    parser.addHelpOption();
    const QCommandLineOption seedOption(QStringLiteral("seed"), QStringLiteral("The first seed (default 1)."), QStringLiteral("S"), QStringLiteral("1"));
    const QCommandLineOption seedsOption(QStringLiteral("seeds"), QStringLiteral("How many seeds, from --seed on (default 1)."), QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption paymentsOption(QStringLiteral("payments"), QStringLiteral("Payments per seed, over all tills (default 200)."), QStringLiteral("N"), QStringLiteral("200"));
    const QCommandLineOption tillsOption(QStringLiteral("tills"), QStringLiteral("Tills (default 2)."), QStringLiteral("T"), QStringLiteral("2"));
    const QCommandLineOption gatewaysOption(QStringLiteral("gateways"), QStringLiteral("Gateway instances on one store (default 2)."), QStringLiteral("G"), QStringLiteral("2"));
    const QCommandLineOption faultsOption(QStringLiteral("faults"),
        QStringLiteral("The fault kinds the seed may choose, comma-separated, or none (default all: %1).").arg(allFaultKinds().join(QLatin1Char(','))),
        QStringLiteral("LIST"));
    const QCommandLineOption verboseOption(QStringLiteral("verbose"), QStringLiteral("Print each seed's result."));
    const QCommandLineOption traceOption(QStringLiteral("trace"), QStringLiteral("Print each seed's whole trace."));
    const QCommandLineOption firstOption(QStringLiteral("first-failure"),
        QStringLiteral("Stop at the first seed that breaks an invariant, without shrinking it (scripts/sim-mutants)."));
    const QCommandLineOption tailOption(QStringLiteral("trace-tail"), QStringLiteral("Trace lines printed for a failing seed (default 40)."), QStringLiteral("N"), QStringLiteral("40"));
    parser.addOptions({seedOption, seedsOption, paymentsOption, tillsOption, gatewaysOption, faultsOption, verboseOption, traceOption, firstOption, tailOption});
    if (!parser.parse(QCoreApplication::arguments())) {
        std::fprintf(stderr, "oncepay-sim: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    if (!parser.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "oncepay-sim: unexpected argument %s\n", qPrintable(parser.positionalArguments().constFirst()));
        return 2;
    }
    auto number = [&](const QCommandLineOption &option, qint64 min, qint64 max, qint64 *out) {
        bool ok = false;
        const qint64 v = parser.value(option).toLongLong(&ok);
        if (!ok || v < min || v > max) {
            std::fprintf(stderr, "oncepay-sim: --%s must be a whole number from %lld to %lld\n",
                qPrintable(option.names().constFirst()), static_cast<long long>(min), static_cast<long long>(max));
            return false;
        }
        *out = v;
        return true;
    };
    qint64 seed = 0, seeds = 0, payments = 0, tills = 0, gateways = 0, tail = 0;
    if (!number(seedOption, 0, 0xffffffffLL, &seed) || !number(seedsOption, 1, 100'000'000, &seeds)
        || !number(paymentsOption, 1, 1'000'000, &payments) || !number(tillsOption, 1, 64, &tills)
        || !number(gatewaysOption, 1, 16, &gateways) || !number(tailOption, 0, 100'000, &tail))
        return 2;
    WorldOptions base;
    base.payments = int(payments);
    base.tills = int(tills);
    base.gateways = int(gateways);
    base.traceTail = int(tail);
    const QStringList kinds = allFaultKinds();
    base.faults = QSet<QString>(kinds.cbegin(), kinds.cend());
    if (parser.isSet(faultsOption)) {
        base.faults.clear();
        const QString list = parser.value(faultsOption);
        if (list != QLatin1String("none")) {
            for (const QString &k : list.split(QLatin1Char(','))) {
                if (!kinds.contains(k.trimmed())) {
                    std::fprintf(stderr, "oncepay-sim: unknown fault kind %s (known: %s, or none)\n", qPrintable(k), qPrintable(kinds.join(QLatin1Char(','))));
                    return 2;
                }
                base.faults.insert(k.trimmed());
            }
        }
    }

    QCryptographicHash all(QCryptographicHash::Sha256);
    QElapsedTimer wall;
    wall.start();
    qint64 failed = 0;
    qint64 virtualMs = 0;
    QMap<QString, qint64> totals;
    for (qint64 s = seed; s < seed + seeds; ++s) {
        WorldOptions o = base;
        o.seed = quint32(s);
        if (parser.isSet(traceOption))
            o.traceTail = std::numeric_limits<int>::max();
        CrashVfs::seedSqliteRandomness(quint32(s));
        const WorldReport report = runWorld(o, time);
        all.addData(report.trace);
        virtualMs += report.virtualMs;
        for (auto it = report.counts.cbegin(); it != report.counts.cend(); ++it)
            totals[it.key()] += it.value();
        if (parser.isSet(verboseOption))
            std::printf("seed %u: %s, %lld virtual ms, trace %s\n", o.seed, report.violations.isEmpty() ? "ok" : "FAILED",
                static_cast<long long>(report.virtualMs), report.trace.constData());
        if (parser.isSet(traceOption)) {
            for (const QString &line : report.traceTail)
                std::printf("%s\n", qPrintable(line));
        }
        if (report.violations.isEmpty())
            continue;
        ++failed;
        std::printf("FAILED seed %u: %s\n", o.seed, qPrintable(report.violations.join(QStringLiteral("; "))));
        std::printf("  reproduce: %s\n", qPrintable(commandFor(o)));
        if (parser.isSet(firstOption)) {
            seeds = s - seed + 1;
            break;
        }
        WorldReport smallest = report;
        const WorldOptions shrunk = shrink(o, time, &smallest);
        std::printf("  shrunk:    %s\n", qPrintable(commandFor(shrunk)));
        std::printf("  its trace, last %lld events:\n", static_cast<long long>(tail));
        for (const QString &line : smallest.traceTail)
            std::printf("    %s\n", qPrintable(line));
    }
    const double seconds = double(wall.nsecsElapsed()) / 1e9;
    const qint64 paid = totals.value(QStringLiteral("payments"));
    auto total = [&totals](const char *name) {
        return static_cast<long long>(totals.value(QLatin1String(name)));
    };
    std::printf("seeds %lld, failed %lld; sales %lld (paid %lld, cancelled %lld, card parts given up %lld, till's own refund"
                " declined by the bank and shown to the cashier %lld); payments %lld: cash %lld, card %lld (succeeded %lld,"
                " declined %lld, needs review %lld); refunds %lld (succeeded %lld)\n",
        static_cast<long long>(seeds), static_cast<long long>(failed), total("sales"), total("sales paid"),
        total("sales cancelled"), total("given up"), total("refunds the bank declined, told"), total("payments"), total("cash payments"), total("card payments"),
        total("succeeded"), total("declined"), total("needs review"), total("refunds"), total("refunds succeeded"));
    QStringList faults;
    for (auto it = totals.cbegin(); it != totals.cend(); ++it) {
        if (it.key().startsWith(QLatin1String("fault ")))
            faults.append(QStringLiteral("%1 %2").arg(it.key().mid(6)).arg(it.value()));
    }
    std::printf("faults: %s\n", qPrintable(faults.isEmpty() ? QStringLiteral("none") : faults.join(QStringLiteral(", "))));
    std::printf("time: %.2f s real, %.0f s simulated (%.0fx), %.0f payments/s\n", seconds, double(virtualMs) / 1000.0,
        seconds > 0 ? double(virtualMs) / 1000.0 / seconds : 0.0, seconds > 0 ? double(paid) / seconds : 0.0);
    std::printf("trace %s\n", all.result().toHex().constData());
    std::fflush(stdout);
    OncePay::World::install(nullptr);
    return failed ? 1 : 0;
}
