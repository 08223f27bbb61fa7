// A till that knows several instances of one gateway (one database): when one cannot be reached
// the client moves on to the next, and the engine's retry with the SAME key goes there. One
// in-process gateway (demo, SQLite in a QTemporaryDir) reached through two FaultProxy instances
// stands for two instances sharing a database: the second one knows every key the first took.
// Plus a closed port first in the list, the health probe trying every gateway, and oncepay-ctl.
#include "clientprobe.h"
#include "faultproxy.h"
#include "gatewayclient.h"
#include "gateway/gatewayserver.h"
#include "idempotencykey.h"
#include "intentjournal.h"
#include "syncengine.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

#include <algorithm>
#include <memory>

using namespace OncePay;
using NetSim::FaultProxy;
using Connectivity = SyncEngine::Connectivity;
using Transport = GatewayResult::Transport;

using ClientProbe::Ledger;
namespace {

using ClientProbe::kWaitMs;
constexpr char kToken[] = "sk_test_demo_till1";

SyncEngine::Config testConfig()
{
    return ClientProbe::fastEngineConfig(20250101);
}

// A port on which nothing listens: the kernel refuses connections to it.
QUrl closedPortUrl()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        return {};
    const quint16 port = server.serverPort();
    server.close();
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port));
}

}   // namespace

namespace OncePay {
char *toString(IntentState state)
{
    return qstrdup(qPrintable(intentStateName(state)));
}
}   // namespace OncePay

class TestFailover final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void parseBaseUrls_data();
    void parseBaseUrls();
    void unreachable_data();
    void unreachable();
    void closedFirstGatewayPaysOnce();
    void sameKeyReplaysOnTheNextGateway();
    void faultOnFirstGatewayConverges_data();
    void faultOnFirstGatewayConverges();
    void probeFindsWhicheverGatewayAnswers();
    void ctlFailsOverToTheLiveGateway();
    void ctlRejectsMalformedList_data();
    void ctlRejectsMalformedList();

private:
    void startTill(const QList<QUrl> &urls);
    GatewayResult await(const std::function<void(GatewayClient::Callback)> &call);
    Ledger ledger(const QString &key);
    std::pair<QString, Intent> pay(const QString &order, qint64 amount, const QString &method);
    std::optional<Intent> latest(const QString &key) const;
    bool settled(const QString &key) const
    {
        const auto i = latest(key);
        return i && isFinal(i->state);
    }
    QList<Attempt> attempts(const QString &key);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Gateway::GatewayServer> m_gateway;
    std::unique_ptr<FaultProxy> m_first;
    std::unique_ptr<FaultProxy> m_second;
    std::unique_ptr<GatewayClient> m_direct;   // straight to the gateway: the truth
    std::unique_ptr<IntentJournal> m_journal;
    std::unique_ptr<GatewayClient> m_client;   // the till's
    std::unique_ptr<SyncEngine> m_engine;
    QList<Intent> m_changes;
};

void TestFailover::init()
{
    m_changes.clear();
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    QString error;
    m_gateway = ClientProbe::startDemoGateway(m_dir->path(), &error);
    QVERIFY2(m_gateway, qPrintable(error));
    m_first = std::make_unique<FaultProxy>();
    m_second = std::make_unique<FaultProxy>();
    for (FaultProxy *proxy : {m_first.get(), m_second.get()}) {
        QVERIFY2(proxy->listen(QHostAddress::LocalHost, 0, QStringLiteral("127.0.0.1"), m_gateway->port(), &error),
            qPrintable(error));
    }
    m_direct = std::make_unique<GatewayClient>(QUrl(m_gateway->baseUrl()), QLatin1String(kToken), 10000);
}

void TestFailover::cleanup()
{
    m_engine.reset();
    m_client.reset();
    m_journal.reset();
    m_first.reset();
    m_second.reset();
    m_direct.reset();
    if (m_gateway) {
        bool down = false;
        m_gateway->shutdown(1000, [&down] {
            down = true;
        });
        QVERIFY(QTest::qWaitFor([&down] {
            return down;
        },
            kWaitMs));
        m_gateway.reset();
    }
    m_dir.reset();
}

