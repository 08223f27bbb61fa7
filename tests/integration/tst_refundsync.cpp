// Refunds and voids through the sync engine against the real gateway, through the network
// simulator, in one process (as tst_syncengine): GatewayServer (demo, SQLite in a QTemporaryDir)
// <- FaultProxy <- GatewayClient <- SyncEngine + IntentJournal. A refund is an intent like a
// payment: stored before the first byte, one key on every try, asked about by key when its answer
// is lost, queued while offline; one open refund per payment; never more than was paid back at
// the gateway. A void takes only what was never sent, even at the instant the engine would send it.
//
// Two rows need the gateway side of refunds (issue 10's gateway branch: refunds through the
// acquirer, GET /v1/refunds?idempotency_key=, the acquirer's refund ledger); they say so and skip
// while the gateway under test does not have it. Everything else runs against today's gateway.
#include "clientprobe.h"
#include "enginerig.h"
#include "faultproxy.h"
#include "gatewayclient.h"
#include "gateway/gatewayserver.h"
#include "intentjournal.h"
#include "salebook.h"
#include "scriptedrefunds.h"
#include "syncengine.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QScopeGuard>
#include <QSemaphore>
#include <QTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <memory>

// Its lambdas capture the locals of a test that waits, running the event loop, until they have
// fired; each connection's context is destroyed before those locals are.
// clazy:excludeall=lambda-in-connect

using namespace OncePay;
using NetSim::FaultProxy;
using Connectivity = SyncEngine::Connectivity;
using ClientProbe::kWaitMs;

namespace {

}   // namespace

namespace OncePay {
char *toString(IntentState state)
{
    return qstrdup(qPrintable(intentStateName(state)));
}
}   // namespace OncePay

class TestRefundSync final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void refundHappyPath();
    void lostAnswerIsAskedAboutByKey();
    void offlineRefundWaitsThenDrains();
    void restartAsksBeforeResendingARefund();
    void secondRefundRefusedWhileOneIsOpen();
    void keyInProgressIsRetriedWithTheSameKey();
    void keyInProgressOnAScriptedGateway();
    void givenUpAsItsChargeIsHeardIsRefundedAtOnce();
    void cashRefundNeverGoesOut();
    void voidQueuedPaymentNeverSends();
    void voidRefusedWhenItMayHaveBeenSent();
    void voidAtTheInstantOfDispatch_data();
    void voidAtTheInstantOfDispatch();

private:
    void startTill(const SyncEngine::Config &config = ClientProbe::fastEngineConfig(20241203));
    void stopTill();
    // A card payment of `amount`, sent and settled succeeded.
    Intent paidByCard(const QString &order, qint64 amount);
    std::optional<Intent> latest(const QString &key) const { return ClientProbe::latest(m_rig.changes, key); }
    bool settled(const QString &key) const
    {
        const auto i = latest(key);
        return i && isFinal(i->state);
    }
    int sends(const QString &key) const
    {
        return int(std::count_if(m_rig.changes.cbegin(), m_rig.changes.cend(),
            [&](const Intent &i) {
                return i.key == key && i.state == IntentState::Sending;
            }));
    }
    QList<Attempt> attempts(const QString &key);
    // A mode applies to connections accepted after it is set: the kept-alive connection of the
    // payment before is cut first (offline does that), so the next request meets the mode.
    void setModeForNewConnections(NetSim::Mode mode)
    {
        m_rig.proxy->setSettings({NetSim::Mode::Offline});
        m_rig.proxy->setSettings({mode});
    }
    Intent stored(const QString &key);
    qint64 gatewayRefunded(const QString &paymentId)
    {
        return ClientProbe::gatewayPayment(*m_rig.direct, paymentId).value(QStringLiteral("amount_refunded")).toInteger(-1);
    }

    EngineRig m_rig;   // gateway, proxy, direct client, journal, client, engine, changes
};

void TestRefundSync::init()
{
    QString error;
    QVERIFY2(m_rig.start(ClientProbe::fastEngineConfig(20241203), &error), qPrintable(error));
}

void TestRefundSync::cleanup()
{
    QString error;
    QVERIFY2(m_rig.stop(&error), qPrintable(error));
}

void TestRefundSync::startTill(const SyncEngine::Config &config)
{
    QString error;
    QVERIFY2(m_rig.startTill(config, &error), qPrintable(error));
}

void TestRefundSync::stopTill()
{
    m_rig.stopTill();
}

