// The network simulator with real sockets: a QNetworkAccessManager client, the FaultProxy, and a
// tiny HTTP upstream that counts what reached it. Every mode is checked from the client's side
// (what error the till's network code sees) and from the upstream's (what the gateway received).
#include "faultproxy.h"

#include <QElapsedTimer>
#include <QHash>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QtTest>

#include <memory>

using namespace OncePay::NetSim;

namespace {

constexpr int kShortTimeoutMs = 300;   // the till's own timeout, short so black holes end quickly
constexpr int kWaitMs = 5000;
constexpr char kRawRequest[] = "POST /v1/payments HTTP/1.1\r\nHost: till\r\nContent-Length: 2\r\n\r\n{}";

// The gateway's stand-in: answers every HTTP request with a fixed 200 and counts what reached it.
class Upstream final : public QObject
{
public:
    Upstream()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                ++connections;
                connect(socket, &QIODevice::readyRead, this, [this, socket] {
                    read(socket);
                });
                connect(socket, &QAbstractSocket::disconnected, this, [this, socket] {
                    m_buffers.remove(socket);
                    socket->deleteLater();
                });
            }
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    quint16 port() const { return m_server.serverPort(); }

    int connections = 0;
    int requests = 0;
    QByteArray lastBody;

private:
    void read(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        for (;;) {
            const qsizetype headEnd = buffer.indexOf("\r\n\r\n");
            if (headEnd < 0)
                return;
            const qsizetype total = headEnd + 4 + contentLength(buffer.left(headEnd));
            if (buffer.size() < total)
                return;
            lastBody = buffer.mid(headEnd + 4, total - headEnd - 4);
            buffer.remove(0, total);
            ++requests;
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok");
        }
    }
    static qsizetype contentLength(const QByteArray &head)
    {
        for (const QByteArray &line : head.split('\n')) {
            if (line.toLower().startsWith("content-length:"))
                return line.mid(int(sizeof("content-length:")) - 1).trimmed().toLongLong();
        }
        return 0;
    }

    QHash<QTcpSocket *, QByteArray> m_buffers;   // declared first: outlives the sockets' disconnected()
    QTcpServer m_server;
};

Settings mode(Mode m, int latencyMs = 0, int flakyPercent = 0, quint32 seed = 1)
{
    Settings s;
    s.mode = m;
    s.latencyMs = latencyMs;
    s.flakyPercent = flakyPercent;
    s.seed = seed;
    return s;
}

}   // namespace

class TestFaultProxy final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void onlineKeepsAlive();
    void onlineManyConnectionsAtOnce();
    void offlineRefusesThenRecoversOnSamePort();
    void offlineAbortsOpenConnections();
    void blackHoleLetsTheClientTimeOut();
    void modeChangeReachesOpenConnections();
    void loseResponsesChargesButCutsTheClient();
    void loseResponsesMakesQnamResendThePost();
    void latencyDelaysBothWays();
    void latencyKeepsLargeBodiesInOrder();
    void flaky_data();
    void flaky();
    void flakyIsReplayableFromItsSeed();
    void upstreamDownCutsTheClient();
    void parseMode_data();
    void parseMode();
    void describeRoundTrips_data();
    void describeRoundTrips();

private:
    QNetworkReply *post(int timeoutMs = kWaitMs, const QByteArray &body = QByteArrayLiteral(R"({"amount":1999})"));
    static bool finish(QNetworkReply *reply);
    QChar fateOfOneConnection();

    std::unique_ptr<Upstream> m_upstream;
    std::unique_ptr<FaultProxy> m_proxy;
    std::unique_ptr<QNetworkAccessManager> m_nam;
};

void TestFaultProxy::initTestCase()
{
    // The proxy logs every listen and mode change at info level: useful in the till, noise here.
    QLoggingCategory::setFilterRules(QStringLiteral("oncepay.netsim.*.info=false"));
}

