#include "gatewayprocess.h"

#include "testdatabase.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTimer>

#include <csignal>

// Its lambdas capture the locals of a wait that runs a local event loop until they fire; each
// connection's context (the socket, the loop) is destroyed before those locals are.
// clazy:excludeall=lambda-in-connect

GatewayProcess::GatewayProcess(Program program)
    : m_program(program)
{
}

GatewayProcess::~GatewayProcess()
{
    if (isRunning())
        kill9();
}

QString GatewayProcess::binaryPath(Program program)
{
    switch (program) {
    case Program::Gateway:
        return qEnvironmentVariable("ONCEPAY_GATEWAY_BIN");
    case Program::Acquirer:
        return qEnvironmentVariable("ONCEPAY_ACQUIRER_BIN");
    case Program::Office:
        return qEnvironmentVariable("ONCEPAY_OFFICE_BIN");
    }
    return {};
}

QString GatewayProcess::programName() const
{
    switch (m_program) {
    case Program::Gateway:
        return QStringLiteral("gateway");
    case Program::Acquirer:
        return QStringLiteral("acquirer");
    case Program::Office:
        return QStringLiteral("office");
    }
    return {};
}

QString GatewayProcess::dbPath() const
{
    return QDir(m_dir.path()).filePath(programName() + QStringLiteral(".db"));
}

TestDatabase &GatewayProcess::database()
{
    if (!m_db)
        m_db = std::make_shared<TestDatabase>(m_dir.path());
    return *m_db;
}

qint64 GatewayProcess::pid() const
{
    return isRunning() ? m_process->processId() : 0;
}

bool GatewayProcess::isStopped() const
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid()));
    if (!isRunning() || !f.open(QIODevice::ReadOnly))
        return false;
    // "pid (comm) S ...": the state follows the last ')'.
    const QByteArray stat = f.readAll();
    const qsizetype close = stat.lastIndexOf(')');
    return close > 0 && stat.size() > close + 2 && (stat.at(close + 2) == 'T' || stat.at(close + 2) == 't');
}

bool GatewayProcess::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

