#pragma once

// What the kill -9 suites share: oncepay-ctl as a child process that can be killed at any instant,
// its global arguments, the pay command line, `oncepay-ctl proxy` in front of a gateway, and an
// event loop that runs for a while or until a condition holds (never a sleep).
#include "gatewayapi.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>
#include <QTimer>
#include <QUrl>

#include <functional>
#include <memory>

namespace Chaos {

using GatewayApi::kTill1;

inline bool slowRun()
{
    return qEnvironmentVariableIntValue("ONCEPAY_SLOW") == 1;
}

// Runs the event loop for `ms` on a precise timer, or until `stop` says so (checked on every
// event-loop wake-up that a process or timer causes). Never sleeps.
inline void spin(int ms, const std::function<bool()> &stop = {})
{
    if (stop && stop())
        return;
    QEventLoop loop;
    QTimer deadline;
    deadline.setTimerType(Qt::PreciseTimer);
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    QTimer check;   // a cheap wake-up for conditions that no signal announces
    if (stop) {
        QObject::connect(&check, &QTimer::timeout, &loop, [&] {
            if (stop())
                loop.quit();
        });
        check.start(5);
    }
    deadline.start(ms);
    loop.exec();
}

inline QString decimal(qint64 minor)
{
    return QStringLiteral("%1.%2").arg(minor / 100).arg(minor % 100, 2, 10, QLatin1Char('0'));
}

// One oncepay-ctl process.
class Ctl final
{
public:
    explicit Ctl(QStringList args)
        : m_args(std::move(args)) {}

    void start()
    {
        m_process.setProgram(qEnvironmentVariable("ONCEPAY_CTL_BIN"));
        m_process.setArguments(m_args);
        m_process.start();
        m_clock.start();
        m_startedAtMs = QDateTime::currentMSecsSinceEpoch();
    }
    qint64 startedAtMs() const { return m_startedAtMs; }
    QProcess &process() { return m_process; }
    bool running() const { return m_process.state() != QProcess::NotRunning; }
    qint64 elapsedMs() const { return m_clock.elapsed(); }

    // Runs the event loop until the process ended or `ms` passed; true if it ended.
    bool waitFinished(int ms)
    {
        if (running()) {
            QEventLoop loop;
            QTimer deadline;
            deadline.setTimerType(Qt::PreciseTimer);
            deadline.setSingleShot(true);
            QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
            QObject::connect(&m_process, &QProcess::finished, &loop, &QEventLoop::quit);
            QObject::connect(&m_process, &QProcess::errorOccurred, &loop, [&](QProcess::ProcessError e) {
                if (e == QProcess::FailedToStart)
                    loop.quit();
            });
            deadline.start(ms);
            loop.exec();
        }
        if (!running())
            collect();
        return !running();
    }