void TestFaultProxy::init()
{
    m_upstream = std::make_unique<Upstream>();
    QVERIFY(m_upstream->listen());
    m_proxy = std::make_unique<FaultProxy>();
    QString error;
    QVERIFY2(m_proxy->listen(QHostAddress::LocalHost, 0, QStringLiteral("127.0.0.1"), m_upstream->port(), &error),
        qPrintable(error));
    QVERIFY(m_proxy->port() != 0);
    m_nam = std::make_unique<QNetworkAccessManager>();
}

void TestFaultProxy::cleanup()
{
    m_nam.reset();
    m_proxy.reset();
    m_upstream.reset();
}

QNetworkReply *TestFaultProxy::post(int timeoutMs, const QByteArray &body)
{
    QUrl url = m_proxy->url();
    url.setPath(QStringLiteral("/v1/payments"));
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setTransferTimeout(timeoutMs);
    QNetworkReply *reply = m_nam->post(request, body);
    reply->setParent(this);   // replies are checked after finished(); freed with the test object
    return reply;
}

bool TestFaultProxy::finish(QNetworkReply *reply)
{
    if (reply->isFinished())
        return true;
    QSignalSpy finished(reply, &QNetworkReply::finished);
    return finished.wait(kWaitMs);
}

void TestFaultProxy::onlineKeepsAlive()
{
    for (int i = 0; i < 3; ++i) {
        QNetworkReply *reply = post();
        QVERIFY(finish(reply));
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QCOMPARE(reply->readAll(), QByteArray("ok"));
        reply->deleteLater();
    }
    QCOMPARE(m_upstream->requests, 3);
    QCOMPARE(m_upstream->connections, 1);   // one keep-alive connection end to end
    const FaultProxy::Stats stats = m_proxy->stats();
    QCOMPARE(stats.accepted, 1);
    QVERIFY(stats.bytesUp > 3 * qint64(sizeof(R"({"amount":1999})") - 1));
    QVERIFY(stats.bytesDown > 3 * 2);
    QCOMPARE(stats.responsesDropped, 0);
}

void TestFaultProxy::onlineManyConnectionsAtOnce()
{
    // QNAM opens up to six connections per host; twelve requests at once use them all.
    QList<QNetworkReply *> replies;
    for (int i = 0; i < 12; ++i)
        replies.append(post());
    for (QNetworkReply *reply : std::as_const(replies)) {
        QVERIFY(finish(reply));
        QCOMPARE(reply->error(), QNetworkReply::NoError);
    }
    QCOMPARE(m_upstream->requests, 12);
    QVERIFY2(m_proxy->stats().accepted > 1, "the requests should have been spread over connections");
}

void TestFaultProxy::offlineRefusesThenRecoversOnSamePort()
{
    const quint16 port = m_proxy->port();
    QSignalSpy changed(m_proxy.get(), &FaultProxy::settingsChanged);
    m_proxy->setSettings(mode(Mode::Offline));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().first().value<Settings>().mode, Mode::Offline);

    QNetworkReply *refused = post();
    QVERIFY(finish(refused));
    QCOMPARE(refused->error(), QNetworkReply::ConnectionRefusedError);
    QCOMPARE(m_upstream->connections, 0);

    m_proxy->setSettings(mode(Mode::Online));
    QCOMPARE(m_proxy->port(), port);
    QNetworkReply *reply = post();
    QVERIFY(finish(reply));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(m_upstream->requests, 1);
}

void TestFaultProxy::offlineAbortsOpenConnections()
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_proxy->port());
    QVERIFY(socket.waitForConnected(kWaitMs));
    QTRY_COMPARE(m_proxy->stats().accepted, 1);

    QSignalSpy disconnected(&socket, &QAbstractSocket::disconnected);
    m_proxy->setSettings(mode(Mode::Offline));
    QVERIFY(disconnected.wait(kWaitMs));
}

