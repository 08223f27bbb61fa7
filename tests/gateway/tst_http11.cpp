// HTTP/1.1 as RFC 9112 says, where QtHttpServer 6.4 alone falls short (issue 11): connections
// close after the answer for "Connection: close" and HTTP/1.0 and stay open otherwise; framing
// that two parsers could read differently (request smuggling) is refused and the connection
// closed, before anything executes; every check runs on the whole head however many TCP
// segments it came in; a chunked request is followed to its end, and a client that half-closes
// after its request still gets the answer; "Expect: 100-continue" is answered; slow or idle
// clients are cut off by time limits and connections are capped per peer and in total,
// accepting again when a slot frees (limits shortened by options). Raw sockets throughout.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "rawhttp.h"

#include <QTcpSocket>
#include <QtTest>

#include <csignal>

#include <sys/resource.h>
#include <sys/socket.h>

using namespace GatewayApi;

namespace {

// One connection, bytes sent segment by segment. Between two segments the test waits until the
// gateway has answered a request on another connection: its event loop has then handled the
// earlier segment on its own (one thread), so the head really arrives in pieces. No sleeping.
class Connection
{
public:
    explicit Connection(quint16 port, const QHostAddress &from = {})
        : m_port(port)
    {
        if (!from.isNull())
            m_socket.bind(from);
        m_socket.connectToHost(QHostAddress::LocalHost, port);
        m_socket.waitForConnected(5000);
    }
    bool connected() const { return m_socket.state() == QAbstractSocket::ConnectedState; }
    void send(const QByteArray &bytes, bool barrier = true)
    {
        m_socket.write(bytes);
        m_socket.flush();
        while (m_socket.bytesToWrite() > 0 && m_socket.waitForBytesWritten(1000)) {}
        if (barrier)
            RawHttp::exchange(m_port, RawHttp::request("GET", "/livez", {}));
    }
    // Reads until `done(received)` holds, the server closes, or the deadline.
    QByteArray readUntil(const std::function<bool(const QByteArray &)> &done, int timeoutMs = 10000)
    {
        QDeadlineTimer deadline(timeoutMs);
        while (!done(m_received) && !deadline.hasExpired()) {
            m_received += m_socket.readAll();
            if (done(m_received))
                break;
            if (m_socket.state() != QAbstractSocket::ConnectedState) {
                m_closed = true;
                break;
            }
            m_socket.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime())));
        }
        m_received += m_socket.readAll();
        return m_received;
    }
    // One complete response, parsed.
    RawResult response()
    {
        readUntil([](const QByteArray &bytes) {
            RawResult r;
            r.received = bytes;
            RawHttp::parse(r);
            return r.complete;
        });
        RawResult r;
        r.received = m_received;
        RawHttp::parse(r);
        return r;
    }
    // Whether the server closes the connection within the timeout.
    bool closedByServer(int timeoutMs = 10000)
    {
        QDeadlineTimer deadline(timeoutMs);
        while (!m_closed && m_socket.state() == QAbstractSocket::ConnectedState && !deadline.hasExpired()) {
            if (!m_socket.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime())))
                && m_socket.state() != QAbstractSocket::ConnectedState)
                break;
            m_socket.readAll();
        }
        return m_closed || m_socket.state() != QAbstractSocket::ConnectedState;
    }
    // Ends the sending direction only (shutdown(SHUT_WR)): the server reads end-of-file after
    // the request, and the connection stays open for the answer.
    bool halfClose() { return ::shutdown(int(m_socket.socketDescriptor()), SHUT_WR) == 0; }
    void forget() { m_received.clear(); }
    QByteArray received() { return m_received += m_socket.readAll(); }
    void close() { m_socket.abort(); }

private:
    quint16 m_port;
    QTcpSocket m_socket;
    QByteArray m_received;
    bool m_closed = false;
};

QByteArray paymentHead(const QString &key, const QList<QByteArray> &framing)
{
    QByteArray head = "POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk_test_demo_till1\r\n"
                      "Content-Type: application/json\r\nIdempotency-Key: \""
        + key.toUtf8() + "\"\r\n";
    for (const QByteArray &line : framing)
        head += line + "\r\n";
    return head + "\r\n";
}

}   // namespace

