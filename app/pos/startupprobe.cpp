#include "startupprobe.h"

#include "simulatednetwork.h"
#include "tillsession.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QTimer>
#include <QWidget>

#include <cstdio>

#include <sys/resource.h>

namespace OncePay::Pos {

namespace {
double rssMb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    }
    return -1;
}

// CPU seconds used so far by the calling thread (RUSAGE_THREAD) or by the whole process.
double cpuSeconds(int who)
{
    rusage u{};
    getrusage(who, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

qint64 processStartMs()
{
    // /proc/self/stat field 22 is the start time in clock ticks since boot.
    QFile stat(QStringLiteral("/proc/self/stat"));
    QFile uptime(QStringLiteral("/proc/uptime"));
    if (!stat.open(QIODevice::ReadOnly) || !uptime.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray s = stat.readAll();
    const QList<QByteArray> fields = s.mid(s.lastIndexOf(')') + 2).split(' ');
    const double startTicks = fields.value(19).toDouble();
    const double upSeconds = uptime.readAll().split(' ').first().toDouble();
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    return nowMs - qint64((upSeconds - startTicks / 100.0) * 1000.0);
}
}   // namespace

void reportStartupAndQuit(QWidget *window)
{
    // Posted after show(): runs once the first paint events were processed.
    QTimer::singleShot(0, window, [window] {
        window->repaint();
        const qint64 shown = QDateTime::currentMSecsSinceEpoch() - processStartMs();
        QTimer::singleShot(1000, window, [shown] {
            std::printf("window_shown_ms=%lld rss_mb=%.1f\n", static_cast<long long>(shown), rssMb());
            std::fflush(stdout);
            QCoreApplication::exit(0);   // not quit(): in Qt 6 it asks the window to close, which may ask the cashier
        });
    });
}

void measureDrainAndQuit(TillSession *session, NetSim::SimulatedNetwork *network, int count)
{
    if (!network) {
        std::fprintf(stderr, "oncepay-pos: --measure-drain needs the demo gateway\n");
        QCoreApplication::exit(2);
        return;
    }
    NetSim::Settings offline;
    offline.mode = NetSim::Mode::Offline;
    network->setSettings(offline);
    auto *created = new int(0);
    const QString batch = QString::number(QDateTime::currentMSecsSinceEpoch());
    for (int i = 0; i < count; ++i) {
        session->engine()->pay(QStringLiteral("B%1-%2").arg(batch).arg(i), Money(100 + i % 900, QStringLiteral("CNY")),
            QStringLiteral("tok_visa"), session, [created](bool ok, const TillError &, const Intent &) {
                *created += ok;
            });
    }
    auto *heartbeat = new QTimer(session);
    auto *sinceBeat = new QElapsedTimer;
    auto *drain = new QElapsedTimer;
    auto *longest = new qint64(0);
    auto *cpuAtStart = new std::pair<double, double>(0, 0);   // the window's thread, the process
    heartbeat->setInterval(5);
    QObject::connect(heartbeat, &QTimer::timeout, session, [=] {
        if (*created < count)
            return;   // still queueing
        if (!drain->isValid()) {
            NetSim::Settings online;
            network->setSettings(online);
            session->engine()->checkConnectionNow();   // as if the system reported the network back
            *cpuAtStart = {cpuSeconds(RUSAGE_THREAD), cpuSeconds(RUSAGE_SELF)};
            drain->start();
            sinceBeat->start();
            return;
        }
        *longest = qMax(*longest, sinceBeat->restart());
        if (session->engine()->waitingCount() == 0) {
            heartbeat->stop();
            // The same CPU figures as oncepay-bench-drain's, for the same drain: the difference
            // in the main thread's is what the window costs.
            const double windowCpu = cpuSeconds(RUSAGE_THREAD) - cpuAtStart->first;
            const double processCpu = cpuSeconds(RUSAGE_SELF) - cpuAtStart->second;
            const double seconds = drain->elapsed() / 1000.0;
            std::printf("drained=%d seconds=%.2f longest_ui_stall_ms=%lld main_thread_cpu_s=%.2f process_cpu_s=%.2f "
                        "main_thread_cpu_us_per_intent=%.0f\n",
                count, seconds, static_cast<long long>(*longest), windowCpu, processCpu, windowCpu * 1e6 / count);
            std::fflush(stdout);
            QCoreApplication::exit(0);   // not quit(): in Qt 6 it asks the window to close, which may ask the cashier
        }
    });
    heartbeat->start();
}

}   // namespace OncePay::Pos