    void kill9()
    {
        if (running()) {
            m_killed = true;
            m_process.kill();   // SIGKILL
            m_process.waitForFinished(10'000);
        }
        collect();
    }

    bool killed() const { return m_killed; }
    bool crashed() const { return m_process.exitStatus() == QProcess::CrashExit; }
    int exitCode() const { return m_process.exitCode(); }
    QByteArray out() const { return m_out; }
    QByteArray err() const { return m_err; }
    QString command() const { return m_args.join(QLatin1Char(' ')); }
    // The last line of stdout as a JSON object (pay, sync and show print one).
    QJsonObject json() const
    {
        const QList<QByteArray> lines = m_out.trimmed().split('\n');
        return QJsonDocument::fromJson(lines.last()).object();
    }
    QByteArray describe() const
    {
        return (command() + QStringLiteral("\n  exit %1%2 after %3 ms\n  stdout: ").arg(exitCode()).arg(crashed() ? QStringLiteral(" (crashed)") : QString()).arg(m_clock.elapsed()))
                   .toUtf8()
            + m_out.left(2000) + "\n  stderr: " + m_err.left(2000);
    }

private:
    void collect()
    {
        m_out += m_process.readAllStandardOutput();
        m_err += m_process.readAllStandardError();
    }

    QStringList m_args;
    QProcess m_process;
    QElapsedTimer m_clock;
    QByteArray m_out;
    QByteArray m_err;
    qint64 m_startedAtMs = 0;
    bool m_killed = false;
};

inline QStringList ctlArgs(const QString &journal, const QUrl &gateway, const QStringList &command)
{
    return QStringList{QStringLiteral("--db"), journal, QStringLiteral("--gateway"), gateway.toString(),
               QStringLiteral("--token"), QString::fromLatin1(kTill1), QStringLiteral("--request-timeout"),
               QStringLiteral("3s")}
    + command;
}

inline QStringList payCommand(const QString &order, qint64 amount, const QString &method, const QStringList &extra = {})
{
    return QStringList{QStringLiteral("pay"), QStringLiteral("--amount"), decimal(amount), QStringLiteral("--currency"),
               QStringLiteral("CNY"), QStringLiteral("--order"), order, QStringLiteral("--method"), method}
    + extra;
}

// The run's seed: ONCEPAY_CHAOS_SEED when set (a replay), else a random one; logged with the way
// to replay it.
inline quint32 seedOfThisRun()
{
    const quint32 seed = qEnvironmentVariableIsSet("ONCEPAY_CHAOS_SEED")
        ? quint32(qEnvironmentVariable("ONCEPAY_CHAOS_SEED").toUInt())
        : QRandomGenerator::system()->generate();
    qInfo("seed %u (replay with ONCEPAY_CHAOS_SEED=%u)%s", seed, seed, slowRun() ? ", slow variant" : "");
    return seed;
}

// Runs a ctl command to its end (no kill); fails the test if it does not end in time.
inline std::unique_ptr<Ctl> runCtl(const QString &journal, const QUrl &gateway, const QStringList &command,
    int timeoutMs = 60'000)
{
    auto ctl = std::make_unique<Ctl>(ctlArgs(journal, gateway, command));
    ctl->start();
    if (!ctl->waitFinished(timeoutMs)) {
        ctl->kill9();
        QTest::qFail(("did not end in time: " + ctl->describe()).constData(), __FILE__, __LINE__);
    }
    return ctl;
}

// `list --json` of a journal: every intent, as oncepay-ctl prints it; fails the test otherwise.
inline QJsonArray listJournal(const QString &journal, const QUrl &gateway)
{
    const auto ctl = runCtl(journal, gateway, {QStringLiteral("list"), QStringLiteral("--json")});
    if (ctl->exitCode() != 0 || ctl->crashed()) {
        QTest::qFail(("list failed: " + ctl->describe()).constData(), __FILE__, __LINE__);
        return {};
    }
    const QJsonDocument doc = QJsonDocument::fromJson(ctl->out());
    if (!doc.isArray())
        QTest::qFail(("list printed no JSON array: " + ctl->describe()).constData(), __FILE__, __LINE__);
    return doc.array();
}

// `oncepay-ctl proxy` in front of the gateway, on a port kept across restarts.
class ProxyProcess final
{
public:
    bool start(const QUrl &upstream, const QString &mode, quint16 port = 0)
    {
        m_ctl = std::make_unique<Ctl>(QStringList{QStringLiteral("proxy"), QStringLiteral("--upstream"), upstream.toString(),
            QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port),
            QStringLiteral("--mode"), mode});
        m_ctl->start();
        static const QRegularExpression listening(QStringLiteral("listening on (http://[0-9.]+:([0-9]+))"));
        QByteArray out;
        spin(10'000, [&] {
            out += m_ctl->process().readAllStandardOutput();
            return listening.match(QString::fromUtf8(out)).hasMatch() || !m_ctl->running();
        });
        const QRegularExpressionMatch m = listening.match(QString::fromUtf8(out));
        if (!m.hasMatch())
            return false;
        m_url = QUrl(m.captured(1));
        return true;
    }
    void stop()
    {
        if (m_ctl)
            m_ctl->kill9();
        m_ctl.reset();
    }
    ~ProxyProcess() { stop(); }
    QUrl url() const { return m_url; }

private:
    std::unique_ptr<Ctl> m_ctl;
    QUrl m_url;
};

}   // namespace Chaos