class TestHttp11 final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void closesWhenAsked_data();
    void closesWhenAsked();
    void keepAliveServesSeveralRequests();
    void ambiguousFramingIsRefused_data();
    void ambiguousFramingIsRefused();
    void checksRunOnASplitHead_data();
    void checksRunOnASplitHead();
    void expectContinueIsAnswered();
    void halfClosedClientGetsItsAnswer_data();
    void halfClosedClientGetsItsAnswer();
    void chunkedRequestsAreFollowed_data();
    void chunkedRequestsAreFollowed();
    void slowClientsAreCutOff_data();
    void slowClientsAreCutOff();
    void idleConnectionsAreClosed();
    void connectionsAreCapped();
    void fileLimitBoundsTheCap();
    void burstPastTheCapWaits();

private:
    GatewayProcess m_gateway;
    GatewayProcess m_strict;   // time limits of one second
    HttpClient m_client;
};

void TestHttp11::initTestCase()
{
    QVERIFY2(m_gateway.start(), m_gateway.failureMessage().constData());
    QVERIFY2(m_strict.start({QStringLiteral("--header-timeout"), QStringLiteral("1s"), QStringLiteral("--body-timeout"),
                 QStringLiteral("1s"), QStringLiteral("--idle-timeout"), QStringLiteral("1s")}),
        m_strict.failureMessage().constData());
    m_client.setBaseUrl(m_gateway.baseUrl());
}

void TestHttp11::cleanup()
{
    QVERIFY2(m_gateway.isRunning(), m_gateway.failureMessage().constData());
}

void TestHttp11::closesWhenAsked_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::newRow("Connection: close") << QByteArray("GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    QTest::newRow("connection: Close") << QByteArray("GET /livez HTTP/1.1\r\nHost: x\r\nconnection: Close\r\n\r\n");
    QTest::newRow("HTTP/1.0") << QByteArray("GET /livez HTTP/1.0\r\n\r\n");
}

void TestHttp11::closesWhenAsked()
{
    QFETCH(QByteArray, request);
    Connection c(m_gateway.port());
    QVERIFY(c.connected());
    c.send(request, false);
    const RawResult r = c.response();
    QVERIFY2(r.complete && r.status == 200, r.describe().constData());
    QCOMPARE(r.header("Connection").toLower(), QByteArray("close"));
    QVERIFY2(c.closedByServer(), "the gateway kept the connection open after the answer");
}

void TestHttp11::keepAliveServesSeveralRequests()
{
    Connection c(m_gateway.port());
    QVERIFY(c.connected());
    for (const QByteArray &request : {QByteArray("GET /livez HTTP/1.1\r\nHost: x\r\n\r\n"),
             QByteArray("GET /livez HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"),
             QByteArray("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")}) {
        c.forget();
        c.send(request, false);
        const RawResult r = c.response();
        QVERIFY2(r.complete && r.status == 200, r.describe().constData());
        QVERIFY(r.header("Connection").toLower() != "close");
    }
}

void TestHttp11::ambiguousFramingIsRefused_data()
{
    QTest::addColumn<QList<QByteArray>>("framing");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    const QByteArray body = paymentBody(1234);
    const QByteArray n = QByteArray::number(body.size());
    QTest::newRow("two different Content-Length") << QList<QByteArray>{"Content-Length: " + n, "Content-Length: 5"}
                                                  << body << 400;
    QTest::newRow("Content-Length, Transfer-Encoding") << QList<QByteArray>{"Content-Length: " + n, "Transfer-Encoding: chunked"}
                                                       << body << 400;
    QTest::newRow("Transfer-Encoding, Content-Length") << QList<QByteArray>{"Transfer-Encoding: chunked", "Content-Length: " + n}
                                                       << body << 400;
    QTest::newRow("gzip, chunked") << QList<QByteArray>{"Transfer-Encoding: gzip, chunked"}
                                   << QByteArray::number(body.size(), 16) + "\r\n" + body + "\r\n0\r\n\r\n"
                                   << 501;
    // QtHttpServer reads any value containing "chunked" as chunked; a proxy in front may not.
    QTest::newRow("chunked, then a word") << QList<QByteArray>{"Transfer-Encoding: chunked x"}
                                          << QByteArray::number(body.size(), 16) + "\r\n" + body + "\r\n0\r\n\r\n"
                                          << 501;
    QTest::newRow("gzip with Content-Length") << QList<QByteArray>{"Transfer-Encoding: gzip", "Content-Length: " + n}
                                              << body << 400;
    QTest::newRow("chunked twice") << QList<QByteArray>{"Transfer-Encoding: chunked", "Transfer-Encoding: chunked"}
                                   << QByteArray::number(body.size(), 16) + "\r\n" + body + "\r\n0\r\n\r\n"
                                   << 400;
}

