// The simulated world of oncepay-sim (issue 22, docs/simulation.md): the real till and gateway
// code on one thread and virtual time, an in-memory network and bank link with faults chosen by
// the seed, and the exactly-once invariants.
#include "simworld.h"

#include "crashvfs.h"
#include "pausablestore.h"
#include "virtualtime.h"

#include "gateway/acquirer/acquirersimulator.h"
#include "gatewayclient.h"
#include "gatewaytransport.h"
#include "gateway/api/httpapi.h"
#include "intentjournal.h"
#include "gateway/metrics.h"
#include "gateway/steps/paymentservice.h"
#include "sale.h"
#include "salebook.h"
#include "gateway/store/sqlgatewaystore.h"
#include "syncengine.h"
#include "gateway/api/tokenstore.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrlQuery>

#include <algorithm>
#include <deque>
#include <memory>
#include <vector>

namespace OncePay::Sim {

using Gateway::AcquirerAnswer;

QStringList allFaultKinds()
{
    return {
        QStringLiteral("network"),   // requests and answers dropped, duplicated, delayed
        QStringLiteral("partition"),   // a till from a gateway, a gateway from the bank, healed later
        QStringLiteral("gateway-kill"),   // one gateway process killed, restarted later
        QStringLiteral("gateway-crash"),   // the gateways' machine: every instance, unsynced writes lost or torn
        QStringLiteral("till-crash"),   // a till's machine, unsynced writes lost or torn
        QStringLiteral("stall"),   // a gateway's acquirer answers held past its lease
        QStringLiteral("bank"),   // the acquirer's modes: refusals, declines, timeout after charge, latency
        QStringLiteral("clock"),   // wall-clock jumps
        QStringLiteral("disk-full"),   // the gateways' disk full for a while
        QStringLiteral("store-down"),   // the gateways' store cannot be reached or read for a while
        QStringLiteral("commit-lost"),   // a gateway's store answers lost after COMMIT, for a while
        QStringLiteral("stop-before-call"),   // a gateway stopped past its lease right before an acquirer call
        QStringLiteral("till-disk-full"),   // a till's disk full for a while: its journal's commits fail
    };
}

namespace {

const QString kMerchant = QStringLiteral("sim");
constexpr qint64 kLeaseMs = 3'000;
constexpr qint64 kClientTimeoutMs = 2'000;
constexpr qint64 kQuietWithinMs = 120'000;
constexpr qint64 kAcquirerTimeoutMs = 1'000;

class World;

// The till's side of the in-memory network: hands each request to the world, which carries it.
class SimTransport final : public GatewayTransport
{
public:
    SimTransport(World *world, int till)
        : m_world(world)
        , m_till(till)
    {
    }
    void exchange(const GatewayRequest &request, Done done) override;

private:
    World *m_world;
    int m_till;
};

// A gateway instance's link to the bank: calls go through the world, which may drop, delay or
// refuse them, and records what the bank did with each for the invariants.
class BankLink final : public Gateway::Acquirer
{
public:
    BankLink(World *world, int gateway, QObject *parent)
        : Acquirer(parent)
        , m_world(world)
        , m_gateway(gateway)
    {
    }
    bool open(QString *) override { return true; }
    void close() override {}
    void charge(const Gateway::ChargeRequest &request, QObject *context, AnswerCallback done) override;
    void lookup(const QString &merchant, const QString &key, QObject *context, AnswerCallback done) override;
    void reverse(const QString &merchant, const QString &key, QObject *context, AnswerCallback done) override;
    void refund(const Gateway::RefundCall &call, QObject *context, AnswerCallback done) override;
    void lookupRefund(const QString &merchant, const QString &key, QObject *context, AnswerCallback done) override;

private:
    World *m_world;
    int m_gateway;
};

struct GatewayNode
{
    bool up = false;
    std::unique_ptr<PausableStore> store;   // over the instance's SqlGatewayStore
    std::unique_ptr<Gateway::Metrics> metrics;
    std::unique_ptr<Gateway::TokenStore> tokens;
    std::unique_ptr<QObject> root;   // the link, the service and the routes
    Gateway::HttpApi *api = nullptr;
    Gateway::PaymentService *service = nullptr;
    qint64 stalledUntil = 0;   // stopped (SIGSTOP) until then: store, network and bank link held
};

struct TillNode
{
    bool up = false;
    bool started = false;   // its engine loaded the journal
    std::unique_ptr<CrashVfs> disk;
    std::unique_ptr<QObject> root;   // journal, client, engine
    IntentJournal *journal = nullptr;
    SaleBook *sales = nullptr;
    SyncEngine *engine = nullptr;
    QPointer<SimTransport> transport;
    int paymentsLeft = 0;
    int orders = 0;
    bool diskFull = false;   // till-disk-full: its journal may not even open until there is room
};

// One money call that reached the bank: when, and what the bank did.
struct BankCall
{
    quint64 forwardedAt = 0;   // tick the gateway's link sent it
    quint64 arrivedAt = 0;   // tick the bank got it
    AcquirerAnswer::Kind outcome = AcquirerAnswer::Kind::AnswerLost;
    bool answered = false;
};

// One row of a store or a ledger, as the audit reads it.
struct AuditRow
{
    QString id;
    QString status;
    qint64 amount = 0;
    bool review = false;
    QString chargeKey;   // a bank refund: its charge's key
};

// A sale the workload rang up, and what its cashier has done about it.
struct SimSale
{
    int till = 0;
    qint64 total = 0;
    qint64 cashTaken = 0;
    QString openCard;   // the card part being paid, if any
    bool settled = false;   // paid or cancelled, as its till's journal says
    bool cancelled = false;
    qint64 askedAt = -1'000'000;   // the cashier's last tender, not answered yet (or lost in a crash)
    QSet<QString> impatient;   // card parts the cashier lost patience with
    int partsAsked = 0;   // payments (card or cash) the cashier asked the till to store
    int partsRefused = 0;   // of them, those the till answered were not stored
};

// A 502 or 503 a gateway answered to a request with a key.
struct NothingHappened
{
    quint64 at = 0;   // the tick the request it answered was delivered
    int status = 0;
};

// A 201 or 402 a gateway answered: what must still be read afterwards.
struct Settled
{
    int status = 0;
    QString id;
    QString state;
    qint64 amount = 0;
};

class World final : public QObject
{
public:
    World(const WorldOptions &options, VirtualTime *time)
        : m_options(options)
        , m_time(time)
        , m_chaos(options.seed * 2654435761u + 17u)
        , m_trace(QCryptographicHash::Sha256)
    {
    }
    ~World() override;

    WorldReport run();

    // The network: a till's request to the gateway its URL names.
    void carry(int till, const GatewayRequest &request, GatewayTransport::Done done, QPointer<SimTransport> from);
    // The bank link: a money call or a question, from gateway `gateway`.
    using BankOp = std::function<void(Gateway::AcquirerSimulator *, QObject *, Gateway::Acquirer::AnswerCallback)>;
    void callBank(int gateway, const QString &what, const QString &key, bool money, const BankOp &op, QObject *context,
        Gateway::Acquirer::AnswerCallback done);
    // Promise 8: gateway `gateway` hands a money call for `key` to its bank link, which it may do
    // only under the lease it wrote acquirer_called with: nobody has taken the record over since.
    void calledUnderLease(int gateway, const QString &key, bool refund);

private:
    bool fault(const char *kind) const { return m_options.faults.contains(QLatin1String(kind)); }
    void note(const QString &line);
    void violation(const QString &what);
    int pick(int n) { return int(m_chaos.bounded(n)); }
    bool chance(double p) { return m_chaos.generateDouble() < p; }
    qint64 latency() { return 1 + m_chaos.bounded(fault("network") ? 40 : 5); }

    bool buildDisks();
    void startBank();
    void startGateway(int i);
    void killGateway(int i, const char *why);
    void startTill(int i);
    void crashTill(int i);
    void crashGatewayMachine();
    // The instance stops (SIGSTOP) for `forMs`: its store, network and bank link held.
    void stopGateway(int g, qint64 forMs);

    // API.md promise 5: a key is one payment (or one refund) forever, whatever answers it.
    void oneResourcePerKey(const QString &key, const Http::HttpAnswer &answer);
    void schedulePayment(int till, qint64 at);
    void pay(int till);
    void payCard(const QString &order, qint64 amount);
    void payCash(const QString &order, qint64 amount);
    void cardPartChanged(const QString &order, const Intent &part);
    void losePatience(const QString &order, const QString &key);
    void giveUpAndTakeCash(const QString &order, const QString &key);
    void followUp(const QString &order);
    void cancel(const QString &order);
    using AuditRows = QHash<QString, std::vector<AuditRow>>;
    void auditSales(const AuditRows &charges, const AuditRows &bankRefunds, const AuditRows &gwPayments);
    void maybeRefund(int till, const Intent &intent);
    void scheduleChaos(qint64 at);
    void chaos();
    void heal();
    bool quiet();
    void audit();

    bool partitioned(int till, int gateway) const { return m_tillCut.value(qMakePair(till, gateway), 0) > m_time->now(); }
    bool bankCut(int gateway) const { return m_bankCut.value(gateway, 0) > m_time->now(); }
    void setBankMode(Gateway::SimulationState state);