void TestFaultProxy::blackHoleLetsTheClientTimeOut()
{
    m_proxy->setSettings(mode(Mode::BlackHole));
    QElapsedTimer clock;
    clock.start();
    QNetworkReply *reply = post(kShortTimeoutMs);
    QVERIFY(finish(reply));
    // QNAM's transfer timer is a coarse QTimer, which may fire up to 5% early (286 ms for 300).
    QVERIFY2(clock.elapsed() >= kShortTimeoutMs * 95 / 100, "only the client's own timeout may end a black hole");
    // Qt 6.4 reports an expired transfer timeout as OperationCanceledError, not TimeoutError.
    QCOMPARE(reply->error(), QNetworkReply::OperationCanceledError);
    QCOMPARE(m_upstream->connections, 0);
    QCOMPARE(m_upstream->requests, 0);
    QVERIFY(m_proxy->stats().blackHoled >= 1);
    QCOMPARE(m_proxy->stats().bytesUp, 0);
}

// Issue 25 item 12: a mode change applies to the next byte of a connection already open (a
// kept-alive one of the till), not only to connections opened after it.
void TestFaultProxy::modeChangeReachesOpenConnections()
{
    QNetworkReply *reply = post(kShortTimeoutMs);
    QVERIFY(finish(reply));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    reply->deleteLater();
    QCOMPARE(m_upstream->connections, 1);

    // Black hole on the kept-alive connection: the next request never reaches the gateway and
    // the client's own timeout ends it.
    m_proxy->setSettings(mode(Mode::BlackHole));
    reply = post(kShortTimeoutMs);
    QVERIFY(finish(reply));
    QCOMPARE(reply->error(), QNetworkReply::OperationCanceledError);
    reply->deleteLater();
    QCOMPARE(m_upstream->requests, 1);
    QCOMPARE(m_proxy->stats().accepted, 1);   // the same connection: no new one was opened

    // Back online: answered again.
    m_proxy->setSettings(mode(Mode::Online));
    reply = post(kShortTimeoutMs);
    QVERIFY(finish(reply));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    reply->deleteLater();
    const int before = m_upstream->requests;

    // Lost answers on the open connection: the gateway has the request, the client no answer.
    m_proxy->setSettings(mode(Mode::LoseResponses));
    QSignalSpy dropped(m_proxy.get(), &FaultProxy::responseDropped);
    reply = post(kShortTimeoutMs);
    QVERIFY(finish(reply));
    QVERIFY(reply->error() != QNetworkReply::NoError);
    reply->deleteLater();
    QTRY_VERIFY(m_upstream->requests >= before + 1);   // QNAM may send it once more (loseResponsesMakesQnamResendThePost)
    QVERIFY(dropped.count() >= 1);
}

void TestFaultProxy::loseResponsesChargesButCutsTheClient()
{
    m_proxy->setSettings(mode(Mode::LoseResponses));
    QSignalSpy dropped(m_proxy.get(), &FaultProxy::responseDropped);
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_proxy->port());
    socket.write(kRawRequest);   // buffered until connected
    QSignalSpy disconnected(&socket, &QAbstractSocket::disconnected);
    QVERIFY(disconnected.wait(kWaitMs));
    QCOMPARE(socket.readAll(), QByteArray());   // not one byte of the answer
    QCOMPARE(m_upstream->requests, 1);   // but the gateway had it, and committed
    QCOMPARE(m_proxy->stats().responsesDropped, 1);
    QCOMPARE(dropped.count(), 1);
    QCOMPARE(m_proxy->stats().bytesDown, 0);
}

void TestFaultProxy::loseResponsesMakesQnamResendThePost()
{
    // What the till's QNetworkAccessManager does with a connection closed before the answer:
    // Qt 6.4 silently re-sends the POST once on a new connection, then reports the error. The
    // gateway therefore sees the same payment twice; only the idempotency key keeps it one.
    m_proxy->setSettings(mode(Mode::LoseResponses));
    QSignalSpy dropped(m_proxy.get(), &FaultProxy::responseDropped);
    QNetworkReply *reply = post();
    QVERIFY(finish(reply));
    QCOMPARE(reply->error(), QNetworkReply::RemoteHostClosedError);
    QCOMPARE(m_upstream->requests, 2);
    QCOMPARE(m_proxy->stats().accepted, 2);
    QCOMPARE(m_proxy->stats().responsesDropped, 2);
    QCOMPARE(dropped.count(), 2);

    // Applies to new connections only; the next one after going online is answered.
    m_proxy->setSettings(mode(Mode::Online));
    QNetworkReply *after = post();
    QVERIFY(finish(after));
    QCOMPARE(after->error(), QNetworkReply::NoError);
}