void TestHttp11::ambiguousFramingIsRefused()
{
    QFETCH(QList<QByteArray>, framing);
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    const QString key = uniqueKey(QStringLiteral("smuggle"));
    Connection c(m_gateway.port());
    QVERIFY(c.connected());
    c.send(paymentHead(key, framing) + body, false);
    const RawResult r = c.response();
    ONCEPAY_VERIFY_PROBLEM(r.asReply(), status, status == 501 ? QStringLiteral("not-implemented") : QStringLiteral("malformed-request"));
    QVERIFY2(c.closedByServer(), "the connection stayed open after ambiguous framing");
    // Nothing executed: no payment, no charge.
    ONCEPAY_VERIFY_STATUS(m_client.get(QStringLiteral("/v1/payments?idempotency_key=") + key), 404);
    QVERIFY(acquirerCharges(m_client, key).rows.isEmpty());
}

void TestHttp11::checksRunOnASplitHead_data()
{
    QTest::addColumn<QByteArrayList>("segments");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("slug");
    QTest::newRow("space before colon") << QByteArrayList{"GET /livez HTTP/1.1\r\nHost: x\r\n", "Bad : y\r\n\r\n"}
                                        << 400 << QStringLiteral("malformed-request");
    QTest::newRow("folded line") << QByteArrayList{"GET /livez HTTP/1.1\r\nHost: x\r\nA: b\r\n", " folded\r\n\r\n"}
                                 << 400 << QStringLiteral("malformed-request");
    QTest::newRow("announced length too large")
        << QByteArrayList{"POST /v1/payments HTTP/1.1\r\nHost: x\r\n", "Content-Length: 200000000\r\n\r\n{"}
        << 413 << QStringLiteral("payload-too-large");
    QTest::newRow("conflicting lengths")
        << QByteArrayList{"POST /v1/payments HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n", "Content-Length: 30\r\n\r\n{}"}
        << 400 << QStringLiteral("malformed-request");
    QTest::newRow("split inside the blank line")
        << QByteArrayList{"GET /livez HTTP/1.1\r\nHost : x\r\n\r", "\n"} << 400 << QStringLiteral("malformed-request");
}

void TestHttp11::checksRunOnASplitHead()
{
    QFETCH(QByteArrayList, segments);
    QFETCH(int, status);
    QFETCH(QString, slug);
    Connection c(m_gateway.port());
    QVERIFY(c.connected());
    for (qsizetype i = 0; i < segments.size(); ++i)
        c.send(segments.at(i), i + 1 < segments.size());
    const RawResult r = c.response();
    ONCEPAY_VERIFY_PROBLEM(r.asReply(), status, slug);
    QVERIFY2(c.closedByServer(), "the connection stayed open after a refused head");
}

void TestHttp11::expectContinueIsAnswered()
{
    const QString key = uniqueKey(QStringLiteral("continue"));
    const QByteArray body = paymentBody(2222);
    Connection c(m_gateway.port());
    QVERIFY(c.connected());
    c.send(paymentHead(key, {"Content-Length: " + QByteArray::number(body.size()), "Expect: 100-continue"}), false);
    // The interim answer comes before any byte of the body is sent.
    const QByteArray interim = c.readUntil([](const QByteArray &b) {
        return b.contains("\r\n\r\n");
    });
    QVERIFY2(interim.startsWith("HTTP/1.1 100 Continue\r\n\r\n"), interim.constData());
    c.forget();
    c.send(body, false);
    const RawResult r = c.response();
    QVERIFY2(r.complete && r.status == 201, r.describe().constData());
    QCOMPARE(paymentOf(r.asReply()).value(QStringLiteral("amount")).toInteger(), 2222);
}

void TestHttp11::halfClosedClientGetsItsAnswer_data()
{
    QTest::addColumn<bool>("payment");
    QTest::addColumn<bool>("chunked");
    QTest::addColumn<int>("bankLatencyMs");
    QTest::newRow("livez, answered at once") << false << false << 0;
    QTest::newRow("payment, the bank answers at once") << true << false << 0;
    QTest::newRow("payment, the bank takes 300 ms") << true << false << 300;
    QTest::newRow("chunked payment, the bank answers at once") << true << true << 0;
    QTest::newRow("chunked payment, the bank takes 300 ms") << true << true << 300;
}