QString GatewayProcess::stderrText() const
{
    QFile f(QDir(m_dir.path()).filePath(programName() + QStringLiteral(".stderr")));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

QByteArray GatewayProcess::failureMessage() const
{
    QString tail = stderrText();
    if (tail.size() > 4000)
        tail = QStringLiteral("...") + tail.right(4000);
    QString ended;
    if (m_process && m_process->state() == QProcess::NotRunning) {
        ended = QStringLiteral("%1 is not running (exit code %2, %3)\n")
                    .arg(programName())
                    .arg(m_process->exitCode())
                    .arg(m_process->exitStatus() == QProcess::CrashExit ? QStringLiteral("crashed")
                                                                        : QStringLiteral("exited"));
    }
    return (ended + m_error + QStringLiteral("\n--- %1 stderr ---\n").arg(programName()) + tail).toUtf8();
}

void GatewayProcess::onStdout()
{
    m_stdout += m_process->readAllStandardOutput();
    if (m_port)
        return;
    static const QRegularExpression re(
        QStringLiteral("^listening on (https?://127\\.0\\.0\\.1:(\\d+))\\r?$"),
        QRegularExpression::MultilineOption);
    const auto match = re.match(QString::fromUtf8(m_stdout));
    if (match.hasMatch()) {
        m_port = quint16(match.captured(2).toUInt());
        m_baseUrl = QUrl(match.captured(1));
    }
}

bool GatewayProcess::start(const QStringList &extraArgs, const QMap<QString, QString> &extraEnv,
    int timeoutMs)
{
    m_error.clear();
    if (isRunning()) {
        m_error = programName() + QStringLiteral(" already running");
        return false;
    }
    if (!m_dir.isValid()) {
        m_error = QStringLiteral("no temporary directory: ") + m_dir.errorString();
        return false;
    }
    const QString bin = binaryPath(m_program);
    if (bin.isEmpty() || !QFile::exists(bin)) {
        m_error = QStringLiteral("the %1 binary (ONCEPAY_*_BIN) is not set or does not exist: ").arg(programName()) + bin;
        return false;
    }
    m_lastArgs = extraArgs;
    m_lastEnv = extraEnv;
    m_stdout.clear();
    m_port = 0;
    m_baseUrl = QUrl();

    m_process = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (auto it = extraEnv.cbegin(); it != extraEnv.cend(); ++it)
        env.insert(it.key(), it.value());
    m_process->setProcessEnvironment(env);
    m_process->setWorkingDirectory(m_dir.path());
    // stderr goes to a file so a chatty gateway can never block on a full pipe.
    m_process->setStandardErrorFile(QDir(m_dir.path()).filePath(programName() + QStringLiteral(".stderr")),
        QIODevice::Append);
    QObject::connect(m_process.get(), &QProcess::readyReadStandardOutput, m_process.get(),
        [this] {
            onStdout();
        });

    QStringList args{QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(m_listenPort)};
    if (m_program == Program::Gateway) {
        if (!database().ok()) {
            m_error = database().error();
            return false;
        }
        args << database().gatewayArgs(!extraArgs.contains(QStringLiteral("--acquirer")));
    } else if (m_program == Program::Office) {
        if (!database().ok()) {
            m_error = database().error();
            return false;
        }
        if (!extraArgs.contains(QStringLiteral("--db")))
            args << QStringLiteral("--db") << database().dbArg();
    } else {
        args << QStringLiteral("--db") << dbPath();
    }
    if (m_demo && m_program != Program::Acquirer)
        args << QStringLiteral("--demo");
    args << extraArgs;

    bool ended = false;
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    QObject::connect(m_process.get(), &QProcess::readyReadStandardOutput, &loop, [&] {
        if (m_port)
            loop.quit();
    });
    QObject::connect(m_process.get(), &QProcess::finished, &loop, [&] {
        ended = true;
        loop.quit();
    });
    QObject::connect(m_process.get(), &QProcess::errorOccurred, &loop,
        [&](QProcess::ProcessError error) {
            if (error == QProcess::FailedToStart || error == QProcess::Crashed) {
                ended = true;
                loop.quit();
            }
        });
    m_process->start(bin, args);
    deadline.start(timeoutMs);
    if (!m_port && !ended)
        loop.exec();
    if (m_port)
        return true;
    if (ended) {
        m_process->waitForFinished(5000);
        m_error = QStringLiteral("%1 ended before listening (exit code %2, %3); args: %4")
                      .arg(programName())
                      .arg(m_process->exitCode())
                      .arg(m_process->errorString(), args.join(QLatin1Char(' ')));
    } else {
        m_error = QStringLiteral("no 'listening on' line within %1 ms; stdout: %2")
                      .arg(timeoutMs)
                      .arg(QString::fromUtf8(m_stdout));
        kill9();
    }
    return false;
}

bool GatewayProcess::restart(const QStringList &extraArgs, const QMap<QString, QString> &extraEnv,
    int timeoutMs)
{
    if (isRunning())
        kill9();
    return start(extraArgs, extraEnv, timeoutMs);
}

void GatewayProcess::kill9()
{
    if (!isRunning())
        return;
    m_process->kill();   // SIGKILL on Unix
    m_process->waitForFinished(10000);
}

bool GatewayProcess::terminate(int timeoutMs)
{
    if (!isRunning())
        return true;
    m_process->terminate();   // SIGTERM on Unix
    return waitForExit(timeoutMs);
}

bool GatewayProcess::sendSignal(int signalNumber)
{
    if (!isRunning())
        return false;
    return ::kill(pid_t(m_process->processId()), signalNumber) == 0;
}

bool GatewayProcess::waitForExit(int timeoutMs)
{
    if (!m_process)
        return true;
    if (m_process->state() == QProcess::NotRunning)
        return true;
    QSignalSpy finished(m_process.get(), &QProcess::finished);
    return finished.wait(timeoutMs) || m_process->state() == QProcess::NotRunning;
}