void TestFaultProxy::latencyDelaysBothWays()
{
    constexpr int latencyMs = 200;
    m_proxy->setSettings(mode(Mode::Latency, latencyMs));
    QElapsedTimer clock;
    clock.start();
    QNetworkReply *reply = post();
    QVERIFY(finish(reply));
    const qint64 elapsed = clock.elapsed();
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->readAll(), QByteArray("ok"));
    // The request waits once on the way up and the answer once on the way down.
    QVERIFY2(elapsed >= 2 * latencyMs, qPrintable(QStringLiteral("elapsed %1 ms").arg(elapsed)));
}

void TestFaultProxy::latencyKeepsLargeBodiesInOrder()
{
    // A body of many TCP chunks, each delayed on its own: it must arrive whole and in order.
    m_proxy->setSettings(mode(Mode::Latency, 20));
    QByteArray body;
    for (int i = 0; body.size() < 1024 * 1024; ++i)
        body += QByteArray::number(i) + ',';
    QNetworkReply *reply = post(kWaitMs, body);
    QVERIFY(finish(reply));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QVERIFY(m_upstream->lastBody == body);
    QVERIFY(m_proxy->stats().bytesUp > body.size());
}

void TestFaultProxy::flaky_data()
{
    QTest::addColumn<int>("percent");
    QTest::addColumn<quint32>("seed");
    QTest::newRow("0%") << 0 << 7u;
    QTest::newRow("100% seed 7") << 100 << 7u;
    QTest::newRow("100% seed 8") << 100 << 8u;
}

void TestFaultProxy::flaky()
{
    QFETCH(int, percent);
    QFETCH(quint32, seed);
    m_proxy->setSettings(mode(Mode::Flaky, 0, percent, seed));
    constexpr int rounds = 9;
    int failed = 0;
    for (int i = 0; i < rounds; ++i) {
        m_nam->clearConnectionCache();   // flaky decides per connection: one new connection per round
        QNetworkReply *reply = post(kShortTimeoutMs);
        QVERIFY(finish(reply));
        if (reply->error() != QNetworkReply::NoError)
            ++failed;
    }
    const FaultProxy::Stats stats = m_proxy->stats();
    const int faults = stats.refused + stats.blackHoled + stats.responsesDropped;
    if (percent == 0) {
        QCOMPARE(failed, 0);
        QCOMPARE(faults, 0);
        QCOMPARE(m_upstream->requests, rounds);
        return;
    }
    QCOMPARE(failed, rounds);
    // Every connection got one fault; a connection QNAM retried on counts again.
    QCOMPARE(faults, stats.accepted);
    QVERIFY2(stats.refused > 0 && stats.blackHoled > 0 && stats.responsesDropped > 0,
        qPrintable(QStringLiteral("refused %1, black holed %2, dropped %3")
                       .arg(stats.refused)
                       .arg(stats.blackHoled)
                       .arg(stats.responsesDropped)));
    QCOMPARE(stats.bytesDown, 0);
}

void TestFaultProxy::flakyIsReplayableFromItsSeed()
{
    const auto run = [this](quint32 seed) {
        m_proxy->setSettings(mode(Mode::Online));   // leaving Flaky and coming back restarts the sequence
        m_proxy->setSettings(mode(Mode::Flaky, 0, 50, seed));
        QString fates;
        for (int i = 0; i < 16; ++i)
            fates += fateOfOneConnection();
        return fates;
    };
    const QString first = run(42);
    QVERIFY2(!first.contains(u'?'), qPrintable(first));
    QCOMPARE(run(42), first);
    QVERIFY2(first.contains(u'F') && first.count(u'F') < first.size(), qPrintable(first));
    QVERIFY(run(43) != first);
}