// RFC 9112 9.6 and RFC 9293 3.6: a client may end its sending side after the request and still
// read the answer. The payment runs either way; the client must learn how it ended.
void TestHttp11::halfClosedClientGetsItsAnswer()
{
    QFETCH(bool, payment);
    QFETCH(bool, chunked);
    QFETCH(int, bankLatencyMs);
    QVERIFY(setAcquirer(m_client, QStringLiteral("normal"), bankLatencyMs));
    const QString key = uniqueKey(QStringLiteral("halfclose"));
    const QByteArray body = paymentBody(3131);
    // Chunked: the body in two chunks, one with an extension.
    const qsizetype half = body.size() / 2;
    const QByteArray chunks = QByteArray::number(half, 16) + ";part=1\r\n" + body.left(half) + "\r\n"
        + QByteArray::number(body.size() - half, 16) + "\r\n" + body.mid(half) + "\r\n0\r\n\r\n";
    const QByteArray request = !payment ? QByteArray("GET /livez HTTP/1.1\r\nHost: x\r\n\r\n")
        : chunked                       ? paymentHead(key, {"Transfer-Encoding: chunked"}) + chunks
                                        : paymentHead(key, {"Content-Length: " + QByteArray::number(body.size())}) + body;
    Connection c(m_gateway.port());
    QVERIFY(c.connected());
    c.send(request, false);
    QVERIFY(c.halfClose());
    const RawResult r = c.response();
    QVERIFY(setAcquirer(m_client, QStringLiteral("normal"), 0));
    QVERIFY2(r.complete, ("no answer after the half-close: " + r.describe()).constData());
    QCOMPARE(r.status, payment ? 201 : 200);
    // Nothing more can come on it: the gateway closes once the answer is out.
    QVERIFY2(c.closedByServer(), "the gateway kept a half-closed connection open after the answer");
    if (!payment)
        return;
    QCOMPARE(paymentOf(r.asReply()).value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    const Charges charges = acquirerCharges(m_client, key);
    QVERIFY(charges.ok);
    QCOMPARE(charges.succeeded, 1);
}

void TestHttp11::chunkedRequestsAreFollowed_data()
{
    QTest::addColumn<QByteArrayList>("segments");   // after the payment's head
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("slug");
    const QByteArray body = paymentBody(4242);
    const QByteArray size = QByteArray::number(body.size(), 16);
    // Split inside a chunk line, inside the data and inside the last chunk; the client then
    // half-closes, so the answer only arrives if the guard saw where the request ends.
    QTest::newRow("split in the chunk line and the data")
        << QByteArrayList{size.left(1), size.mid(1) + "\r\n" + body.left(10), body.mid(10) + "\r\n0\r", "\n\r\n"}
        << 201 << QString();
    QTest::newRow("bad chunk size") << QByteArrayList{"zz\r\n" + body + "\r\n0\r\n\r\n"} << 400
                                    << QStringLiteral("malformed-request");
    QTest::newRow("chunk data longer than its size")
        << QByteArrayList{"2\r\n" + body + "\r\n0\r\n\r\n"} << 400 << QStringLiteral("malformed-request");
    // QtHttpServer 6.4 would run the payment on the first two bytes of a trailer and then drop
    // the connection without its answer: refused from the first byte, before anything runs.
    QTest::newRow("a trailer field, cut after its first bytes")
        << QByteArrayList{size + "\r\n" + body + "\r\n0\r\nX-", "Trailer: t\r\n\r\n"} << 501
        << QStringLiteral("not-implemented");
    // 70 chunks of 1 KiB: over the 64 KiB limit however small each chunk is.
    QByteArray many;
    for (int i = 0; i < 70; ++i)
        many += "400\r\n" + QByteArray(1024, ' ') + "\r\n";
    QTest::newRow("chunks over the body limit") << QByteArrayList{many + "0\r\n\r\n"} << 413
                                                << QStringLiteral("payload-too-large");
}

// A chunked request's end is found by the guard (Beast's parser) however its chunks arrive:
// bad framing is refused before anything runs, and a whole request is answered even when the
// client half-closes right after it.
void TestHttp11::chunkedRequestsAreFollowed()
{
    QFETCH(QByteArrayList, segments);
    QFETCH(int, status);
    QFETCH(QString, slug);
    QVERIFY(setAcquirer(m_client, QStringLiteral("normal"), 0));
    const QString key = uniqueKey(QStringLiteral("chunks"));
    Connection c(m_gateway.port());
    QVERIFY(c.connected());
    c.send(paymentHead(key, {"Transfer-Encoding: chunked"}));
    // The last segment without waiting: the half-close follows it at once.
    for (qsizetype i = 0; i < segments.size(); ++i)
        c.send(segments.at(i), i + 1 < segments.size());
    if (status == 201)
        QVERIFY(c.halfClose());
    const RawResult r = c.response();
    QVERIFY2(r.complete, ("no answer: " + r.describe()).constData());
    QVERIFY2(c.closedByServer(), "the connection stayed open");
    const Charges charges = acquirerCharges(m_client, key);
    QVERIFY(charges.ok);
    if (status != 201) {
        ONCEPAY_VERIFY_PROBLEM(r.asReply(), status, slug);
        ONCEPAY_VERIFY_STATUS(m_client.get(QStringLiteral("/v1/payments?idempotency_key=") + key), 404);
        QVERIFY(charges.rows.isEmpty());
        return;
    }
    QCOMPARE(r.status, 201);
    QCOMPARE(paymentOf(r.asReply()).value(QStringLiteral("amount")).toInteger(), 4242);
    QCOMPARE(charges.succeeded, 1);
}

void TestHttp11::slowClientsAreCutOff_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("key");
    const QString key = uniqueKey(QStringLiteral("slow"));
    QTest::newRow("partial head") << QByteArray("POST /v1/payments HTTP/1.1\r\nHost: x\r\nContent-Ty") << QString();
    QTest::newRow("partial body") << paymentHead(key, {"Content-Length: 200"}) + "{\"amount\": 5" << key;
}

