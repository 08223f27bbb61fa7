// The command line of oncepay-gateway: bad options exit 2 with one line on stderr, --help
// exits 0, SIGTERM/SIGINT finish in-flight requests and exit 0, --tokens replaces the demo
// credentials and keeps no token in clear; under systemd (NOTIFY_SOCKET) it says READY=1 once
// listening and STOPPING=1 on SIGTERM.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "testdatabase.h"

#include <QDirIterator>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QStandardPaths>
#include <QtTest>

#include <csignal>
#include <cstddef>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace GatewayApi;

class TestCli final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void badOptions_data();
    void badOptions();
    void help();
    void unreadableTokenFile();
    void corruptDatabaseIsKept();
    void refusesNetworkFileSystem();
    void signalsFinishInFlightRequests_data();
    void signalsFinishInFlightRequests();
    void tokenFile();
    void reviewEscapesWhatItPrints();
    void systemdNotify_data();
    void systemdNotify();

private:
    QTemporaryDir m_dir;
};

void TestCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(QFile::exists(GatewayProcess::binaryPath()), "ONCEPAY_GATEWAY_BIN does not exist");
}

void TestCli::badOptions_data()
{
    QTest::addColumn<QStringList>("args");
    const QString db = QStringLiteral("DB");   // replaced by a path in the temporary dir
    auto base = [&](const QStringList &more) {
        return QStringList{QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--db"), db} + more;
    };
    QTest::newRow("unknown option") << base({QStringLiteral("--no-such-option")});
    QTest::newRow("positional argument") << base({QStringLiteral("surprise")});
    QTest::newRow("listen without port") << QStringList{QStringLiteral("--listen"), QStringLiteral("127.0.0.1"),
        QStringLiteral("--db"), db};
    QTest::newRow("listen garbage") << QStringList{QStringLiteral("--listen"), QStringLiteral("nowhere:port"),
        QStringLiteral("--db"), db};
    QTest::newRow("listen port too big") << QStringList{QStringLiteral("--listen"), QStringLiteral("127.0.0.1:70000"),
        QStringLiteral("--db"), db};
    QTest::newRow("lease unit unknown") << base({QStringLiteral("--claim-lease"), QStringLiteral("5x")});
    QTest::newRow("lease negative") << base({QStringLiteral("--claim-lease"), QStringLiteral("-1s")});
    QTest::newRow("lease empty") << base({QStringLiteral("--claim-lease"), QString()});
    QTest::newRow("retention words") << base({QStringLiteral("--key-retention"), QStringLiteral("forever")});
    QTest::newRow("recovery no unit") << base({QStringLiteral("--recovery-interval"), QStringLiteral("ms")});
    QTest::newRow("busy timeout bad") << base({QStringLiteral("--store-busy-timeout"), QStringLiteral("2 s")});
    QTest::newRow("rate limit not a number") << base({QStringLiteral("--rate-limit"), QStringLiteral("lots")});
    QTest::newRow("rate limit negative") << base({QStringLiteral("--rate-limit"), QStringLiteral("-3")});
    QTest::newRow("option value missing") << base({QStringLiteral("--claim-lease")});
}

void TestCli::badOptions()
{
    QFETCH(QStringList, args);
    const QString db = m_dir.filePath(QStringLiteral("bad-%1.db").arg(QString::fromLatin1(QTest::currentDataTag())).replace(QLatin1Char(' '), QLatin1Char('-')));
    args.replaceInStrings(QRegularExpression(QStringLiteral("^DB$")), db);
    QProcess p;
    p.start(GatewayProcess::binaryPath(), args);
    QVERIFY(p.waitForStarted(10000));
    if (!p.waitForFinished(10000)) {
        p.kill();
        p.waitForFinished();
        QFAIL("the gateway kept running with a bad option");
    }
    const QByteArray err = p.readAllStandardError();
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QVERIFY2(p.exitCode() == 2, (QByteArray::number(p.exitCode()) + "\n" + err).constData());
    const QList<QByteArray> lines = err.trimmed().split('\n');
    QVERIFY2(lines.size() == 1 && !lines.first().trimmed().isEmpty(), err.constData());
    QVERIFY2(!p.readAllStandardOutput().contains("listening on"), "listened despite a bad option");
}

void TestCli::help()
{
    QProcess p;
    p.start(GatewayProcess::binaryPath(), {QStringLiteral("--help")});
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 0);
    const QByteArray out = p.readAllStandardOutput() + p.readAllStandardError();
    for (const char *option : {"--listen", "--db", "--demo", "--claim-lease", "--key-retention", "--tokens"})
        QVERIFY2(out.contains(option), out.constData());
}

