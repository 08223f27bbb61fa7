#include "followintent.h"

#include "commandline.h"
#include "ctloutput.h"
#include "eventwait.h"
#include "exitcode.h"

#include <climits>
#include <cmath>

namespace OncePay::Ctl {

std::optional<qint64> waitMs(const CommandLine &cl, std::optional<int> *rc)
{
    const QString text = cl.value(QStringLiteral("wait"));
    bool ok = false;
    const double s = text.toDouble(&ok);
    if (!ok || !std::isfinite(s) || s < 0) {
        *rc = fail(Usage, QStringLiteral("--wait: expected seconds (a number, 0 or more), got \"%1\"").arg(text));
        return std::nullopt;
    }
    return qint64(std::min(s * 1000, double(INT_MAX)));
}

int paused(const SyncEngine &engine)
{
    return fail(NeedsAttention, QStringLiteral("the gateway refused the token: %1").arg(engine.pauseReason()));
}

std::optional<Intent> storeAndFollow(SyncEngine &engine, const std::function<void(SyncEngine::PayCallback)> &create,
    bool noWait, qint64 timeoutMs, QString *error)
{
    Intent current;
    bool created = false;
    bool answered = false;
    QObject following;   // ends the connection below with this function, before the engine goes
    QObject::connect(&engine, &SyncEngine::intentChanged, &following, [&](const Intent &i) {
        if (i.key == current.key)
            current = i;
    });
    EventWait stored([&] {
        return answered;
    });
    create([&](bool ok, const TillError &e, const Intent &i) {
        answered = true;
        created = ok;
        *error = e.text();
        if (ok)
            current = i;
        stored.recheck();
    });
    stored.exec();
    if (!created)
        return std::nullopt;

    EventWait settled([&] {
        if (isFinal(current.state) || engine.isPaused())
            return true;
        // --no-wait: once the first try has an answer, or the till is offline (the intent is
        // stored and waits in the queue; older ones go first when the gateway is back).
        if (!noWait)
            return false;
        if (engine.connectivity() != SyncEngine::Connectivity::Online && current.state == IntentState::Queued)
            return true;
        return current.attempts >= 1 && current.state != IntentState::Sending && engine.requestsInFlight() == 0;
    });
    // Everything the condition reads changes with one of these.
    settled.recheckOn(&engine, &SyncEngine::intentChanged);
    settled.recheckOn(&engine, &SyncEngine::queueChanged);
    settled.recheckOn(&engine, &SyncEngine::connectivityChanged);
    settled.recheckOn(&engine, &SyncEngine::pausedChanged);
    settled.recheckOn(&engine, &SyncEngine::nextRetryChanged);
    settled.exec(noWait ? 30'000 : timeoutMs);
    return current;
}

int followIntent(SyncEngine &engine, const std::function<void(SyncEngine::PayCallback)> &create, bool noWait,
    qint64 timeoutMs)
{
    QString error;
    const std::optional<Intent> current = storeAndFollow(engine, create, noWait, timeoutMs, &error);
    if (!current)
        return fail(Error, error);
    outJson(intentJson(*current));
    if (engine.isPaused())
        return paused(engine);
    return exitFor(current->state);
}

}   // namespace OncePay::Ctl
