#pragma once

// Helpers of the in-process integration suites: wait for one GatewayClient answer, and read
// the simulated acquirer's ledger for a key through a client (the ground truth of charges).
#include "gatewayclient.h"
#include "gateway/gatewayserver.h"
#include "syncengine.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>
#include <QUrlQuery>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>

namespace ClientProbe {

// 2 slow shared cores: generous, and only ever a ceiling.
inline constexpr int kWaitMs = 30000;

// The demo gateway in this process, on a free port, with a short claim lease and a quick
// recovery worker; its databases in `dir`. Null and `error` set when it cannot start.
inline std::unique_ptr<OncePay::Gateway::GatewayServer> startDemoGateway(const QString &dir, QString *error)
{
    OncePay::Gateway::GatewayServer::Config gc;
    gc.address = QHostAddress::LocalHost;
    gc.port = 0;
    gc.dbPath = dir + QStringLiteral("/gateway.db");
    gc.demo = true;
    gc.leaseMs = 1000;
    gc.recoveryIntervalMs = 200;
    auto gateway = std::make_unique<OncePay::Gateway::GatewayServer>(gc);
    if (!gateway->start(error))
        return nullptr;
    return gateway;
}

// An engine that retries and probes fast (tests wait on conditions, so short backoffs make
// them quick), with a fixed jitter seed so that a failure can be replayed.
inline OncePay::SyncEngine::Config fastEngineConfig(quint32 seed)
{
    OncePay::SyncEngine::Config c;
    c.maxInFlight = 4;
    c.backoffBaseMs = 50;
    c.backoffCapMs = 500;
    c.probeBaseMs = 50;
    c.probeCapMs = 300;
    c.seed = seed;
    return c;
}

// Runs `call` with a callback and waits (by condition) for its answer; an empty result
// (transport NotSent, status 0) when none came within `timeoutMs`.
inline OncePay::GatewayResult await(const std::function<void(OncePay::GatewayClient::Callback)> &call,
    int timeoutMs)
{
    auto result = std::make_shared<std::optional<OncePay::GatewayResult>>();
    call([result](const OncePay::GatewayResult &r) {
        *result = r;
    });
    if (!QTest::qWaitFor([result] {
            return result->has_value();
        },
            timeoutMs))
        return {};
    return **result;
}

struct Ledger
{
    bool ok = false;
    int rows = 0;
    int succeeded = 0;
    int declined = 0;
    QByteArray raw;
};

inline Ledger ledger(OncePay::GatewayClient &client, const QString &key, int timeoutMs)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("idempotency_key"), key);
    const OncePay::GatewayResult r = await([&](auto cb) {
        client.send("GET", QStringLiteral("/v1/_sim/acquirer/charges?") + q.toString(QUrl::FullyEncoded), {}, &client, cb);
    },
        timeoutMs);
    Ledger l;
    l.raw = r.body;
    l.ok = r.status == 200 && r.json.value(QStringLiteral("data")).isArray();
    const QJsonArray data = r.json.value(QStringLiteral("data")).toArray();
    for (const QJsonValue &row : data) {
        ++l.rows;
        const QString status = row.toObject().value(QStringLiteral("status")).toString();
        l.succeeded += status == QLatin1String("succeeded");
        l.declined += status == QLatin1String("declined");
    }
    return l;
}

// SyncEngine::pay and its answer: ("", intent) when stored, (why, intent) when refused.
inline std::pair<QString, OncePay::Intent> pay(OncePay::SyncEngine &engine, const QString &order, qint64 amount,
    const QString &method)
{
    auto answer = std::make_shared<std::optional<std::pair<QString, OncePay::Intent>>>();
    engine.pay(order, OncePay::Money(amount, QStringLiteral("CNY")), method, &engine,
        [answer](bool ok, const OncePay::TillError &error, const OncePay::Intent &intent) {
            *answer = std::make_pair(ok ? QString() : (error.isError() ? error.text() : QStringLiteral("?")), intent);
        });
    if (!QTest::qWaitFor([answer] {
            return answer->has_value();
        },
            kWaitMs))
        return {QStringLiteral("pay() never answered"), {}};
    return **answer;
}

// Records a cash payment (final at once, never sent); the same answer as pay().
inline std::pair<QString, OncePay::Intent> payCash(OncePay::SyncEngine &engine, const QString &order, qint64 amount)
{
    auto answer = std::make_shared<std::optional<std::pair<QString, OncePay::Intent>>>();
    engine.recordCash(order, OncePay::Money(amount, QStringLiteral("CNY")), &engine,
        [answer](bool ok, const OncePay::TillError &error, const OncePay::Intent &intent) {
            *answer = std::make_pair(ok ? QString() : (error.isError() ? error.text() : QStringLiteral("?")), intent);
        });
    if (!QTest::qWaitFor([answer] {
            return answer->has_value();
        },
            kWaitMs))
        return {QStringLiteral("recordCash() never answered"), {}};
    return **answer;
}