void TestFailover::startTill(const QList<QUrl> &urls)
{
    m_journal = std::make_unique<IntentJournal>(IntentJournal::Options{m_dir->filePath(QStringLiteral("journal.db")), 0});
    TillError error;
    QVERIFY2(m_journal->open(&error), qPrintable(error.text()));
    m_client = std::make_unique<GatewayClient>(urls, QLatin1String(kToken), 1000);
    m_engine = std::make_unique<SyncEngine>(m_journal.get(), m_client.get(), testConfig());
    connect(m_engine.get(), &SyncEngine::intentChanged, this, [this](const Intent &i) {
        m_changes << i;
    });
    auto started = std::make_shared<std::optional<QString>>();
    m_engine->start(this, [started](bool ok, const QString &why) {
        *started = ok ? QString() : why + QLatin1Char('?');
    });
    QVERIFY(QTest::qWaitFor([started] {
        return started->has_value();
    },
        kWaitMs));
    QVERIFY2((*started)->isEmpty(), qPrintable(**started));
}

GatewayResult TestFailover::await(const std::function<void(GatewayClient::Callback)> &call)
{
    return ClientProbe::await(call, kWaitMs);
}

Ledger TestFailover::ledger(const QString &key)
{
    return ClientProbe::ledger(*m_direct, key, kWaitMs);
}

std::pair<QString, Intent> TestFailover::pay(const QString &order, qint64 amount, const QString &method)
{
    return ClientProbe::pay(*m_engine, order, amount, method);
}

std::optional<Intent> TestFailover::latest(const QString &key) const
{
    return ClientProbe::latest(m_changes, key);
}

QList<Attempt> TestFailover::attempts(const QString &key)
{
    auto result = std::make_shared<std::optional<QList<Attempt>>>();
    m_journal->attempts(key, this, [result](bool, const TillError &, QList<Attempt> a) {
        *result = a;
    });
    if (!QTest::qWaitFor([result] {
            return result->has_value();
        },
            kWaitMs))
        return {};
    return **result;
}

void TestFailover::parseBaseUrls_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("count");   // -1: refused
    QTest::addColumn<QString>("invalid");   // the entry named in the error
    QTest::newRow("one") << "http://127.0.0.1:8080" << 1 << "";
    QTest::newRow("two with spaces") << " http://10.0.0.1:8080 , https://gw.example/base/ " << 2 << "";
    QTest::newRow("three") << "http://a:1,http://b:2,http://c:3" << 3 << "";
    QTest::newRow("empty") << "" << -1 << "";
    QTest::newRow("empty entry") << "http://a:1,,http://b:2" << -1 << "http://a:1,,http://b:2";
    QTest::newRow("trailing comma") << "http://a:1," << -1 << "http://a:1,";
    QTest::newRow("other scheme") << "http://a:1,ftp://b:2" << -1 << "ftp://b:2";
    QTest::newRow("no scheme") << "127.0.0.1:8080" << -1 << "127.0.0.1:8080";
    QTest::newRow("no host") << "http://:8080" << -1 << "http://:8080";
    QTest::newRow("words") << "http://a:1,the gateway" << -1 << "the gateway";
    QTest::newRow("bad port") << "http://a:99999" << -1 << "http://a:99999";
}

void TestFailover::parseBaseUrls()
{
    QFETCH(QString, text);
    QFETCH(int, count);
    QFETCH(QString, invalid);
    QString named;
    const auto urls = GatewayClient::parseBaseUrls(text, &named);
    QCOMPARE(urls ? int(urls->size()) : -1, count);
    if (!urls)
        QCOMPARE(named, invalid);
    else
        QVERIFY(std::all_of(urls->cbegin(), urls->cend(), [](const QUrl &u) {
            return u.isValid() && !u.host().isEmpty();
        }));
}

