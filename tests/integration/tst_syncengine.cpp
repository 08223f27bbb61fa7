// The till's sync engine against the real gateway, through the network simulator, all in one
// process on one event loop: GatewayServer (demo, SQLite in a QTemporaryDir) <- FaultProxy <-
// GatewayClient <- SyncEngine + IntentJournal. Every fault mode x every acquirer outcome must end
// with the till showing the gateway's true state and the acquirer's ledger holding at most one
// charge; plus 401 pausing, store-and-forward limits, draining, restarts and connectivity.
#include "clientprobe.h"
#include "enginerig.h"
#include "faultproxy.h"
#include "gatewayclient.h"
#include "gateway/gatewayserver.h"
#include "intentjournal.h"
#include "syncengine.h"
#include "timeutil.h"
#include "world.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

#include <algorithm>
#include <memory>

using namespace OncePay;
using NetSim::FaultProxy;
using Connectivity = SyncEngine::Connectivity;

using ClientProbe::Ledger;
namespace {

using ClientProbe::kWaitMs;
constexpr char kToken[] = "sk_test_demo_till1";

SyncEngine::Config testConfig()
{
    return ClientProbe::fastEngineConfig(20241202);
}

}   // namespace

namespace OncePay {
// Readable QCOMPARE failures for states (found by argument-dependent lookup).
char *toString(IntentState state)
{
    return qstrdup(qPrintable(intentStateName(state)));
}
}   // namespace OncePay

class TestSyncEngine final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void faultMatrix_data();
    void faultMatrix();
    void unauthorizedPausesTheQueue();
    void offlineLimitsRefuseUpFront();
    void drainsOldestFirstWithBoundedConcurrency();
    void restartDrainsTheQueue();
    void restartAsksBeforeResending();
    void restartAfterTheClockWasSetBackSendsAtOnce();
    void connectivityIsAnnounced();
    void offlineIsSeenWithoutAPayment();
    void noAnswerIsNotOffline();
    void answerIsDroppedWhenItsContextIsGone_data();
    void answerIsDroppedWhenItsContextIsGone();
    void engineAnswerIsDroppedWhenItsContextIsGone_data();
    void engineAnswerIsDroppedWhenItsContextIsGone();

private:
    void startTill(const SyncEngine::Config &config = testConfig());
    void stopTill();
    GatewayResult direct(const std::function<void(GatewayClient::Callback)> &call);
    Ledger ledger(const QString &key);
    int gatewayLookupStatus(const QString &key)
    {
        return direct([&](auto cb) {
            m_rig.direct->getPaymentByKey(key, this, cb);
        }).status;
    }
    QStringList gatewayOrders();
    std::pair<QString, Intent> pay(const QString &order, qint64 amount, const QString &method);
    std::optional<Intent> latest(const QString &key) const;
    int answers(const QString &key) const;   // answers handled (not counting creation and sends)
    int sends(const QString &key) const;
    bool settled(const QString &key) const
    {
        const auto i = latest(key);
        return i && isFinal(i->state);
    }

    // Three journal round trips, one after the other: every answer the journal owed before it,
    // and the answers chained on those, have been handed out (one worker, answers in order).
    void journalBarrier();

    EngineRig m_rig;   // gateway, proxy, direct client, journal, client, engine, changes
};

void TestSyncEngine::init()
{
    QString error;
    QVERIFY2(m_rig.start(testConfig(), &error), qPrintable(error));
}

void TestSyncEngine::cleanup()
{
    QString error;
    QVERIFY2(m_rig.stop(&error), qPrintable(error));
}

void TestSyncEngine::startTill(const SyncEngine::Config &config)
{
    QString error;
    QVERIFY2(m_rig.startTill(config, &error), qPrintable(error));
}

void TestSyncEngine::stopTill()
{
    m_rig.stopTill();
}

GatewayResult TestSyncEngine::direct(const std::function<void(GatewayClient::Callback)> &call)
{
    return ClientProbe::await(call, kWaitMs);
}

Ledger TestSyncEngine::ledger(const QString &key)
{
    return ClientProbe::ledger(*m_rig.direct, key, kWaitMs);
}

QStringList TestSyncEngine::gatewayOrders()
{
    const GatewayResult r = direct([&](auto cb) {
        m_rig.direct->listPayments(QStringLiteral("till-1"), {}, 500, this, cb);
    });
    QStringList orders;
    const QJsonArray data = r.json.value(QStringLiteral("data")).toArray();
    for (const QJsonValue &p : data)
        orders << p.toObject().value(QStringLiteral("order_id")).toString();
    orders.sort();
    return orders;
}

std::pair<QString, Intent> TestSyncEngine::pay(const QString &order, qint64 amount, const QString &method)
{
    return ClientProbe::pay(*m_rig.engine, order, amount, method);
}

