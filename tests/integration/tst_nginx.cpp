// The till behind nginx in front of 3 instances of one gateway (one database, one
// oncepay-acquirer): the configuration of docs/operations.md ("Several instances behind
// nginx"). The till's own core (SyncEngine, GatewayClient, IntentJournal) pays through it:
// every intent succeeds once, the payments spread over the instances, and when one instance
// is killed the till keeps paying, still exactly once. On PostgreSQL too
// (ONCEPAY_TEST_BACKEND=postgresql).
#include "gatewayapi.h"
#include "gatewaycluster.h"
#include "gatewayclient.h"
#include "intentjournal.h"
#include "nginxprocess.h"
#include "syncengine.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace OncePay;

namespace {
constexpr int kWaitMs = 60000;   // 2 slow shared cores: a ceiling, never a sleep
constexpr char kToken[] = "sk_test_demo_till1";
}   // namespace

class TestNginx final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void bodyBoundAtTheProxy();
    void paymentsSpreadOverInstances();
    void instanceKilledTillKeepsPaying();

private:
    // Creates `count` intents through the engine; the keys in creation order.
    QStringList payMany(int count, const QString &prefix);
    int settledCount(const QStringList &keys) const;
    // Every key succeeded on the till, has its one payment and one charge.
    void verifyExactlyOnce(const QStringList &keys);
    double paymentPosts(int instance);

    GatewayCluster m_cluster{3};
    NginxProcess m_nginx;
    QTemporaryDir m_dir;
    std::unique_ptr<IntentJournal> m_journal;
    std::unique_ptr<GatewayClient> m_client;
    std::unique_ptr<SyncEngine> m_engine;
    QHash<QString, Intent> m_latest;
};