Intent TestRefundSync::paidByCard(const QString &order, qint64 amount)
{
    // Named, not a structured binding: a lambda below refers to it (C++17).
    const auto createdAnswer = ClientProbe::pay(*m_rig.engine, order, amount, QStringLiteral("tok_visa"));
    const auto &error = createdAnswer.first;
    const auto &created = createdAnswer.second;
    if (!error.isEmpty()) {
        QTest::qFail(qPrintable(error), __FILE__, __LINE__);
        return {};
    }
    if (!QTest::qWaitFor([&] {
            return settled(created.key);
        },
            kWaitMs)
        || latest(created.key)->state != IntentState::Succeeded) {
        QTest::qFail("the payment did not succeed", __FILE__, __LINE__);
        return {};
    }
    return *latest(created.key);
}

QList<Attempt> TestRefundSync::attempts(const QString &key)
{
    auto read = std::make_shared<std::optional<QList<Attempt>>>();
    m_rig.journal->attempts(key, this, [read](bool, const TillError &, QList<Attempt> a) {
        *read = a;
    });
    if (!QTest::qWaitFor([read] {
            return read->has_value();
        },
            kWaitMs))
        return {};
    return **read;
}

Intent TestRefundSync::stored(const QString &key)
{
    auto read = std::make_shared<std::optional<Intent>>();
    m_rig.journal->find(key, this, [read](bool, const TillError &, Intent i) {
        *read = i;
    });
    if (!QTest::qWaitFor([read] {
            return read->has_value();
        },
            kWaitMs))
        return {};
    return **read;
}

void TestRefundSync::refundHappyPath()
{
    const Intent paid = paidByCard(QStringLiteral("ord-refund"), 1999);
    QVERIFY(paid.isValid());
    const auto [e1, first] = ClientProbe::refund(*m_rig.engine, paid.key, 500, QStringLiteral("damaged box"));
    QVERIFY2(e1.isEmpty(), qPrintable(e1));
    QCOMPARE(first.kind, IntentKind::Refund);
    QVERIFY2(first.key.startsWith(QLatin1String("ref-")), qPrintable(first.key));
    QCOMPARE(first.state, IntentState::Queued);
    QCOMPARE(first.paymentKey, paid.key);
    QCOMPARE(first.paymentId, paid.paymentId);
    QTRY_VERIFY_WITH_TIMEOUT(settled(first.key), kWaitMs);
    const Intent done = *latest(first.key);
    QCOMPARE(done.state, IntentState::Succeeded);
    QVERIFY2(done.refundId.startsWith(QLatin1String("re_")), qPrintable(done.refundId));
    QCOMPARE(done.gatewayStatus, QStringLiteral("succeeded"));
    QCOMPARE(sends(first.key), 1);
    // The payment follows: announced, durable, and what the gateway says.
    QTRY_VERIFY_WITH_TIMEOUT(latest(paid.key)->amountRefunded == 500, kWaitMs);
    QCOMPARE(latest(paid.key)->gatewayStatus, QStringLiteral("partially_refunded"));
    QCOMPARE(latest(paid.key)->state, IntentState::Succeeded);
    QCOMPARE(stored(paid.key).amountRefunded, qint64(500));
    QCOMPARE(stored(first.key).refundId, done.refundId);
    QCOMPARE(gatewayRefunded(paid.paymentId), qint64(500));

    // The rest, with no amount given; then nothing is left.
    const auto [e2, rest] = ClientProbe::refund(*m_rig.engine, paid.key, std::nullopt);
    QVERIFY2(e2.isEmpty(), qPrintable(e2));
    QCOMPARE(rest.amount.minorUnits(), qint64(1499));
    QTRY_VERIFY_WITH_TIMEOUT(settled(rest.key), kWaitMs);
    QCOMPARE(latest(rest.key)->state, IntentState::Succeeded);
    QTRY_VERIFY_WITH_TIMEOUT(latest(paid.key)->amountRefunded == 1999, kWaitMs);
    QCOMPARE(latest(paid.key)->gatewayStatus, QStringLiteral("refunded"));
    const QJsonObject truth = ClientProbe::gatewayPayment(*m_rig.direct, paid.paymentId);
    QCOMPARE(truth.value(QStringLiteral("amount_refunded")).toInteger(), qint64(1999));
    QCOMPARE(truth.value(QStringLiteral("status")).toString(), QStringLiteral("refunded"));
    const auto [e3, none] = ClientProbe::refund(*m_rig.engine, paid.key, 1);
    QVERIFY2(e3.contains(QLatin1String("refunded in full")), qPrintable(e3));
    QVERIFY(!none.isValid());
    QCOMPARE(m_rig.engine->waitingCount(), 0);

    if (ClientProbe::gatewayHasRefundLedger(*m_rig.direct)) {
        // The bank's own books: one refund per refund intent, none other, never above the charge.
        const ClientProbe::RefundLedger l = ClientProbe::refundLedger(*m_rig.direct, paid.key);
        QVERIFY2(l.ok && l.rows.size() == 2, l.raw.constData());
        QVERIFY2(l.rowsFor(first.key) == 1 && l.rowsFor(rest.key) == 1, l.raw.constData());
        QCOMPARE(l.succeededTotal(), qint64(1999));
    }
}

