#include "paycommands.h"

#include "commandline.h"
#include "ctloutput.h"
#include "ctlsession.h"
#include "eventwait.h"
#include "exitcode.h"

#include <climits>
#include <cmath>

namespace OncePay::Ctl {

namespace {

// "--wait SECONDS": a finite number, 0 or more, in milliseconds (longer than the timer's range,
// about 24 days, is the same as that long); else a usage error, printed, in `*rc`.
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

} // namespace

int payCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("pay"), QStringLiteral("--amount AMOUNT --order ID [options]"),
                   QStringLiteral("Stores a payment intent with a new idempotency key, sends it and waits for the gateway's\n"
                                  "answer; prints the intent as one JSON line. Exit 0 succeeded, 3 declined, 4 not final\n"
                                  "yet, 5 needs attention (or the gateway refused the token)."));
    cl.addOptions({{QStringLiteral("amount"), QStringLiteral("Amount, e.g. 19.99 (more than 0)."), QStringLiteral("AMOUNT")},
                   {QStringLiteral("currency"), QStringLiteral("ISO 4217 code (default CNY)."), QStringLiteral("CODE"), QStringLiteral("CNY")},
                   {QStringLiteral("order"), QStringLiteral("Order (sale) id."), QStringLiteral("ID")},
                   {QStringLiteral("method"), QStringLiteral("Test card token, or cash (default tok_visa)."), QStringLiteral("TOKEN"), QStringLiteral("tok_visa")},
                   {QStringLiteral("no-wait"), QStringLiteral("Return after the first try (or at once when offline: the intent waits in the queue).")},
                   {QStringLiteral("wait"), QStringLiteral("Seconds to wait for a final state (default 60)."), QStringLiteral("SECONDS"), QStringLiteral("60")}});
    if (auto rc = cl.parse(arguments))
        return *rc;
    if (!cl.isSet(QStringLiteral("amount")) || !cl.isSet(QStringLiteral("order")))
        return fail(Usage, QStringLiteral("pay needs --amount and --order"));
    const QString currency = cl.value(QStringLiteral("currency"));
    const auto amount = Money::parse(cl.value(QStringLiteral("amount")), currency);
    if (!amount)
        return fail(Usage, QStringLiteral("--amount: \"%1\" is not an amount in %2").arg(cl.value(QStringLiteral("amount")), currency));
    if (amount->minorUnits() < 1)
        return fail(Usage, QStringLiteral("--amount: must be more than 0, got \"%1\"").arg(cl.value(QStringLiteral("amount"))));
    std::optional<int> usage;
    const auto timeoutMs = waitMs(cl, &usage);
    if (!timeoutMs)
        return *usage;
    if (auto rc = session.open(CtlSession::Use::Sync))
        return *rc;
    SyncEngine &engine = *session.till().engine();

    Intent current;
    bool created = false;
    bool answered = false;
    QString error;
    QObject following;   // ends the connection below with this function, before the engine goes
    QObject::connect(&engine, &SyncEngine::intentChanged, &following, [&](const Intent &i) {
        if (i.key == current.key)
            current = i;
    });
    EventWait stored([&] { return answered; });
    auto onStored = [&](bool ok, const QString &e, const Intent &i) {
        answered = true;
        created = ok;
        error = e;
        if (ok)
            current = i;
        stored.recheck();
    };
    // --method cash: the tender, recorded as paid; anything else is a card token for the gateway.
    const QString method = cl.value(QStringLiteral("method"));
    if (tenderFromName(method) == Tender::Cash)
        engine.recordCash(cl.value(QStringLiteral("order")), *amount, onStored);
    else
        engine.pay(cl.value(QStringLiteral("order")), *amount, method, onStored);
    stored.exec();
    if (!created)
        return fail(Error, error);

    const bool noWait = cl.isSet(QStringLiteral("no-wait"));
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
    settled.exec(noWait ? 30'000 : *timeoutMs);
    outJson(intentJson(current));
    if (engine.isPaused())
        return paused(engine);
    return exitFor(current.state);
}

int syncCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("sync"), QStringLiteral("[--wait SECONDS]"),
                   QStringLiteral("Sends what waits in the journal (and asks about what is unknown) until nothing is\n"
                                  "pending or the time is up; prints the counts as one JSON line. Exit 0 nothing\n"
                                  "pending, 4 some still pending, 5 the gateway refused the token."));
    cl.addOption({QStringLiteral("wait"), QStringLiteral("Seconds to keep trying (default 30)."), QStringLiteral("SECONDS"), QStringLiteral("30")});
    if (auto rc = cl.parse(arguments))
        return *rc;
    std::optional<int> usage;
    const auto timeoutMs = waitMs(cl, &usage);
    if (!timeoutMs)
        return *usage;
    if (auto rc = session.open(CtlSession::Use::Sync))
        return *rc;
    SyncEngine &engine = *session.till().engine();
    const int before = engine.waitingCount();
    EventWait drained([&] { return engine.waitingCount() == 0 || engine.isPaused(); });
    drained.recheckOn(&engine, &SyncEngine::queueChanged);
    drained.recheckOn(&engine, &SyncEngine::pausedChanged);
    drained.exec(*timeoutMs);
    const int after = engine.waitingCount();
    outJson(QJsonObject{{QStringLiteral("pending_before"), before},
                        {QStringLiteral("pending"), after},
                        {QStringLiteral("settled"), before - after}});
    if (engine.isPaused())
        return paused(engine);
    return after == 0 ? Succeeded : NotFinal;
}

} // namespace OncePay::Ctl
