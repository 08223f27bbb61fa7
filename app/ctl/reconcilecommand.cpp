#include "reconcilecommand.h"

#include "commandline.h"
#include "ctloutput.h"
#include "ctlsession.h"
#include "eventwait.h"
#include "exitcode.h"
#include "paymentmatching.h"

#include <QHash>

namespace OncePay::Ctl {

namespace {

// Every page of the gateway's list, following the cursor. A page that finds its gateway
// unreachable is asked again of the next one (the client has moved on): a read, so harmless.
bool fetchPayments(GatewayClient &client, const QString &terminal, QList<GatewayPayment> *payments, QString *error)
{
    QString cursor;
    int unreachable = 0;
    for (;;) {
        GatewayResult page;
        bool finished = false;
        EventWait fetched([&] {
            return finished;
        });
        client.listPayments(terminal, cursor, 500, fetched.context(), [&](const GatewayResult &r) {
            page = r;
            finished = true;
            fetched.recheck();
        });
        fetched.exec();
        if (GatewayClient::isUnreachable(page) && ++unreachable < client.gatewayCount())
            continue;
        unreachable = 0;
        if (!page.answered() || page.status != 200) {
            *error = page.summary();
            return false;
        }
        const GatewayPaymentPage parsed = GatewayPaymentPage::fromJson(page.json);
        *payments += parsed.payments;
        cursor = parsed.nextCursor;
        if (cursor.isEmpty())
            return true;
    }
}

// The historical JSON: {"missing": [intent...], "extra": [payment...], "different": [...]}, where
// "missing" holds the intents the gateway answered for but does not list and "extra" the payments
// no intent has, as the gateway listed them.
QJsonObject findingsJson(const QList<PaymentMatch> &findings, const QHash<QString, Intent> &intents,
    const QHash<QString, QJsonObject> &payments)
{
    using Kind = PaymentMatch::Kind;
    QJsonArray missing, extra, different;
    for (const PaymentMatch &f : findings) {
        switch (f.kind) {
        case Kind::Matched:
            break;
        case Kind::OnlyLocal:
            if (f.action == PaymentMatch::Action::Investigate)
                missing.append(intentJson(intents.value(f.key)));
            break;
        case Kind::OnlyOnGateway:
            extra.append(payments.value(f.key));
            break;
        case Kind::DifferentState:
            different.append(QJsonObject{{QStringLiteral("key"), f.key}, {QStringLiteral("local"), intentStateName(*f.localState)},
                {QStringLiteral("gateway"), f.gatewayStatus}});
            break;
        case Kind::DifferentAmount:
            different.append(QJsonObject{{QStringLiteral("key"), f.key}, {QStringLiteral("local"), intentStateName(*f.localState)},
                {QStringLiteral("gateway"), f.gatewayStatus},
                {QStringLiteral("local_amount"), f.localAmount.minorUnits()},
                {QStringLiteral("local_currency"), f.localAmount.currency()},
                {QStringLiteral("gateway_amount"), f.gatewayAmount.minorUnits()},
                {QStringLiteral("gateway_currency"), f.gatewayAmount.currency()}});
            break;
        }
    }
    return {{QStringLiteral("missing"), missing}, {QStringLiteral("extra"), extra}, {QStringLiteral("different"), different}};
}

QString amountText(const Money &m)
{
    return m.isValid() ? m.toDecimalString() + QLatin1Char(' ') + m.currency() : QStringLiteral("-");
}

QString toDo(PaymentMatch::Action action)
{
    switch (action) {
    case PaymentMatch::Action::None:
        return QStringLiteral("nothing");
    case PaymentMatch::Action::Sync:
        return QStringLiteral("run `oncepay-ctl sync`: the till asks the gateway with the same key");
    case PaymentMatch::Action::Investigate:
        return QStringLiteral("look into it: money may have moved without the till knowing, or not as it says");
    }
    return {};
}

// --explain: one line per finding that calls for something, with what to do.
QByteArray findingsText(const QList<PaymentMatch> &findings)
{
    QByteArray text = QStringLiteral("%1  %2  %3  %4  %5\n")
                          .arg(QStringLiteral("KEY"), -44)
                          .arg(QStringLiteral("FINDING"), -16)
                          .arg(QStringLiteral("TILL"), -30)
                          .arg(QStringLiteral("GATEWAY"), -36)
                          .arg(QStringLiteral("TO DO"))
                          .toUtf8();
    int matched = 0;
    for (const PaymentMatch &f : findings) {
        if (f.action == PaymentMatch::Action::None) {
            ++matched;
            continue;
        }
        const QString till = f.localState ? intentStateName(*f.localState) + QLatin1Char(' ') + amountText(f.localAmount)
                                          : QStringLiteral("-");
        const QString gateway = f.gatewayStatus.isEmpty()
            ? QStringLiteral("-")
            : QStringLiteral("%1 %2 %3").arg(f.paymentId, f.gatewayStatus, amountText(f.gatewayAmount));
        text += QStringLiteral("%1  %2  %3  %4  %5\n")
                    .arg(f.key, -44)
                    .arg(paymentMatchKindName(f.kind), -16)
                    .arg(till, -30)
                    .arg(gateway, -36)
                    .arg(toDo(f.action))
                    .toUtf8();
    }
    text += QStringLiteral("%1 of %2 keys need nothing (matched, cash, or never due at the gateway)\n")
                .arg(matched)
                .arg(findings.size())
                .toUtf8();
    return text;
}

}   // namespace

int reconcileCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("reconcile"), QStringLiteral("[--terminal ID] [--explain]"),
        QStringLiteral("The journal against the gateway's list of payments, by idempotency key. Prints\n"
                       "{\"missing\", \"extra\", \"different\"} as one JSON line: intents the gateway answered for\n"
                       "but does not list, payments no intent has, and keys whose state or amount differ.\n"
                       "Exit 0 when they agree, 4 when something differs."));
    cl.addOptions({{QStringLiteral("terminal"), QStringLiteral("Only the gateway's payments of this terminal."), QStringLiteral("ID")},
        {QStringLiteral("explain"), QStringLiteral("Instead of JSON, a table of what differs and what to do about it.")}});
    if (auto rc = cl.parse(arguments))
        return *rc;
    if (auto rc = session.open(CtlSession::Use::ReadAndAsk))
        return *rc;
    QList<GatewayPayment> remote;
    QString error;
    if (!fetchPayments(*session.till().client(), cl.value(QStringLiteral("terminal")), &remote, &error))
        return fail(Error, QStringLiteral("the gateway's list is not available: %1").arg(error));
    QList<Intent> local;
    IntentJournal::Query payments;   // the gateway's list is of payments; refunds are not in it
    payments.kind = IntentKind::Payment;
    if (!session.readIntents(payments, &local, &error))
        return fail(Error, error);

    const QList<PaymentMatch> findings = matchPayments(local, remote);
    if (cl.isSet(QStringLiteral("explain"))) {
        out(findingsText(findings));
    } else {
        QHash<QString, Intent> intents;
        for (const Intent &i : local)
            intents.insert(i.key, i);
        QHash<QString, QJsonObject> payments;   // the last listing of a key, as matchPayments() counts it
        for (const GatewayPayment &p : remote)
            payments.insert(p.idempotencyKey, p.json);
        outJson(findingsJson(findings, intents, payments));
    }
    const bool agree = std::all_of(findings.cbegin(), findings.cend(), [](const PaymentMatch &f) {
        return f.kind == PaymentMatch::Kind::Matched
            || (f.kind == PaymentMatch::Kind::OnlyLocal && f.action != PaymentMatch::Action::Investigate);
    });
    return agree ? Succeeded : NotFinal;
}

}   // namespace OncePay::Ctl