void TestHttp11::slowClientsAreCutOff()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, key);
    Connection c(m_strict.port());
    QVERIFY(c.connected());
    c.send(bytes, false);
    const RawResult r = c.response();
    ONCEPAY_VERIFY_PROBLEM(r.asReply(), 408, QStringLiteral("request-timeout"));
    QVERIFY2(c.closedByServer(), "the slow connection stayed open");
    if (!key.isEmpty()) {
        HttpClient client(m_strict.baseUrl());
        ONCEPAY_VERIFY_STATUS(client.get(QStringLiteral("/v1/payments?idempotency_key=") + key), 404);
    }
}

void TestHttp11::idleConnectionsAreClosed()
{
    // One that never sends a byte, and one kept alive after its answer.
    Connection silent(m_strict.port());
    Connection kept(m_strict.port());
    QVERIFY(silent.connected() && kept.connected());
    kept.send("GET /livez HTTP/1.1\r\nHost: x\r\n\r\n", false);
    const RawResult r = kept.response();
    QVERIFY2(r.complete && r.status == 200, r.describe().constData());
    QVERIFY2(silent.closedByServer(5000), "a connection that sent nothing stayed open");
    QVERIFY2(kept.closedByServer(5000), "an idle kept-alive connection stayed open");
}

void TestHttp11::connectionsAreCapped()
{
    GatewayProcess gateway;
    QVERIFY2(gateway.start({QStringLiteral("--max-connections"), QStringLiteral("4"),
                 QStringLiteral("--max-connections-per-peer"), QStringLiteral("3")}),
        gateway.failureMessage().constData());
    const QByteArray livez = "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n";
    auto served = [&](Connection &c) {
        c.forget();
        c.send(livez, false);
        const RawResult r = c.response();
        return r.complete && r.status == 200;
    };
    // Three from one address, each served (so each is accepted and counted).
    std::vector<std::unique_ptr<Connection>> mine;
    for (int i = 0; i < 3; ++i) {
        mine.push_back(std::make_unique<Connection>(gateway.port()));
        QVERIFY(served(*mine.back()));
    }
    // A fourth from the same address is refused at once.
    Connection fourth(gateway.port());
    QVERIFY(fourth.connected());
    const RawResult refused = fourth.response();
    ONCEPAY_VERIFY_PROBLEM(refused.asReply(), 503, QStringLiteral("too-many-connections"));
    QCOMPARE(refused.header("Retry-After"), QByteArray("1"));
    QVERIFY(fourth.closedByServer());
    // Another address is served; that is the fourth connection open: the cap.
    Connection other(gateway.port(), QHostAddress(QStringLiteral("127.0.0.2")));
    QVERIFY(other.connected());
    QVERIFY(served(other));
    QTRY_VERIFY2_WITH_TIMEOUT(gateway.stderrText().contains(QLatin1String("connection cap reached: 4 open")), "the cap was not reached",
        5000);
    // A fifth waits in the kernel's backlog (not accepted, no busy loop) ...
    Connection waiting(gateway.port(), QHostAddress(QStringLiteral("127.0.0.3")));
    waiting.send(livez, false);
    QVERIFY2(waiting.received().isEmpty(), "a connection past the cap was served");
    QVERIFY(!gateway.stderrText().contains(QLatin1String("accepting connections again")));
    // ... until a slot frees.
    mine.front()->close();
    QTRY_VERIFY2_WITH_TIMEOUT(gateway.stderrText().contains(QLatin1String("accepting connections again: 3 of 4")),
        "accepting did not resume", 5000);
    const RawResult r = waiting.response();
    QVERIFY2(r.complete && r.status == 200, r.describe().constData());
    QVERIFY2(gateway.isRunning(), gateway.failureMessage().constData());
}