void TestRefundSync::lostAnswerIsAskedAboutByKey()
{
    const Intent paid = paidByCard(QStringLiteral("ord-lost"), 3000);
    QVERIFY(paid.isValid());
    setModeForNewConnections(NetSim::Mode::LoseResponses);
    const auto [error, created] = ClientProbe::refund(*m_rig.engine, paid.key, 1200);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // The gateway executes it; the till never hears: "refunded but the till timed out".
    QTRY_COMPARE_WITH_TIMEOUT(latest(created.key)->state, IntentState::Unknown, kWaitMs);
    QVERIFY(m_rig.proxy->stats().responsesDropped >= 1);
    QCOMPARE(gatewayRefunded(paid.paymentId), qint64(1200));
    // While unknown, the payment cannot take another refund (it may be given back already).
    const auto [e2, second] = ClientProbe::refund(*m_rig.engine, paid.key, 100);
    QVERIFY2(e2.contains(QLatin1String("still in progress")), qPrintable(e2));

    m_rig.proxy->setSettings({});
    QTRY_VERIFY_WITH_TIMEOUT(settled(created.key), kWaitMs);
    QCOMPARE(latest(created.key)->state, IntentState::Succeeded);
    QCOMPARE(gatewayRefunded(paid.paymentId), qint64(1200));   // exactly once
    QTRY_COMPARE_WITH_TIMEOUT(stored(paid.key).amountRefunded, qint64(1200), kWaitMs);
    // Asked about by key before anything was sent again.
    const QList<Attempt> tries = attempts(created.key);
    QVERIFY(tries.size() >= 2);
    QCOMPARE(tries[0].kind, Attempt::Kind::Post);
    QCOMPARE(tries[0].transport, Attempt::Transport::AnswerLost);
    const auto firstLookup = std::find_if(tries.cbegin(), tries.cend(), [](const Attempt &a) {
        return a.kind == Attempt::Kind::Lookup && a.transport == Attempt::Transport::Answered;
    });
    QVERIFY(firstLookup != tries.cend());
    QVERIFY(std::none_of(tries.cbegin() + 1, firstLookup, [](const Attempt &a) {
        return a.kind == Attempt::Kind::Post;
    }));
    if (ClientProbe::gatewayHasRefundLedger(*m_rig.direct)) {
        // The lookup found it: settled without a second POST.
        QCOMPARE(firstLookup->httpStatus, 200);
        QCOMPARE(sends(created.key), 1);
        const ClientProbe::RefundLedger l = ClientProbe::refundLedger(*m_rig.direct, paid.key);
        QVERIFY2(l.rowsFor(created.key) == 1 && l.succeededTotal() == 1200, l.raw.constData());
    } else {
        // Today's gateway has no lookup route (404): the same key sent again is a replay.
        QCOMPARE(firstLookup->httpStatus, 404);
        QVERIFY(tries.last().kind == Attempt::Kind::Post && tries.last().httpStatus == 201 && tries.last().replayed);
    }
}