// SyncEngine::refund (a card refund; no amount: what remains) and its answer, as pay().
inline std::pair<QString, OncePay::Intent> refund(OncePay::SyncEngine &engine, const QString &paymentKey,
    std::optional<qint64> amount, const QString &reason = {})
{
    auto answer = std::make_shared<std::optional<std::pair<QString, OncePay::Intent>>>();
    engine.refund(paymentKey, amount ? std::optional<OncePay::Money>(OncePay::Money(*amount, QStringLiteral("CNY"))) : std::nullopt,
        reason, &engine, [answer](bool ok, const OncePay::TillError &error, const OncePay::Intent &intent) {
            *answer = std::make_pair(ok ? QString() : (error.isError() ? error.text() : QStringLiteral("?")), intent);
        });
    if (!QTest::qWaitFor([answer] {
            return answer->has_value();
        },
            kWaitMs))
        return {QStringLiteral("refund() never answered"), {}};
    return **answer;
}

// SyncEngine::recordCashRefund and its answer, as pay().
inline std::pair<QString, OncePay::Intent> cashRefund(OncePay::SyncEngine &engine, const QString &paymentKey, qint64 amount)
{
    auto answer = std::make_shared<std::optional<std::pair<QString, OncePay::Intent>>>();
    engine.recordCashRefund(paymentKey, OncePay::Money(amount, QStringLiteral("CNY")), &engine,
        [answer](bool ok, const OncePay::TillError &error, const OncePay::Intent &intent) {
            *answer = std::make_pair(ok ? QString() : (error.isError() ? error.text() : QStringLiteral("?")), intent);
        });
    if (!QTest::qWaitFor([answer] {
            return answer->has_value();
        },
            kWaitMs))
        return {QStringLiteral("recordCashRefund() never answered"), {}};
    return **answer;
}

// SyncEngine::voidIntent and its answer: ("", voided intent), or (why not, intent as stored).
inline std::pair<QString, OncePay::Intent> voidIntent(OncePay::SyncEngine &engine, const QString &key)
{
    auto answer = std::make_shared<std::optional<std::pair<QString, OncePay::Intent>>>();
    engine.voidIntent(key, &engine, [answer](bool ok, const OncePay::TillError &error, const OncePay::Intent &intent) {
        *answer = std::make_pair(ok ? QString() : (error.isError() ? error.text() : QStringLiteral("?")), intent);
    });
    if (!QTest::qWaitFor([answer] {
            return answer->has_value();
        },
            kWaitMs))
        return {QStringLiteral("voidIntent() never answered"), {}};
    return **answer;
}

// The gateway's payment by its id (GET /v1/payments/{id}): amount_refunded and status follow
// its refunds. Empty when it did not answer 200.
inline QJsonObject gatewayPayment(OncePay::GatewayClient &client, const QString &paymentId)
{
    const OncePay::GatewayResult r = await([&](auto cb) {
        client.getPayment(paymentId, &client, cb);
    },
        kWaitMs);
    return r.status == 200 ? r.payment() : QJsonObject();
}

// Whether the gateway under test has the refund side of the gateway branch: refunds through
// the acquirer with its refund ledger, and the lookups GET /v1/refunds?idempotency_key= and
// /v1/refunds/{id}. Until it lands, POST .../refunds executes at once (201) and the lookups
// answer 404 (no such route), which the till reads as "never executed" and sends again.
inline bool gatewayHasRefundLedger(OncePay::GatewayClient &client)
{
    const OncePay::GatewayResult r = await([&](auto cb) {
        client.send("GET", QStringLiteral("/v1/_sim/acquirer/refunds"), {}, &client, cb);
    },
        kWaitMs);
    return r.status == 200 && r.json.value(QStringLiteral("data")).isArray();
}

// The acquirer's refunds against the charge of payment key `chargeKey` (the gateway branch's
// GET /v1/_sim/acquirer/refunds?charge_key=): rows, and succeeded amount by refund key.
struct RefundLedger
{
    bool ok = false;
    QList<QJsonObject> rows;
    QByteArray raw;
    qint64 succeededTotal() const
    {
        qint64 total = 0;
        for (const QJsonObject &row : rows) {
            if (row.value(QStringLiteral("status")).toString() == QLatin1String("succeeded"))
                total += row.value(QStringLiteral("amount")).toInteger();
        }
        return total;
    }
    int rowsFor(const QString &refundKey) const
    {
        return int(std::count_if(rows.cbegin(), rows.cend(), [&](const QJsonObject &row) {
            return row.value(QStringLiteral("idempotency_key")).toString() == refundKey;
        }));
    }
};

inline RefundLedger refundLedger(OncePay::GatewayClient &client, const QString &chargeKey)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("charge_key"), chargeKey);
    const OncePay::GatewayResult r = await([&](auto cb) {
        client.send("GET", QStringLiteral("/v1/_sim/acquirer/refunds?") + q.toString(QUrl::FullyEncoded), {}, &client, cb);
    },
        kWaitMs);
    RefundLedger l;
    l.raw = r.body;
    l.ok = r.status == 200 && r.json.value(QStringLiteral("data")).isArray();
    const QJsonArray data = r.json.value(QStringLiteral("data")).toArray();
    for (const QJsonValue &row : data)
        l.rows << row.toObject();
    return l;
}

// The last state the engine reported for `key`, from its intentChanged signals in `changes`.
inline std::optional<OncePay::Intent> latest(const QList<OncePay::Intent> &changes, const QString &key)
{
    for (auto it = changes.crbegin(); it != changes.crend(); ++it) {
        if (it->key == key)
            return *it;
    }
    return std::nullopt;
}

}   // namespace ClientProbe