std::optional<Intent> TestSyncEngine::latest(const QString &key) const
{
    return ClientProbe::latest(m_rig.changes, key);
}

void TestSyncEngine::journalBarrier()
{
    for (int round = 0; round < 3; ++round) {
        bool answered = false;
        m_rig.journal->count({}, this, [&answered](bool, const TillError &, qint64) {
            answered = true;
        });
        QVERIFY(QTest::qWaitFor([&answered] {
            return answered;
        },
            kWaitMs));
    }
}

int TestSyncEngine::answers(const QString &key) const
{
    int n = -1;   // the first change is the creation
    for (const Intent &i : m_rig.changes)
        n += i.key == key && i.state != IntentState::Sending;
    return n;
}

int TestSyncEngine::sends(const QString &key) const
{
    return int(std::count_if(m_rig.changes.cbegin(), m_rig.changes.cend(),
        [&](const Intent &i) {
            return i.key == key && i.state == IntentState::Sending;
        }));
}

void TestSyncEngine::faultMatrix_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("expected");   // the final state; empty: never final (always refused)
    const QStringList modes{QStringLiteral("online"), QStringLiteral("offline"), QStringLiteral("black_hole"),
        QStringLiteral("lose_responses"), QStringLiteral("latency 150"),
        QStringLiteral("flaky 50:3")};   // seed 3: lose, hole, forward, hole, forward, lose
    const QList<std::pair<QString, QString>> outcomes{
        {QStringLiteral("tok_visa"), QStringLiteral("succeeded")},
        {QStringLiteral("tok_chargeDeclined"), QStringLiteral("declined")},
        {QStringLiteral("tok_timeoutAfterCharge"), QStringLiteral("succeeded")},
        {QStringLiteral("tok_errorBeforeCharge"), QString()},
    };
    for (const QString &mode : modes) {
        for (const auto &[token, expected] : outcomes)
            QTest::addRow("%s x %s", qPrintable(mode), qPrintable(token)) << mode << token << expected;
    }
}

