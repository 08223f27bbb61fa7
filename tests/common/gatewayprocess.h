#pragma once

#include <QByteArray>
#include <QMap>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QUrl>

#include <memory>

class TestDatabase;

// Runs the real oncepay-gateway binary (env ONCEPAY_GATEWAY_BIN), oncepay-acquirer
// (ONCEPAY_ACQUIRER_BIN) or oncepay-office (ONCEPAY_OFFICE_BIN), on a port it picks itself unless told one, with its database in a
// private QTemporaryDir that survives restarts of the process.
class GatewayProcess final
{
public:
    enum class Program {
        Gateway,
        Acquirer,
        Office   // on the TestDatabase of the backend under test, like the gateway
    };

    explicit GatewayProcess(Program program = Program::Gateway);
    ~GatewayProcess();
    GatewayProcess(const GatewayProcess &) = delete;
    GatewayProcess &operator=(const GatewayProcess &) = delete;

    static QString binaryPath(Program program = Program::Gateway);

    // Off by default only for token-file tests; every other suite runs the demo tenants.
    void setDemo(bool demo) { m_demo = demo; }
    // The next start listens on this port (0: a free one), e.g. to come back where it was.
    void setListenPort(quint16 port) { m_listenPort = port; }

    // Starts the process with --listen 127.0.0.1:<port> --db <dir>/<program>.db [--demo] + extraArgs
    // and waits (by signals, never sleeping) for the "listening on" line. extraEnv is added
    // to the test's own environment. On failure returns false; see failureMessage().
    bool start(const QStringList &extraArgs = {}, const QMap<QString, QString> &extraEnv = {},
        int timeoutMs = 20000);
    // Stops a running process (SIGKILL) if any and starts again on the same database.
    bool restart(const QStringList &extraArgs, const QMap<QString, QString> &extraEnv = {},
        int timeoutMs = 20000);
    bool restart() { return restart(m_lastArgs, {}, 20000); }

    void kill9();   // real SIGKILL, waits until reaped
    bool terminate(int timeoutMs = 15000);   // SIGTERM, true if it exited in time
    bool sendSignal(int signalNumber);   // e.g. SIGINT
    bool waitForExit(int timeoutMs);   // true once the process has ended
    bool isRunning() const;

    int exitCode() const { return m_process ? m_process->exitCode() : -1; }
    QProcess::ExitStatus exitStatus() const
    {
        return m_process ? m_process->exitStatus() : QProcess::NormalExit;
    }

    QUrl baseUrl() const { return m_baseUrl; }
    quint16 port() const { return m_port; }
    QString dataDir() const { return m_dir.path(); }
    QString dbPath() const;   // the SQLite file (SQLite backend)
    // The database this gateway runs on (made at the first start for the backend under test,
    // see TestDatabase). Give several processes the same one to run instances of one gateway.
    TestDatabase &database();
    void useDatabase(std::shared_ptr<TestDatabase> db) { m_db = std::move(db); }
    std::shared_ptr<TestDatabase> sharedDatabase()
    {
        database();
        return m_db;
    }
    qint64 pid() const;
    bool isStopped() const;   // stopped by SIGSTOP (state T in /proc)
    QString stderrText() const;   // everything every run of this fixture wrote to stderr
    QByteArray stdoutText() const { return m_stdout; }
    // A message for QVERIFY2: why start failed plus the tail of stderr.
    QByteArray failureMessage() const;

private:
    void onStdout();

    QString programName() const;

    Program m_program;
    quint16 m_listenPort = 0;
    QTemporaryDir m_dir;
    std::shared_ptr<TestDatabase> m_db;
    std::unique_ptr<QProcess> m_process;
    QStringList m_lastArgs;
    QMap<QString, QString> m_lastEnv;
    QByteArray m_stdout;
    QString m_error;
    QUrl m_baseUrl;
    quint16 m_port = 0;
    bool m_demo = true;
};