void TestCli::unreadableTokenFile()
{
    // Not a usage error but a start-up failure: any non-zero code, one line, never listening.
    QProcess p;
    p.start(GatewayProcess::binaryPath(),
        {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--db"),
            m_dir.filePath(QStringLiteral("tokens-missing.db")), QStringLiteral("--tokens"),
            QStringLiteral("/nonexistent/tokens.txt")});
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QVERIFY(p.exitCode() != 0);
    const QByteArray err = p.readAllStandardError().trimmed();
    QVERIFY2(!err.isEmpty() && !err.contains('\n'), err.constData());
    QVERIFY(!p.readAllStandardOutput().contains("listening on"));
}

void TestCli::corruptDatabaseIsKept()
{
    // A database that is not SQLite: refuse to start, say so in one line, leave the file alone.
    const QString path = m_dir.filePath(QStringLiteral("corrupt.db"));
    QByteArray garbage;
    for (int i = 0; i < 8192; ++i)
        garbage.append(char((i * 131 + 7) % 251));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(garbage), garbage.size());
    }
    QProcess p;
    p.start(GatewayProcess::binaryPath(), {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--db"), path, QStringLiteral("--demo")});
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 1);
    const QByteArray err = p.readAllStandardError().trimmed();
    QVERIFY2(!err.contains('\n') && err.contains("not a database"), err.constData());
    QVERIFY(!p.readAllStandardOutput().contains("listening on"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), garbage);
}