    template <typename Done>
    bool waitFor(Done &&done, qint64 forMs = 60'000)
    {
        return m_time->runUntil(std::forward<Done>(done), m_time->now() + forMs);
    }
    QSqlDatabase auditDb(const QString &name, CrashVfs &disk, const QString &path);

    WorldOptions m_options;
    VirtualTime *m_time;
    QRandomGenerator m_chaos;
    QCryptographicHash m_trace;
    std::deque<QString> m_tail;
    quint64 m_tick = 0;
    WorldReport m_report;

    double m_dropRequest = 0;
    double m_dropAnswer = 0;
    double m_duplicate = 0;

    std::unique_ptr<CrashVfs> m_gatewayDisk;
    std::unique_ptr<CrashVfs> m_bankDisk;
    std::unique_ptr<Gateway::AcquirerSimulator> m_bank;
    Gateway::SimulationState m_bankMode;
    std::vector<GatewayNode> m_gateways;
    std::vector<TillNode> m_tills;
    QHash<QPair<int, int>, qint64> m_tillCut;   // (till, gateway) -> cut until
    QHash<int, qint64> m_bankCut;   // gateway -> cut from the bank until
    qint64 m_quietLookedAt = -1'000;
    bool m_healed = false;

    // For the invariants.
    QHash<QString, std::vector<BankCall>> m_bankCalls;   // key -> money calls that reached the bank
    QHash<QString, std::vector<quint64>> m_deliveries;   // key -> ticks a gateway got a request with it
    QHash<QString, std::vector<NothingHappened>> m_nothing;   // key -> 502/503 answers
    QHash<QString, QString> m_cancelOf;   // a cancel's key -> the id of the payment it gives up
    QHash<QString, std::vector<quint64>> m_reversals;   // payment key -> ticks a reversal was sent
    qint64 m_storeDownUntil = 0;   // store-down: the gateways' store unreachable until then
    QHash<int, qint64> m_commitLostUntil;   // commit-lost: gateway -> until when
    QHash<QString, Settled> m_settled;   // key -> the first 201/402 answered
    QSet<QString> m_refundKeys;
    QHash<QString, QString> m_idOfKey;   // key -> the payment or refund id first answered for it
    std::map<QString, SimSale> m_sales;   // order id -> sale (ordered: the audit's order is fixed)
    QHash<QString, QString> m_orderOfPart;   // card part key -> order id
    QStringList m_walletCodes;   // the customers' payment codes scanned so far
};

void SimTransport::exchange(const GatewayRequest &request, Done done)
{
    m_world->carry(m_till, request, std::move(done), this);
}

void BankLink::charge(const Gateway::ChargeRequest &request, QObject *context, AnswerCallback done)
{
    m_world->calledUnderLease(m_gateway, request.key, false);
    m_world->callBank(
        m_gateway, QStringLiteral("charge"), request.key, true, [request](Gateway::AcquirerSimulator *bank, QObject *c, AnswerCallback d) {
            bank->charge(request, c, std::move(d));
        },
        context, std::move(done));
}

void BankLink::lookup(const QString &merchant, const QString &key, QObject *context, AnswerCallback done)
{
    m_world->callBank(
        m_gateway, QStringLiteral("lookup"), key, false, [merchant, key](Gateway::AcquirerSimulator *bank, QObject *c, AnswerCallback d) {
            bank->lookup(merchant, key, c, std::move(d));
        },
        context, std::move(done));
}

void BankLink::reverse(const QString &merchant, const QString &key, QObject *context, AnswerCallback done)
{
    m_world->callBank(
        m_gateway, QStringLiteral("reversal"), key, false, [merchant, key](Gateway::AcquirerSimulator *bank, QObject *c, AnswerCallback d) {
            bank->reverse(merchant, key, c, std::move(d));
        },
        context, std::move(done));
}

void BankLink::refund(const Gateway::RefundCall &call, QObject *context, AnswerCallback done)
{
    m_world->calledUnderLease(m_gateway, call.key, true);
    m_world->callBank(
        m_gateway, QStringLiteral("refund"), call.key, true, [call](Gateway::AcquirerSimulator *bank, QObject *c, AnswerCallback d) {
            bank->refund(call, c, std::move(d));
        },
        context, std::move(done));
}

void BankLink::lookupRefund(const QString &merchant, const QString &key, QObject *context, AnswerCallback done)
{
    m_world->callBank(
        m_gateway, QStringLiteral("refund-lookup"), key, false, [merchant, key](Gateway::AcquirerSimulator *bank, QObject *c, AnswerCallback d) {
            bank->lookupRefund(merchant, key, c, std::move(d));
        },
        context, std::move(done));
}

World::~World()
{
    for (TillNode &t : m_tills) {
        t.root.reset();
        t.up = false;
    }
    for (int i = 0; i < int(m_gateways.size()); ++i) {
        if (m_gateways[size_t(i)].up)
            killGateway(i, "end");
    }
    m_bank.reset();
    for (const QString &name : {QStringLiteral("sim-audit-gw"), QStringLiteral("sim-audit-bank")})
        QSqlDatabase::removeDatabase(name);
}

void World::note(const QString &line)
{
    ++m_tick;
    const QString text = QStringLiteral("%1 %2").arg(m_time->now()).arg(line);
    m_trace.addData(text.toUtf8());
    m_trace.addData("\n");
    m_tail.push_back(text);
    if (int(m_tail.size()) > m_options.traceTail)
        m_tail.pop_front();
}

void World::violation(const QString &what)
{
    if (m_report.violations.contains(what))
        return;
    note(QStringLiteral("VIOLATION ") + what);
    m_report.violations.append(what);
}

// ---- the network between tills and gateways ----

namespace {
QString keyOf(const GatewayRequest &request)
{
    for (const auto &[name, value] : request.headers) {
        if (name.compare("Idempotency-Key", Qt::CaseInsensitive) == 0)
            return QString::fromLatin1(value).remove(QLatin1Char('"'));
    }
    return QUrlQuery(request.url).queryItemValue(QStringLiteral("idempotency_key"));
}

Http::HttpRequest toHttpRequest(const GatewayRequest &request)
{
    Http::HttpRequest r;
    r.methodName = request.method;
    r.method = Http::HttpRequest::methodFrom(request.method);
    r.path = request.url.path();
    r.query = QUrlQuery(request.url);
    r.target = request.url.path(QUrl::FullyEncoded).toLatin1();
    if (request.url.hasQuery())
        r.target += '?' + request.url.query(QUrl::FullyEncoded).toLatin1();
    r.headers = request.headers;
    r.headers.append({QByteArrayLiteral("Host"), request.url.host().toLatin1()});
    r.headers.append({QByteArrayLiteral("Content-Length"), QByteArray::number(request.body.size())});
    r.body = request.body;
    return r;
}
}   // namespace

void World::carry(int till, const GatewayRequest &request, GatewayTransport::Done done, QPointer<SimTransport> from)
{
    const int gateway = request.url.host().mid(2).toInt();
    const QString key = keyOf(request);
    const QString what = QStringLiteral("%1 %2 %3").arg(QString::fromLatin1(request.method), request.url.path(), key);
    struct Exchange
    {
        bool finished = false;
        bool written = false;
        GatewayTransport::Done done;
        QPointer<SimTransport> from;
    };
    auto ex = std::make_shared<Exchange>();
    ex->done = std::move(done);
    ex->from = from;
    auto finish = [ex](const GatewayResult &result) {
        if (ex->finished)
            return;
        ex->finished = true;
        if (ex->from)   // a transport destroyed with its till calls nobody back
            ex->done(result);
    };
    m_time->after(request.timeoutMs, [ex, finish] {
        finish(GatewayResult::failed(ex->written ? GatewayResult::Transport::LostAfterSend : GatewayResult::Transport::NotSent,
            QStringLiteral("timed out")));
    });
    note(QStringLiteral("till%1>gw%2 %3").arg(till).arg(gateway).arg(what));
    if (gateway < 0 || gateway >= int(m_gateways.size()) || partitioned(till, gateway))
        return;   // a black hole: nothing is written, the client times out
    if (!m_gateways[size_t(gateway)].up) {
        m_time->after(1, [finish] {
            finish(GatewayResult::failed(GatewayResult::Transport::NotSent, QStringLiteral("connection refused")));
        });
        return;
    }
    ex->written = true;
    if (fault("network") && chance(m_dropRequest)) {
        note(QStringLiteral("drop request till%1>gw%2 %3").arg(till).arg(gateway).arg(what));
        return;
    }
    const bool isPost = request.method == "POST";
    auto arrive = std::make_shared<std::function<void(bool)>>();
    std::weak_ptr<std::function<void(bool)>> weak = arrive;
    *arrive = [this, till, gateway, request, key, what, finish, isPost, weak](bool copy) {
        GatewayNode &node = m_gateways[size_t(gateway)];
        if (node.up && node.stalledUntil > m_time->now()) {   // waits in the stopped process's socket
            m_time->schedule(node.stalledUntil + 1, [self = weak.lock(), copy] {
                (*self)(copy);
            });
            return;
        }
        if (!node.up) {
            note(QStringLiteral("gw%1 down: reset %2").arg(gateway).arg(what));
            if (!copy)
                finish(GatewayResult::failed(GatewayResult::Transport::LostAfterSend, QStringLiteral("connection reset")));
            return;
        }
        note(QStringLiteral("gw%1 got %2%3").arg(gateway).arg(what, copy ? QStringLiteral(" (copy)") : QString()));
        if (isPost && !key.isEmpty()) {
            m_deliveries[key].push_back(m_tick);
            const QStringList parts = request.url.path().split(QLatin1Char('/'));   // /v1/payments/{id}/cancel
            if (parts.size() == 5 && parts.at(4) == QLatin1String("cancel"))
                m_cancelOf.insert(key, parts.at(3));
        }
        const quint64 deliveredAt = m_tick;
        auto answered = [this, till, gateway, key, what, finish, copy, isPost, deliveredAt](const Http::HttpAnswer &a) {
            note(QStringLiteral("gw%1 answers %2 %3").arg(gateway).arg(a.status).arg(what));
            if (!key.isEmpty())
                oneResourcePerKey(key, a);
            if (isPost && !key.isEmpty()) {
                if (a.status == 502 || a.status == 503)
                    m_nothing[key].push_back({deliveredAt, a.status});
                if ((a.status == 201 || a.status == 402) && !m_settled.contains(key)) {
                    const QJsonObject body = QJsonDocument::fromJson(a.body).object();
                    const QJsonObject object = body.contains(QStringLiteral("object")) ? body
                        : body.value(QStringLiteral("payment")).isObject()             ? body.value(QStringLiteral("payment")).toObject()
                                                                                       : body.value(QStringLiteral("refund")).toObject();
                    m_settled.insert(key, {a.status, object.value(QStringLiteral("id")).toString(), object.value(QStringLiteral("status")).toString(), object.value(QStringLiteral("amount")).toInteger()});
                }
            }
            if (copy)
                return;
            if (partitioned(till, gateway) || (fault("network") && chance(m_dropAnswer))) {
                note(QStringLiteral("drop answer gw%1>till%2 %3").arg(gateway).arg(till).arg(what));
                return;
            }
            const GatewayResult result = GatewayResult::fromAnswer(a.status, a.contentType, a.header("Retry-After"),
                a.header("Idempotent-Replayed"), a.body);
            m_time->after(latency(), [finish, result] {
                finish(result);
            });
        };
        node.api->handle(toHttpRequest(request), Http::HttpResponder::toSink(answered));
    };
    m_time->after(latency(), [arrive] {
        (*arrive)(false);
    });
    if (fault("network") && chance(m_duplicate)) {
        const qint64 later = latency() + m_chaos.bounded(kClientTimeoutMs * 2);
        m_time->after(later, [arrive] {
            (*arrive)(true);
        });
    }
}

void World::oneResourcePerKey(const QString &key, const Http::HttpAnswer &answer)
{
    // What the gateway answered as its own: 201, 202 (recorded, resolved later) and 402, and a
    // read of a settled payment or refund. A read of one still processing may show a claim that
    // is later given back (its only call refused: promise 10), which is not a payment yet.
    if (answer.status != 200 && answer.status != 201 && answer.status != 202 && answer.status != 402)
        return;
    const QJsonObject body = QJsonDocument::fromJson(answer.body).object();
    const QJsonObject object = body.contains(QStringLiteral("object")) ? body
        : body.value(QStringLiteral("payment")).isObject()             ? body.value(QStringLiteral("payment")).toObject()
                                                                       : body.value(QStringLiteral("refund")).toObject();
    const QString id = object.value(QStringLiteral("id")).toString();
    if (id.isEmpty() || object.value(QStringLiteral("idempotency_key")).toString(key) != key)
        return;
    if (answer.status == 200 && object.value(QStringLiteral("status")).toString() == QLatin1String("processing"))
        return;
    const auto it = m_idOfKey.constFind(key);
    if (it == m_idOfKey.cend())
        m_idOfKey.insert(key, id);
    else if (*it != id)
        violation(QStringLiteral("key %1 was answered as %2, then as %3").arg(key, *it, id));
}

// ---- the link between gateways and the bank ----

void World::callBank(int gateway, const QString &what, const QString &key, bool money, const BankOp &op, QObject *context,
    Gateway::Acquirer::AnswerCallback done)
{
    // Like HttpAcquirer, the link answers every call exactly once: the bank's answer, or
    // AnswerLost when none came within its timeout (a dropped request or answer). A stalled
    // gateway process cannot time out either: its timeout waits for the stall to end.
    QPointer<QObject> ctx(context);
    auto once = std::make_shared<bool>(false);
    auto deliver = [ctx, done, once](const AcquirerAnswer &a) {
        if (*once)
            return;
        *once = true;
        if (ctx)
            done(a);
    };
    std::shared_ptr<std::function<void()>> timeout = std::make_shared<std::function<void()>>();
    *timeout = [this, gateway, deliver, timeout] {
        const qint64 stalled = m_gateways[size_t(gateway)].stalledUntil;
        if (stalled > m_time->now()) {
            m_time->schedule(stalled + 1, [timeout] {
                const std::function<void()> run = *timeout;
                if (run)
                    run();
            });
            return;
        }
        deliver(AcquirerAnswer(AcquirerAnswer::Kind::AnswerLost, {}, QStringLiteral("acquirer timeout")));
        *timeout = nullptr;   // the cycle through its own capture ends here
    };
    m_time->after(kAcquirerTimeoutMs, [timeout] {
        const std::function<void()> run = *timeout;   // a copy: the original may end itself
        if (run)
            run();
    });
    if (m_gateways[size_t(gateway)].stalledUntil > m_time->now()) {   // a stopped process sends nothing
        m_time->schedule(m_gateways[size_t(gateway)].stalledUntil + 1, [this, gateway, what, key, money, op, ctx = QPointer<QObject>(context), done] {
            if (ctx)
                callBank(gateway, what, key, money, op, ctx, done);
        });
        return;
    }
    note(QStringLiteral("gw%1>bank %2 %3").arg(gateway).arg(what, key));
    const quint64 forwardedAt = m_tick;
    if (what == QLatin1String("reversal"))
        m_reversals[key].push_back(forwardedAt);
    if (bankCut(gateway)) {
        m_time->after(1, [deliver] {
            deliver(AcquirerAnswer(AcquirerAnswer::Kind::Refused, {}, QStringLiteral("connection refused")));
        });
        return;
    }
    if (fault("network") && chance(m_dropRequest)) {
        note(QStringLiteral("drop request gw%1>bank %2 %3").arg(gateway).arg(what, key));
        return;   // the link's timeout answers it
    }
    m_time->after(latency(), [this, gateway, what, key, money, op, deliver, forwardedAt] {
        note(QStringLiteral("bank got %1 %2").arg(what, key));
        size_t index = 0;
        if (money) {
            m_bankCalls[key].push_back({forwardedAt, m_tick, AcquirerAnswer::Kind::AnswerLost, false});
            index = m_bankCalls[key].size() - 1;
        }
        // The bank answers the world (it outlives every gateway process); the world passes the
        // answer on, or loses it.
        op(m_bank.get(), this, [this, gateway, what, key, money, index, deliver](const AcquirerAnswer &a) {
            note(QStringLiteral("bank answers %1 %2 %3").arg(what, key, QString::fromLatin1(a.metricsLabel())));
            if (money) {
                BankCall &call = m_bankCalls[key][index];
                call.outcome = a.kind;
                call.answered = true;
            }
            if (bankCut(gateway) || (fault("network") && chance(m_dropAnswer))) {
                note(QStringLiteral("drop answer bank>gw%1 %2 %3").arg(gateway).arg(what, key));
                return;
            }
            const qint64 held = m_gateways[size_t(gateway)].stalledUntil - m_time->now();
            m_time->after(held > 0 ? held : latency(), [deliver, a] {
                deliver(a);
            });
        });
    });
}

// ---- the parties ----

bool World::buildDisks()
{
    const quint64 seed = m_options.seed;
    m_gatewayDisk = std::make_unique<CrashVfs>(QStringLiteral("oncepay-sim-gateway"), seed);
    m_bankDisk = std::make_unique<CrashVfs>(QStringLiteral("oncepay-sim-bank"), seed + 1);
    m_tills.resize(size_t(m_options.tills));
    for (int i = 0; i < m_options.tills; ++i)
        m_tills[size_t(i)].disk = std::make_unique<CrashVfs>(QStringLiteral("oncepay-sim-till%1").arg(i), seed + 2 + quint64(i));
    return true;
}

void World::startBank()
{
    m_bank = std::make_unique<Gateway::AcquirerSimulator>(QStringLiteral("/bank.db"));
    m_bank->placeLedger(m_bankDisk->name(), SqlBatchWorker::Options::Threading::CallerThread);
    QString error;
    if (!m_bank->open(&error))
        violation(QStringLiteral("the bank's ledger did not open: %1").arg(error));
}

void World::setBankMode(Gateway::SimulationState state)
{
    m_bankMode = state;
    note(QStringLiteral("bank mode %1 latency %2").arg(Gateway::SimulationState::modeName(state.mode)).arg(state.latencyMs));
    m_bank->setSimulation(kMerchant, state, this, [](bool, const Gateway::SimulationState &) {});
}

void World::startGateway(int i)
{
    GatewayNode &node = m_gateways[size_t(i)];
    if (node.up)
        return;
    Gateway::SqlGatewayStore::Options o;
    o.path = QStringLiteral("/gateway.db");
    o.sqliteVfs = m_gatewayDisk->name();
    o.threading = SqlBatchWorker::Options::Threading::CallerThread;
    o.minFreeBytes = 0;
    o.busyTimeoutMs = 50;
    node.store = std::make_unique<PausableStore>(std::make_unique<Gateway::SqlGatewayStore>(o));
    node.store->setLater([this](std::function<void()> then) {
        m_time->after(1, std::move(then));
    });
    node.store->setUnreachable(m_storeDownUntil > m_time->now());
    node.store->setLoseCommit([this, i] {
        return m_commitLostUntil.value(i) > m_time->now() && chance(0.3);
    });
    QString error;
    if (!node.store->open(&error)) {
        // A full disk may refuse even the opening; a crash must never leave it unreadable.
        note(QStringLiteral("gw%1 does not start: %2").arg(i).arg(error));
        node.store.reset();
        if (m_gatewayDisk->bytesUsed() >= 0 && !error.contains(QLatin1String("full"), Qt::CaseInsensitive) && m_healed)
            violation(QStringLiteral("gateway %1 cannot open its store after the world healed: %2").arg(i).arg(error));
        m_time->after(500, [this, i] {
            startGateway(i);
        });
        return;
    }
    node.metrics = std::make_unique<Gateway::Metrics>();
    node.tokens = std::make_unique<Gateway::TokenStore>();
    for (int t = 0; t < m_options.tills; ++t)
        node.tokens->add(QStringLiteral("sk_sim_till%1").arg(t), kMerchant, QStringLiteral("till-%1").arg(t));
    node.root = std::make_unique<QObject>();
    auto *link = new BankLink(this, i, node.root.get());
    Gateway::PaymentConfig config;
    config.leaseMs = kLeaseMs;
    config.acquirerTimeoutMs = kAcquirerTimeoutMs;
    config.recoveryIntervalMs = 1'000;
    // Wallet payments waiting for a customer who never confirms are given up within the run.
    config.walletConfirmTimeoutMs = 8'000;
    node.service = new Gateway::PaymentService(config, node.store.get(), link, node.metrics.get(), node.root.get());
    node.api = new Gateway::HttpApi({}, node.tokens.get(), node.service, nullptr, node.metrics.get(), node.root.get());
    node.service->start();
    node.up = true;
    note(QStringLiteral("gw%1 up").arg(i));
}

void World::killGateway(int i, const char *why)
{
    GatewayNode &node = m_gateways[size_t(i)];
    if (!node.up)
        return;
    note(QStringLiteral("gw%1 killed (%2)").arg(i).arg(QLatin1String(why)));
    node.up = false;
    node.service->stop();
    node.root.reset();   // its requests die with it: no answer leaves a dead process
    node.api = nullptr;
    node.service = nullptr;
    node.store.reset();
    node.tokens.reset();
    node.metrics.reset();
    node.stalledUntil = 0;
}

void World::stopGateway(int g, qint64 forMs)
{
    GatewayNode &node = m_gateways[size_t(g)];
    if (!node.up || !node.store || node.stalledUntil > m_time->now())
        return;
    node.stalledUntil = m_time->now() + forMs;
    node.store->pause();
    note(QStringLiteral("gw%1 stopped for %2 ms").arg(g).arg(forMs));
    m_time->schedule(node.stalledUntil, [this, g] {
        GatewayNode &n = m_gateways[size_t(g)];
        if (!n.up || !n.store || !n.store->isPaused())
            return;
        note(QStringLiteral("gw%1 goes on").arg(g));
        n.store->resume();
    });
}

void World::calledUnderLease(int gateway, const QString &key, bool refund)
{
    const GatewayNode &node = m_gateways[size_t(gateway)];
    const qint64 marked = node.store ? node.store->markedGeneration(key) : -1;
    QSqlQuery q(auditDb(QStringLiteral("sim-audit-gw"), *m_gatewayDisk, QStringLiteral("/gateway.db")));
    q.prepare(refund ? QStringLiteral("SELECT lease_generation, NULL FROM refunds WHERE merchant = ? AND idem_key = ?")
                     : QStringLiteral("SELECT lease_generation, cancel_reason FROM payments WHERE merchant = ? AND idem_key = ?"));
    q.addBindValue(kMerchant);
    q.addBindValue(key);
    if (!q.exec() || !q.next())
        return;   // not committed where this connection can see it yet
    // A cancel request takes a wallet payment over whatever its lease (API.md "Wallet payments"):
    // a holder that has just written acquirer_called cannot know, and its charge races the
    // cancel's reversal by the same key, which the bank settles (a charge after the reversal is
    // never made, one before it is reversed; the wallet invariant checks the outcome). Only a
    // takeover of a lapsed lease fences a holder that should have known.
    if (!q.value(1).toString().isEmpty())
        return;
    const qint64 now = q.value(0).toLongLong();
    if (now != marked)
        violation(QStringLiteral("gw%1 called the bank for %2 under lease generation %3, taken over (now %4)").arg(gateway).arg(key).arg(marked).arg(now));
}

void World::crashGatewayMachine()
{
    note(QStringLiteral("gateways' machine crashes"));
    for (int i = 0; i < int(m_gateways.size()); ++i)
        killGateway(i, "machine");
    // The world's own reader (calledUnderLease) is not the machine's: it reopens after the crash.
    if (QSqlDatabase::contains(QStringLiteral("sim-audit-gw")))
        QSqlDatabase::database(QStringLiteral("sim-audit-gw"), false).close();
    const int pending = m_gatewayDisk->crash(m_chaos.generate64());
    note(QStringLiteral("gateway disk: %1 unsynced changes decided").arg(pending));
}

void World::startTill(int i)
{
    TillNode &till = m_tills[size_t(i)];
    if (till.up)
        return;
    till.root = std::make_unique<QObject>();
    IntentJournal::Options jo;
    jo.path = QStringLiteral("/till.db");
    jo.sqliteVfs = till.disk->name();
    jo.threading = SqlBatchWorker::Options::Threading::CallerThread;
    till.journal = new IntentJournal(jo, till.root.get());
    till.sales = new SaleBook(till.journal, till.root.get());
    till.sales->setTillNumber(i + 1);
    TillError error;
    if (!till.journal->open(&error)) {
        till.root.reset();
        if (till.diskFull) {
            // A journal recovered after a crash may need to write before it opens: on a full
            // disk it cannot, which says nothing of the till. It starts once there is room.
            note(QStringLiteral("till%1's journal cannot open on its full disk: %2").arg(i).arg(error.text()));
            m_time->after(500, [this, i] {
                startTill(i);
            });
            return;
        }
        violation(QStringLiteral("till %1's journal does not open after a crash: %2").arg(i).arg(error.text()));
        return;
    }
    QList<QUrl> urls;
    for (int g = 0; g < int(m_gateways.size()); ++g)
        urls.append(QUrl(QStringLiteral("http://gw%1/").arg(g)));
    auto *transport = new SimTransport(this, i);
    till.transport = transport;
    auto *client = new GatewayClient(urls, QStringLiteral("sk_sim_till%1").arg(i), int(kClientTimeoutMs), transport, till.root.get());
    SyncEngine::Config config;
    config.backoffBaseMs = 100;
    config.backoffCapMs = 3'000;
    config.probeBaseMs = 100;
    config.probeCapMs = 2'000;
    config.seed = m_chaos.generate() | 1u;
    till.engine = new SyncEngine(till.journal, client, config, till.root.get());
    QObject::connect(till.engine, &SyncEngine::intentChanged, till.root.get(), [this, i](const Intent &intent) {
        note(QStringLiteral("till%1 %2 %3 %4").arg(i).arg(intent.key, intentStateName(intent.state), intent.gatewayStatus));
        const QString order = m_orderOfPart.value(intent.key);
        if (!intent.isRefund() && !order.isEmpty())
            cardPartChanged(order, intent);
        if (!intent.isRefund() && intent.state == IntentState::Succeeded && intent.givenUpAt == 0)
            maybeRefund(i, intent);
    });
    till.up = true;
    note(QStringLiteral("till%1 up").arg(i));
    till.engine->start(till.root.get(), [this, i](bool ok, const QString &error) {
        TillNode &till = m_tills[size_t(i)];
        if (!ok && (till.diskFull || error.contains(QLatin1String("full")))) {
            // Starting writes (interrupted sends become unknown): a full disk stops it, as it
            // would a real till, which says so. It starts again once there is room.
            note(QStringLiteral("till%1 cannot start on its full disk: %2").arg(i).arg(error));
            m_time->after(0, [this, i] {
                TillNode &till = m_tills[size_t(i)];
                if (!till.up || till.started)
                    return;
                till.up = false;
                till.root.reset();
                till.journal = nullptr;
                till.sales = nullptr;
                till.engine = nullptr;
                m_time->after(500, [this, i] {
                    startTill(i);
                });
            });
            return;
        }
        if (!ok)
            violation(QStringLiteral("till %1 does not start: %2").arg(i).arg(error));
        till.started = ok;
    });
}

void World::crashTill(int i)
{
    TillNode &till = m_tills[size_t(i)];
    if (!till.up)
        return;
    const int pending = till.disk->crash(m_chaos.generate64());
    note(QStringLiteral("till%1 machine crashes: %2 unsynced changes decided").arg(i).arg(pending));
    till.up = false;
    till.started = false;
    till.root.reset();
    till.journal = nullptr;
    till.sales = nullptr;
    till.engine = nullptr;
}

// ---- the workload ----

void World::schedulePayment(int till, qint64 at)
{
    m_time->schedule(at, [this, till] {
        pay(till);
    });
}

// A sale of the workload: its card part, or (a quarter of them) cash first and the card for the
// rest. What the cashier does next follows the card part (cardPartChanged).
void World::pay(int i)
{
    TillNode &till = m_tills[size_t(i)];
    if (till.paymentsLeft <= 0)
        return;
    if (!till.up || !till.started) {   // the cashier waits for the till to come back
        schedulePayment(i, m_time->now() + 200);
        return;
    }
    --till.paymentsLeft;
    const qint64 total = 100 + m_chaos.bounded(50'000);
    const bool split = chance(0.25);
    till.sales->open(Money(total, QStringLiteral("CNY")), QJsonArray(), till.root.get(), [this, i, total, split](bool ok, const TillError &error, const Sale &sale) {
        if (!ok) {
            note(QStringLiteral("till%1 cannot open a sale: %2").arg(i).arg(error.text()));
            return;
        }
        ++m_report.counts[QStringLiteral("sales")];
        m_sales[sale.orderId] = SimSale{i, total, 0, {}, false, false, m_time->now(), {}};
        const QString order = sale.orderId;
        m_time->after(1'000, [this, order] {
            followUp(order);
        });
        note(QStringLiteral("till%1 sale %2 total %3%4").arg(i).arg(sale.orderId).arg(total).arg(split ? QStringLiteral(" split") : QString()));
        if (split) {
            const qint64 cash = qMax<qint64>(1, total / 3);
            payCash(sale.orderId, cash);
            payCard(sale.orderId, total - cash);
        } else {
            payCard(sale.orderId, total);
        }
    });
    if (till.paymentsLeft > 0)
        schedulePayment(i, m_time->now() + 50 + m_chaos.bounded(500));
}

void World::payCard(const QString &order, qint64 amount)
{
    SimSale &sale = m_sales[order];
    TillNode &till = m_tills[size_t(sale.till)];
    if (!till.up || !till.engine || amount <= 0)
        return;
    sale.askedAt = m_time->now();
    static const char *tokens[] = {"tok_visa", "tok_visa", "tok_mastercard", "tok_unionpay", "tok_visa",
        "tok_chargeDeclined", "tok_insufficientFunds", "tok_timeoutAfterCharge"};
    QString token = QLatin1String(tokens[pick(int(std::size(tokens)))]);
    if (chance(0.3)) {
        // The customer's wallet (issue 26): a new one-time code of either brand, its last digit
        // the demo bank's outcome (approved, confirmed on the phone later, never confirmed, no
        // funds, expired); now and then a code scanned before, which the bank says has expired.
        static const char *prefixes[] = {"10", "13", "15", "25", "28", "30"};
        QString code = QLatin1String(prefixes[pick(int(std::size(prefixes)))]);
        for (int d = 0; d < 15; ++d)
            code += QChar(u'0' + pick(10));
        code += QChar(u'0' + pick(5));
        if (!m_walletCodes.isEmpty() && chance(0.05))
            code = m_walletCodes.at(pick(int(m_walletCodes.size())));
        m_walletCodes.append(code);
        token = QStringLiteral("wallet:") + code;
        ++m_report.counts[QStringLiteral("wallet payments")];
    }
    ++sale.partsAsked;
    till.engine->pay(order, Money(amount, QStringLiteral("CNY")), token, till.root.get(),
        [this, order](bool ok, const TillError &error, const Intent &intent) {
            SimSale &sale = m_sales[order];
            if (!ok) {
                ++sale.partsRefused;
                note(QStringLiteral("till%1 refused a card part of %2: %3").arg(sale.till).arg(order, error.text()));
                return;
            }
            m_orderOfPart.insert(intent.key, order);
            sale.openCard = intent.key;
            note(QStringLiteral("till%1 stored card part %2 of %3").arg(sale.till).arg(intent.key, order));
        });
}

void World::payCash(const QString &order, qint64 amount)
{
    SimSale &sale = m_sales[order];
    TillNode &till = m_tills[size_t(sale.till)];
    if (!till.up || !till.engine || amount <= 0)
        return;
    sale.askedAt = m_time->now();
    ++sale.partsAsked;
    till.engine->recordCash(order, Money(amount, QStringLiteral("CNY")), till.root.get(),
        [this, order, amount](bool ok, const TillError &error, const Intent &) {
            SimSale &sale = m_sales[order];
            if (ok)
                sale.cashTaken += amount;
            else
                ++sale.partsRefused;
            note(QStringLiteral("till%1 cash %2 for %3: %4").arg(sale.till).arg(amount).arg(order, ok ? QStringLiteral("taken") : error.text()));
        });
}

// The cashier follows the card part: another card or cash after a decline, sometimes the sale
// cancelled; and, now and then, no patience with a part that stays unknown or processing: a new
// card tried at once (which the till must refuse), then the part given up and cash taken.
void World::cardPartChanged(const QString &order, const Intent &part)
{
    SimSale &sale = m_sales[order];
    if (sale.settled || sale.cancelled || part.key != sale.openCard)
        return;
    const qint64 remaining = sale.total - sale.cashTaken;
    switch (part.state) {
    case IntentState::Succeeded:
        return;   // paid: followUp() reads it so
    case IntentState::Declined:
        sale.openCard.clear();
        if (chance(0.1)) {
            cancel(order);
        } else if (chance(0.7)) {
            payCard(order, remaining);
        } else {
            payCash(order, remaining);
        }
        return;
    case IntentState::Unknown:
    case IntentState::Processing:
        if (!sale.impatient.contains(part.key) && chance(0.3)) {
            sale.impatient.insert(part.key);
            const QString key = part.key;
            m_time->after(300 + m_chaos.bounded(3'000), [this, order, key] {
                losePatience(order, key);
            });
        }
        return;
    default:
        return;
    }
}

// The cashier looks at the sale as the till shows it (SalePosition) until it is paid or
// cancelled: with nothing paying for what remains (a tender lost in a crash, a part given up), a
// card again.
void World::followUp(const QString &order)
{
    SimSale &simSale = m_sales[order];
    TillNode &till = m_tills[size_t(simSale.till)];
    if (simSale.settled)
        return;
    m_time->after(1'000, [this, order] {
        followUp(order);
    });
    if (!till.up || !till.started || !till.sales)
        return;
    if (!simSale.openCard.isEmpty() && till.engine->activeIntent(simSale.openCard))
        return;   // its card part is still on its way: nothing to look at yet
    till.sales->find(order, till.root.get(), [this, order](bool ok, const TillError &, const Sale &sale) {
        SimSale &simSale = m_sales[order];
        if (!ok || !sale.isValid())
            return;
        if (sale.state == SaleState::Paid || sale.state == SaleState::Cancelled) {
            simSale.settled = true;
            return;
        }
        if (simSale.cancelled && m_time->now() - simSale.askedAt > 1'500) {
            cancel(order);   // asked before the till went down: asked again
            return;
        }
        const SalePosition position = positionOf(sale);
        if (!simSale.cancelled && position.waiting == 0 && position.openCardKey.isEmpty()
            && m_time->now() - simSale.askedAt > 1'500 && position.remaining > 0) {
            note(QStringLiteral("till%1 follows up %2: %3 to pay").arg(simSale.till).arg(order).arg(position.remaining));
            simSale.cashTaken = sale.total.minorUnits() - position.remaining;
            payCard(order, position.remaining);
        }
    });
}

void World::cancel(const QString &order)
{
    SimSale &sale = m_sales[order];
    TillNode &till = m_tills[size_t(sale.till)];
    if (!till.up || !till.engine)
        return;
    sale.cancelled = true;
    sale.askedAt = m_time->now();
    note(QStringLiteral("till%1 cancels %2").arg(sale.till).arg(order));
    till.engine->cancelSale(order, till.root.get(), [this, order](bool ok, const TillError &error, const QList<Intent> &) {
        note(QStringLiteral("cancel %1: %2").arg(order, ok ? QStringLiteral("done") : error.text()));
        if (!ok)
            m_sales[order].cancelled = false;
    });
}

void World::losePatience(const QString &order, const QString &key)
{
    SimSale &sale = m_sales[order];
    TillNode &till = m_tills[size_t(sale.till)];
    if (sale.settled || sale.openCard != key || !till.up || !till.engine || !till.engine->activeIntent(key))
        return;
    note(QStringLiteral("till%1 loses patience with %2 of %3").arg(sale.till).arg(key, order));
    // The customer offers a second card while the first may still be charged: the till must
    // refuse it (DESIGN.md). Were it taken, the cashier would let the first one be.
    sale.askedAt = m_time->now();
    till.engine->pay(order, Money(sale.total - sale.cashTaken, QStringLiteral("CNY")), QStringLiteral("tok_visa"), till.root.get(),
        [this, order, key](bool ok, const TillError &error, const Intent &second) {
            SimSale &sale = m_sales[order];
            if (ok) {
                note(QStringLiteral("till%1 took a second card %2 for %3 while %4 is open").arg(sale.till).arg(second.key, order, key));
                m_orderOfPart.insert(second.key, order);
                sale.openCard = second.key;
                return;
            }
            note(QStringLiteral("till%1 refused a second card for %2: %3").arg(sale.till).arg(order, error.text()));
            giveUpAndTakeCash(order, key);
        });
}

void World::giveUpAndTakeCash(const QString &order, const QString &key)
{
    SimSale &sale = m_sales[order];
    TillNode &till = m_tills[size_t(sale.till)];
    if (sale.settled || !till.up || !till.engine)
        return;
    ++m_report.counts[QStringLiteral("given up")];
    till.engine->giveUp(key, till.root.get(), [this, order, key](bool ok, const TillError &error, const Intent &part) {
        SimSale &sale = m_sales[order];
        note(QStringLiteral("till%1 gives up %2: %3").arg(sale.till).arg(key, ok ? QStringLiteral("done") : error.text()));
        if (!ok || sale.settled)
            return;
        TillNode &till = m_tills[size_t(sale.till)];
        if (part.isWallet() && part.state != IntentState::Voided && till.up && till.engine) {
            // "Customer gave up": the wallet payment is cancelled at the bank as well, once.
            ++m_report.counts[QStringLiteral("wallet cancels")];
            till.engine->cancelWallet(part, till.root.get(), [this, key](const GatewayResult &r) {
                note(QStringLiteral("cancel of %1: %2").arg(key, r.summary()));
            });
        }
        if (sale.openCard == key)
            sale.openCard.clear();
        payCash(order, sale.total - sale.cashTaken);
    });
}

void World::maybeRefund(int i, const Intent &payment)
{
    if (!chance(0.2) || m_healed)
        return;
    const bool partial = chance(0.5);
    const QString key = payment.key;
    const qint64 amount = payment.amount.minorUnits();
    m_time->after(50 + m_chaos.bounded(2'000), [this, i, key, partial, amount] {
        TillNode &till = m_tills[size_t(i)];
        if (!till.up)
            return;
        ++m_report.counts[QStringLiteral("refunds asked")];
        std::optional<Money> part;
        if (partial)
            part = Money(qMax<qint64>(1, amount / 2), QStringLiteral("CNY"));
        till.engine->refund(key, part, QStringLiteral("sim"), till.root.get(), [this, i, key](bool ok, const TillError &error, const Intent &refund) {
            if (ok) {
                m_refundKeys.insert(refund.key);
                note(QStringLiteral("till%1 stored refund %2 of %3").arg(i).arg(refund.key, key));
            } else {
                note(QStringLiteral("till%1 refused refund of %2: %3").arg(i).arg(key, error.text()));
            }
        });
    });
}

// ---- faults ----

void World::scheduleChaos(qint64 at)
{
    m_time->schedule(at, [this] {
        if (m_healed)
            return;
        chaos();
        scheduleChaos(m_time->now() + 100 + m_chaos.bounded(1'500));
    });
}

void World::chaos()
{
    QStringList kinds;
    for (const QString &k : allFaultKinds()) {
        if (m_options.faults.contains(k) && k != QLatin1String("network"))
            kinds.append(k);
    }
    if (kinds.isEmpty())
        return;
    const QString kind = kinds.at(pick(int(kinds.size())));
    ++m_report.counts[QStringLiteral("fault ") + kind];
    const qint64 lasting = 50 + m_chaos.bounded(4'000);
    const int g = pick(int(m_gateways.size()));
    const int t = pick(int(m_tills.size()));
    if (kind == QLatin1String("partition")) {
        if (chance(0.5)) {
            m_tillCut.insert(qMakePair(t, g), m_time->now() + lasting);
            note(QStringLiteral("partition till%1|gw%2 for %3 ms").arg(t).arg(g).arg(lasting));
        } else {
            m_bankCut.insert(g, m_time->now() + lasting);
            note(QStringLiteral("partition gw%1|bank for %2 ms").arg(g).arg(lasting));
        }
    } else if (kind == QLatin1String("gateway-kill")) {
        killGateway(g, "kill -9");
        m_time->after(lasting, [this, g] {
            startGateway(g);
        });
    } else if (kind == QLatin1String("gateway-crash")) {
        crashGatewayMachine();
        m_time->after(lasting, [this] {
            for (int i = 0; i < int(m_gateways.size()); ++i)
                startGateway(i);
        });
    } else if (kind == QLatin1String("till-crash")) {
        crashTill(t);
        m_time->after(lasting, [this, t] {
            startTill(t);
        });
    } else if (kind == QLatin1String("stall")) {
        // The instance stops (SIGSTOP) past its lease, wherever it is, and goes on later.
        stopGateway(g, kLeaseMs + lasting);
    } else if (kind == QLatin1String("stop-before-call")) {
        // The instance stops past its lease just as it has recorded acquirer_called, before its
        // call leaves (issue 35, promise 8): the next such moment of gateway g.
        GatewayNode &node = m_gateways[size_t(g)];
        if (node.up && node.store && !node.store->stopBeforeCallArmed()) {
            note(QStringLiteral("gw%1 will stop before its next acquirer call").arg(g));
            node.store->armStopBeforeCall([this, g, lasting] {
                note(QStringLiteral("gw%1 stops before its acquirer call").arg(g));
                stopGateway(g, kLeaseMs + lasting);
            });
        }
    } else if (kind == QLatin1String("store-down")) {
        // The database is down (or locked past the busy timeout) for every instance: nothing runs,
        // nothing can be read (issue 35, promise 7).
        m_storeDownUntil = qMax(m_storeDownUntil, m_time->now() + lasting);
        note(QStringLiteral("gateway store unreachable for %1 ms").arg(lasting));
        for (GatewayNode &node : m_gateways) {
            if (node.store)
                node.store->setUnreachable(true);
        }
        m_time->after(lasting, [this] {
            if (m_storeDownUntil > m_time->now())
                return;   // a later outage goes on
            note(QStringLiteral("gateway store reachable again"));
            for (GatewayNode &node : m_gateways) {
                if (node.store)
                    node.store->setUnreachable(false);
            }
        });
    } else if (kind == QLatin1String("commit-lost")) {
        // Some of gateway g's commits happen but their answers are lost (PostgreSQL's connection
        // dropped during COMMIT): every kind of step, claims included (issue 35, promises 7, 10).
        m_commitLostUntil[g] = m_time->now() + lasting;
        note(QStringLiteral("gw%1 loses commit answers for %2 ms").arg(g).arg(lasting));
    } else if (kind == QLatin1String("bank")) {
        Gateway::SimulationState state;
        static const Gateway::SimulationState::Mode modes[] = {Gateway::SimulationState::Mode::TimeoutAfterCharge,
            Gateway::SimulationState::Mode::ErrorBeforeCharge, Gateway::SimulationState::Mode::DeclineAll,
            Gateway::SimulationState::Mode::Normal};
        state.mode = modes[pick(4)];
        state.latencyMs = chance(0.3) ? int(m_chaos.bounded(1'500)) : 0;
        setBankMode(state);
        m_time->after(lasting, [this] {
            setBankMode({});
        });
    } else if (kind == QLatin1String("clock")) {
        const qint64 jump = (chance(0.5) ? -1 : 1) * (1'000 + m_chaos.bounded(600'000));
        m_time->jumpWallClock(jump);
        note(QStringLiteral("wall clock jumps %1 ms").arg(jump));
    } else if (kind == QLatin1String("till-disk-full")) {
        TillNode &till = m_tills[size_t(t)];
        till.diskFull = true;
        till.disk->setCapacity(till.disk->bytesUsed() + m_chaos.bounded(48 * 1024));
        note(QStringLiteral("till%1 disk full for %2 ms").arg(t).arg(lasting));
        m_time->after(lasting, [this, t] {
            TillNode &till = m_tills[size_t(t)];
            till.diskFull = false;
            till.disk->setCapacity(0);
            note(QStringLiteral("till%1 disk has room again").arg(t));
        });
    } else if (kind == QLatin1String("disk-full")) {
        m_gatewayDisk->setCapacity(m_gatewayDisk->bytesUsed() + m_chaos.bounded(16 * 1024));
        note(QStringLiteral("gateway disk full for %1 ms").arg(lasting));
        m_time->after(lasting, [this] {
            m_gatewayDisk->setCapacity(0);
            note(QStringLiteral("gateway disk has room again"));
        });
    }
}

void World::heal()
{
    m_healed = true;
    note(QStringLiteral("the world heals"));
    m_tillCut.clear();
    m_bankCut.clear();
    m_gatewayDisk->setCapacity(0);
    for (TillNode &till : m_tills) {
        till.diskFull = false;
        till.disk->setCapacity(0);
    }
    setBankMode({});
    m_storeDownUntil = 0;
    m_commitLostUntil.clear();
    for (int i = 0; i < int(m_gateways.size()); ++i) {
        GatewayNode &node = m_gateways[size_t(i)];
        node.stalledUntil = 0;
        if (node.store) {
            node.store->setUnreachable(false);
            node.store->armStopBeforeCall({});
        }
        startGateway(i);
    }
    for (int i = 0; i < int(m_tills.size()); ++i)
        startTill(i);
    m_dropRequest = m_dropAnswer = m_duplicate = 0;
}

// Every till idle (nothing waiting, no refund being made), or only payments the gateway holds
// for review left (API.md promise 11).
bool World::quiet()
{
    // Asked between every two events; looked at once per 100 virtual ms (it reads the store).
    if (m_time->now() < m_quietLookedAt + 100)
        return false;
    m_quietLookedAt = m_time->now();
    for (const auto &[order, sale] : m_sales) {
        if (!sale.settled)
            return false;
    }
    for (const TillNode &till : m_tills) {
        if (!till.up || !till.started || till.paymentsLeft > 0 || !till.engine)
            return false;
        if (till.engine->isMakingRefunds())
            return false;
        if (till.engine->waitingCount() > 0) {
            QSqlDatabase db = QSqlDatabase::database(QStringLiteral("sim-audit-gw"));
            for (const Intent &intent : till.engine->activeIntents()) {
                QSqlQuery q(db);
                q.prepare(QStringLiteral("SELECT needs_review FROM payments WHERE merchant = ? AND idem_key = ?"
                                         " UNION ALL SELECT needs_review FROM refunds WHERE merchant = ? AND idem_key = ?"));
                q.addBindValue(kMerchant);
                q.addBindValue(intent.key);
                q.addBindValue(kMerchant);
                q.addBindValue(intent.key);
                if (!q.exec() || !q.next() || q.value(0).toInt() == 0)
                    return false;
            }
        }
    }
    return true;
}

QSqlDatabase World::auditDb(const QString &name, CrashVfs &disk, const QString &path)
{
    QSqlDatabase db = QSqlDatabase::contains(name) ? QSqlDatabase::database(name, false)
                                                   : QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    if (!db.isOpen()) {
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_URI;QSQLITE_OPEN_READONLY"));
        db.setDatabaseName(disk.uri(path));
        if (!db.open())
            violation(QStringLiteral("%1 cannot be read: %2").arg(path, db.lastError().text()));
    }
    return db;
}

// ---- the invariants after the world healed ----

void World::audit()
{
    using Row = AuditRow;
    auto rows = [this](QSqlDatabase db, const QString &sql, bool multi) {
        QHash<QString, std::vector<Row>> out;
        QSqlQuery q(db);
        if (!q.exec(sql)) {
            violation(QStringLiteral("audit query failed: %1").arg(q.lastError().text()));
            return out;
        }
        while (q.next()) {
            Row r{q.value(1).toString(), q.value(2).toString(), q.value(3).toLongLong(), q.value(4).toInt() != 0,
                q.value(5).toString()};
            auto &list = out[q.value(0).toString()];
            if (!multi && !list.empty())
                violation(QStringLiteral("two records of key %1").arg(q.value(0).toString()));
            list.push_back(r);
        }
        return out;
    };
    using Rows = AuditRows;
    // A payment's status once captured: refunds change the word, not the capture.
    auto isCaptured = [](const QString &status) {
        return status == QLatin1String("succeeded") || status == QLatin1String("partially_refunded")
            || status == QLatin1String("refunded");
    };
    auto firstOf = [](const Rows &rows, const QString &key) -> const Row * {
        const auto it = rows.constFind(key);
        return it == rows.cend() || it->empty() ? nullptr : &it->front();
    };
    QSqlDatabase gw = auditDb(QStringLiteral("sim-audit-gw"), *m_gatewayDisk, QStringLiteral("/gateway.db"));
    QSqlDatabase bank = auditDb(QStringLiteral("sim-audit-bank"), *m_bankDisk, QStringLiteral("/bank.db"));
    const auto gwPayments = rows(gw, QStringLiteral("SELECT idem_key, id, status, amount, needs_review, '' FROM payments"), false);
    const auto gwRefunds = rows(gw, QStringLiteral("SELECT idem_key, id, status, amount, needs_review, payment_id FROM refunds"), false);
    const auto charges = rows(bank, QStringLiteral("SELECT idem_key, '', status, amount, 0, '' FROM charges"), true);
    const auto bankRefunds = rows(bank, QStringLiteral("SELECT idem_key, '', status, amount, 0, charge_key FROM refunds"), true);

    // At most one charge per payment key and one refund per refund key at the bank; refunds
    // never above what was captured.
    QHash<QString, qint64> refundedOf;
    for (auto it = bankRefunds.cbegin(); it != bankRefunds.cend(); ++it) {
        if (it->size() > 1)
            violation(QStringLiteral("the bank refunded key %1 %2 times").arg(it.key()).arg(it->size()));
        for (const Row &r : *it) {
            if (r.status == QLatin1String("succeeded"))
                refundedOf[r.chargeKey] += r.amount;
        }
    }
    for (auto it = charges.cbegin(); it != charges.cend(); ++it) {
        if (it->size() > 1)
            violation(QStringLiteral("the bank charged key %1 %2 times").arg(it.key()).arg(it->size()));
        const Row &c = it->front();
        // Money back never above the charge: its refunds, plus all of it when it was reversed
        // (issue 35: charge 1000, refund 600, reversal gave back 1600).
        const bool reversed = c.status == QLatin1String("reversed");
        const qint64 charged = c.status == QLatin1String("succeeded") || reversed ? c.amount : 0;
        const qint64 back = refundedOf.value(it.key()) + (reversed ? c.amount : 0);
        if (back > charged) {
            violation(QStringLiteral("key %1: %2 went back (refunds %3%4) of %5 charged")
                          .arg(it.key())
                          .arg(back)
                          .arg(refundedOf.value(it.key()))
                          .arg(reversed ? QStringLiteral(", a reversal") : QString())
                          .arg(charged));
        }
    }
    for (auto it = refundedOf.cbegin(); it != refundedOf.cend(); ++it) {
        if (!charges.contains(it.key()))
            violation(QStringLiteral("the bank refunded a charge it never made: %1").arg(it.key()));
    }

    // Till, gateway and bank agree on every payment and refund; every till intent final except
    // those held for review.
    QSet<QString> tillSucceeded;
    int needsReview = 0;
    for (int i = 0; i < int(m_tills.size()); ++i) {
        TillNode &till = m_tills[size_t(i)];
        QList<Intent> intents;
        bool listed = false;
        IntentJournal::Query all;
        all.limit = 1'000'000;
        till.journal->list(all, till.root.get(), [&](bool ok, const TillError &, const QList<Intent> &list) {
            listed = ok;
            intents = list;
        });
        waitFor([&] {
            return listed;
        });
        if (!listed) {
            violation(QStringLiteral("till %1's journal cannot be listed").arg(i));
            continue;
        }
        for (const Intent &intent : intents) {
            if (!intent.isRefund())
                ++m_report.counts[QStringLiteral("payments")];
            if (intent.isCash()) {
                if (!intent.isRefund())
                    ++m_report.counts[QStringLiteral("cash payments")];
                continue;
            }
            const auto &gwRows = intent.isRefund() ? gwRefunds : gwPayments;
            const auto &bankRows = intent.isRefund() ? bankRefunds : charges;
            const Row *g = firstOf(gwRows, intent.key);
            const Row *b = firstOf(bankRows, intent.key);
            const QString what = QStringLiteral("till %1 %2 %3").arg(i).arg(intent.isRefund() ? QStringLiteral("refund") : QStringLiteral("payment"), intent.key);
            ++m_report.counts[intent.isRefund() ? QStringLiteral("refunds") : QStringLiteral("card payments")];
            if (g && g->review) {
                ++needsReview;
                continue;
            }
            switch (intent.state) {
            case IntentState::Succeeded:
                ++m_report.counts[intent.isRefund() ? QStringLiteral("refunds succeeded") : QStringLiteral("succeeded")];
                if (!intent.isRefund())
                    tillSucceeded.insert(intent.key);
                if (!b || b->status != QLatin1String("succeeded") || b->amount != intent.amount.minorUnits())
                    violation(what + QStringLiteral(": the till says succeeded, the bank %1").arg(b ? b->status : QStringLiteral("has nothing")));
                if (!g || !isCaptured(g->status))
                    violation(what + QStringLiteral(": the till says succeeded, the gateway %1").arg(g ? g->status : QStringLiteral("has nothing")));
                break;
            case IntentState::Declined:
                ++m_report.counts[intent.isRefund() ? QStringLiteral("refunds failed") : QStringLiteral("declined")];
                if (b && b->status == QLatin1String("succeeded"))
                    violation(what + QStringLiteral(": the till says declined, the bank moved the money"));
                if (g && isCaptured(g->status))
                    violation(what + QStringLiteral(": the till says declined, the gateway succeeded"));
                break;
            case IntentState::Voided:
                if (b && b->status == QLatin1String("succeeded"))
                    violation(what + QStringLiteral(": voided on the till, the bank moved the money"));
                break;
            default:
                violation(what + QStringLiteral(" is %1 after the world healed (%2)").arg(intentStateName(intent.state), intent.lastProblem));
                break;
            }
        }
    }
    m_report.counts[QStringLiteral("needs review")] = needsReview;
    // Each wallet payment (issue 26): charged once and kept, or not charged / reversed. Nothing
    // waits for a customer after the world healed: the gateway gave up what was never confirmed.
    {
        QSqlQuery q(gw);
        if (!q.exec(QStringLiteral("SELECT idem_key, status, IFNULL(cancel_reason, ''), needs_review FROM payments"
                                   " WHERE payment_method LIKE 'wallet:%'")))
            violation(QStringLiteral("audit query failed: %1").arg(q.lastError().text()));
        while (q.next()) {
            const QString key = q.value(0).toString();
            const QString status = q.value(1).toString();
            const QString reason = q.value(2).toString();
            if (q.value(3).toInt() != 0)
                continue;   // a person settles it
            const Row *b = firstOf(charges, key);
            const QString bank = b ? b->status : QStringLiteral("nothing");
            ++m_report.counts[QStringLiteral("wallet ") + status + (reason.isEmpty() ? QString() : QLatin1Char(' ') + reason)];
            if (isCaptured(status) && bank != QLatin1String("succeeded"))
                violation(QStringLiteral("wallet payment %1 is %2 at the gateway, the bank has %3").arg(key, status, bank));
            if (status == QLatin1String("declined") && (bank == QLatin1String("succeeded") || bank == QLatin1String("processing")))
                violation(QStringLiteral("wallet payment %1 is declined (%2) at the gateway, the bank has it %3").arg(key, reason, bank));
            if (status == QLatin1String("processing"))
                violation(QStringLiteral("wallet payment %1 still waits for its customer after the world healed").arg(key));
            if (!reason.isEmpty() && isCaptured(status))
                violation(QStringLiteral("wallet payment %1 was given up (%2) and kept").arg(key, reason));
        }
    }
    for (auto it = charges.cbegin(); it != charges.cend(); ++it) {
        const Row &c = it->front();
        const Row *payment = firstOf(gwPayments, it.key());
        const bool review = payment && payment->review;
        if (c.status == QLatin1String("succeeded") && !tillSucceeded.contains(it.key()) && !review)
            violation(QStringLiteral("the bank charged %1, which no till shows as paid").arg(it.key()));
    }

    // Every 201/402 still readable afterwards and unchanged.
    for (auto it = m_settled.cbegin(); it != m_settled.cend(); ++it) {
        const bool refund = m_refundKeys.contains(it.key()) || gwRefunds.contains(it.key());
        const auto &gwRows = refund ? gwRefunds : gwPayments;
        const Row *stored = firstOf(gwRows, it.key());
        if (!stored) {
            violation(QStringLiteral("%1 was answered %2 and is gone").arg(it.key()).arg(it->status));
            continue;
        }
        // The same payment or refund, the same amount, the same outcome (a payment's status word
        // moves on to partially_refunded / refunded with its refunds: still captured).
        const Row &g = *stored;
        const bool sameOutcome = g.status == it->state || (it->state == QLatin1String("succeeded") && isCaptured(g.status));
        if (g.id != it->id || !sameOutcome || g.amount != it->amount)
            violation(QStringLiteral("%1 was answered %2 %3 %4, the gateway now holds %5 %6 %7")
                          .arg(it.key())
                          .arg(it->status)
                          .arg(it->state, it->id, g.status, g.id)
                          .arg(g.amount));
    }

    auditSales(charges, bankRefunds, gwPayments);

    // A 502/503 is never followed by money moving unless the key is sent again (promise 10).
    for (auto it = m_nothing.cbegin(); it != m_nothing.cend(); ++it) {
        const auto calls = m_bankCalls.value(it.key());
        const BankCall *moved = nullptr;
        for (const BankCall &c : calls) {
            if (c.outcome == AcquirerAnswer::Kind::Approved || c.outcome == AcquirerAnswer::Kind::AnswerLost) {
                moved = &c;
                break;
            }
        }
        const Row *moneyRow = charges.contains(it.key()) ? firstOf(charges, it.key()) : firstOf(bankRefunds, it.key());
        const bool money = moneyRow && moneyRow->status == QLatin1String("succeeded");
        if (!moved || !money)
            continue;
        // The 502/503 answered the request delivered at n.at. The call that moved the money must
        // come from a request with the key delivered after it: a call sent before it means the
        // gateway held a record that could move money when it said nothing would (promise 10).
        for (const NothingHappened &n : *it) {
            if (moved->forwardedAt < n.at) {
                violation(QStringLiteral("%1: answered %2 while a call that moved the money was out").arg(it.key()).arg(n.status));
                continue;
            }
            bool sentAgain = false;
            for (quint64 d : m_deliveries.value(it.key()))
                sentAgain = sentAgain || (d > n.at && d < moved->forwardedAt);
            if (!sentAgain)
                violation(QStringLiteral("%1: money moved after a %2 with no new request with the key").arg(it.key()).arg(n.status));
        }
    }

    // The same for a cancel (issue 35): a cancel answered 503 must not be the one that gives the
    // payment up. Its reason ("cancelled", written only by a cancel request) recorded, and a
    // reversal sent after the 503 with no new request with the cancel's key in between, means
    // the gateway held the cancel's record when it said nothing was recorded.
    for (auto it = m_cancelOf.cbegin(); it != m_cancelOf.cend(); ++it) {
        const auto nothing = m_nothing.constFind(it.key());
        if (nothing == m_nothing.cend())
            continue;
        QSqlQuery q(gw);
        q.prepare(QStringLiteral("SELECT idem_key, cancel_reason FROM payments WHERE id = ?"));
        q.addBindValue(it.value());
        if (!q.exec() || !q.next() || q.value(1).toString() != QLatin1String("cancelled"))
            continue;
        const std::vector<quint64> reversals = m_reversals.value(q.value(0).toString());
        for (const NothingHappened &n : *nothing) {
            const auto reversal = std::find_if(reversals.cbegin(), reversals.cend(), [&n](quint64 at) {
                return at > n.at;
            });
            if (reversal == reversals.cend())
                continue;
            bool sentAgain = false;
            for (quint64 d : m_deliveries.value(it.key()))
                sentAgain = sentAgain || (d > n.at && d < *reversal);
            if (!sentAgain)
                violation(QStringLiteral("cancel %1: answered %2, then the payment was given up with no new request with the key").arg(it.key()).arg(n.status));
        }
    }
}

// DESIGN.md's sale invariant: for every sale, card charged - card refunded + cash taken - cash
// handed back = total - what the cashier refunded to the customer afterwards (paid), or 0
// (cancelled). Card money is the bank's word; cash is the till's.
void World::auditSales(const AuditRows &charges, const AuditRows &bankRefunds, const AuditRows &gwPayments)
{
    QHash<QString, qint64> refundedOf;   // charge key -> refunded by the bank
    for (auto it = bankRefunds.cbegin(); it != bankRefunds.cend(); ++it) {
        for (const AuditRow &r : *it) {
            if (r.status == QLatin1String("succeeded"))
                refundedOf[r.chargeKey] += r.amount;
        }
    }
    for (const auto &[order, simSale] : m_sales) {
        TillNode &till = m_tills[size_t(simSale.till)];
        std::optional<Sale> found;
        bool answered = false;
        till.sales->find(order, till.root.get(), [&](bool ok, const TillError &, const Sale &sale) {
            answered = true;
            if (ok && sale.isValid())
                found = sale;
        });
        waitFor([&] {
            return answered;
        });
        if (!found) {
            violation(QStringLiteral("sale %1 is not in its till's journal").arg(order));
            continue;
        }
        // The till never holds a payment it answered was not stored (a COMMIT on a full disk
        // that came back when the WAL was recovered after a crash): the cashier took the money
        // another way, and the till would send it.
        const auto payments = std::count_if(found->intents.cbegin(), found->intents.cend(), [](const Intent &i) {
            return !i.isRefund();
        });
        if (payments > simSale.partsAsked - simSale.partsRefused) {
            violation(QStringLiteral("sale %1: the till holds %2 payments; it was asked for %3 and answered %4 of them were not stored")
                          .arg(order)
                          .arg(payments)
                          .arg(simSale.partsAsked)
                          .arg(simSale.partsRefused));
        }
        qint64 charged = 0, refunded = 0, cash = 0, handedBack = 0, refundedAfterwards = 0;
        bool review = false;
        for (const Intent &i : found->intents) {
            if (!i.isRefund() && !i.isCash()) {
                const auto c = charges.constFind(i.key);
                if (c != charges.cend() && !c->empty() && c->front().status == QLatin1String("succeeded"))
                    charged += c->front().amount;
                refunded += refundedOf.value(i.key);
                const auto g = gwPayments.constFind(i.key);
                review = review || (g != gwPayments.cend() && !g->empty() && g->front().review);
            } else if (!i.isRefund() && i.state == IntentState::Succeeded) {
                cash += i.amount.minorUnits();
            } else if (i.isRefund() && i.isCash() && i.state == IntentState::Succeeded) {
                handedBack += i.amount.minorUnits();
            } else if (i.isRefund() && !isAutoRefundKey(i.key) && i.state == IntentState::Succeeded) {
                refundedAfterwards += i.amount.minorUnits();
            }
        }
        if (review)
            continue;
        // The bank declined the refund the till made by itself (it may: the charge's card was
        // closed): the customer paid twice, and the till must say so to the cashier.
        bool owed = false;
        QHash<QString, int> ownRefundsOf;   // part key -> refunds the till made of it by itself
        for (const Intent &i : found->intents) {
            if (i.isRefund() && !i.isCash() && isAutoRefundKey(i.key) && ++ownRefundsOf[i.paymentKey] == 2)
                violation(QStringLiteral("sale %1: the till made its own refund of %2 twice").arg(order, i.paymentKey));
            // Only the bank's own refusal ("refund_declined"); "amount_exceeds_charge" would be
            // the till asking twice.
            if (i.isRefund() && isAutoRefundKey(i.key) && i.state == IntentState::Declined
                && i.declineCode == QLatin1String("refund_declined")) {
                owed = true;
                if (!needsCashierAttention(i))
                    violation(QStringLiteral("sale %1: the bank declined the till's own refund %2 and the cashier is not told").arg(order, i.key));
            }
        }
        if (owed) {
            ++m_report.counts[QStringLiteral("refunds the bank declined, told")];
            continue;
        }
        const qint64 kept = charged - refunded + cash - handedBack;
        const qint64 total = found->total.minorUnits();
        if (found->state == SaleState::Paid) {
            ++m_report.counts[QStringLiteral("sales paid")];
            if (kept != total - refundedAfterwards)
                violation(QStringLiteral("sale %1 paid: %2 kept (card %3 - refunded %4 + cash %5 - handed back %6), total %7 - refunded afterwards %8")
                              .arg(order)
                              .arg(kept)
                              .arg(charged)
                              .arg(refunded)
                              .arg(cash)
                              .arg(handedBack)
                              .arg(total)
                              .arg(refundedAfterwards));
        } else if (found->state == SaleState::Cancelled) {
            ++m_report.counts[QStringLiteral("sales cancelled")];
            if (kept != 0)
                violation(QStringLiteral("sale %1 cancelled: %2 kept (card %3 - refunded %4 + cash %5 - handed back %6)")
                              .arg(order)
                              .arg(kept)
                              .arg(charged)
                              .arg(refunded)
                              .arg(cash)
                              .arg(handedBack));
        } else {
            violation(QStringLiteral("sale %1 is %2 after the world healed").arg(order, saleStateName(found->state)));
        }
    }
}

WorldReport World::run()
{
    m_time->restart(m_options.seed);
    note(QStringLiteral("world seed %1 tills %2 gateways %3 payments %4").arg(m_options.seed).arg(m_options.tills).arg(m_options.gateways).arg(m_options.payments));
    if (fault("network")) {
        m_dropRequest = m_chaos.bounded(50) / 1000.0;
        m_dropAnswer = m_chaos.bounded(50) / 1000.0;
        m_duplicate = m_chaos.bounded(50) / 1000.0;
    }
    buildDisks();
    startBank();
    m_gateways.resize(size_t(m_options.gateways));
    for (int i = 0; i < m_options.gateways; ++i)
        startGateway(i);
    for (int i = 0; i < m_options.tills; ++i) {
        m_tills[size_t(i)].paymentsLeft = m_options.payments / m_options.tills + (i < m_options.payments % m_options.tills ? 1 : 0);
        startTill(i);
        schedulePayment(i, 10 + m_chaos.bounded(200));
    }
    scheduleChaos(200 + m_chaos.bounded(500));

    // The workload, with faults, until every payment was rung up.
    waitFor([this] {
        for (const TillNode &t : m_tills) {
            if (t.paymentsLeft > 0)
                return false;
        }
        return true;
    },
        24 * 3600 * 1000LL);
    m_time->runUntil([] {
        return false;
    },
        m_time->now() + 2'000);   // faults go on a little longer
    heal();
    auditDb(QStringLiteral("sim-audit-gw"), *m_gatewayDisk, QStringLiteral("/gateway.db"));
    // Once healed, every intent is final within two minutes: the backoff's cap (3 s), a
    // Retry-After (at most a minute, also the most a wall clock set back may add), the lease
    // (3 s) and the recovery period (1 s) bound how long anything may wait.
    const qint64 healedAt = m_time->now();
    const bool settled = waitFor([this] {
        return quiet();
    },
        kQuietWithinMs);
    if (!settled) {
        QStringList tills;
        for (int i = 0; i < int(m_tills.size()); ++i) {
            const TillNode &t = m_tills[size_t(i)];
            if (t.engine)
                tills.append(QStringLiteral("till %1: %2 waiting, %3 in flight, connectivity %4%5").arg(i).arg(t.engine->waitingCount()).arg(t.engine->requestsInFlight()).arg(int(t.engine->connectivity())).arg(t.engine->isPaused() ? QStringLiteral(", paused: ") + t.engine->pauseReason() : QString()));
        }
        violation(QStringLiteral("not every intent final %1 s after the world healed (%2)").arg(kQuietWithinMs / 1000).arg(tills.join(QStringLiteral("; "))));
    }
    m_report.counts[QStringLiteral("ms to quiet")] = m_time->now() - healedAt;
    audit();
    m_report.virtualMs = m_time->now();
    const QByteArray digest = m_trace.result().toHex();
    m_report.trace = digest;
    for (const QString &line : m_tail)
        m_report.traceTail.append(line);
    return m_report;
}

}   // namespace

WorldReport runWorld(const WorldOptions &options, VirtualTime *time)
{
    WorldReport report;
    {
        World world(options, time);
        report = world.run();
    }
    time->restart(options.seed);
    return report;
}

}   // namespace OncePay::Sim
