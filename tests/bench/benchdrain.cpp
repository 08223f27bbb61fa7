// oncepay-bench-drain: how fast the till drains its offline queue once the network is back,
// against the gateway's own best rate for as many unique payments (DESIGN.md: within 1.25x).
//
// Everything runs in this process, each part on its own thread as separate programs would be:
// a demo GatewayServer (SQLite in a fresh directory on the disk given by --dir), the network
// simulator's FaultProxy in front of it, and the till's core on the main thread: IntentJournal,
// GatewayClient and SyncEngine (maxInFlight = --concurrency).
//  1. gateway best, twice, each on a fresh gateway: N POSTs with unique keys straight to the
//     gateway with --concurrency requests in flight, through the till's GatewayClient (its
//     QNetworkAccessManager opens at most 6 connections per host in Qt 6.4) and over raw
//     HTTP/1.1 keep-alive connections (--concurrency of them).
//  2. the drain, on a fresh gateway: the proxy offline, N intents created through
//     SyncEngine::pay (they queue), the proxy online, and the time until waitingCount() == 0.
//     By default the engine is told at once that the network is back, as a reachability signal
//     would (SyncEngine::retryNow); --no-nudge leaves it to the /healthz probe's backoff instead.
//     A 10 ms heartbeat timer on the main thread measures how long the till's thread stalls.
#include "bench_util.h"
#include "fsyncprobe.h"
#include "http_response.h"

#include "faultproxy.h"
#include "gatewayclient.h"
#include "gateway/gatewayserver.h"
#include "idempotencykey.h"
#include "intentjournal.h"
#include "syncengine.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLoggingCategory>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <memory>

#include <sys/resource.h>

// Its lambdas capture the locals of a measurement that runs a local event loop until the drain
// ends; each connection's context is destroyed before those locals are.
// clazy:excludeall=lambda-in-connect

using namespace OncePay;

namespace {

constexpr char kToken[] = "sk_test_demo_till1";

// Runs `f` on the thread of `anchor` and waits for it.
void onThread(QObject *anchor, const std::function<void()> &f)
{
    QMetaObject::invokeMethod(anchor, f, Qt::BlockingQueuedConnection);
}

// A demo gateway on a thread of its own, on a fresh database in `dir`.
class GatewayHost final
{
public:
    ~GatewayHost()
    {
        if (m_anchor)
            onThread(m_anchor, [this] {
                delete m_server;
            });
        m_thread.quit();
        m_thread.wait();
        delete m_anchor;   // its thread has ended
    }
    bool start(const QString &dir, QString *error)
    {
        m_thread.setObjectName(QStringLiteral("gateway"));
        m_thread.start();
        m_anchor = new QObject;
        m_anchor->moveToThread(&m_thread);
        bool ok = false;
        onThread(m_anchor, [&] {
            Gateway::GatewayServer::Config c;
            c.dbPath = QDir(dir).filePath(QStringLiteral("gateway.db"));
            c.demo = true;
            m_server = new Gateway::GatewayServer(c);
            ok = m_server->start(error);
            m_port = m_server->port();
        });
        return ok;
    }
    quint16 port() const { return m_port; }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_port)); }

private:
    QThread m_thread;
    QObject *m_anchor = nullptr;
    Gateway::GatewayServer *m_server = nullptr;
    quint16 m_port = 0;
};

// The network simulator on a thread of its own (the network is not the till's CPU).
class ProxyHost final
{
public:
    ~ProxyHost()
    {
        if (m_anchor)
            onThread(m_anchor, [this] {
                delete m_proxy;
            });
        m_thread.quit();
        m_thread.wait();
        delete m_anchor;   // its thread has ended
    }
    bool start(quint16 upstreamPort, QString *error)
    {
        m_thread.setObjectName(QStringLiteral("netsim"));
        m_thread.start();
        m_anchor = new QObject;
        m_anchor->moveToThread(&m_thread);
        bool ok = false;
        onThread(m_anchor, [&] {
            m_proxy = new NetSim::FaultProxy;
            ok = m_proxy->listen(QHostAddress::LocalHost, 0, QStringLiteral("127.0.0.1"), upstreamPort, error);
            m_url = m_proxy->url();
        });
        return ok;
    }
    void setMode(NetSim::Mode mode)
    {
        onThread(m_anchor, [&] {
            NetSim::Settings s;
            s.mode = mode;
            m_proxy->setSettings(s);
        });
    }
    QUrl url() const { return m_url; }

private:
    QThread m_thread;
    QObject *m_anchor = nullptr;
    NetSim::FaultProxy *m_proxy = nullptr;
    QUrl m_url;
};