void TestFailover::unreachable_data()
{
    QTest::addColumn<int>("transport");
    QTest::addColumn<int>("status");
    QTest::addColumn<bool>("problem");   // the gateway's own problem document
    QTest::addColumn<bool>("unreachable");
    QTest::newRow("refused") << int(Transport::NotSent) << 0 << false << true;
    QTest::newRow("timeout after send") << int(Transport::LostAfterSend) << 0 << false << true;
    QTest::newRow("201") << int(Transport::Answered) << 201 << false << false;
    QTest::newRow("409") << int(Transport::Answered) << 409 << true << false;
    QTest::newRow("500 outcome-unknown") << int(Transport::Answered) << 500 << true << false;
    QTest::newRow("502 acquirer-unavailable") << int(Transport::Answered) << 502 << true << false;
    QTest::newRow("503 store-unavailable") << int(Transport::Answered) << 503 << true << false;
    QTest::newRow("502 from a proxy") << int(Transport::Answered) << 502 << false << true;
    QTest::newRow("503 from a load balancer") << int(Transport::Answered) << 503 << false << true;
    QTest::newRow("504 from a proxy") << int(Transport::Answered) << 504 << false << true;
    QTest::newRow("500 without a problem") << int(Transport::Answered) << 500 << false << false;
}