void TestFaultProxy::upstreamDownCutsTheClient()
{
    m_upstream.reset();   // the gateway is gone; the proxy still accepts
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("upstream unreachable")));
    QTcpSocket socket;
    QSignalSpy disconnected(&socket, &QAbstractSocket::disconnected);
    socket.connectToHost(QHostAddress::LocalHost, m_proxy->port());
    QVERIFY(disconnected.wait(kWaitMs));
    QCOMPARE(m_proxy->stats().accepted, 1);
}

QChar TestFaultProxy::fateOfOneConnection()
{
    // F forwarded, R reset, B black-holed, L answer lost, ? nothing happened in time.
    const FaultProxy::Stats before = m_proxy->stats();
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_proxy->port());
    socket.write(kRawRequest);
    if (!QTest::qWaitFor([&] {
            return m_proxy->stats().accepted > before.accepted;
        },
            kWaitMs))
        return u'?';
    if (m_proxy->stats().refused > before.refused)
        return u'R';
    if (m_proxy->stats().blackHoled > before.blackHoled)
        return u'B';
    if (!QTest::qWaitFor([&] {
            return socket.bytesAvailable() > 0 || m_proxy->stats().responsesDropped > before.responsesDropped;
        },
            kWaitMs))
        return u'?';
    return socket.bytesAvailable() > 0 ? u'F' : u'L';
}

void TestFaultProxy::parseMode_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<Settings>("expected");

    auto good = [](const char *name, Settings s) {
        QTest::newRow(name) << QString::fromUtf8(name) << true << s;
    };
    auto bad = [](const char *name) {
        QTest::newRow(name) << QString::fromUtf8(name) << false << Settings();
    };
    good("online", mode(Mode::Online));
    good("OFFLINE", mode(Mode::Offline));
    good("  black_hole ", mode(Mode::BlackHole));
    good("lose_responses", mode(Mode::LoseResponses));
    good("latency 200", mode(Mode::Latency, 200));
    good("latency=200", mode(Mode::Latency, 200));
    good("latency = 250ms", mode(Mode::Latency, 250));
    good("latency 0", mode(Mode::Latency, 0));
    good("flaky 30", mode(Mode::Flaky, 0, 30));
    good("flaky=30", mode(Mode::Flaky, 0, 30));
    good("flaky 30%", mode(Mode::Flaky, 0, 30));
    good("flaky 30:7", mode(Mode::Flaky, 0, 30, 7));
    good("flaky=100%:4294967295", mode(Mode::Flaky, 0, 100, 4294967295u));
    bad("");
    bad("sideways");
    bad("black hole");
    bad("online 5");
    bad("latency");
    bad("latency -5");
    bad("latency abc");
    bad("latency 200%");
    bad("latency 200:3");
    bad("latency 600001");
    bad("flaky");
    bad("flaky 101");
    bad("flaky 30ms");
    bad("flaky 30:x");
    bad("flaky 30:4294967296");
    bad("flaky 30:");
}

void TestFaultProxy::parseMode()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(Settings, expected);
    const std::optional<Settings> parsed = FaultProxy::parseMode(text);
    QCOMPARE(parsed.has_value(), valid);
    if (valid)
        QVERIFY2(*parsed == expected, qPrintable(FaultProxy::describe(*parsed)));
}

void TestFaultProxy::describeRoundTrips_data()
{
    QTest::addColumn<Settings>("settings");
    QTest::newRow("online") << mode(Mode::Online);
    QTest::newRow("offline") << mode(Mode::Offline);
    QTest::newRow("black_hole") << mode(Mode::BlackHole);
    QTest::newRow("lose_responses") << mode(Mode::LoseResponses);
    QTest::newRow("latency") << mode(Mode::Latency, 150);
    QTest::newRow("flaky") << mode(Mode::Flaky, 0, 25, 99);
}

void TestFaultProxy::describeRoundTrips()
{
    QFETCH(Settings, settings);
    const std::optional<Settings> parsed = FaultProxy::parseMode(FaultProxy::describe(settings));
    QVERIFY(parsed.has_value());
    QVERIFY(*parsed == settings);
}

QTEST_GUILESS_MAIN(TestFaultProxy)
#include "tst_faultproxy.moc"
