#include "journalcommands.h"

#include "commandline.h"
#include "ctloutput.h"
#include "ctlsession.h"
#include "eventwait.h"
#include "exitcode.h"
#include "timeutil.h"

#include <utility>

namespace OncePay::Ctl {

namespace {

int list(CtlSession &session, const QStringList &arguments, bool activeOnly)
{
    const QString name = activeOnly ? QStringLiteral("queue") : QStringLiteral("list");
    QStringList states;
    for (IntentState s : allIntentStates())
        states << intentStateName(s);
    CommandLine cl(name, QStringLiteral("[--json] [--state STATE] [--kind KIND]"),
        activeOnly ? QStringLiteral("The intents (payments and refunds) that are not final yet, oldest first.")
                   : QStringLiteral("Every intent of the journal (payments and refunds), oldest first. With --json, each\n"
                                    "carries its kind, and a refund the key of its payment (payment_key)."));
    cl.addOptions({{QStringLiteral("json"), QStringLiteral("JSON output: one array of intents.")},
        {QStringLiteral("state"), QStringLiteral("Only this state: %1.").arg(states.join(QStringLiteral(", "))),
            QStringLiteral("STATE")},
        {QStringLiteral("kind"), QStringLiteral("Only payments or only refunds: payment or refund."), QStringLiteral("KIND")}});
    if (auto rc = cl.parse(arguments))
        return *rc;
    IntentJournal::Query q;
    q.activeOnly = activeOnly;
    if (cl.isSet(QStringLiteral("state"))) {
        q.state = intentStateFromName(cl.value(QStringLiteral("state")));
        if (!q.state)
            return fail(Usage, QStringLiteral("--state: one of %1").arg(states.join(QStringLiteral(", "))));
    }
    if (cl.isSet(QStringLiteral("kind"))) {
        q.kind = intentKindFromName(cl.value(QStringLiteral("kind")));
        if (!q.kind)
            return fail(Usage, QStringLiteral("--kind: payment or refund"));
    }
    if (auto rc = session.open(CtlSession::Use::ReadJournal))
        return *rc;
    QList<Intent> all;
    QString error;
    if (!session.readIntents(q, &all, &error))
        return fail(Error, error);
    if (cl.isSet(QStringLiteral("json"))) {
        QJsonArray arr;
        for (const Intent &i : all)
            arr.append(intentJson(i));
        outJson(arr);
    } else {
        out(intentTable(all));
    }
    return Succeeded;
}

}   // namespace

int listCommand(CtlSession &session, const QStringList &arguments)
{
    return list(session, arguments, false);
}

int queueCommand(CtlSession &session, const QStringList &arguments)
{
    return list(session, arguments, true);
}

int showCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("show"), QStringLiteral("KEY [--json]"),
        QStringLiteral("One intent with its attempts at the gateway and its journal of state changes; a payment\n"
                       "also with its refunds."));
    cl.addOption({QStringLiteral("json"), QStringLiteral("JSON output: one object.")});
    cl.addPositionalArgument(QStringLiteral("key"), QStringLiteral("The intent's key."), QStringLiteral("KEY"));
    if (auto rc = cl.parse(arguments))
        return *rc;
    if (cl.positionalArguments().size() != 1)
        return fail(Usage, QStringLiteral("show needs one KEY"));
    const QString key = cl.positionalArguments().constFirst();
    if (auto rc = session.open(CtlSession::Use::ReadJournal))
        return *rc;
    Intent intent;
    QList<Attempt> attempts;
    QList<JournalEntry> entries;
    QList<Intent> refunds;
    int pending = 4;
    bool ok = true;
    QString error;
    EventWait read([&] {
        return pending == 0;
    });
    IntentJournal &journal = *session.till().journal();
    journal.find(key, read.context(), [&](bool o, const TillError &e, Intent i) {
        ok = ok && o;
        error = e.text();
        intent = std::move(i);
        --pending;
        read.recheck();
    });
    journal.attempts(key, read.context(), [&](bool o, const TillError &, QList<Attempt> a) {
        ok = ok && o;
        attempts = std::move(a);
        --pending;
        read.recheck();
    });
    journal.journal(key, read.context(), [&](bool o, const TillError &, QList<JournalEntry> j) {
        ok = ok && o;
        entries = std::move(j);
        --pending;
        read.recheck();
    });
    IntentJournal::Query ofPayment;   // a payment's refunds (a refund has none)
    ofPayment.kind = IntentKind::Refund;
    ofPayment.paymentKey = key;
    ofPayment.limit = -1;
    journal.list(ofPayment, read.context(), [&](bool o, const TillError &, QList<Intent> r) {
        ok = ok && o;
        refunds = std::move(r);
        --pending;
        read.recheck();
    });
    read.exec();
    if (!ok)
        return fail(Error, error);
    if (!intent.isValid())
        return fail(Error, QStringLiteral("no intent has the key %1").arg(key));
    if (cl.isSet(QStringLiteral("json"))) {
        QJsonObject o = intentJson(intent);
        QJsonArray a;
        for (const Attempt &t : attempts) {
            a.append(QJsonObject{{QStringLiteral("kind"), attemptKindName(t.kind)}, {QStringLiteral("started_at"), toRfc3339(t.startedAt)},
                {QStringLiteral("outcome"), t.outcome}, {QStringLiteral("http_status"), t.httpStatus},
                {QStringLiteral("replayed"), t.replayed}, {QStringLiteral("latency_ms"), t.latencyMs}});
        }
        QJsonArray j;
        for (const JournalEntry &e : entries) {
            j.append(QJsonObject{{QStringLiteral("at"), toRfc3339(e.at)}, {QStringLiteral("from"), e.fromState},
                {QStringLiteral("to"), e.toState}, {QStringLiteral("detail"), e.detail}});
        }
        o.insert(QStringLiteral("attempt_log"), a);
        o.insert(QStringLiteral("journal"), j);
        if (!intent.isRefund()) {
            QJsonArray r;
            for (const Intent &refund : std::as_const(refunds))
                r.append(intentJson(refund));
            o.insert(QStringLiteral("refunds"), r);
        }
        outJson(o);
        return Succeeded;
    }
    QByteArray text = intentTable({intent});
    if (intent.isRefund())
        text += QStringLiteral("refund of: %1\n").arg(intent.paymentKey).toUtf8();
    else if (intent.amountRefunded > 0)
        text += QStringLiteral("refunded: %1 %2\n").arg(Money(intent.amountRefunded, intent.amount.currency()).toDecimalString(), intent.amount.currency()).toUtf8();
    text += "attempts:\n";
    for (const Attempt &t : attempts)
        text += QStringLiteral("  %1  %2  %3  %4 ms\n").arg(toRfc3339(t.startedAt), attemptKindName(t.kind), t.outcome).arg(t.latencyMs).toUtf8();
    text += "journal:\n";
    for (const JournalEntry &e : entries)
        text += QStringLiteral("  %1  %2 -> %3  %4\n").arg(toRfc3339(e.at), e.fromState, e.toState, e.detail).toUtf8();
    if (!refunds.isEmpty()) {
        text += "refunds:\n";
        for (const Intent &r : std::as_const(refunds)) {
            text += QStringLiteral("  %1  %2  %3 %4  %5\n")
                        .arg(r.key, intentStateName(r.state), r.amount.toDecimalString(), r.amount.currency(), r.refundId)
                        .toUtf8();
        }
    }
    out(text);
    return Succeeded;
}

int exportCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("export"), QStringLiteral("[--format csv|json]"),
        QStringLiteral("Every intent of the journal, for a spreadsheet (CSV with a header line) or a script."));
    cl.addOption({QStringLiteral("format"), QStringLiteral("csv or json."), QStringLiteral("FORMAT"), QStringLiteral("csv")});
    if (auto rc = cl.parse(arguments))
        return *rc;
    const QString format = cl.value(QStringLiteral("format"));
    if (format != QLatin1String("csv") && format != QLatin1String("json"))
        return fail(Usage, QStringLiteral("--format: csv or json"));
    if (auto rc = session.open(CtlSession::Use::ReadJournal))
        return *rc;
    QList<Intent> all;
    QString error;
    if (!session.readIntents({}, &all, &error))
        return fail(Error, error);
    if (format == QLatin1String("json")) {
        QJsonArray arr;
        for (const Intent &i : all)
            arr.append(intentJson(i));
        outJson(arr);
        return Succeeded;
    }
    auto csv = [](QString v) {
        if (v.contains(QLatin1Char(',')) || v.contains(QLatin1Char('"')) || v.contains(QLatin1Char('\n')))
            v = QLatin1Char('"') + v.replace(QLatin1String("\""), QLatin1String("\"\"")) + QLatin1Char('"');
        return v;
    };
    // New columns go last: spreadsheets made from earlier exports keep their column letters.
    QByteArray text = "key,state,order_id,amount,currency,payment_method,payment_id,attempts,created_at,updated_at,"
                      "kind,payment_key,amount_refunded\n";
    for (const Intent &i : all) {
        const QStringList row{i.key, intentStateName(i.state), i.orderId, QString::number(i.amount.minorUnits()),
            i.amount.currency(), i.isCash() ? tenderName(Tender::Cash) : i.isWallet() ? QStringLiteral("wallet")
                                                                                      : i.paymentMethod,
            i.paymentId, QString::number(i.attempts),
            toRfc3339(i.createdAt), toRfc3339(i.updatedAt), intentKindName(i.kind), i.paymentKey,
            i.isRefund() ? QString() : QString::number(i.amountRefunded)};
        QStringList cells;
        for (const QString &c : row)
            cells << csv(c);
        text += cells.join(QLatin1Char(',')).toUtf8() + '\n';
    }
    out(text);
    return Succeeded;
}

}   // namespace OncePay::Ctl