void TestFailover::unreachable()
{
    QFETCH(int, transport);
    QFETCH(int, status);
    QFETCH(bool, problem);
    QFETCH(bool, unreachable);
    GatewayResult r;
    r.transport = Transport(transport);
    r.status = status;
    if (problem)
        r.problem = Problem::fromJson(R"({"type":"https://oncepay.example/problems/x","title":"x","status":503})");
    QCOMPARE(GatewayClient::isUnreachable(r), unreachable);
}

void TestFailover::closedFirstGatewayPaysOnce()
{
    const QUrl closed = closedPortUrl();
    QVERIFY(closed.isValid());
    startTill({closed, m_second->url()});
    QCOMPARE(m_client->baseUrl(), closed);
    QSignalSpy changed(m_client.get(), &GatewayClient::gatewayChanged);

    // Named, not a structured binding: a lambda below refers to it (C++17).
    const auto createdAnswer = pay(QStringLiteral("ord-closed"), 1999, QStringLiteral("tok_visa"));
    const auto &error = createdAnswer.first;
    const auto &created = createdAnswer.second;
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(settled(created.key), kWaitMs);
    QCOMPARE(latest(created.key)->state, IntentState::Succeeded);
    QCOMPARE(m_client->baseUrl(), m_second->url());
    QVERIFY(changed.count() >= 1);
    QCOMPARE(changed.first().at(0).toUrl(), m_second->url());
    QCOMPARE(changed.first().at(1).toUrl(), closed);

    const Ledger l = ledger(created.key);
    QVERIFY2(l.ok && l.rows == 1 && l.succeeded == 1, l.raw.constData());
    // Every try was the same intent: no other key ever reached the gateway for the sale.
    const GatewayResult list = await([&](auto cb) {
        m_direct->listPayments(QStringLiteral("till-1"), {}, 100, this, cb);
    });
    const QJsonArray data = list.json.value(QStringLiteral("data")).toArray();
    QCOMPARE(data.size(), 1);
    QCOMPARE(data.first().toObject().value(QStringLiteral("idempotency_key")).toString(), created.key);
}

void TestFailover::sameKeyReplaysOnTheNextGateway()
{
    // The client alone: what the engine's retry relies on.
    m_client = std::make_unique<GatewayClient>(QList<QUrl>{m_first->url(), m_second->url()}, QLatin1String(kToken), 1000);
    QSignalSpy changed(m_client.get(), &GatewayClient::gatewayChanged);
    Intent intent;
    intent.key = IdempotencyKey::generate(QStringLiteral("pay")).value();
    intent.orderId = QStringLiteral("ord-replay");
    intent.amount = Money(4200, QStringLiteral("CNY"));
    intent.paymentMethod = QStringLiteral("tok_visa");

    // The first instance executes the payment; its answer never reaches the till.
    m_first->setSettings({NetSim::Mode::LoseResponses});
    const GatewayResult lost = await([&](auto cb) {
        m_client->postPayment(intent, this, cb);
    });
    QCOMPARE(int(lost.transport), int(Transport::LostAfterSend));
    QCOMPARE(m_client->baseUrl(), m_second->url());
    QCOMPARE(changed.count(), 1);
    // (Qt 6.4 re-sends once by itself when the connection closes before the answer: the gateway
    // sees the key twice there already, and answers the second time from its record)
    QVERIFY(m_first->stats().responsesDropped >= 1);

    // The same request again goes to the second, which knows the key: a replay, not a charge.
    const GatewayResult again = await([&](auto cb) {
        m_client->postPayment(intent, this, cb);
    });
    QVERIFY2(again.answered() && (again.status == 201 || again.status == 200), qPrintable(again.summary()));
    QVERIFY2(again.replayed, qPrintable(again.summary()));
    QCOMPARE(again.payment().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    QCOMPARE(m_client->baseUrl(), m_second->url());   // an answer keeps the gateway
    QCOMPARE(changed.count(), 1);
    const Ledger l = ledger(intent.key);
    QVERIFY2(l.ok && l.rows == 1 && l.succeeded == 1, l.raw.constData());
}

void TestFailover::faultOnFirstGatewayConverges_data()
{
    QTest::addColumn<QString>("mode");
    QTest::newRow("offline") << QStringLiteral("offline");
    QTest::newRow("black_hole") << QStringLiteral("black_hole");
    QTest::newRow("lose_responses") << QStringLiteral("lose_responses");
}

void TestFailover::faultOnFirstGatewayConverges()
{
    QFETCH(QString, mode);
    const auto settings = FaultProxy::parseMode(mode);
    QVERIFY(settings);
    startTill({m_first->url(), m_second->url()});
    m_first->setSettings(*settings);   // the first gateway fails from the payment's first request on

    // Named, not a structured binding: a lambda below refers to it (C++17).
    const auto createdAnswer = pay(QStringLiteral("ord-fault"), 2500, QStringLiteral("tok_visa"));
    const auto &error = createdAnswer.first;
    const auto &created = createdAnswer.second;
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(settled(created.key), kWaitMs);
    QCOMPARE(latest(created.key)->state, IntentState::Succeeded);
    QCOMPARE(m_client->baseUrl(), m_second->url());
    QCOMPARE(m_engine->connectivity(), Connectivity::Online);
    // (the health probes that also went to the first gateway meet the same fault)
    if (settings->mode == NetSim::Mode::LoseResponses)
        QVERIFY(m_first->stats().responsesDropped >= 1);   // charged by the first, answered by the second
    if (settings->mode == NetSim::Mode::BlackHole)
        QVERIFY(m_first->stats().blackHoled >= 1);

    const Ledger l = ledger(created.key);
    QVERIFY2(l.ok && l.rows == 1 && l.succeeded == 1, l.raw.constData());
    // The second gateway answered from what the first one did (lookup 200 or replay) or executed
    // the key the first one never took (refused, black hole): one payment either way.
    const QList<Attempt> tries = attempts(created.key);
    QVERIFY(tries.size() >= 2);
    QVERIFY2(tries.last().httpStatus == 200 || tries.last().httpStatus == 201, qPrintable(tries.last().outcome));
    const GatewayResult truth = await([&](auto cb) {
        m_direct->getPaymentByKey(created.key, this, cb);
    });
    QCOMPARE(truth.status, 200);
    QCOMPARE(truth.payment().value(QStringLiteral("id")).toString(), latest(created.key)->paymentId);
}

void TestFailover::probeFindsWhicheverGatewayAnswers()
{
    startTill({m_first->url(), m_second->url()});
    m_first->setSettings({NetSim::Mode::Offline});
    m_second->setSettings({NetSim::Mode::Offline});
    // Named, not a structured binding: a lambda below refers to it (C++17).
    const auto createdAnswer = pay(QStringLiteral("ord-probe"), 700, QStringLiteral("tok_visa"));
    const auto &error = createdAnswer.first;
    const auto &created = createdAnswer.second;
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(m_engine->connectivity() != Connectivity::Online && latest(created.key)->attempts >= 1, kWaitMs);
    // Whichever gateway the client holds now, only the other one comes back.
    FaultProxy *back = m_client->baseUrl() == m_first->url() ? m_second.get() : m_first.get();
    QSignalSpy online(m_engine.get(), &SyncEngine::connectivityChanged);
    back->setSettings({});
    QTRY_VERIFY_WITH_TIMEOUT(settled(created.key), kWaitMs);
    QCOMPARE(latest(created.key)->state, IntentState::Succeeded);
    QCOMPARE(m_client->baseUrl(), back->url());
    QCOMPARE(m_engine->connectivity(), Connectivity::Online);
    const Ledger l = ledger(created.key);
    QVERIFY2(l.ok && l.rows == 1 && l.succeeded == 1, l.raw.constData());
}

namespace {
struct CtlRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// Runs oncepay-ctl while this event loop keeps serving the in-process gateway.
CtlRun runCtl(const QStringList &args)
{
    QProcess p;
    p.start(qEnvironmentVariable("ONCEPAY_CTL_BIN"), args);
    CtlRun r;
    if (!p.waitForStarted(10000))
        return r;
    if (!QTest::qWaitFor([&p] {
            return p.state() == QProcess::NotRunning;
        },
            kWaitMs)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}
}   // namespace

void TestFailover::ctlFailsOverToTheLiveGateway()
{
    QVERIFY2(QFile::exists(qEnvironmentVariable("ONCEPAY_CTL_BIN")), "ONCEPAY_CTL_BIN does not exist");
    const QUrl closed = closedPortUrl();
    const QString gateways = closed.toString() + QLatin1Char(',') + m_second->url().toString();
    const CtlRun r = runCtl({QStringLiteral("--db"), m_dir->filePath(QStringLiteral("ctl.db")), QStringLiteral("--gateway"), gateways,
        QStringLiteral("--token"), QLatin1String(kToken), QStringLiteral("pay"), QStringLiteral("--amount"),
        QStringLiteral("19.99"), QStringLiteral("--order"), QStringLiteral("ord-ctl"), QStringLiteral("--wait"),
        QStringLiteral("20")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject intent = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(intent.value(QStringLiteral("state")).toString(), QStringLiteral("succeeded"));
    const QString key = intent.value(QStringLiteral("key")).toString();
    QVERIFY(!key.isEmpty());
    const Ledger l = ledger(key);
    QVERIFY2(l.ok && l.rows == 1 && l.succeeded == 1, l.raw.constData());
}

void TestFailover::ctlRejectsMalformedList_data()
{
    QTest::addColumn<QString>("gateways");
    QTest::newRow("empty entry") << QStringLiteral("http://127.0.0.1:1,,http://127.0.0.1:2");
    QTest::newRow("other scheme") << QStringLiteral("http://127.0.0.1:1,ftp://127.0.0.1:2");
    QTest::newRow("not a url") << QStringLiteral("http://127.0.0.1:1,gateway two");
    QTest::newRow("semicolons") << QStringLiteral("http://127.0.0.1:1;http://127.0.0.1:2");
    QTest::newRow("empty") << QString();
}

void TestFailover::ctlRejectsMalformedList()
{
    QFETCH(QString, gateways);
    const CtlRun r = runCtl({QStringLiteral("--db"), m_dir->filePath(QStringLiteral("ctl.db")), QStringLiteral("--gateway"), gateways,
        QStringLiteral("--token"), QLatin1String(kToken), QStringLiteral("pay"), QStringLiteral("--amount"),
        QStringLiteral("1.00"), QStringLiteral("--order"), QStringLiteral("ord-bad")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.startsWith("oncepay-ctl: --gateway:"), r.err.constData());
    QVERIFY(!QFile::exists(m_dir->filePath(QStringLiteral("ctl.db"))));   // nothing stored, nothing sent
}

QTEST_GUILESS_MAIN(TestFailover)
#include "tst_failover.moc"