void TestCli::refusesNetworkFileSystem()
{
    // SQLite leases hold on one machine: a store on a network or user-space file system (here a
    // real FUSE mount, bindfs) could be shared with another host. Refused at start, in one line
    // that names the file system, with nothing written there.
    const QString bindfs = QStandardPaths::findExecutable(QStringLiteral("bindfs"));
    if (bindfs.isEmpty())
        QSKIP("bindfs is not installed (scripts/install-deps installs it)");
    const QString source = m_dir.filePath(QStringLiteral("fuse-source"));
    const QString mount = m_dir.filePath(QStringLiteral("fuse-mount"));
    QVERIFY(QDir().mkpath(source) && QDir().mkpath(mount));
    QProcess mounter;
    mounter.start(bindfs, {source, mount});
    QVERIFY(mounter.waitForFinished(10000));
    if (mounter.exitCode() != 0)
        QSKIP(qPrintable(QStringLiteral("no FUSE on this machine: %1").arg(QString::fromLocal8Bit(mounter.readAllStandardError()).trimmed())));
    auto unmount = qScopeGuard([&mount] {
        if (QProcess::execute(QStringLiteral("fusermount"), {QStringLiteral("-u"), mount}) != 0)
            QProcess::execute(QStringLiteral("umount"), {mount});
    });
    QProcess p;
    p.start(GatewayProcess::binaryPath(), {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--db"), mount + QStringLiteral("/gateway.db"), QStringLiteral("--demo")});
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 1);
    const QByteArray err = p.readAllStandardError().trimmed();
    QVERIFY2(!err.contains('\n') && err.contains("FUSE") && err.contains("local disk"), err.constData());
    QVERIFY(!p.readAllStandardOutput().contains("listening on"));
    QVERIFY2(QDir(source).entryList(QDir::Files).isEmpty(), "the gateway wrote on the network file system");
}

void TestCli::signalsFinishInFlightRequests_data()
{
    QTest::addColumn<int>("signalNumber");
    QTest::newRow("SIGTERM") << int(SIGTERM);
    QTest::newRow("SIGINT") << int(SIGINT);
}

void TestCli::signalsFinishInFlightRequests()
{
    QFETCH(int, signalNumber);
    GatewayProcess gateway;
    QVERIFY2(gateway.start(), gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    QVERIFY(setAcquirer(client, QStringLiteral("normal"), 1500));
    const QString key = uniqueKey(QStringLiteral("sig"));
    QNetworkReply *inFlight = client.start({"POST", QStringLiteral("/v1/payments"), paymentBody(), keyHeader(key)});
    QTRY_VERIFY_WITH_TIMEOUT(client.get(QStringLiteral("/v1/payments?idempotency_key=") + key).status == 200, 10000);

    QVERIFY(gateway.sendSignal(signalNumber));
    const HttpReply answered = client.collect(inFlight);
    // (QNetworkAccessManager re-sends a request whose connection closed without an answer,
    // so a lost answer shows up here as "Connection refused".)
    QVERIFY2(answered.status == 201,
        ("the in-flight request got no answer before the gateway exited\n" + answered.describe()).constData());
    QCOMPARE(answered.object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    QVERIFY2(gateway.waitForExit(15000), gateway.failureMessage().constData());
    QCOMPARE(gateway.exitStatus(), QProcess::NormalExit);
    QVERIFY2(gateway.exitCode() == 0, gateway.failureMessage().constData());

    // What it answered was durable: a new process on the same database replays it.
    QVERIFY2(gateway.restart({}), gateway.failureMessage().constData());
    HttpClient after(gateway.baseUrl());
    const HttpReply replay = pay(after, key);
    ONCEPAY_VERIFY_STATUS(replay, 201);
    QVERIFY(replay.replayed());
    QCOMPARE(replay.body, answered.body);
    QVERIFY(gateway.terminate());
    QCOMPARE(gateway.exitCode(), 0);
}

void TestCli::tokenFile()
{
    const QByteArray secret = "tok-file-secret-8c1f0e52a7";
    const QString path = m_dir.filePath(QStringLiteral("tokens.txt"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("# merchants of the test\n\n" + secret + " acme till-9\n"
                                                     "# sk_test_commented acme till-0\n"
                                                     "second-token-99 zenith till-1\n");
    f.close();

    GatewayProcess gateway;
    gateway.setDemo(false);
    QVERIFY2(gateway.start({QStringLiteral("--tokens"), path}), gateway.failureMessage().constData());
    HttpClient acme(gateway.baseUrl(), secret);
    const QString key = uniqueKey(QStringLiteral("file"));
    const HttpReply r = pay(acme, key);
    ONCEPAY_VERIFY_STATUS(r, 201);
    QCOMPARE(r.object().value(QStringLiteral("terminal_id")).toString(), QStringLiteral("till-9"));

    // Another merchant of the file does not see it; the demo credentials are gone; no sim.
    HttpClient zenith(gateway.baseUrl(), "second-token-99");
    ONCEPAY_VERIFY_PROBLEM(zenith.get(QStringLiteral("/v1/payments?idempotency_key=") + key), 404,
        QStringLiteral("not-found"));
    HttpClient commented(gateway.baseUrl(), "sk_test_commented");
    ONCEPAY_VERIFY_PROBLEM(pay(commented, uniqueKey()), 401, QStringLiteral("unauthorized"));
    HttpClient demo(gateway.baseUrl(), kTill1);
    ONCEPAY_VERIFY_PROBLEM(pay(demo, uniqueKey()), 401, QStringLiteral("unauthorized"));
    const HttpReply sim = acme.get(QStringLiteral("/v1/_sim/acquirer"));
    QVERIFY2(sim.status == 404, sim.describe().constData());

    // Stored hashed, never in clear: no file of the gateway holds the token's bytes.
    QVERIFY(gateway.terminate());
    QDirIterator it(gateway.dataDir(), QDir::Files, QDirIterator::Subdirectories);
    int files = 0;
    while (it.hasNext()) {
        const QString file = it.next();
        if (file.endsWith(QStringLiteral(".stderr")))
            continue;
        QFile stored(file);
        QVERIFY(stored.open(QIODevice::ReadOnly));
        QVERIFY2(!stored.readAll().contains(secret), qPrintable(file + QStringLiteral(" holds the token in clear")));
        ++files;
    }
    QVERIFY(files >= 1);
}

void TestCli::reviewEscapesWhatItPrints()
{
    // A payment held for review whose note holds ESC sequences and a newline, its key rewritten
    // the same way (a store another program or an older version wrote). `oncepay-gateway review`
    // still prints one line per record, those characters as escapes: nothing stored can forge a
    // line or drive the operator's terminal (issue 35).
    GatewayProcess gateway;
    QVERIFY2(gateway.start(), gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    QJsonObject body = QJsonDocument::fromJson(paymentBody(1200)).object();
    body.insert(QStringLiteral("description"), QStringLiteral("table 4\x1b[2K\rnothing needs review\npay_forged  payment"));
    const HttpReply paid = pay(client, uniqueKey(QStringLiteral("note")), QJsonDocument(body).toJson(QJsonDocument::Compact));
    ONCEPAY_VERIFY_STATUS(paid, 201);
    const QString id = paid.object().value(QStringLiteral("id")).toString();
    QVERIFY(gateway.terminate());
    {
        // Held as the gateway holds one (processing, needs_review), with a hostile key.
        QString error;
        QVERIFY2(gateway.database().connect(QStringLiteral("review-escapes"), &error), qPrintable(error));
        QSqlQuery q(QSqlDatabase::database(QStringLiteral("review-escapes")));
        QVERIFY(q.prepare(QStringLiteral("UPDATE payments SET status = 'processing', needs_review = 1, idem_key = ? WHERE id = ?")));
        q.addBindValue(QStringLiteral("k\x1b]0;owned\x07\\x\u202e"));
        q.addBindValue(id);
        QVERIFY2(q.exec() && q.numRowsAffected() == 1, qPrintable(q.lastError().text()));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("review-escapes"));

    QProcess review;
    review.start(GatewayProcess::binaryPath(), QStringList{QStringLiteral("review"), QStringLiteral("--db"), gateway.database().dbArg()});
    QVERIFY(review.waitForFinished(30000));
    QCOMPARE(review.exitCode(), 0);
    const QByteArray out = review.readAllStandardOutput();
    QVERIFY2(out.count('\n') == 1 && out.endsWith('\n'), out.constData());
    QVERIFY2(out.startsWith(id.toLatin1() + "  payment  merchant demo  key "), out.constData());
    for (const char control : {'\x1b', '\r', '\x07'})
        QVERIFY2(!out.contains(control), out.toPercentEncoding(" \\[];").constData());
    QVERIFY2(out.contains(R"(key k\x1b]0;owned\x07\\x\u202e  )"), out.constData());
    QVERIFY2(out.contains(R"(note "table 4\x1b[2K\rnothing needs review\npay_forged  payment")"), out.constData());
}

namespace {
// The service manager's end of $NOTIFY_SOCKET: a Unix datagram socket bound to a path, or to
// an abstract name when the name starts with '@' (systemd uses both forms).
class NotifySocket final
{
public:
    explicit NotifySocket(const QByteArray &name)
        : m_fd(::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0))
    {
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        if (m_fd < 0 || size_t(name.size()) >= sizeof(addr.sun_path))
            return;
        std::memcpy(addr.sun_path, name.constData(), size_t(name.size()));
        socklen_t length = socklen_t(offsetof(sockaddr_un, sun_path) + size_t(name.size()));
        if (name.startsWith('@'))
            addr.sun_path[0] = '\0';
        else
            ++length;
        m_bound = ::bind(m_fd, reinterpret_cast<const sockaddr *>(&addr), length) == 0;
    }
    ~NotifySocket()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    NotifySocket(const NotifySocket &) = delete;
    NotifySocket &operator=(const NotifySocket &) = delete;

    bool isBound() const { return m_bound; }
    // Every datagram received so far, each followed by '\n'; never blocks.
    QByteArray received()
    {
        char buffer[4096];
        ssize_t n;
        while ((n = ::recv(m_fd, buffer, sizeof buffer, MSG_DONTWAIT)) > 0)
            m_received += QByteArray(buffer, int(n)) + '\n';
        return m_received;
    }

private:
    int m_fd;
    bool m_bound = false;
    QByteArray m_received;
};
}   // namespace

void TestCli::systemdNotify_data()
{
    QTest::addColumn<bool>("abstractName");
    QTest::newRow("socket file") << false;
    QTest::newRow("abstract name") << true;
}

void TestCli::systemdNotify()
{
    QFETCH(bool, abstractName);
    const QByteArray name = abstractName
        ? "@oncepay-tst-cli-" + QByteArray::number(QCoreApplication::applicationPid())
        : QFile::encodeName(m_dir.filePath(QStringLiteral("notify.socket")));
    NotifySocket manager(name);
    QVERIFY2(manager.isBound(), std::strerror(errno));

    GatewayProcess gateway;
    QVERIFY2(gateway.start({}, {{QStringLiteral("NOTIFY_SOCKET"), QString::fromLocal8Bit(name)}}),
        gateway.failureMessage().constData());
    QTRY_VERIFY_WITH_TIMEOUT(manager.received().contains("READY=1\n"), 10000);
    QVERIFY2(manager.received().contains("STATUS=listening on " + gateway.baseUrl().toString().toUtf8()),
        manager.received().constData());
    QVERIFY(!manager.received().contains("STOPPING=1"));
    // Ready means serving.
    HttpClient client(gateway.baseUrl());
    ONCEPAY_VERIFY_STATUS(pay(client, uniqueKey(QStringLiteral("notify"))), 201);

    QVERIFY(gateway.terminate());
    QCOMPARE(gateway.exitCode(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(manager.received().contains("STOPPING=1\n"), 10000);
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