void TestSyncEngine::faultMatrix()
{
    QFETCH(QString, mode);
    QFETCH(QString, token);
    QFETCH(QString, expected);
    const auto settings = FaultProxy::parseMode(mode);
    QVERIFY(settings);
    m_rig.proxy->setSettings(*settings);

    const auto [error, created] = pay(QStringLiteral("ord-matrix"), 1999, token);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QString key = created.key;
    QCOMPARE(created.state, IntentState::Queued);

    // Let the fault act on the first request, then give the network back.
    QTRY_VERIFY_WITH_TIMEOUT(answers(key) >= 1, kWaitMs);
    if (settings->mode == NetSim::Mode::Offline)
        QVERIFY(m_rig.engine->connectivity() != Connectivity::Online);
    if (settings->mode == NetSim::Mode::BlackHole)
        QVERIFY(m_rig.proxy->stats().blackHoled >= 1);
    if (settings->mode == NetSim::Mode::Flaky) {
        const FaultProxy::Stats st = m_rig.proxy->stats();
        QVERIFY(st.refused + st.blackHoled + st.responsesDropped >= 1);
    }
    if (settings->mode == NetSim::Mode::LoseResponses) {
        QVERIFY(m_rig.proxy->stats().responsesDropped >= 1);
        QCOMPARE(latest(key)->state, IntentState::Unknown);   // "charged but the till timed out"
    }
    m_rig.proxy->setSettings({});

    if (expected.isEmpty()) {
        // The acquirer refuses before charging, every time: retried with the same key, never final.
        const int before = sends(key);
        QTRY_VERIFY_WITH_TIMEOUT(sends(key) >= before + 2 && sends(key) >= 3, kWaitMs);
        for (const Intent &i : std::as_const(m_rig.changes))
            QVERIFY2(!isFinal(i.state), qPrintable(intentStateName(i.state)));
        QVERIFY(m_rig.engine->activeIntent(key).has_value());
        // Stop the traffic, then nothing is left at the gateway and nothing at the bank.
        m_rig.proxy->setSettings({NetSim::Mode::Offline});
        QTRY_COMPARE_WITH_TIMEOUT(m_rig.engine->requestsInFlight(), 0, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(gatewayLookupStatus(key), 404, kWaitMs);
        const Ledger l = ledger(key);
        QVERIFY2(l.ok && l.rows == 0, l.raw.constData());
        auto saw502 = std::make_shared<bool>(false);
        m_rig.journal->attempts(key, this, [saw502](bool, const TillError &, QList<Attempt> attempts) {
            for (const Attempt &a : attempts)
                *saw502 = *saw502 || a.httpStatus == 502;
        });
        QTRY_VERIFY_WITH_TIMEOUT(*saw502, kWaitMs);
        QCOMPARE(gatewayOrders(), QStringList());
        return;
    }

    QTRY_VERIFY_WITH_TIMEOUT(settled(key), kWaitMs);
    const Intent final = *latest(key);
    QCOMPARE(intentStateName(final.state), expected);
    QVERIFY(!m_rig.engine->activeIntent(key).has_value());

    // What the till shows is the gateway's own state, for the same payment.
    const GatewayResult truth = direct([&](auto cb) {
        m_rig.direct->getPaymentByKey(key, this, cb);
    });
    QCOMPARE(truth.status, 200);
    const QJsonObject payment = truth.payment();
    QCOMPARE(intentStateName(stateForPaymentStatus(payment.value(QStringLiteral("status")).toString())), expected);
    QCOMPARE(final.paymentId, payment.value(QStringLiteral("id")).toString());
    QCOMPARE(final.gatewayStatus, payment.value(QStringLiteral("status")).toString());
    QCOMPARE(payment.value(QStringLiteral("amount")).toInteger(), qint64(1999));
    // The receipt's card and authorization code are the gateway's, whichever answer brought them
    // (201, 402, a lookup after a lost answer, a poll of a processing payment).
    const QJsonObject card = payment.value(QStringLiteral("card")).toObject();
    QVERIFY2(!card.isEmpty(), QJsonDocument(payment).toJson(QJsonDocument::Compact).constData());
    QCOMPARE(final.cardBrand, card.value(QStringLiteral("brand")).toString());
    QCOMPARE(final.cardLast4, card.value(QStringLiteral("last4")).toString());
    QCOMPARE(final.authorizationCode, payment.value(QStringLiteral("authorization_code")).toString());
    QCOMPARE(final.authorizationCode.isEmpty(), expected != QLatin1String("succeeded"));

    // Durable: the journal holds the same final state.
    auto stored = std::make_shared<std::optional<Intent>>();
    m_rig.journal->find(key, this, [stored](bool ok, const TillError &, Intent i) {
        if (ok)
            *stored = i;
    });
    QTRY_VERIFY_WITH_TIMEOUT(stored->has_value(), kWaitMs);
    QCOMPARE((*stored)->state, final.state);
    QCOMPARE((*stored)->paymentId, final.paymentId);
    QCOMPARE((*stored)->cardLast4, final.cardLast4);
    QCOMPARE((*stored)->authorizationCode, final.authorizationCode);

    // Exactly once, by the bank's own books, and one payment at the gateway for the sale.
    const Ledger l = ledger(key);
    QVERIFY2(l.ok && l.rows <= 1, l.raw.constData());
    if (expected == QLatin1String("succeeded"))
        QVERIFY2(l.rows == 1 && l.succeeded == 1, l.raw.constData());
    else
        QVERIFY2(l.rows == 1 && l.declined == 1 && l.succeeded == 0, l.raw.constData());
    QCOMPARE(gatewayOrders(), QStringList{QStringLiteral("ord-matrix")});
}

void TestSyncEngine::unauthorizedPausesTheQueue()
{
    QSignalSpy paused(m_rig.engine.get(), &SyncEngine::pausedChanged);
    m_rig.client->setToken(QStringLiteral("sk_bad"));
    const auto [e1, a] = pay(QStringLiteral("ord-auth-a"), 1000, QStringLiteral("tok_visa"));
    QVERIFY2(e1.isEmpty(), qPrintable(e1));
    QTRY_VERIFY_WITH_TIMEOUT(m_rig.engine->isPaused(), kWaitMs);
    QCOMPARE(paused.count(), 1);
    QCOMPARE(paused.at(0).at(0).toBool(), true);
    QVERIFY(!paused.at(0).at(1).toString().isEmpty());
    QCOMPARE(m_rig.engine->pauseReason(), paused.at(0).at(1).toString());
    QCOMPARE(latest(a.key)->state, IntentState::Queued);   // kept, not dropped, not "needs attention"

    // While paused, a new sale is stored but nothing goes out.
    const auto [e2, b] = pay(QStringLiteral("ord-auth-b"), 2000, QStringLiteral("tok_visa"));
    QVERIFY2(e2.isEmpty(), qPrintable(e2));
    QCOMPARE(m_rig.engine->waitingCount(), 2);
    QCOMPARE(gatewayLookupStatus(a.key), 404);   // a round trip to the gateway, meanwhile
    QCOMPARE(sends(a.key), 1);
    QCOMPARE(sends(b.key), 0);
    QCOMPARE(m_rig.engine->requestsInFlight(), 0);
    QCOMPARE(ledger(a.key).rows, 0);

    m_rig.client->setToken(QLatin1String(kToken));
    m_rig.engine->resume();
    QCOMPARE(paused.count(), 2);
    QCOMPARE(paused.at(1).at(0).toBool(), false);
    QVERIFY(!m_rig.engine->isPaused());
    QTRY_VERIFY_WITH_TIMEOUT(settled(a.key) && settled(b.key), kWaitMs);
    for (const QString &key : {a.key, b.key}) {
        QCOMPARE(latest(key)->state, IntentState::Succeeded);
        const Ledger l = ledger(key);
        QVERIFY2(l.rows == 1 && l.succeeded == 1, l.raw.constData());
    }
    QCOMPARE(m_rig.engine->waitingCount(), 0);
}

void TestSyncEngine::offlineLimitsRefuseUpFront()
{
    m_rig.engine->setLimits({10000, 15000, 0});
    m_rig.proxy->setSettings({NetSim::Mode::Offline});
    const auto [e1, a] = pay(QStringLiteral("ord-lim-a"), 5000, QStringLiteral("tok_visa"));
    QVERIFY2(e1.isEmpty(), qPrintable(e1));
    QTRY_VERIFY_WITH_TIMEOUT(m_rig.engine->connectivity() != Connectivity::Online, kWaitMs);

    // Over the single limit: refused before anything is stored, with the limit in the reason.
    const auto [e2, b] = pay(QStringLiteral("ord-lim-b"), 10001, QStringLiteral("tok_visa"));
    QVERIFY2(e2.contains(QLatin1String("100.00")), qPrintable(e2));
    QVERIFY(!b.isValid());
    const auto [e3, c] = pay(QStringLiteral("ord-lim-c"), 8000, QStringLiteral("tok_visa"));   // 13000 waiting
    QVERIFY2(e3.isEmpty(), qPrintable(e3));
    const auto [e4, d] = pay(QStringLiteral("ord-lim-d"), 5000, QStringLiteral("tok_visa"));   // would be 18000
    QVERIFY2(e4.contains(QLatin1String("150.00")), qPrintable(e4));
    // Cash never waits for the network and is never refused for it.
    const auto [e5, cash] = ClientProbe::payCash(*m_rig.engine, QStringLiteral("ord-lim-cash"), 50000);
    QVERIFY2(e5.isEmpty(), qPrintable(e5));
    QCOMPARE(cash.state, IntentState::Succeeded);
    // Too old: what waits has waited longer than the merchant allows.
    m_rig.engine->setLimits({0, 0, 1});
    QTRY_VERIFY_WITH_TIMEOUT(nowMs() - a.createdAt > 1, kWaitMs);
    const auto [e6, f] = pay(QStringLiteral("ord-lim-f"), 100, QStringLiteral("tok_visa"));
    QVERIFY2(e6.contains(QLatin1String("too long")), qPrintable(e6));
    // No limits: anything may wait.
    m_rig.engine->setLimits({});
    const auto [e7, g] = pay(QStringLiteral("ord-lim-g"), 1'000'000, QStringLiteral("tok_visa"));
    QVERIFY2(e7.isEmpty(), qPrintable(e7));
    QCOMPARE(m_rig.engine->waitingCount(), 3);
    QCOMPARE(m_rig.engine->waitingTotals().value(QStringLiteral("CNY")), qint64(5000 + 8000 + 1'000'000));

    IntentJournal::Query all;
    auto stored = std::make_shared<qint64>(-1);
    m_rig.journal->count(all, this, [stored](bool, const TillError &, qint64 n) {
        *stored = n;
    });
    QTRY_COMPARE_WITH_TIMEOUT(*stored, qint64(4), kWaitMs);   // a, c, cash, g

    m_rig.proxy->setSettings({});
    QTRY_VERIFY_WITH_TIMEOUT(settled(a.key) && settled(c.key) && settled(g.key), kWaitMs);
    for (const QString &key : {a.key, c.key, g.key})
        QCOMPARE(latest(key)->state, IntentState::Succeeded);
    QCOMPARE(gatewayOrders(), (QStringList{QStringLiteral("ord-lim-a"), QStringLiteral("ord-lim-c"), QStringLiteral("ord-lim-g")}));
}

void TestSyncEngine::drainsOldestFirstWithBoundedConcurrency()
{
    stopTill();
    SyncEngine::Config config = testConfig();
    config.maxInFlight = 2;
    startTill(config);
    m_rig.proxy->setSettings({NetSim::Mode::Offline});
    QStringList keys;
    const auto [e0, first] = pay(QStringLiteral("ord-drain-0"), 100, QStringLiteral("tok_visa"));
    QVERIFY2(e0.isEmpty(), qPrintable(e0));
    keys << first.key;
    QTRY_VERIFY_WITH_TIMEOUT(m_rig.engine->connectivity() != Connectivity::Online, kWaitMs);
    for (int n = 1; n < 8; ++n) {
        const auto [e, i] = pay(QStringLiteral("ord-drain-%1").arg(n), 100 + n, QStringLiteral("tok_visa"));
        QVERIFY2(e.isEmpty(), qPrintable(e));
        keys << i.key;
    }
    QCOMPARE(m_rig.engine->waitingCount(), 8);
    for (int n = 1; n < keys.size(); ++n)
        QCOMPARE(sends(keys[n]), 0);

    m_rig.changes.clear();
    m_rig.inFlightSeen.clear();
    m_rig.proxy->setSettings({});
    QTRY_VERIFY_WITH_TIMEOUT(std::all_of(keys.cbegin(), keys.cend(), [this](const QString &k) {
        return settled(k);
    }),
        kWaitMs);
    QStringList sendOrder;
    for (const Intent &i : std::as_const(m_rig.changes)) {
        if (i.state == IntentState::Sending && !sendOrder.contains(i.key))
            sendOrder << i.key;
    }
    QCOMPARE(sendOrder, keys);   // oldest first
    const int most = *std::max_element(m_rig.inFlightSeen.cbegin(), m_rig.inFlightSeen.cend());
    QVERIFY2(most <= config.maxInFlight, qPrintable(QString::number(most)));
    QCOMPARE(most, config.maxInFlight);   // and it did use what it was allowed
    for (const QString &key : std::as_const(keys))
        QCOMPARE(latest(key)->state, IntentState::Succeeded);
    QCOMPARE(gatewayOrders().size(), 8);
}

void TestSyncEngine::restartDrainsTheQueue()
{
    m_rig.proxy->setSettings({NetSim::Mode::Offline});
    QStringList keys;
    for (int n = 0; n < 3; ++n) {
        const auto [e, i] = pay(QStringLiteral("ord-restart-%1").arg(n), 700 + n, QStringLiteral("tok_visa"));
        QVERIFY2(e.isEmpty(), qPrintable(e));
        keys << i.key;
        if (n == 0)
            QTRY_VERIFY_WITH_TIMEOUT(m_rig.engine->connectivity() != Connectivity::Online, kWaitMs);
    }
    QCOMPARE(m_rig.engine->waitingCount(), 3);

    // The till is closed (or dies) with the queue full, and starts again later, online.
    stopTill();
    m_rig.changes.clear();
    m_rig.proxy->setSettings({});
    startTill();
    QCOMPARE(m_rig.engine->waitingCount(), 3);
    QTRY_VERIFY_WITH_TIMEOUT(std::all_of(keys.cbegin(), keys.cend(), [this](const QString &k) {
        return settled(k);
    }),
        kWaitMs);
    for (const QString &key : std::as_const(keys)) {
        QCOMPARE(latest(key)->state, IntentState::Succeeded);
        const Ledger l = ledger(key);
        QVERIFY2(l.rows == 1 && l.succeeded == 1, l.raw.constData());
    }
    QCOMPARE(m_rig.engine->waitingCount(), 0);
}

// This machine's clocks, the wall clock an hour ahead: a till whose clock was wrong.
class ClockAnHourAhead final : public World
{
public:
    qint64 wallMs() override { return QDateTime::currentMSecsSinceEpoch() + 3'600'000; }
    qint64 monotonicMs() override { return m_machine->monotonicMs(); }
    QRandomGenerator *random() override { return QRandomGenerator::system(); }
    World *m_machine = World::current();
};

// oncepay-sim, seed 69: a till restarted after its wall clock was set back found the stored next
// attempts of its queue ahead by as much, and held every payment that long (here: an hour).
void TestSyncEngine::restartAfterTheClockWasSetBackSendsAtOnce()
{
    static ClockAnHourAhead ahead;   // outlives every reader (the gateway's threads read the clock)
    m_rig.proxy->setSettings({NetSim::Mode::Offline});
    World::install(&ahead);
    const auto [e, i] = pay(QStringLiteral("ord-clock"), 900, QStringLiteral("tok_visa"));
    QVERIFY2(e.isEmpty(), qPrintable(e));
    // Refused while offline, its next attempt stored by the clock that is ahead.
    QTRY_VERIFY_WITH_TIMEOUT(m_rig.engine->connectivity() != Connectivity::Online
            && latest(i.key)->state == IntentState::Queued && latest(i.key)->nextAttemptAt > 0,
        kWaitMs);
    stopTill();
    World::install(nullptr);   // the clock is set right, an hour back
    m_rig.changes.clear();
    m_rig.proxy->setSettings({});
    startTill();
    QTRY_VERIFY_WITH_TIMEOUT(settled(i.key), kWaitMs);
    QCOMPARE(latest(i.key)->state, IntentState::Succeeded);
}

void TestSyncEngine::restartAsksBeforeResending()
{
    // The gateway charges, its answer is lost, and the till dies before it notices: the
    // journal says `sending`. On the next start the till must ask before sending again.
    m_rig.proxy->setSettings({NetSim::Mode::LoseResponses});
    auto died = std::make_shared<bool>(false);
    connect(m_rig.proxy.get(), &FaultProxy::responseDropped, this, [this, died] {
        if (!*died) {
            *died = true;
            stopTill();
        }
    });
    const auto [error, created] = pay(QStringLiteral("ord-crash"), 4200, QStringLiteral("tok_visa"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QString key = created.key;
    QTRY_VERIFY_WITH_TIMEOUT(*died, kWaitMs);
    disconnect(m_rig.proxy.get(), &FaultProxy::responseDropped, this, nullptr);
    QCOMPARE(latest(key)->state, IntentState::Sending);
    QCOMPARE(gatewayLookupStatus(key), 200);   // the gateway did take it

    m_rig.changes.clear();
    m_rig.proxy->setSettings({});
    startTill();
    QTRY_VERIFY_WITH_TIMEOUT(settled(key), kWaitMs);
    QCOMPARE(latest(key)->state, IntentState::Succeeded);
    QCOMPARE(sends(key), 0);   // resolved by asking, no second POST
    auto read = std::make_shared<std::optional<QList<Attempt>>>();
    m_rig.journal->attempts(key, this, [read](bool, const TillError &, QList<Attempt> a) {
        *read = a;
    });
    QTRY_VERIFY_WITH_TIMEOUT(read->has_value(), kWaitMs);
    const QList<Attempt> attempts = **read;
    QCOMPARE(attempts.size(), 1);
    QCOMPARE(attempts[0].kind, Attempt::Kind::Lookup);
    QCOMPARE(attempts[0].httpStatus, 200);
    auto lines = std::make_shared<std::optional<QList<JournalEntry>>>();
    m_rig.journal->journal(key, this, [lines](bool, const TillError &, QList<JournalEntry> l) {
        *lines = l;
    });
    QTRY_VERIFY_WITH_TIMEOUT(lines->has_value(), kWaitMs);
    QStringList path;
    for (const JournalEntry &e : std::as_const(**lines))
        path << e.toState;
    QCOMPARE(path, (QStringList{QStringLiteral("queued"), QStringLiteral("sending"), QStringLiteral("unknown"), QStringLiteral("succeeded")}));
    const Ledger l = ledger(key);
    QVERIFY2(l.rows == 1 && l.succeeded == 1, l.raw.constData());
}

void TestSyncEngine::connectivityIsAnnounced()
{
    QSignalSpy connectivity(m_rig.engine.get(), &SyncEngine::connectivityChanged);
    QSignalSpy nextRetry(m_rig.engine.get(), &SyncEngine::nextRetryChanged);
    QCOMPARE(m_rig.engine->connectivity(), Connectivity::Online);
    m_rig.proxy->setSettings({NetSim::Mode::Offline});
    const auto [error, created] = pay(QStringLiteral("ord-conn"), 990, QStringLiteral("tok_visa"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(!connectivity.isEmpty(), kWaitMs);
    QCOMPARE(connectivity.at(0).at(0).value<Connectivity>(), Connectivity::Offline);
    // While offline the cashier is told when the next try is: a real time, within the probe cap.
    const qint64 offlineAt = nowMs();
    QVERIFY(m_rig.engine->nextRetryAt() > 0);
    QVERIFY2(m_rig.engine->nextRetryAt() <= offlineAt + 300 + 50 + 50,
        qPrintable(QString::number(m_rig.engine->nextRetryAt() - offlineAt)));
    QVERIFY(std::any_of(nextRetry.cbegin(), nextRetry.cend(),
        [](const QList<QVariant> &args) {
            return args.at(0).toLongLong() > 0;
        }));
    // It keeps probing: at least one failed probe (Reconnecting, then Offline again).
    QTRY_VERIFY_WITH_TIMEOUT(connectivity.count() >= 3, kWaitMs);

    m_rig.proxy->setSettings({});
    QTRY_COMPARE_WITH_TIMEOUT(m_rig.engine->connectivity(), Connectivity::Online, kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(settled(created.key), kWaitMs);
    QCOMPARE(latest(created.key)->state, IntentState::Succeeded);
    QList<Connectivity> seen;
    for (const QList<QVariant> &args : std::as_const(connectivity))
        seen << args.at(0).value<Connectivity>();
    QCOMPARE(seen.first(), Connectivity::Offline);
    QCOMPARE(seen.last(), Connectivity::Online);
    QCOMPARE(seen.count(Connectivity::Online), 1);
    for (int n = 1; n < seen.size(); ++n)
        QVERIFY(seen[n] != seen[n - 1]);   // only real changes are announced
    QTRY_COMPARE_WITH_TIMEOUT(m_rig.engine->nextRetryAt(), qint64(0), kWaitMs);
    QCOMPARE(nextRetry.last().at(0).toLongLong(), qint64(0));
}

// Issue 25 item 5: "online" is measured by asking the gateway, not assumed until a payment
// fails: the cable pulled with nothing to send is seen within the alive probe's interval, and
// the way back too.
void TestSyncEngine::offlineIsSeenWithoutAPayment()
{
    stopTill();
    SyncEngine::Config config = ClientProbe::fastEngineConfig(11);
    config.aliveProbeMs = 200;
    startTill(config);
    QCOMPARE(m_rig.engine->connectivity(), Connectivity::Online);
    m_rig.proxy->setSettings({NetSim::Mode::Offline});
    QTRY_VERIFY_WITH_TIMEOUT(m_rig.engine->connectivity() != Connectivity::Online, kWaitMs);
    QCOMPARE(m_rig.engine->waitingCount(), 0);   // no payment told it
    m_rig.proxy->setSettings({});
    QTRY_COMPARE_WITH_TIMEOUT(m_rig.engine->connectivity(), Connectivity::Online, kWaitMs);
    // A gateway that takes the question and never answers is "no answer", not "online".
    m_rig.proxy->setSettings({NetSim::Mode::BlackHole});
    QTRY_COMPARE_WITH_TIMEOUT(m_rig.engine->connectivity(), Connectivity::NoAnswer, kWaitMs);
}

// Reachability as measured: a gateway that takes requests and never answers (black hole) is
// "no answer", never "online" and not "offline" (refused); it becomes online with an answer.
void TestSyncEngine::noAnswerIsNotOffline()
{
    QSignalSpy connectivity(m_rig.engine.get(), &SyncEngine::connectivityChanged);
    m_rig.proxy->setSettings({NetSim::Mode::BlackHole});
    const auto [error, created] = pay(QStringLiteral("ord-hole"), 990, QStringLiteral("tok_visa"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(m_rig.engine->connectivity(), Connectivity::NoAnswer, kWaitMs);
    // Probes go unanswered too: it stays "no answer", it does not flicker to "reconnecting".
    const int before = int(connectivity.count());
    QTRY_VERIFY_WITH_TIMEOUT(sends(created.key) + answers(created.key) >= 2, kWaitMs);
    QCOMPARE(m_rig.engine->connectivity(), Connectivity::NoAnswer);
    QCOMPARE(int(connectivity.count()), before);
    // Refused is offline.
    m_rig.proxy->setSettings({NetSim::Mode::Offline});
    QTRY_VERIFY_WITH_TIMEOUT(m_rig.engine->connectivity() == Connectivity::Offline
            || m_rig.engine->connectivity() == Connectivity::Reconnecting,
        kWaitMs);
    m_rig.proxy->setSettings({});
    m_rig.engine->checkConnectionNow();
    QTRY_COMPARE_WITH_TIMEOUT(m_rig.engine->connectivity(), Connectivity::Online, kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(settled(created.key), kWaitMs);
    QCOMPARE(latest(created.key)->state, IntentState::Succeeded);
    QCOMPARE(ledger(created.key).succeeded, 1);
}

void TestSyncEngine::answerIsDroppedWhenItsContextIsGone_data()
{
    QTest::addColumn<bool>("contextGone");
    QTest::newRow("context alive: answered") << false;
    QTest::newRow("context gone: dropped") << true;
}

// GatewayClient calls back on a context, as QObject::connect does: a dialog closed (and deleted)
// before its answer comes is never called back. Without this the answer writes into freed memory.
void TestSyncEngine::answerIsDroppedWhenItsContextIsGone()
{
    QFETCH(bool, contextGone);
    NetSim::Settings slow;
    slow.mode = NetSim::Mode::Latency;
    slow.latencyMs = 300;
    m_rig.proxy->setSettings(slow);
    GatewayClient client(m_rig.proxy->url(), QLatin1String(kToken), 5000);
    QList<QSignalSpy *> finished;
    for (QNetworkAccessManager *m : client.findChildren<QNetworkAccessManager *>())
        finished << new QSignalSpy(m, &QNetworkAccessManager::finished);
    auto total = [&finished] {
        int n = 0;
        for (QSignalSpy *spy : std::as_const(finished))
            n += int(spy->count());
        return n;
    };
    auto *context = new QObject;
    int calls = 0;
    client.getPaymentByKey(QStringLiteral("pay-never-seen"), context, [&calls](const GatewayResult &) {
        ++calls;
    });
    if (contextGone)
        delete context;
    QTRY_COMPARE_WITH_TIMEOUT(total(), 1, kWaitMs);   // the reply finished ...
    QCoreApplication::processEvents();   // ... and whatever it queued ran
    QCOMPARE(calls, contextGone ? 0 : 1);
    if (!contextGone)
        delete context;
    qDeleteAll(finished);
}

void TestSyncEngine::engineAnswerIsDroppedWhenItsContextIsGone_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<bool>("contextGone");
    const char *calls[] = {"start", "pay", "recordCash", "refund", "recordCashRefund", "voidIntent", "giveUp", "cancelSale"};
    for (const char *call : calls) {
        QTest::addRow("%s, context alive: answered", call) << QString::fromLatin1(call) << false;
        QTest::addRow("%s, context gone: dropped", call) << QString::fromLatin1(call) << true;
    }
}

// Every asynchronous call of SyncEngine takes a context and drops its answer once the context is
// gone (onContext), so a dialog or view model closed while its payment is being stored is never
// called back. The answer is one that would come: a payment stored, a refund of a paid payment
// stored, or the journal's refusal of a void, a give-up or a cancel of something it does not hold.
void TestSyncEngine::engineAnswerIsDroppedWhenItsContextIsGone()
{
    QFETCH(QString, call);
    QFETCH(bool, contextGone);
    Intent card;
    Intent cash;
    if (call == QLatin1String("refund")) {
        const auto [error, paid] = pay(QStringLiteral("ctx-card"), 1500, QStringLiteral("tok_visa"));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(settled(paid.key), kWaitMs);
        QCOMPARE(latest(paid.key)->state, IntentState::Succeeded);
        card = paid;
    } else if (call == QLatin1String("recordCashRefund")) {
        const auto [error, paid] = ClientProbe::payCash(*m_rig.engine, QStringLiteral("ctx-cash"), 700);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        cash = paid;
    }
    SyncEngine *engine = m_rig.engine.get();
    std::unique_ptr<SyncEngine> restarted;   // "start": a second start of the till on its journal
    if (call == QLatin1String("start")) {
        m_rig.engine.reset();
        restarted = std::make_unique<SyncEngine>(m_rig.journal.get(), m_rig.client.get(), testConfig());
        engine = restarted.get();
    }

    auto *context = new QObject;
    int answers = 0;
    auto answered = [&answers](bool, const TillError &, const auto &) {
        ++answers;
    };
    const std::optional<Money> all;   // a refund of what remains
    if (call == QLatin1String("start"))
        engine->start(context, [&answers](bool, const QString &) {
            ++answers;
        });
    else if (call == QLatin1String("pay"))
        engine->pay(QStringLiteral("ctx-pay"), Money(1200, QStringLiteral("CNY")), QStringLiteral("tok_visa"), context, answered);
    else if (call == QLatin1String("recordCash"))
        engine->recordCash(QStringLiteral("ctx-cash"), Money(800, QStringLiteral("CNY")), context, answered);
    else if (call == QLatin1String("refund"))
        engine->refund(card.key, all, QStringLiteral("returned"), context, answered);
    else if (call == QLatin1String("recordCashRefund"))
        engine->recordCashRefund(cash.key, all, context, answered);
    else if (call == QLatin1String("voidIntent"))
        engine->voidIntent(QStringLiteral("pay-not-in-this-journal"), context, answered);
    else if (call == QLatin1String("giveUp"))
        engine->giveUp(QStringLiteral("pay-not-in-this-journal"), context, answered);
    else if (call == QLatin1String("cancelSale"))
        engine->cancelSale(QStringLiteral("no-such-sale"), context, answered);
    else
        QFAIL(qPrintable(call));
    QCOMPARE(answers, 0);   // each of these answers from the journal's thread, never at once
    if (contextGone)
        delete context;
    journalBarrier();
    QCOMPARE(answers, contextGone ? 0 : 1);
    if (!contextGone)
        delete context;
    // A dropped answer is only the caller's: what the call did still happened.
    if (call == QLatin1String("pay") || call == QLatin1String("recordCash")) {
        const QString order = call == QLatin1String("pay") ? QStringLiteral("ctx-pay") : QStringLiteral("ctx-cash");
        QVERIFY(std::any_of(m_rig.changes.cbegin(), m_rig.changes.cend(), [&](const Intent &i) {
            return i.orderId == order;
        }));
    } else if (call == QLatin1String("refund") || call == QLatin1String("recordCashRefund")) {
        const QString paymentKey = call == QLatin1String("refund") ? card.key : cash.key;
        QVERIFY(std::any_of(m_rig.changes.cbegin(), m_rig.changes.cend(),
            [&](const Intent &i) {
                return i.isRefund() && i.paymentKey == paymentKey;
            }));
    }
    if (restarted) {
        restarted.reset();
        startTill();   // so that cleanup() stops what it expects
    }
}

QTEST_GUILESS_MAIN(TestSyncEngine)
#include "tst_syncengine.moc"