// CPU seconds used so far by the calling thread (the till's thread here), or by the whole process.
double cpuSeconds(int who)
{
    rusage u{};
    getrusage(who, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// CPU of the main thread and of the process between construction and stop().
struct CpuMeter
{
    double thread0 = cpuSeconds(RUSAGE_THREAD);
    double process0 = cpuSeconds(RUSAGE_SELF);
    void stop(double *thread, double *process) const
    {
        *thread = cpuSeconds(RUSAGE_THREAD) - thread0;
        *process = cpuSeconds(RUSAGE_SELF) - process0;
    }
};

struct Result
{
    int done = 0;
    int ok = 0;   // 201 succeeded
    QString firstError;
    double seconds = 0;
    double cpu = 0;   // CPU seconds of the client's (main) thread meanwhile
    double processCpu = 0;   // CPU seconds of the whole process (gateway, proxy, Qt's HTTP threads too)
    double rate() const { return seconds > 0 ? done / seconds : 0; }
    QString cpuShare() const
    {
        return QStringLiteral("CPU: main thread %1%, process %2% of one core")
            .arg(seconds > 0 ? 100 * cpu / seconds : 0, 0, 'f', 0)
            .arg(seconds > 0 ? 100 * processCpu / seconds : 0, 0, 'f', 0);
    }
};

Intent newIntent(const QString &prefix, int n)
{
    Intent i;
    i.key = IdempotencyKey::generate(QStringLiteral("pay")).value();
    i.orderId = QStringLiteral("%1-%2").arg(prefix).arg(n);
    i.amount = Money(1999, QStringLiteral("CNY"));
    i.paymentMethod = QStringLiteral("tok_visa");
    return i;
}

// N POSTs through GatewayClient, `inFlight` at a time, spread over `clients` clients (each has its
// own QNetworkAccessManager, hence its own 6 connections).
Result viaClient(const QUrl &url, int count, int inFlight, int clients = 1)
{
    std::vector<std::unique_ptr<GatewayClient>> pool;
    for (int i = 0; i < clients; ++i)
        pool.push_back(std::make_unique<GatewayClient>(url, QString::fromLatin1(kToken), 30'000));
    Result r;
    QEventLoop loop;
    int issued = 0;
    std::function<void()> issue = [&] {
        if (issued >= count)
            return;
        GatewayClient &client = *pool[std::size_t(issued) % pool.size()];
        client.postPayment(newIntent(QStringLiteral("best"), issued++), &client, [&](const GatewayResult &g) {
            ++r.done;
            if (g.answered() && g.status == 201)
                ++r.ok;
            else if (r.firstError.isEmpty())
                r.firstError = g.summary();
            if (r.done == count)
                loop.quit();
            else
                issue();
        });
    };
    QElapsedTimer clock;
    clock.start();
    const CpuMeter meter;
    for (int i = 0; i < inFlight; ++i)
        issue();
    loop.exec();
    r.seconds = double(clock.nsecsElapsed()) / 1e9;
    meter.stop(&r.cpu, &r.processCpu);
    return r;
}

// N POSTs over `connections` raw HTTP/1.1 keep-alive connections, one request at a time each.
Result viaRaw(quint16 port, int count, int connections)
{
    struct Conn
    {
        std::unique_ptr<QTcpSocket> socket;
        std::string buffer;
    };
    std::vector<Conn> conns(std::size_t(std::max(1, connections)));
    Result r;
    QEventLoop loop;
    int issued = 0;
    int lost = 0;
    const std::string run = QString::number(QDateTime::currentMSecsSinceEpoch()).toStdString();
    auto finishOne = [&] {
        if (r.done + lost == count)
            loop.quit();
    };
    auto send = [&](Conn &c) {
        if (issued >= count)
            return;
        const std::string n = std::to_string(issued++);
        const std::string body = R"({"amount":1999,"currency":"CNY","order_id":"raw-)" + n
            + R"(","payment_method":"tok_visa"})";
        std::string req = "POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ";
        req += kToken;
        req += "\r\nContent-Type: application/json\r\nIdempotency-Key: \"raw-" + run + "-" + n
            + "\"\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
        c.socket->write(req.data(), qint64(req.size()));
    };
    for (Conn &c : conns) {
        c.socket = std::make_unique<QTcpSocket>();
        QTcpSocket *s = c.socket.get();
        QObject::connect(s, &QTcpSocket::connected, &loop, [&send, &c] {
            send(c);
        });
        QObject::connect(s, &QTcpSocket::readyRead, &loop, [&, s] {
            const QByteArray bytes = s->readAll();
            c.buffer.append(bytes.constData(), std::size_t(bytes.size()));
            for (;;) {
                loadgen::Response resp;
                std::size_t consumed = 0;
                const loadgen::Parse p = loadgen::parseResponse(c.buffer, false, resp, consumed);
                if (p == loadgen::Parse::NeedMore)
                    return;
                if (p == loadgen::Parse::Bad) {
                    if (r.firstError.isEmpty())
                        r.firstError = QStringLiteral("unparsable response");
                    ++lost;
                    s->abort();
                    finishOne();
                    return;
                }
                c.buffer.erase(0, consumed);
                ++r.done;
                if (resp.status == 201)
                    ++r.ok;
                else if (r.firstError.isEmpty())
                    r.firstError = QStringLiteral("HTTP %1").arg(resp.status);
                finishOne();
                send(c);
            }
        });
        QObject::connect(s, &QTcpSocket::errorOccurred, &loop, [&, s](QAbstractSocket::SocketError) {
            if (r.firstError.isEmpty())
                r.firstError = s->errorString();
        });
    }
    QElapsedTimer clock;
    clock.start();
    const CpuMeter meter;
    for (Conn &c : conns)
        c.socket->connectToHost(QHostAddress::LocalHost, port);
    loop.exec();
    r.seconds = double(clock.nsecsElapsed()) / 1e9;
    meter.stop(&r.cpu, &r.processCpu);
    return r;
}

struct Drain
{
    Result result;
    bool queued = false;
    QString error;
    double queueSeconds = 0;   // creating the N intents offline
    double onlineAfterMs = 0;   // proxy online -> engine Online
    qint64 heartbeatMaxGapMs = 0;
    int notSucceeded = 0;
};

Drain drain(const QString &dir, quint16 gatewayPort, int count, int concurrency, bool nudge)
{
    Drain d;
    ProxyHost proxy;
    if (!proxy.start(gatewayPort, &d.error))
        return d;
    proxy.setMode(NetSim::Mode::Offline);

    IntentJournal journal({QDir(dir).filePath(QStringLiteral("journal.db"))});
    TillError refusal;
    if (!journal.open(&refusal)) {
        d.error = refusal.text();
        return d;
    }
    GatewayClient client(proxy.url(), QString::fromLatin1(kToken), 30'000, nullptr, concurrency);
    SyncEngine::Config config;
    config.maxInFlight = concurrency;
    config.seed = 1;
    SyncEngine engine(&journal, &client, config);
    QEventLoop loop;
    bool started = false;
    engine.start(&engine, [&](bool ok, const QString &error) {
        started = ok;
        d.error = error;
        loop.quit();
    });
    loop.exec();
    if (!started)
        return d;

    // Offline: every pay is stored and waits.
    QElapsedTimer clock;
    clock.start();
    int stored = 0;
    int answered = 0;
    QString firstKey;
    for (int i = 0; i < count; ++i) {
        engine.pay(QStringLiteral("drain-%1").arg(i), Money(1999, QStringLiteral("CNY")), QStringLiteral("tok_visa"), &engine,
            [&](bool ok, const TillError &error, const Intent &intent) {
                if (ok && ++stored == 1)
                    firstKey = intent.key;
                if (!ok && d.error.isEmpty())
                    d.error = error.text();
                if (++answered == count)
                    loop.quit();
            });
    }
    if (answered < count)
        loop.exec();
    // The first pays went out before the engine knew it was offline; let them come back refused.
    while (engine.requestsInFlight() > 0 || engine.connectivity() == SyncEngine::Connectivity::Online) {
        QTimer::singleShot(5, &loop, &QEventLoop::quit);
        loop.exec();
    }
    d.queueSeconds = double(clock.nsecsElapsed()) / 1e9;
    d.queued = stored == count && engine.waitingCount() == count;
    if (!d.queued) {
        if (d.error.isEmpty())
            d.error = QStringLiteral("%1 of %2 intents waiting").arg(engine.waitingCount()).arg(count);
        return d;
    }

    // Online: time until nothing waits.
    QObject::connect(&engine, &SyncEngine::intentChanged, &loop, [&](const Intent &i) {
        if (i.state == IntentState::Succeeded)
            ++d.result.ok;
        else if (isFinal(i.state))
            ++d.notSucceeded;
    });
    QObject::connect(&engine, &SyncEngine::queueChanged, &loop, [&] {
        if (engine.waitingCount() == 0)
            loop.quit();
    });
    QElapsedTimer beat;
    QTimer heartbeat;
    heartbeat.setTimerType(Qt::PreciseTimer);
    QObject::connect(&heartbeat, &QTimer::timeout, &loop, [&] {
        d.heartbeatMaxGapMs = std::max(d.heartbeatMaxGapMs, beat.restart());
    });
    QObject::connect(&engine, &SyncEngine::connectivityChanged, &loop, [&](SyncEngine::Connectivity c) {
        if (c == SyncEngine::Connectivity::Online && d.onlineAfterMs == 0)
            d.onlineAfterMs = double(clock.nsecsElapsed()) / 1e6;
    });
    proxy.setMode(NetSim::Mode::Online);
    clock.restart();
    const CpuMeter meter;
    beat.start();
    heartbeat.start(10);
    if (nudge)
        engine.retryNow(firstKey);
    loop.exec();
    d.result.seconds = double(clock.nsecsElapsed()) / 1e9;
    meter.stop(&d.result.cpu, &d.result.processCpu);
    d.result.done = count - engine.waitingCount();
    heartbeat.stop();
    return d;
}

}   // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("oncepay.*.info=false\nqt.*.warning=false"));
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Drain of the till's offline queue against the gateway's best rate."));
    p.addHelpOption();
    p.addOptions({{QStringLiteral("dir"), QStringLiteral("Directory on the disk to measure (default: current)."), QStringLiteral("PATH"), QStringLiteral(".")},
        {QStringLiteral("count"), QStringLiteral("Queued intents, and payments of each baseline (default 10000)."), QStringLiteral("N"), QStringLiteral("10000")},
        {QStringLiteral("concurrency"), QStringLiteral("SyncEngine maxInFlight, and the baselines' requests in flight (default 32)."), QStringLiteral("C"), QStringLiteral("32")},
        {QStringLiteral("no-nudge"), QStringLiteral("Let the engine find the network back by its /healthz probe alone.")},
        {QStringLiteral("breakdown"), QStringLiteral("Also measure raw HTTP/1.1 over 6 connections (what Qt 6.4's QNetworkAccessManager "
                                                     "opens per host), GatewayClient through the online proxy, and one "
                                                     "GatewayClient per 6 requests in flight.")}});
    if (!p.parse(QCoreApplication::arguments())) {
        std::fprintf(stderr, "oncepay-bench-drain: %s (see --help)\n", qPrintable(p.errorText()));
        return 2;
    }
    if (p.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(p.helpText()), stdout);
        return 0;
    }
    if (!p.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "oncepay-bench-drain: unexpected argument %s (see --help)\n", qPrintable(p.positionalArguments().constFirst()));
        return 2;
    }
    const std::string dirArg = p.value(QStringLiteral("dir")).toStdString();
    const int count = bench::parseValue("--count", p.value(QStringLiteral("count")).toStdString(), 1, 10'000'000);
    const int concurrency = bench::parseValue("--concurrency", p.value(QStringLiteral("concurrency")).toStdString(), 1, 1000);
    const bool nudge = !p.isSet(QStringLiteral("no-nudge"));

    QTemporaryDir dir(QDir(QString::fromStdString(dirArg)).filePath(QStringLiteral("oncepay-bench-drain-XXXXXX")));
    if (!dir.isValid()) {
        std::fprintf(stderr, "oncepay-bench-drain: cannot create a directory in %s: %s\n", dirArg.c_str(), qPrintable(dir.errorString()));
        return 1;
    }
    auto fail = [](const QString &what) {
        std::fprintf(stderr, "oncepay-bench-drain: %s\n", qPrintable(what));
        return 1;
    };
    const bench::FsyncProbe disk = bench::probeFdatasync(dir.path().toStdString(), 1000);
    std::printf("N %d, concurrency %d, data in %s; disk fdatasync p50 %.0f us, %.0f/s%s\n", count, concurrency,
        qPrintable(dir.path()), double(disk.p50) / 1e3, disk.perSecond, disk.tmpfs ? " (tmpfs!)" : "");
    std::fflush(stdout);

    Result client;
    Result raw;
    QString error;
    for (const char *which : {"client", "raw"}) {
        const QString sub = dir.filePath(QString::fromLatin1(which));
        QDir().mkpath(sub);
        GatewayHost gateway;
        if (!gateway.start(sub, &error))
            return fail(error);
        Result &r = qstrcmp(which, "client") == 0 ? client : raw;
        r = qstrcmp(which, "client") == 0 ? viaClient(gateway.url(), count, concurrency) : viaRaw(gateway.port(), count, concurrency);
        std::printf("gateway best, %-34s %6d payments in %7.2f s = %7.0f/s  (%s)%s\n",
            qstrcmp(which, "client") == 0 ? qPrintable(QStringLiteral("GatewayClient, %1 in flight:").arg(concurrency))
                                          : qPrintable(QStringLiteral("raw HTTP/1.1, %1 connections:").arg(concurrency)),
            r.ok, r.seconds, r.rate(), qPrintable(r.cpuShare()),
            r.ok == count ? "" : qPrintable(QStringLiteral("  (%1 not 201, first: %2)").arg(count - r.ok).arg(r.firstError)));
        std::fflush(stdout);
    }

    if (p.isSet(QStringLiteral("breakdown"))) {
        for (const char *which : {"raw6", "proxied", "pool"}) {
            const QString sub = dir.filePath(QString::fromLatin1(which));
            QDir().mkpath(sub);
            GatewayHost gateway;
            if (!gateway.start(sub, &error))
                return fail(error);
            Result r;
            QString label;
            if (qstrcmp(which, "raw6") == 0) {
                r = viaRaw(gateway.port(), count, std::min(6, concurrency));
                label = QStringLiteral("raw HTTP/1.1, %1 connections:").arg(std::min(6, concurrency));
            } else if (qstrcmp(which, "pool") == 0) {
                const int clients = (concurrency + 5) / 6;
                r = viaClient(gateway.url(), count, concurrency, clients);
                label = QStringLiteral("%1 GatewayClients, %2 in flight:").arg(clients).arg(concurrency);
            } else {
                ProxyHost proxy;
                if (!proxy.start(gateway.port(), &error))
                    return fail(error);
                r = viaClient(proxy.url(), count, concurrency);
                label = QStringLiteral("GatewayClient via proxy, %1:").arg(concurrency);
            }
            std::printf("breakdown, %-38s %6d payments in %7.2f s = %7.0f/s  (%s)%s\n", qPrintable(label), r.ok, r.seconds,
                r.rate(), qPrintable(r.cpuShare()),
                r.ok == count ? "" : qPrintable(QStringLiteral("  (%1 not 201, first: %2)").arg(count - r.ok).arg(r.firstError)));
            std::fflush(stdout);
        }
    }

    const QString sub = dir.filePath(QStringLiteral("drain"));
    QDir().mkpath(sub);
    GatewayHost gateway;
    if (!gateway.start(sub, &error))
        return fail(error);
    const Drain d = drain(sub, gateway.port(), count, concurrency, nudge);
    if (!d.queued)
        return fail(QStringLiteral("could not queue the intents: %1").arg(d.error));
    const double best = std::max(client.rate(), raw.rate());
    const double bestSeconds = best > 0 ? count / best : 0;
    std::printf("queued offline: %d intents in %.2f s\n", count, d.queueSeconds);
    std::printf("drain after reconnect%s: %6d intents in %7.2f s = %7.0f intents/s  (%s; %d succeeded, %d other final;"
                " engine online after %.1f ms)\n",
        nudge ? "" : " (probe only)", d.result.done, d.result.seconds, d.result.rate(), qPrintable(d.result.cpuShare()),
        d.result.ok, d.notSucceeded, d.onlineAfterMs);
    std::printf("ratio drain time / gateway best time: %.2fx (target <= 1.25x); against the GatewayClient baseline: %.2fx\n",
        bestSeconds > 0 ? d.result.seconds / bestSeconds : 0.0,
        client.seconds > 0 ? d.result.seconds / client.seconds : 0.0);
    std::printf("till thread during the drain: longest heartbeat gap %lld ms (target: no stall over 50 ms)\n",
        static_cast<long long>(d.heartbeatMaxGapMs));
    std::printf("summary: N=%d seconds=%.3f intents_per_s=%.1f gateway_best_per_s=%.1f ratio=%.3f\n", count,
        d.result.seconds, d.result.rate(), best, bestSeconds > 0 ? d.result.seconds / bestSeconds : 0.0);
    const bool ok = d.result.done == count && d.result.ok == count && client.ok == count && raw.ok == count;
    return ok ? 0 : 1;
}
