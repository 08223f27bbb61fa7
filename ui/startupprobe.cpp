#include "startupprobe.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QTimer>
#include <QWidget>

#include <cstdio>

namespace OncePay::Ui {

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
} // namespace

void reportStartupAndQuit(QWidget *window)
{
    // Posted after show(): runs once the first paint events were processed.
    QTimer::singleShot(0, window, [window] {
        window->repaint();
        const qint64 shown = QDateTime::currentMSecsSinceEpoch() - processStartMs();
        QTimer::singleShot(1000, window, [shown] {
            std::printf("window_shown_ms=%lld rss_mb=%.1f\n", static_cast<long long>(shown), rssMb());
            std::fflush(stdout);
            QCoreApplication::quit();
        });
    });
}

} // namespace OncePay::Ui
