// SimulatedNetwork: the fault proxy on a thread of its own, as the till's demo mode runs it. Its
// calls return once the proxy's thread has acted on them (the next byte meets the new mode),
// and it forwards while the thread that drives it is busy and runs no events.
#include "rawhttp.h"
#include "simulatednetwork.h"

#include <QSignalSpy>
#include <QtTest>

#include <atomic>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace OncePay::NetSim;

namespace {

// A gateway stand-in on a plain thread (no Qt event loop anywhere near the caller's): answers
// every connection's first request with a fixed 200, then closes it.
class BlockingUpstream final
{
public:
    BlockingUpstream()
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (m_fd < 0 || ::bind(m_fd, reinterpret_cast<sockaddr *>(&a), len) != 0 || ::listen(m_fd, 16) != 0
            || ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&a), &len) != 0)
            return;
        m_port = ntohs(a.sin_port);
        m_thread = std::thread([this] {
            for (;;) {
                const int c = ::accept(m_fd, nullptr, nullptr);
                if (c < 0 || m_stop.load())
                    break;
                char buffer[4096];
                QByteArray head;
                while (!head.contains("\r\n\r\n")) {
                    const ssize_t n = ::read(c, buffer, sizeof buffer);
                    if (n <= 0)
                        break;
                    head.append(buffer, n);
                }
                static const char answer[] = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok";
                (void)!::write(c, answer, sizeof answer - 1);
                ::close(c);
                ++served;
            }
        });
    }
    ~BlockingUpstream()
    {
        m_stop.store(true);
        ::shutdown(m_fd, SHUT_RDWR);   // wakes accept()
        if (m_thread.joinable())
            m_thread.join();
        ::close(m_fd);
    }
    quint16 port() const { return m_port; }
    std::atomic<int> served{0};

private:
    int m_fd = -1;
    quint16 m_port = 0;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

// Whether a TCP connection to 127.0.0.1:port is accepted (false: refused), asked without Qt.
bool connects(quint16 port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0;
    ::close(fd);
    return ok;
}

}   // namespace

class TestSimulatedNetwork final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void forwardsWhileTheCallerIsBusy();
    void settingsApplyBeforeTheCallReturns();
    void destructionStopsIt();
};

void TestSimulatedNetwork::initTestCase()
{
    QLoggingCategory::setFilterRules(QStringLiteral("oncepay.netsim.*.info=false"));
}

void TestSimulatedNetwork::forwardsWhileTheCallerIsBusy()
{
    BlockingUpstream upstream;
    QVERIFY(upstream.port() != 0);
    SimulatedNetwork network;
    QString error;
    QVERIFY2(network.start(QStringLiteral("127.0.0.1"), upstream.port(), &error), qPrintable(error));
    const auto port = quint16(network.url().port());
    QVERIFY(port != 0);
    // This thread waits without running its event loop: only a proxy on a thread of its own can
    // forward the exchange meanwhile.
    const RawResult r = RawHttp::exchangeWhileBlocked(port, RawHttp::request("GET", "/healthz", {}));
    QVERIFY2(r.complete, r.describe().constData());
    QCOMPARE(r.status, 200);
    QCOMPARE(r.body, QByteArray("ok"));
    QCOMPARE(upstream.served.load(), 1);
}

void TestSimulatedNetwork::settingsApplyBeforeTheCallReturns()
{
    BlockingUpstream upstream;
    SimulatedNetwork network;
    QString error;
    QVERIFY2(network.start(QStringLiteral("127.0.0.1"), upstream.port(), &error), qPrintable(error));
    const auto port = quint16(network.url().port());
    QSignalSpy changed(&network, &SimulatedNetwork::settingsChanged);

    // Offline closes the listening socket on the proxy's thread before setSettings returns: the
    // very next connection is refused by the kernel, with no event run in between.
    Settings offline;
    offline.mode = Mode::Offline;
    network.setSettings(offline);
    QCOMPARE(network.settings().mode, Mode::Offline);
    QCOMPARE(changed.count(), 1);
    QVERIFY(!connects(port));

    network.setSettings(offline);   // no change, no signal
    QCOMPARE(changed.count(), 1);

    network.setSettings(Settings{});   // online again, on the same port
    QCOMPARE(changed.count(), 2);
    QVERIFY(connects(port));

    // What the proxy bounded is what the caller sees.
    Settings slow;
    slow.mode = Mode::Latency;
    slow.latencyMs = 1'000'000'000;
    network.setSettings(slow);
    QCOMPARE(changed.count(), 3);
    QCOMPARE(network.settings().mode, Mode::Latency);
    QVERIFY(network.settings().latencyMs < slow.latencyMs);
    QCOMPARE(changed.last().first().value<Settings>(), network.settings());
}

void TestSimulatedNetwork::destructionStopsIt()
{
    BlockingUpstream upstream;
    quint16 port = 0;
    {
        SimulatedNetwork network;
        QString error;
        QVERIFY2(network.start(QStringLiteral("127.0.0.1"), upstream.port(), &error), qPrintable(error));
        port = quint16(network.url().port());
        QVERIFY(connects(port));
    }
    // Its thread has ended and its proxy with it: nothing listens on the port any more.
    QVERIFY(!connects(port));
}

QTEST_GUILESS_MAIN(TestSimulatedNetwork)
#include "tst_simulatednetwork.moc"