void TestRefundSync::offlineRefundWaitsThenDrains()
{
    const Intent paid = paidByCard(QStringLiteral("ord-offline"), 2500);
    QVERIFY(paid.isValid());
    m_rig.proxy->setSettings({NetSim::Mode::Offline});
    const auto [error, created] = ClientProbe::refund(*m_rig.engine, paid.key, 700);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(m_rig.engine->connectivity() != Connectivity::Online, kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(!attempts(created.key).isEmpty(), kWaitMs);
    QCOMPARE(latest(created.key)->state, IntentState::Queued);
    QCOMPARE(attempts(created.key).constFirst().transport, Attempt::Transport::NotSent);
    QCOMPARE(m_rig.engine->waitingCount(), 1);
    QCOMPARE(m_rig.engine->waitingTotals().value(QStringLiteral("CNY")), qint64(0));   // limits bound payments only
    QCOMPARE(gatewayRefunded(paid.paymentId), qint64(0));

    m_rig.proxy->setSettings({});
    QTRY_VERIFY_WITH_TIMEOUT(settled(created.key), kWaitMs);
    QCOMPARE(latest(created.key)->state, IntentState::Succeeded);
    QCOMPARE(gatewayRefunded(paid.paymentId), qint64(700));
    QCOMPARE(m_rig.engine->connectivity(), Connectivity::Online);
    QCOMPARE(m_rig.engine->waitingCount(), 0);
}

void TestRefundSync::restartAsksBeforeResendingARefund()
{
    // The refund reaches the gateway, its answer is lost, and the till dies before it notices:
    // the journal says `sending`. The next start asks by key before anything goes out again.
    const Intent paid = paidByCard(QStringLiteral("ord-crash"), 4200);
    QVERIFY(paid.isValid());
    setModeForNewConnections(NetSim::Mode::LoseResponses);
    auto died = std::make_shared<bool>(false);
    connect(m_rig.proxy.get(), &FaultProxy::responseDropped, this, [this, died] {
        if (!*died) {
            *died = true;
            stopTill();
        }
    });
    const auto [error, created] = ClientProbe::refund(*m_rig.engine, paid.key, 4200);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(*died, kWaitMs);
    disconnect(m_rig.proxy.get(), &FaultProxy::responseDropped, this, nullptr);
    QCOMPARE(latest(created.key)->state, IntentState::Sending);
    QCOMPARE(gatewayRefunded(paid.paymentId), qint64(4200));

    m_rig.changes.clear();
    m_rig.proxy->setSettings({});
    startTill();
    QTRY_VERIFY_WITH_TIMEOUT(settled(created.key), kWaitMs);
    QCOMPARE(latest(created.key)->state, IntentState::Succeeded);
    QCOMPARE(attempts(created.key).constFirst().kind, Attempt::Kind::Lookup);   // asked first
    QCOMPARE(gatewayRefunded(paid.paymentId), qint64(4200));
    QTRY_COMPARE_WITH_TIMEOUT(stored(paid.key).amountRefunded, qint64(4200), kWaitMs);
}

void TestRefundSync::secondRefundRefusedWhileOneIsOpen()
{
    const Intent paid = paidByCard(QStringLiteral("ord-double"), 1000);
    QVERIFY(paid.isValid());
    m_rig.proxy->setSettings({NetSim::Mode::Offline});
    const auto [e1, a] = ClientProbe::refund(*m_rig.engine, paid.key, 600);
    QVERIFY2(e1.isEmpty(), qPrintable(e1));
    // The same request again (a second click, a second script): refused, nothing stored.
    const auto [e2, b] = ClientProbe::refund(*m_rig.engine, paid.key, 600);
    QVERIFY2(e2.contains(QLatin1String("still in progress")) && e2.contains(a.key), qPrintable(e2));
    QVERIFY(!b.isValid());
    QCOMPARE(m_rig.engine->waitingCount(), 1);
    // The open one was never sent: it may be voided, and then another refund may be made.
    QTRY_VERIFY_WITH_TIMEOUT(m_rig.engine->requestsInFlight() == 0 && !attempts(a.key).isEmpty(), kWaitMs);
    const auto [e3, voided] = ClientProbe::voidIntent(*m_rig.engine, a.key);
    QVERIFY2(e3.isEmpty(), qPrintable(e3));
    QCOMPARE(voided.state, IntentState::Voided);
    const auto [e4, c] = ClientProbe::refund(*m_rig.engine, paid.key, 1000);
    QVERIFY2(e4.isEmpty(), qPrintable(e4));
    m_rig.proxy->setSettings({});
    QTRY_VERIFY_WITH_TIMEOUT(settled(c.key), kWaitMs);
    QCOMPARE(latest(c.key)->state, IntentState::Succeeded);
    QCOMPARE(gatewayRefunded(paid.paymentId), qint64(1000));   // the voided one never reached it
    QCOMPARE(sends(a.key), attempts(a.key).size());   // each of its tries was never sent
    for (const Attempt &t : attempts(a.key))
        QCOMPARE(t.transport, Attempt::Transport::NotSent);
}

void TestRefundSync::keyInProgressIsRetriedWithTheSameKey()
{
    if (!ClientProbe::gatewayHasRefundLedger(*m_rig.direct))
        QSKIP("needs refunds through the acquirer (gateway branch of issue 10): today a refund executes in one transaction, never 409");
    const Intent paid = paidByCard(QStringLiteral("ord-409"), 5000);
    QVERIFY(paid.isValid());
    // The refund is stored while offline, then the same key reaches the gateway from elsewhere
    // first (a till that died mid-request, say) and holds the claim at a slow bank.
    m_rig.proxy->setSettings({NetSim::Mode::Offline});
    // Named, not a structured binding: a lambda below refers to it (C++17).
    const auto createdAnswer = ClientProbe::refund(*m_rig.engine, paid.key, 800);
    const auto &error = createdAnswer.first;
    const auto &created = createdAnswer.second;
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(m_rig.engine->requestsInFlight() == 0 && !attempts(created.key).isEmpty(), kWaitMs);
    const GatewayResult slow = ClientProbe::await([&](auto cb) {
        m_rig.direct->send("PUT", QStringLiteral("/v1/_sim/acquirer"), R"({"mode": "normal", "latency_ms": 2500})", this, cb);
    },
        kWaitMs);
    QCOMPARE(slow.status, 200);
    auto first = std::make_shared<std::optional<GatewayResult>>();
    m_rig.direct->postRefund(created, this, [first](const GatewayResult &r) {
        *first = r;
    });
    QTRY_COMPARE_WITH_TIMEOUT(ClientProbe::await([&](auto cb) {
        m_rig.direct->getRefundByKey(created.key, this, cb);
    },
                                  kWaitMs)
                                  .status,
        200, kWaitMs);   // claimed, at the bank
    QVERIFY2(!first->has_value(), "the first request finished before the till's could meet it");

    m_rig.proxy->setSettings({});
    m_rig.engine->retryNow(created.key);
    QTRY_VERIFY_WITH_TIMEOUT(settled(created.key), kWaitMs);
    QCOMPARE(latest(created.key)->state, IntentState::Succeeded);
    const QList<Attempt> tries = attempts(created.key);
    QVERIFY2(std::any_of(tries.cbegin(), tries.cend(), [](const Attempt &a) {
        return a.httpStatus == 409;
    }),
        "the till never met the key in progress");
    QTRY_VERIFY_WITH_TIMEOUT(first->has_value(), kWaitMs);
    const ClientProbe::RefundLedger l = ClientProbe::refundLedger(*m_rig.direct, paid.key);
    QVERIFY2(l.rowsFor(created.key) == 1 && l.succeededTotal() == 800, l.raw.constData());
    QCOMPARE(gatewayRefunded(paid.paymentId), qint64(800));
}

void TestRefundSync::keyInProgressOnAScriptedGateway()
{
    // The same, today, against a scripted gateway behind the fault proxy: its first answer to the
    // refund is 409 with Retry-After: 1 (the key executing elsewhere), the next one 201. The till
    // keeps the refund as processing (not a problem), waits at least Retry-After, and sends the
    // same key with the same body again.
    ScriptedRefunds stub(1);
    const quint16 port = stub.listen();
    QVERIFY(port != 0);
    stopTill();
    m_rig.proxy = std::make_unique<FaultProxy>();
    QString error;
    QVERIFY2(m_rig.proxy->listen(QHostAddress::LocalHost, 0, QStringLiteral("127.0.0.1"), port, &error), qPrintable(error));
    startTill();
    // A card payment the gateway settled, as the journal keeps it.
    Intent paid;
    paid.key = QStringLiteral("pay-scripted-1");
    paid.orderId = QStringLiteral("ord-scripted");
    paid.amount = Money(3000, QStringLiteral("CNY"));
    paid.paymentMethod = QStringLiteral("tok_visa");
    auto created = std::make_shared<std::optional<Intent>>();
    m_rig.journal->create(paid, this, [created](bool, const TillError &, Intent i) {
        *created = i;
    });
    QTRY_VERIFY_WITH_TIMEOUT(created->has_value(), kWaitMs);
    Intent charged = **created;
    charged.state = IntentState::Succeeded;
    charged.paymentId = QStringLiteral("pay_scripted");
    auto applied = std::make_shared<bool>(false);
    m_rig.journal->update(charged, IntentState::Queued, QStringLiteral("test"), std::nullopt, this,
        [applied](bool ok, const TillError &, bool a) {
            *applied = ok && a;
        });
    QTRY_VERIFY_WITH_TIMEOUT(*applied, kWaitMs);

    const auto [e, refund] = ClientProbe::refund(*m_rig.engine, paid.key, 1200, QStringLiteral("scripted"));
    QVERIFY2(e.isEmpty(), qPrintable(e));
    QTRY_COMPARE_WITH_TIMEOUT(latest(refund.key)->state, IntentState::Processing, kWaitMs);
    QVERIFY2(latest(refund.key)->lastProblem.isEmpty(), qPrintable(latest(refund.key)->lastProblem));
    QTRY_VERIFY_WITH_TIMEOUT(settled(refund.key), kWaitMs);
    QCOMPARE(latest(refund.key)->state, IntentState::Succeeded);
    QCOMPARE(latest(refund.key)->refundId, QStringLiteral("re_scripted"));
    const QList<ScriptedRefunds::Post> &posts = stub.posts();
    QCOMPARE(posts.size(), 2);
    QCOMPARE(posts[0].key, QByteArray('"' + refund.key.toLatin1() + '"'));
    QCOMPARE(posts[1].key, posts[0].key);
    QCOMPARE(posts[1].body, posts[0].body);
    QCOMPARE(QJsonDocument::fromJson(posts[0].body).object(),
        (QJsonObject{{QStringLiteral("amount"), 1200}, {QStringLiteral("reason"), QStringLiteral("scripted")}}));
    QVERIFY2(posts[1].at - posts[0].at >= 1000, qPrintable(QString::number(posts[1].at - posts[0].at)));
    QStringList path;
    for (const Intent &i : std::as_const(m_rig.changes)) {
        if (i.key == refund.key)
            path << intentStateName(i.state);
    }
    QCOMPARE(path, (QStringList{QStringLiteral("queued"), QStringLiteral("sending"), QStringLiteral("processing"), QStringLiteral("sending"), QStringLiteral("succeeded")}));
    QTRY_COMPARE_WITH_TIMEOUT(stored(paid.key).amountRefunded, qint64(1200), kWaitMs);
}

// Issue 21: the cashier gives a card part up ("the customer pays another way") at the instant
// the till hears it was charged. The journal stores the give-up, then the charge (the answer was
// read before the give-up's reply came back). The till owes that money back now, once, with the
// key derived from the part's: not at its next start, when the customer has long gone.
void TestRefundSync::givenUpAsItsChargeIsHeardIsRefundedAtOnce()
{
    ScriptedRefunds stub(0);
    const quint16 port = stub.listen();
    QVERIFY(port != 0);
    stopTill();
    m_rig.proxy = std::make_unique<FaultProxy>();
    QString error;
    QVERIFY2(m_rig.proxy->listen(QHostAddress::LocalHost, 0, QStringLiteral("127.0.0.1"), port, &error), qPrintable(error));
    startTill();
    SaleBook book(m_rig.journal.get());
    std::optional<Sale> sale;
    book.open(Money(990, QStringLiteral("CNY")), QJsonArray{QJsonObject{{QStringLiteral("code"), QStringLiteral("6901234500134")}, {QStringLiteral("unit_price"), 990}, {QStringLiteral("quantity"), 1}}},
        this, [&sale](bool ok, const TillError &, const Sale &s) {
            sale = ok ? s : Sale();
        });
    QTRY_VERIFY(sale.has_value());
    QVERIFY(sale->isValid());
    const auto [payError, part] = ClientProbe::pay(*m_rig.engine, sale->orderId, 990, QStringLiteral("tok_visa"));
    QVERIFY2(payError.isEmpty(), qPrintable(payError));
    QTRY_VERIFY_WITH_TIMEOUT(stub.holdsPayment(), kWaitMs);   // on the wire, the bank charging

    // The journal's thread is held...
    auto gate = std::make_shared<QSemaphore>();
    auto holding = std::make_shared<std::atomic_bool>(false);
    const auto release = qScopeGuard([gate] {
        gate->release();
    });   // never left hanging
    m_rig.journal->transact<bool>(
        this, [gate, holding](SqlTx &) {
            *holding = true;
            gate->acquire();
            return true;
        },
        [](bool, const TillError &, bool) {});
    QTRY_VERIFY_WITH_TIMEOUT(holding->load(), kWaitMs);
    // ...while the cashier gives the card up (stored first)...
    std::optional<bool> gaveUp;
    QString refusal;
    m_rig.engine->giveUp(part.key, this, [&gaveUp, &refusal](bool ok, const TillError &why, const Intent &) {
        gaveUp = ok;
        refusal = why.text();
    });
    // ...and the charge is heard: the engine reads the answer and stores it (second). The journal
    // goes on once the engine has read it.
    bool heard = false;
    for (QNetworkAccessManager *nam : m_rig.client->findChildren<QNetworkAccessManager *>()) {
        connect(nam, &QNetworkAccessManager::finished, this, [gate, &heard, nam](QNetworkReply *reply) {
            if (heard || reply->operation() != QNetworkAccessManager::PostOperation
                || reply->url().path() != QLatin1String("/v1/payments"))
                return;
            heard = true;
            QTimer::singleShot(0, nam, [gate] {
                gate->release();
            });   // after the engine's own handler
        });
    }
    stub.answerPayment();
    QTRY_VERIFY_WITH_TIMEOUT(heard && gaveUp.has_value(), kWaitMs);
    QVERIFY2(*gaveUp, qPrintable(refusal));

    // The till refunds it by itself at once, with the derived key, once.
    const QString refundKey = autoRefundKey(part.key);
    QTRY_VERIFY_WITH_TIMEOUT(settled(refundKey), kWaitMs);
    QCOMPARE(latest(refundKey)->state, IntentState::Succeeded);
    QCOMPARE(latest(refundKey)->amount.minorUnits(), qint64(990));
    QCOMPARE(stub.posts().size(), 1);
    QCOMPARE(stub.posts().first().key, QByteArray('"' + refundKey.toLatin1() + '"'));
    QCOMPARE(stub.paymentPosts().size(), 1);   // and the card was never charged again
    QVERIFY(latest(part.key)->givenUpAt > 0);
    QCOMPARE(latest(part.key)->state, IntentState::Succeeded);
}

void TestRefundSync::cashRefundNeverGoesOut()
{
    const auto [e1, sale] = ClientProbe::payCash(*m_rig.engine, QStringLiteral("ord-cash"), 5000);
    QVERIFY2(e1.isEmpty(), qPrintable(e1));
    const int connections = m_rig.proxy->stats().accepted;
    const auto [e2, back] = ClientProbe::cashRefund(*m_rig.engine, sale.key, 1500);
    QVERIFY2(e2.isEmpty(), qPrintable(e2));
    QCOMPARE(back.state, IntentState::Succeeded);   // out of the drawer: final at once
    QCOMPARE(back.tender, Tender::Cash);
    QTRY_VERIFY_WITH_TIMEOUT(latest(sale.key)->amountRefunded == 1500, kWaitMs);
    QCOMPARE(m_rig.engine->waitingCount(), 0);
    // A cash sale is never refunded to a card, and a card payment never in cash.
    const auto [e3, card] = ClientProbe::refund(*m_rig.engine, sale.key, 100);
    QVERIFY2(e3.contains(QLatin1String("paid in cash")), qPrintable(e3));
    const Intent paid = paidByCard(QStringLiteral("ord-card"), 900);
    QVERIFY(paid.isValid());
    const auto [e4, drawer] = ClientProbe::cashRefund(*m_rig.engine, paid.key, 100);
    QVERIFY2(e4.contains(QLatin1String("refunded to the card")), qPrintable(e4));
    QCOMPARE(m_rig.proxy->stats().accepted - connections >= 1, true);   // the card payment went out ...
    QCOMPARE(gatewayRefunded(paid.paymentId), qint64(0));   // ... no refund did
}

void TestRefundSync::voidQueuedPaymentNeverSends()
{
    m_rig.proxy->setSettings({NetSim::Mode::Offline});
    // Named, not a structured binding: a lambda below refers to it (C++17).
    const auto queuedAnswer = ClientProbe::pay(*m_rig.engine, QStringLiteral("ord-void"), 1234, QStringLiteral("tok_visa"));
    const auto &e1 = queuedAnswer.first;
    const auto &queued = queuedAnswer.second;
    QVERIFY2(e1.isEmpty(), qPrintable(e1));
    QTRY_VERIFY_WITH_TIMEOUT(m_rig.engine->requestsInFlight() == 0 && !attempts(queued.key).isEmpty(), kWaitMs);
    QSignalSpy queueChanged(m_rig.engine.get(), &SyncEngine::queueChanged);
    const auto [e2, voided] = ClientProbe::voidIntent(*m_rig.engine, queued.key);
    QVERIFY2(e2.isEmpty(), qPrintable(e2));
    QCOMPARE(voided.state, IntentState::Voided);
    QCOMPARE(latest(queued.key)->state, IntentState::Voided);
    QVERIFY(queueChanged.count() >= 1);
    QCOMPARE(m_rig.engine->waitingCount(), 0);
    QVERIFY(!m_rig.engine->activeIntent(queued.key));
    // Back online: it never goes out, and the sale takes a new payment that does.
    m_rig.proxy->setSettings({});
    const auto [e3, next] = ClientProbe::pay(*m_rig.engine, QStringLiteral("ord-void"), 1234, QStringLiteral("tok_visa"));
    QVERIFY2(e3.isEmpty(), qPrintable(e3));
    QTRY_VERIFY_WITH_TIMEOUT(settled(next.key), kWaitMs);
    QCOMPARE(latest(next.key)->state, IntentState::Succeeded);
    QCOMPARE(ClientProbe::await([&](auto cb) {
        m_rig.direct->getPaymentByKey(queued.key, this, cb);
    },
                 kWaitMs)
                 .status,
        404);
    QCOMPARE(ClientProbe::ledger(*m_rig.direct, queued.key, kWaitMs).rows, 0);
    QCOMPARE(latest(queued.key)->state, IntentState::Voided);
    QCOMPARE(stored(queued.key).state, IntentState::Voided);
}

void TestRefundSync::voidRefusedWhenItMayHaveBeenSent()
{
    m_rig.proxy->setSettings({NetSim::Mode::LoseResponses});
    const auto [e1, lost] = ClientProbe::pay(*m_rig.engine, QStringLiteral("ord-sent"), 2222, QStringLiteral("tok_visa"));
    QVERIFY2(e1.isEmpty(), qPrintable(e1));
    QTRY_COMPARE_WITH_TIMEOUT(latest(lost.key)->state, IntentState::Unknown, kWaitMs);
    const auto [e2, asStored] = ClientProbe::voidIntent(*m_rig.engine, lost.key);
    QVERIFY2(e2.contains(QLatin1String("may have reached the bank")) && e2.contains(QLatin1String("refund")), qPrintable(e2));
    QCOMPARE(asStored.key, lost.key);
    m_rig.proxy->setSettings({});
    QTRY_VERIFY_WITH_TIMEOUT(settled(lost.key), kWaitMs);
    QCOMPARE(latest(lost.key)->state, IntentState::Succeeded);   // it was charged: the till did not pretend otherwise
    // Paid: not voidable, refundable.
    const auto [e3, again] = ClientProbe::voidIntent(*m_rig.engine, lost.key);
    QVERIFY2(e3.contains(QLatin1String("only refunded")), qPrintable(e3));
    const auto [e4, back] = ClientProbe::refund(*m_rig.engine, lost.key, std::nullopt);
    QVERIFY2(e4.isEmpty(), qPrintable(e4));
    QTRY_VERIFY_WITH_TIMEOUT(settled(back.key), kWaitMs);
    QCOMPARE(latest(back.key)->state, IntentState::Succeeded);
    QCOMPARE(gatewayRefunded(latest(lost.key)->paymentId), qint64(2222));
}

void TestRefundSync::voidAtTheInstantOfDispatch_data()
{
    QTest::addColumn<bool>("voidFirst");
    QTest::newRow("void asked as the slot frees: held, voided, never sent") << true;
    QTest::newRow("void asked once it is on the wire: refused, it is paid") << false;
}

void TestRefundSync::voidAtTheInstantOfDispatch()
{
    // One request at a time, and a slow network: the second payment waits for the first one's
    // slot, never tried. The void comes at the exact instant the engine would pick it up (from
    // the first one's settling signal, before the engine pumps), or just after it did.
    QFETCH(bool, voidFirst);
    stopTill();
    SyncEngine::Config config = ClientProbe::fastEngineConfig(7);
    config.maxInFlight = 1;
    startTill(config);
    NetSim::Settings slow;
    slow.mode = NetSim::Mode::Latency;
    slow.latencyMs = 150;
    m_rig.proxy->setSettings(slow);
    // Named, not a structured binding: a lambda below refers to it (C++17).
    const auto firstAnswer = ClientProbe::pay(*m_rig.engine, QStringLiteral("ord-slot-1"), 100, QStringLiteral("tok_visa"));
    const auto &e1 = firstAnswer.first;
    const auto &first = firstAnswer.second;
    QVERIFY2(e1.isEmpty(), qPrintable(e1));
    // Named, not a structured binding: a lambda below refers to it (C++17).
    const auto secondAnswer = ClientProbe::pay(*m_rig.engine, QStringLiteral("ord-slot-2"), 200, QStringLiteral("tok_visa"));
    const auto &e2 = secondAnswer.first;
    const auto &second = secondAnswer.second;
    QVERIFY2(e2.isEmpty(), qPrintable(e2));
    QCOMPARE(sends(second.key), 0);

    auto answer = std::make_shared<std::optional<std::pair<bool, TillError>>>();
    auto askVoid = [this, answer, key = second.key] {
        m_rig.engine->voidIntent(key, this, [answer](bool ok, const TillError &error, const Intent &) {
            *answer = std::make_pair(ok, error);
        });
    };
    QObject trigger;
    connect(m_rig.engine.get(), &SyncEngine::intentChanged, &trigger, [&, voidFirst](const Intent &i) {
        const bool now = voidFirst ? (i.key == first.key && isFinal(i.state)) : (i.key == second.key && i.state == IntentState::Sending);
        if (now && !answer->has_value() && !trigger.property("asked").toBool()) {
            trigger.setProperty("asked", true);
            askVoid();
        }
    });
    QTRY_VERIFY_WITH_TIMEOUT(answer->has_value(), kWaitMs);
    if (voidFirst) {
        QVERIFY2((*answer)->first, qPrintable((*answer)->second.text()));
        QTRY_COMPARE_WITH_TIMEOUT(latest(second.key)->state, IntentState::Voided, kWaitMs);
        QCOMPARE(m_rig.engine->requestsInFlight(), 0);
        QCOMPARE(sends(second.key), 0);
        QCOMPARE(ClientProbe::await([&](auto cb) {
            m_rig.direct->getPaymentByKey(second.key, this, cb);
        },
                     kWaitMs)
                     .status,
            404);
        QCOMPARE(ClientProbe::ledger(*m_rig.direct, second.key, kWaitMs).rows, 0);
    } else {
        QVERIFY(!(*answer)->first);
        QCOMPARE((*answer)->second.kind(), TillError::Kind::VoidWhileOnTheWire);
        QTRY_VERIFY_WITH_TIMEOUT(settled(second.key), kWaitMs);
        QCOMPARE(latest(second.key)->state, IntentState::Succeeded);
        QCOMPARE(ClientProbe::ledger(*m_rig.direct, second.key, kWaitMs).succeeded, 1);
    }
    QCOMPARE(latest(first.key)->state, IntentState::Succeeded);
}

QTEST_GUILESS_MAIN(TestRefundSync)
#include "tst_refundsync.moc"