// Under a low file limit the cap follows it (the limit less a reserve for the gateway's own
// files): accepting pauses before accept() could fail with EMFILE (which spun at 100% CPU),
// and resumes when a connection closes.
void TestHttp11::fileLimitBoundsTheCap()
{
    rlimit saved{};
    QCOMPARE(::getrlimit(RLIMIT_NOFILE, &saved), 0);
    rlimit low = saved;
    low.rlim_cur = 80;   // inherited by the gateway started now: a cap of 80 - 64 = 16
    QCOMPARE(::setrlimit(RLIMIT_NOFILE, &low), 0);
    GatewayProcess gateway;
    const bool started = gateway.start();
    QCOMPARE(::setrlimit(RLIMIT_NOFILE, &saved), 0);
    QVERIFY2(started, gateway.failureMessage().constData());

    const QByteArray livez = "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n";
    std::vector<std::unique_ptr<Connection>> open;
    for (int i = 0; i < 16; ++i) {
        open.push_back(std::make_unique<Connection>(gateway.port()));
        open.back()->send(livez, false);
        const RawResult r = open.back()->response();
        QVERIFY2(r.complete && r.status == 200, r.describe().constData());
    }
    QTRY_VERIFY2_WITH_TIMEOUT(gateway.stderrText().contains(QLatin1String("connection cap reached: 16 open")),
        "the cap did not follow the file limit", 5000);
    Connection waiting(gateway.port());
    waiting.send(livez, false);
    open.front()->close();
    const RawResult r = waiting.response();
    QVERIFY2(r.complete && r.status == 200, r.describe().constData());
    QVERIFY2(!gateway.stderrText().contains(QLatin1String("accepting a connection failed")),
        gateway.stderrText().toUtf8().constData());
    QVERIFY2(gateway.isRunning(), gateway.failureMessage().constData());
}

// Connections that reach the backlog together, more than the cap: those past it wait there
// and are served as slots free, none is accepted only to be turned away. The gateway is
// stopped (SIGSTOP) while they connect, so all of them are in the backlog at once when it
// wakes. QTcpServer accepted the whole backlog in one burst: two of these got 503.
void TestHttp11::burstPastTheCapWaits()
{
    GatewayProcess gateway;
    QVERIFY2(gateway.start({QStringLiteral("--max-connections"), QStringLiteral("2")}), gateway.failureMessage().constData());
    const QByteArray livez = "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n";
    QVERIFY(gateway.sendSignal(SIGSTOP));
    QTRY_VERIFY_WITH_TIMEOUT(gateway.isStopped(), 5000);
    std::vector<std::unique_ptr<Connection>> burst;
    for (int i = 0; i < 4; ++i) {
        burst.push_back(std::make_unique<Connection>(gateway.port()));
        QVERIFY(burst.back()->connected());   // the kernel completed it: in the backlog
        burst.back()->send(livez, false);
    }
    QVERIFY(gateway.sendSignal(SIGCONT));
    for (int i = 0; i < 2; ++i) {
        const RawResult r = burst[i]->response();
        QVERIFY2(r.complete && r.status == 200, r.describe().constData());
    }
    QTRY_VERIFY2_WITH_TIMEOUT(gateway.stderrText().contains(QLatin1String("connection cap reached: 2 open")),
        "the cap was not reached", 5000);
    QVERIFY2(burst[2]->received().isEmpty() && burst[3]->received().isEmpty(),
        "a connection past the cap was answered before a slot freed");
    for (int i = 2; i < 4; ++i) {
        burst[i - 2]->close();
        const RawResult r = burst[i]->response();
        QVERIFY2(r.complete && r.status == 200, r.describe().constData());
    }
    QVERIFY2(gateway.isRunning(), gateway.failureMessage().constData());
}

QTEST_GUILESS_MAIN(TestHttp11)
#include "tst_http11.moc"
