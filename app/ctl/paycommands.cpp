#include "paycommands.h"

#include "commandline.h"
#include "ctloutput.h"
#include "ctlsession.h"
#include "eventwait.h"
#include "exitcode.h"
#include "followintent.h"
#include "walletcode.h"

namespace OncePay::Ctl {

int payCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("pay"), QStringLiteral("--amount AMOUNT --order ID [options]"),
        QStringLiteral("Stores a payment intent with a new idempotency key, sends it and waits for the gateway's\n"
                       "answer; prints the intent as one JSON line. Exit 0 succeeded, 3 declined, 4 not final\n"
                       "yet, 5 needs attention (or the gateway refused the token)."));
    cl.addOptions({{QStringLiteral("amount"), QStringLiteral("Amount, e.g. 19.99 (more than 0)."), QStringLiteral("AMOUNT")},
        {QStringLiteral("currency"), QStringLiteral("ISO 4217 code (default CNY)."), QStringLiteral("CODE"), QStringLiteral("CNY")},
        {QStringLiteral("order"), QStringLiteral("Order (sale) id."), QStringLiteral("ID")},
        {QStringLiteral("method"), QStringLiteral("Test card token, wallet:CODE (the customer's 18-digit payment code), or cash (default tok_visa)."),
            QStringLiteral("METHOD"), QStringLiteral("tok_visa")},
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
    const QString order = cl.value(QStringLiteral("order"));
    // --method cash: the tender, recorded as paid; anything else is a card token for the gateway.
    const QString method = cl.value(QStringLiteral("method"));
    if (method.startsWith(QLatin1String("wallet:")) && walletBrandOf(QStringView(method).mid(7)).isEmpty()) {
        return fail(Usage, QStringLiteral("--method: \"%1\" is not a payment code (wallet: and 18 digits starting 10 to 15 or 25 to 30)").arg(method.mid(7)));
    }
    return followIntent(
        engine, [&](SyncEngine::PayCallback stored) {
            if (tenderFromName(method) == Tender::Cash)
                engine.recordCash(order, *amount, &engine, std::move(stored));
            else
                engine.pay(order, *amount, method, &engine, std::move(stored));
        },
        cl.isSet(QStringLiteral("no-wait")), *timeoutMs);
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
    EventWait drained([&] {
        return (engine.waitingCount() == 0 && !engine.isMakingRefunds()) || engine.isPaused();
    });
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

}   // namespace OncePay::Ctl