void TestNginx::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_cluster.start({QStringLiteral("--claim-lease"), QStringLiteral("2s"),
                 QStringLiteral("--recovery-interval"), QStringLiteral("200ms")}),
        m_cluster.failureMessage().constData());
    QVERIFY2(m_nginx.start(m_cluster.urls()), m_nginx.failureMessage().constData());

    m_journal = std::make_unique<IntentJournal>(IntentJournal::Options{m_dir.filePath(QStringLiteral("journal.db")), 0});
    TillError error;
    QVERIFY2(m_journal->open(&error), qPrintable(error.text()));
    // One URL: the till knows only the proxy; nginx knows the instances.
    m_client = std::make_unique<GatewayClient>(QList<QUrl>{m_nginx.baseUrl()}, QLatin1String(kToken), 5000);
    SyncEngine::Config c;
    c.maxInFlight = 6;
    c.backoffBaseMs = 50;
    c.backoffCapMs = 500;
    c.probeBaseMs = 50;
    c.probeCapMs = 300;
    c.seed = 20250607;
    m_engine = std::make_unique<SyncEngine>(m_journal.get(), m_client.get(), c);
    connect(m_engine.get(), &SyncEngine::intentChanged, this, [this](const Intent &i) {
        m_latest.insert(i.key, i);
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

void TestNginx::cleanupTestCase()
{
    m_engine.reset();
    m_client.reset();
    m_journal.reset();
}

QStringList TestNginx::payMany(int count, const QString &prefix)
{
    auto keys = std::make_shared<QStringList>();
    auto errors = std::make_shared<QStringList>();
    for (int i = 0; i < count; ++i) {
        m_engine->pay(QStringLiteral("%1-%2").arg(prefix).arg(i), Money(1000 + i, QStringLiteral("CNY")), QStringLiteral("tok_visa"), this,
            [keys, errors](bool ok, const TillError &error, const Intent &intent) {
                if (ok)
                    *keys << intent.key;
                else
                    *errors << error.text();
            });
    }
    if (!QTest::qWaitFor([&] {
            return keys->size() + errors->size() == count;
        },
            kWaitMs)
        || !errors->isEmpty())
        qWarning() << "intents not created:" << *errors;
    return *keys;
}

int TestNginx::settledCount(const QStringList &keys) const
{
    int n = 0;
    for (const QString &key : keys) {
        const auto it = m_latest.constFind(key);
        n += it != m_latest.cend() && isFinal(it->state);
    }
    return n;
}

void TestNginx::verifyExactlyOnce(const QStringList &keys)
{
    HttpClient viaProxy(m_nginx.baseUrl());
    for (const QString &key : keys) {
        const Intent &intent = m_latest.value(key);
        QVERIFY2(intent.state == IntentState::Succeeded, qPrintable(key + QLatin1Char(' ') + intentStateName(intent.state)));
        const HttpReply byKey = viaProxy.get(QStringLiteral("/v1/payments?idempotency_key=") + key);
        ONCEPAY_VERIFY_STATUS(byKey, 200);
        QCOMPARE(byKey.object().value(QStringLiteral("id")).toString(), intent.paymentId);
        QCOMPARE(byKey.object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
        const GatewayApi::Charges charges = GatewayApi::acquirerCharges(viaProxy, key);
        QVERIFY2(charges.ok && charges.rows.size() == 1 && charges.succeeded == 1, charges.raw.constData());
    }
}

double TestNginx::paymentPosts(int instance)
{
    HttpClient direct(m_cluster.instance(instance).baseUrl());
    return GatewayApi::metricSum(GatewayApi::parseMetrics(direct.get(QStringLiteral("/metrics")).body),
        QStringLiteral("oncepay_http_requests_total"),
        {QStringLiteral("method=\"POST\""), QStringLiteral("route=\"/v1/payments\"")});
}

void TestNginx::bodyBoundAtTheProxy()
{
    // client_max_body_size 64k: nginx refuses before any instance sees the body.
    HttpClient viaProxy(m_nginx.baseUrl());
    const QString key = GatewayApi::uniqueKey(QStringLiteral("huge"));
    const QByteArray huge = "{\"amount\":100,\"currency\":\"CNY\",\"order_id\":\"ord-huge\",\"payment_method\":\"tok_visa\",\"description\":\""
        + QByteArray(70 * 1024, 'x') + "\"}";
    const HttpReply r = GatewayApi::pay(viaProxy, key, huge);
    QVERIFY2(r.status == 413, r.describe().constData());
    ONCEPAY_VERIFY_STATUS(viaProxy.get(QStringLiteral("/v1/payments?idempotency_key=") + key), 404);
}

void TestNginx::paymentsSpreadOverInstances()
{
    const QStringList keys = payMany(50, QStringLiteral("ord-rr"));
    QCOMPARE(keys.size(), 50);
    QTRY_COMPARE_WITH_TIMEOUT(settledCount(keys), 50, kWaitMs);
    verifyExactlyOnce(keys);
    // Round robin: every instance executed some of them.
    for (int i = 0; i < m_cluster.size(); ++i)
        QVERIFY2(paymentPosts(i) >= 5, qPrintable(QStringLiteral("instance %1 served %2 payments\n%3").arg(i).arg(paymentPosts(i)).arg(QString::fromUtf8(m_nginx.failureMessage()))));
}

void TestNginx::instanceKilledTillKeepsPaying()
{
    // A bank that takes 100 ms per charge keeps payments in flight on every instance.
    HttpClient viaProxy(m_nginx.baseUrl());
    QVERIFY(GatewayApi::setAcquirer(viaProxy, QStringLiteral("normal"), 100));
    const QStringList keys = payMany(40, QStringLiteral("ord-kill"));
    QCOMPARE(keys.size(), 40);
    QTRY_VERIFY_WITH_TIMEOUT(settledCount(keys) >= 10, kWaitMs);
    m_cluster.instance(0).kill9();   // mid-traffic: nginx marks it failed, the till retries by key
    QVERIFY2(settledCount(keys) < 40, "the kill came after the traffic");
    QTRY_COMPARE_WITH_TIMEOUT(settledCount(keys), 40, kWaitMs);
    verifyExactlyOnce(keys);
    // And afterwards, with one instance gone, new intents still go through the proxy.
    const QStringList after = payMany(10, QStringLiteral("ord-after"));
    QTRY_COMPARE_WITH_TIMEOUT(settledCount(after), 10, kWaitMs);
    verifyExactlyOnce(after);
    QVERIFY(GatewayApi::setAcquirer(viaProxy, QStringLiteral("normal"), 0));
    QVERIFY2(m_nginx.isRunning(), m_nginx.failureMessage().constData());
}

QTEST_GUILESS_MAIN(TestNginx)
#include "tst_nginx.moc"
