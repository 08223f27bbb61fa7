#include "refundcommands.h"

#include "commandline.h"
#include "ctloutput.h"
#include "ctlsession.h"
#include "eventwait.h"
#include "exitcode.h"
#include "followintent.h"
#include "idempotencykey.h"

#include <cstdio>
#include <utility>

namespace OncePay::Ctl {

namespace {

constexpr int kMaxReason = 500;

// The one KEY a command takes; a usage error (printed, in `*rc`) otherwise.
std::optional<QString> oneKey(const CommandLine &cl, const QString &command, const QString &what, std::optional<int> *rc)
{
    const QStringList keys = cl.positionalArguments();
    if (keys.size() != 1) {
        *rc = fail(Usage, QStringLiteral("%1 needs one %2").arg(command, what));
        return std::nullopt;
    }
    if (!IdempotencyKey::isValidKey(keys.first())) {
        *rc = fail(Usage, QStringLiteral("\"%1\" is not a key (1 to 255 of A-Z a-z 0-9 - _ . : ~)").arg(keys.first()));
        return std::nullopt;
    }
    return keys.first();
}

// The stored intent with `key`, read through the owner's journal; invalid when there is none.
bool findIntent(CtlSession &session, const QString &key, Intent *intent, QString *error)
{
    bool finished = false;
    bool ok = false;
    EventWait read([&] {
        return finished;
    });
    session.till().journal()->find(key, read.context(), [&](bool o, const TillError &e, Intent i) {
        ok = o;
        *error = e.text();
        *intent = std::move(i);
        finished = true;
        read.recheck();
    });
    read.exec();
    return ok;
}

}   // namespace

int refundCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("refund"), QStringLiteral("PAYMENT_KEY [--amount AMOUNT] [options]"),
        QStringLiteral("Refunds a payment of this till: a refund intent with a new idempotency key, stored before\n"
                       "anything is sent. A card payment goes back to the card through the gateway (retried with the\n"
                       "same key, asked about by key when an answer is lost); a cash sale is given back from the\n"
                       "drawer, recorded at once. One refund of a payment at a time, never more than remains.\n"
                       "Prints the refund as one JSON line (key, payment_key, state, amount, ...). Exit 0 succeeded,\n"
                       "3 declined, 4 not final yet, 5 needs attention (or the gateway refused the token), 1 refused\n"
                       "(the reason on stderr: not paid, more than remains, a refund still open, ...)."));
    cl.addPositionalArgument(QStringLiteral("payment_key"), QStringLiteral("The key of the payment to refund."),
        QStringLiteral("PAYMENT_KEY"));
    cl.addOptions({{QStringLiteral("amount"), QStringLiteral("Amount to give back, e.g. 5.00, in the payment's currency (default: all that remains)."),
                       QStringLiteral("AMOUNT")},
        {QStringLiteral("reason"), QStringLiteral("Why, for the gateway's record (at most 500 characters)."), QStringLiteral("TEXT")},
        {QStringLiteral("no-wait"), QStringLiteral("Return after the first try (or at once when offline: the refund waits in the queue).")},
        {QStringLiteral("wait"), QStringLiteral("Seconds to wait for a final state (default 60)."), QStringLiteral("SECONDS"), QStringLiteral("60")}});
    if (auto rc = cl.parse(arguments))
        return *rc;
    std::optional<int> usage;
    const auto paymentKey = oneKey(cl, QStringLiteral("refund"), QStringLiteral("PAYMENT_KEY"), &usage);
    if (!paymentKey)
        return *usage;
    const QString amountText = cl.value(QStringLiteral("amount"));
    if (cl.isSet(QStringLiteral("amount"))) {
        // The payment's currency is known once the journal is open; the shape is checked first,
        // so that a wrong command line touches nothing.
        const auto shape = Money::parse(amountText, QStringLiteral("CNY"));
        if (!shape)
            return fail(Usage, QStringLiteral("--amount: \"%1\" is not an amount").arg(amountText));
        if (shape->minorUnits() < 1)
            return fail(Usage, QStringLiteral("--amount: must be more than 0, got \"%1\"").arg(amountText));
    }
    const QString reason = cl.value(QStringLiteral("reason"));
    if (reason.size() > kMaxReason)
        return fail(Usage, QStringLiteral("--reason: at most %1 characters").arg(kMaxReason));
    const auto timeoutMs = waitMs(cl, &usage);
    if (!timeoutMs)
        return *usage;
    if (auto rc = session.open(CtlSession::Use::Sync))
        return *rc;

    Intent payment;
    QString error;
    if (!findIntent(session, *paymentKey, &payment, &error))
        return fail(Error, error);
    if (!payment.isValid())
        return fail(Error, QStringLiteral("no payment of this till has the key %1").arg(*paymentKey));
    std::optional<Money> amount;
    if (cl.isSet(QStringLiteral("amount"))) {
        amount = Money::parse(amountText, payment.amount.currency());
        if (!amount)
            return fail(Usage, QStringLiteral("--amount: \"%1\" is not an amount in %2, the payment's currency").arg(amountText, payment.amount.currency()));
    }
    SyncEngine &engine = *session.till().engine();
    // The tender follows the payment's: the journal refuses the other one anyway, in words.
    return followIntent(
        engine, [&](SyncEngine::PayCallback stored) {
            if (payment.isCash())
                engine.recordCashRefund(*paymentKey, amount, &engine, std::move(stored));
            else
                engine.refund(*paymentKey, amount, reason, &engine, std::move(stored));
        },
        cl.isSet(QStringLiteral("no-wait")), *timeoutMs);
}

int cancelCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("cancel"), QStringLiteral("KEY [--wait SECONDS]"),
        QStringLiteral("Gives up a wallet payment still waiting for the customer's confirmation on the phone: the\n"
                       "gateway cancels it at the acquirer (a charge confirmed meanwhile is undone), once however\n"
                       "often asked. Waits for the payment's final state and prints it as one JSON line. Exit 0\n"
                       "nothing was kept (declined: cancelled, timed out or declined before), 1 refused (why, in one\n"
                       "line on stderr: not a wallet payment, or already succeeded: refund it), 4 not final yet."));
    cl.addPositionalArgument(QStringLiteral("key"), QStringLiteral("The key of the wallet payment."), QStringLiteral("KEY"));
    cl.addOption({QStringLiteral("wait"), QStringLiteral("Seconds to wait for the final state (default 30)."), QStringLiteral("SECONDS"), QStringLiteral("30")});
    if (auto rc = cl.parse(arguments))
        return *rc;
    std::optional<int> usage;
    const auto key = oneKey(cl, QStringLiteral("cancel"), QStringLiteral("KEY"), &usage);
    if (!key)
        return *usage;
    const auto timeoutMs = waitMs(cl, &usage);
    if (!timeoutMs)
        return *usage;
    if (auto rc = session.open(CtlSession::Use::Sync))
        return *rc;
    Intent current;
    QString error;
    if (!findIntent(session, *key, &current, &error))
        return fail(Error, error);
    if (!current.isValid() || current.isRefund())
        return fail(Error, QStringLiteral("no payment of this till has the key %1").arg(*key));
    if (!current.isWallet())
        return fail(Error, QStringLiteral("%1 is not a wallet payment: only a wallet payment waiting for the customer can be cancelled").arg(*key));
    auto verdict = [&]() {
        outJson(intentJson(current));
        if (current.state == IntentState::Succeeded)
            return fail(Error, QStringLiteral("%1 has already succeeded: refund it (oncepay-ctl refund %1)").arg(*key));
        if (current.state == IntentState::Declined || current.state == IntentState::Voided)
            return int(Succeeded);
        if (current.state == IntentState::NeedsAttention)
            return int(NeedsAttention);
        return int(NotFinal);
    };
    if (isFinal(current.state))
        return verdict();
    SyncEngine &engine = *session.till().engine();
    if (current.state == IntentState::Queued && current.attempts == 0) {
        // Never sent: voided on the till, nothing reaches the gateway.
        bool finished = false;
        EventWait decided([&] {
            return finished;
        });
        engine.voidIntent(*key, &engine, [&](bool ok, const TillError &, const Intent &i) {
            if (ok)
                current = i;
            finished = true;
            decided.recheck();
        });
        decided.exec();
        if (isFinal(current.state))
            return verdict();
    }
    QObject following;
    QObject::connect(&engine, &SyncEngine::intentChanged, &following, [&](const Intent &i) {
        if (i.key == *key)
            current = i;
    });
    bool answered = false;
    QString refusal;
    EventWait settled([&] {
        return (answered && isFinal(current.state)) || engine.isPaused();
    });
    settled.recheckOn(&engine, &SyncEngine::intentChanged);
    engine.cancelWallet(current, &engine, [&](const GatewayResult &r) {
        answered = true;
        if (!r.answered())
            refusal = r.transportError;
        else if (r.status != 200 && r.problem)
            refusal = r.problem->detail;
        settled.recheck();
    });
    settled.exec(*timeoutMs);
    if (engine.isPaused())
        return paused(engine);
    if (!isFinal(current.state) && !refusal.isEmpty())
        std::fprintf(stderr, "oncepay-ctl: %s\n", qUtf8Printable(QStringLiteral("cancel %1: %2").arg(*key, refusal)));
    return verdict();
}

int voidCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("void"), QStringLiteral("KEY"),
        QStringLiteral("Voids a card payment (or refund) that is queued and was never sent: it becomes voided,\n"
                       "is never sent, and its sale may be paid again. One that may have reached the gateway (a\n"
                       "try that was answered, lost or cut off) cannot be voided: once it is paid, refund it.\n"
                       "Nothing is sent by this command. Prints the voided intent as one JSON line. Exit 0 voided,\n"
                       "1 it cannot be voided (why, in one line on stderr)."));
    cl.addPositionalArgument(QStringLiteral("key"), QStringLiteral("The key of the payment or refund."), QStringLiteral("KEY"));
    if (auto rc = cl.parse(arguments))
        return *rc;
    std::optional<int> usage;
    const auto key = oneKey(cl, QStringLiteral("void"), QStringLiteral("KEY"), &usage);
    if (!key)
        return *usage;
    if (auto rc = session.open(CtlSession::Use::Change))
        return *rc;
    bool finished = false;
    bool voided = false;
    QString why;
    Intent intent;
    EventWait decided([&] {
        return finished;
    });
    session.till().engine()->voidIntent(*key, session.till().engine(), [&](bool ok, const TillError &error, const Intent &i) {
        voided = ok;
        why = error.text();
        intent = i;
        finished = true;
        decided.recheck();
    });
    decided.exec();
    if (!voided)
        return fail(Error, QStringLiteral("%1 cannot be voided: %2").arg(*key, why));
    outJson(intentJson(intent));
    return Succeeded;
}

}   // namespace OncePay::Ctl
