#include "ctlcommands.h"

#include "faultproxy.h"
#include "gatewayclient.h"
#include "intentjournal.h"
#include "syncengine.h"
#include "timeutil.h"
#include "unixsignals.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>
#include <QUrl>

#include <csignal>
#include <cstdio>

namespace OncePay::Ctl {

namespace {

const char *const kUsage =
    "usage: oncepay-ctl [--db PATH] [--gateway URL[,URL...]] [--token T] COMMAND [options]\n"
    "commands:\n"
    "  pay --amount 19.99 --currency CNY --order ID --method tok_visa [--no-wait] [--wait SECONDS]\n"
    "  sync [--wait SECONDS]        send what waits until nothing is pending or the time is up\n"
    "  list [--json] [--state S]    every intent of the journal\n"
    "  queue [--json]               what is not final\n"
    "  show KEY [--json]            one intent with its attempts and journal\n"
    "  reconcile [--terminal T]     the journal against the gateway's list: missing, extra, different\n"
    "  export --format csv|json     every intent\n"
    "  proxy --listen ADDR:PORT --upstream URL --mode MODE   a network simulator in front of a gateway\n"
    "--gateway: several URLs, comma separated, are instances of one gateway (one database); when one\n"
    "  cannot be reached the next is tried, with the same idempotency key\n"
    "environment: ONCEPAY_DB, ONCEPAY_GATEWAY, ONCEPAY_TOKEN\n"
    "exit: 0 succeeded/ok, 1 error, 2 usage, 3 declined, 4 not final yet (or differences), 5 needs attention\n";

int fail(int code, const QString &message)
{
    std::fprintf(stderr, "oncepay-ctl: %s\n", qPrintable(message));
    return code;
}

void out(const QByteArray &text)
{
    std::fwrite(text.constData(), 1, size_t(text.size()), stdout);
    std::fflush(stdout);
}

QJsonObject intentJson(const Intent &i)
{
    QJsonObject o{
        {QStringLiteral("key"), i.key},
        {QStringLiteral("state"), intentStateName(i.state)},
        {QStringLiteral("order_id"), i.orderId},
        {QStringLiteral("amount"), i.amount.minorUnits()},
        {QStringLiteral("currency"), i.amount.currency()},
        {QStringLiteral("payment_id"), i.paymentId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(i.paymentId)},
        {QStringLiteral("attempts"), i.attempts},
        {QStringLiteral("tender"), tenderName(i.tender)},
        // Scripts written against earlier versions read cash here.
        {QStringLiteral("payment_method"), i.isCash() ? tenderName(Tender::Cash) : i.paymentMethod},
    };
    if (!i.declineCode.isEmpty())
        o.insert(QStringLiteral("decline_code"), i.declineCode);
    if (!i.lastProblem.isEmpty())
        o.insert(QStringLiteral("problem"), i.lastProblem);
    if (i.createdAt)
        o.insert(QStringLiteral("created_at"), toRfc3339(i.createdAt));
    if (i.updatedAt)
        o.insert(QStringLiteral("updated_at"), toRfc3339(i.updatedAt));
    return o;
}

int exitFor(IntentState s)
{
    switch (s) {
    case IntentState::Succeeded: return Succeeded;
    case IntentState::Declined: return Declined;
    case IntentState::NeedsAttention: return NeedsAttention;
    default: return NotFinal;
    }
}

// Runs the event loop until `done` is set or `timeoutMs` passes (-1: no limit).
bool waitFor(const std::function<bool()> &done, qint64 timeoutMs)
{
    QEventLoop loop;
    QTimer poll;
    QElapsedTimer elapsed;
    elapsed.start();
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done() || (timeoutMs >= 0 && elapsed.elapsed() >= timeoutMs))
            loop.quit();
    });
    if (done())
        return true;
    poll.start(5);
    loop.exec();
    return done();
}

// The parts every journal command shares.
struct Session
{
    QString dbPath;
    QString gatewayUrl;   // one URL or several, comma separated
    QString token;
    int requestTimeoutMs = 10'000;
    std::unique_ptr<IntentJournal> journal;
    std::unique_ptr<GatewayClient> client;
    std::unique_ptr<SyncEngine> engine;

    // `readOnly`: the command only reads (list, show, export, reconcile) and may run beside the
    // till or another command that owns the journal.
    int openJournal(bool readOnly = false)
    {
        if (dbPath.isEmpty())
            return fail(Usage, QStringLiteral("no journal: give --db PATH or set ONCEPAY_DB"));
        IntentJournal::Options o;
        o.path = dbPath;
        o.maxPageCount = qEnvironmentVariableIntValue("ONCEPAY_JOURNAL_MAX_PAGES");
        o.readOnly = readOnly;
        journal = std::make_unique<IntentJournal>(o);
        QString error;
        if (!journal->open(&error))
            return fail(Error, QStringLiteral("cannot use the journal %1: %2").arg(dbPath, error));
        return -1;
    }

    int parseGateways(QList<QUrl> *urls) const
    {
        QString invalid;
        const auto parsed = GatewayClient::parseBaseUrls(gatewayUrl, &invalid);
        if (!parsed)
            return fail(Usage, QStringLiteral("--gateway: expected http(s) URLs separated by commas such as "
                                              "http://127.0.0.1:8080,http://127.0.0.1:8081, got \"%1\"").arg(invalid));
        *urls = *parsed;
        return -1;
    }

    int startEngine()
    {
        if (token.isEmpty())
            return fail(Usage, QStringLiteral("no token: give --token T or set ONCEPAY_TOKEN"));
        QList<QUrl> urls;
        if (int rc = parseGateways(&urls); rc >= 0)
            return rc;
        client = std::make_unique<GatewayClient>(urls, token, requestTimeoutMs);
        SyncEngine::Config c;
        c.backoffCapMs = qEnvironmentVariableIsSet("ONCEPAY_BACKOFF_CAP_MS") ? qEnvironmentVariableIntValue("ONCEPAY_BACKOFF_CAP_MS") : 30'000;
        c.probeCapMs = qMin<qint64>(c.probeCapMs, c.backoffCapMs);
        engine = std::make_unique<SyncEngine>(journal.get(), client.get(), c);
        bool finished = false;
        bool ok = false;
        QString error;
        engine->start([&](bool o, const QString &e) { finished = true; ok = o; error = e; });
        waitFor([&] { return finished; }, -1);
        if (!ok)
            return fail(Error, QStringLiteral("cannot start: %1").arg(error));
        return -1;
    }
};

std::optional<qint64> seconds(const QString &text)
{
    bool ok = false;
    const double s = text.toDouble(&ok);
    if (!ok || s < 0)
        return std::nullopt;
    return qint64(s * 1000);
}

QList<Intent> listAll(IntentJournal &journal, IntentJournal::Query q, bool *ok, QString *error)
{
    QList<Intent> all;
    bool finished = false;
    q.limit = -1;
    journal.list(q, QCoreApplication::instance(), [&](bool o, const QString &e, QList<Intent> list) {
        *ok = o;
        *error = e;
        all = list;
        finished = true;
    });
    waitFor([&] { return finished; }, -1);
    return all;
}

int cmdPay(Session &s, const QStringList &args)
{
    QCommandLineParser p;
    p.addOptions({{QStringLiteral("amount"), QStringLiteral("Amount, e.g. 19.99."), QStringLiteral("AMOUNT")},
                  {QStringLiteral("currency"), QStringLiteral("ISO 4217 code."), QStringLiteral("CODE"), QStringLiteral("CNY")},
                  {QStringLiteral("order"), QStringLiteral("Order (sale) id."), QStringLiteral("ID")},
                  {QStringLiteral("method"), QStringLiteral("Test card token or cash."), QStringLiteral("TOKEN"), QStringLiteral("tok_visa")},
                  {QStringLiteral("no-wait"), QStringLiteral("Return after the first try.")},
                  {QStringLiteral("wait"), QStringLiteral("Seconds to wait for a final state (default 60)."), QStringLiteral("SECONDS"), QStringLiteral("60")}});
    if (!p.parse(args))
        return fail(Usage, p.errorText());
    if (!p.isSet(QStringLiteral("amount")) || !p.isSet(QStringLiteral("order")))
        return fail(Usage, QStringLiteral("pay needs --amount and --order"));
    const QString currency = p.value(QStringLiteral("currency"));
    const auto amount = Money::parse(p.value(QStringLiteral("amount")), currency);
    if (!amount)
        return fail(Usage, QStringLiteral("--amount: \"%1\" is not an amount in %2").arg(p.value(QStringLiteral("amount")), currency));
    const auto waitMs = seconds(p.value(QStringLiteral("wait")));
    if (!waitMs)
        return fail(Usage, QStringLiteral("--wait: expected seconds"));
    if (int rc = s.openJournal(); rc >= 0)
        return rc;
    if (int rc = s.startEngine(); rc >= 0)
        return rc;

    Intent current;
    bool created = false;
    QString error;
    bool finished = false;
    QObject::connect(s.engine.get(), &SyncEngine::intentChanged, s.engine.get(), [&](const Intent &i) {
        if (i.key == current.key)
            current = i;
    });
    s.engine->pay(p.value(QStringLiteral("order")), *amount, p.value(QStringLiteral("method")),
                  [&](bool ok, const QString &e, const Intent &i) {
        finished = true;
        created = ok;
        error = e;
        if (ok)
            current = i;
    });
    waitFor([&] { return finished; }, -1);
    if (!created)
        return fail(Error, error);
    const bool noWait = p.isSet(QStringLiteral("no-wait"));
    waitFor([&] {
        if (isFinal(current.state) || s.engine->isPaused())
            return true;
        // --no-wait: once the first try has an answer, or the till is offline (the intent is
        // stored and waits in the queue; older ones go first when the gateway is back).
        if (!noWait)
            return false;
        if (s.engine->connectivity() != SyncEngine::Connectivity::Online && current.state == IntentState::Queued)
            return true;
        return current.attempts >= 1 && current.state != IntentState::Sending && s.engine->requestsInFlight() == 0;
    }, noWait ? 30'000 : *waitMs);
    out(QJsonDocument(intentJson(current)).toJson(QJsonDocument::Compact) + '\n');
    if (s.engine->isPaused()) {
        fail(NeedsAttention, QStringLiteral("the gateway refused the token: %1").arg(s.engine->pauseReason()));
        return NeedsAttention;
    }
    return exitFor(current.state);
}

int cmdSync(Session &s, const QStringList &args)
{
    QCommandLineParser p;
    p.addOption({QStringLiteral("wait"), QStringLiteral("Seconds to keep trying (default 30)."), QStringLiteral("SECONDS"), QStringLiteral("30")});
    if (!p.parse(args))
        return fail(Usage, p.errorText());
    const auto waitMs = seconds(p.value(QStringLiteral("wait")));
    if (!waitMs)
        return fail(Usage, QStringLiteral("--wait: expected seconds"));
    if (int rc = s.openJournal(); rc >= 0)
        return rc;
    if (int rc = s.startEngine(); rc >= 0)
        return rc;
    const int before = s.engine->waitingCount();
    waitFor([&] { return s.engine->waitingCount() == 0 || s.engine->isPaused(); }, *waitMs);
    const int after = s.engine->waitingCount();
    out(QJsonDocument(QJsonObject{{QStringLiteral("pending_before"), before},
                                  {QStringLiteral("pending"), after},
                                  {QStringLiteral("settled"), before - after}})
            .toJson(QJsonDocument::Compact) + '\n');
    if (s.engine->isPaused())
        return fail(NeedsAttention, QStringLiteral("the gateway refused the token: %1").arg(s.engine->pauseReason()));
    return after == 0 ? Succeeded : NotFinal;
}

QByteArray table(const QList<Intent> &intents)
{
    QByteArray t = QStringLiteral("%1  %2  %3  %4  %5\n")
                       .arg(QStringLiteral("KEY"), -44).arg(QStringLiteral("STATE"), -15)
                       .arg(QStringLiteral("ORDER"), -20).arg(QStringLiteral("AMOUNT"), 14).arg(QStringLiteral("PAYMENT")).toUtf8();
    for (const Intent &i : intents) {
        t += QStringLiteral("%1  %2  %3  %4  %5\n")
                 .arg(i.key, -44).arg(intentStateName(i.state), -15).arg(i.orderId, -20)
                 .arg(i.amount.toDecimalString() + QLatin1Char(' ') + i.amount.currency(), 14).arg(i.paymentId).toUtf8();
    }
    return t;
}

int cmdList(Session &s, const QStringList &args, bool activeOnly)
{
    QCommandLineParser p;
    p.addOptions({{QStringLiteral("json"), QStringLiteral("JSON output.")},
                  {QStringLiteral("state"), QStringLiteral("Only this state."), QStringLiteral("STATE")}});
    if (!p.parse(args))
        return fail(Usage, p.errorText());
    IntentJournal::Query q;
    q.activeOnly = activeOnly;
    if (p.isSet(QStringLiteral("state"))) {
        q.state = intentStateFromName(p.value(QStringLiteral("state")));
        if (!q.state)
            return fail(Usage, QStringLiteral("--state: one of queued, sending, processing, unknown, succeeded, declined, needs_attention"));
    }
    if (int rc = s.openJournal(true); rc >= 0)
        return rc;
    bool ok = false;
    QString error;
    const QList<Intent> all = listAll(*s.journal, q, &ok, &error);
    if (!ok)
        return fail(Error, error);
    if (p.isSet(QStringLiteral("json"))) {
        QJsonArray arr;
        for (const Intent &i : all)
            arr.append(intentJson(i));
        out(QJsonDocument(arr).toJson(QJsonDocument::Compact) + '\n');
    } else {
        out(table(all));
    }
    return Succeeded;
}

int cmdShow(Session &s, const QStringList &args)
{
    QCommandLineParser p;
    p.addOption({QStringLiteral("json"), QStringLiteral("JSON output.")});
    p.addPositionalArgument(QStringLiteral("key"), QStringLiteral("The intent's key."));
    if (!p.parse(args) || p.positionalArguments().size() != 1)
        return fail(Usage, p.errorText().isEmpty() ? QStringLiteral("show needs one KEY") : p.errorText());
    const QString key = p.positionalArguments().first();
    if (int rc = s.openJournal(true); rc >= 0)
        return rc;
    Intent intent;
    QList<Attempt> attempts;
    QList<JournalEntry> entries;
    int pending = 3;
    bool ok = true;
    QString error;
    auto *ctx = QCoreApplication::instance();
    s.journal->find(key, ctx, [&](bool o, const QString &e, Intent i) { ok = ok && o; error = e; intent = i; --pending; });
    s.journal->attempts(key, ctx, [&](bool o, const QString &, QList<Attempt> a) { ok = ok && o; attempts = a; --pending; });
    s.journal->journal(key, ctx, [&](bool o, const QString &, QList<JournalEntry> j) { ok = ok && o; entries = j; --pending; });
    waitFor([&] { return pending == 0; }, -1);
    if (!ok)
        return fail(Error, error);
    if (!intent.isValid())
        return fail(Error, QStringLiteral("no intent has the key %1").arg(key));
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
    if (p.isSet(QStringLiteral("json"))) {
        out(QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n');
        return Succeeded;
    }
    QByteArray text = table({intent});
    text += "attempts:\n";
    for (const Attempt &t : attempts)
        text += QStringLiteral("  %1  %2  %3  %4 ms\n").arg(toRfc3339(t.startedAt), attemptKindName(t.kind), t.outcome).arg(t.latencyMs).toUtf8();
    text += "journal:\n";
    for (const JournalEntry &e : entries)
        text += QStringLiteral("  %1  %2 -> %3  %4\n").arg(toRfc3339(e.at), e.fromState, e.toState, e.detail).toUtf8();
    out(text);
    return Succeeded;
}

int cmdExport(Session &s, const QStringList &args)
{
    QCommandLineParser p;
    p.addOption({QStringLiteral("format"), QStringLiteral("csv or json."), QStringLiteral("FORMAT"), QStringLiteral("csv")});
    if (!p.parse(args))
        return fail(Usage, p.errorText());
    const QString format = p.value(QStringLiteral("format"));
    if (format != QLatin1String("csv") && format != QLatin1String("json"))
        return fail(Usage, QStringLiteral("--format: csv or json"));
    if (int rc = s.openJournal(true); rc >= 0)
        return rc;
    bool ok = false;
    QString error;
    const QList<Intent> all = listAll(*s.journal, {}, &ok, &error);
    if (!ok)
        return fail(Error, error);
    if (format == QLatin1String("json")) {
        QJsonArray arr;
        for (const Intent &i : all)
            arr.append(intentJson(i));
        out(QJsonDocument(arr).toJson(QJsonDocument::Compact) + '\n');
        return Succeeded;
    }
    auto csv = [](QString v) {
        if (v.contains(QLatin1Char(',')) || v.contains(QLatin1Char('"')) || v.contains(QLatin1Char('\n')))
            v = QLatin1Char('"') + v.replace(QLatin1String("\""), QLatin1String("\"\"")) + QLatin1Char('"');
        return v;
    };
    QByteArray text = "key,state,order_id,amount,currency,payment_method,payment_id,attempts,created_at,updated_at\n";
    for (const Intent &i : all) {
        const QStringList row{i.key, intentStateName(i.state), i.orderId, QString::number(i.amount.minorUnits()),
                              i.amount.currency(), i.paymentMethod, i.paymentId, QString::number(i.attempts),
                              toRfc3339(i.createdAt), toRfc3339(i.updatedAt)};
        QStringList cells;
        for (const QString &c : row)
            cells << csv(c);
        text += cells.join(QLatin1Char(',')).toUtf8() + '\n';
    }
    out(text);
    return Succeeded;
}

int cmdReconcile(Session &s, const QStringList &args)
{
    QCommandLineParser p;
    p.addOption({QStringLiteral("terminal"), QStringLiteral("Only the gateway's payments of this terminal."), QStringLiteral("ID")});
    if (!p.parse(args))
        return fail(Usage, p.errorText());
    if (int rc = s.openJournal(true); rc >= 0)
        return rc;
    if (s.token.isEmpty())
        return fail(Usage, QStringLiteral("no token: give --token T or set ONCEPAY_TOKEN"));
    QList<QUrl> urls;
    if (int rc = s.parseGateways(&urls); rc >= 0)
        return rc;
    GatewayClient client(urls, s.token, s.requestTimeoutMs);
    QHash<QString, QJsonObject> remote;
    QString cursor;
    int unreachable = 0;
    for (;;) {
        GatewayResult page;
        bool finished = false;
        client.listPayments(p.value(QStringLiteral("terminal")), cursor, 500, &client, [&](const GatewayResult &r) { page = r; finished = true; });
        waitFor([&] { return finished; }, -1);
        // A read: the same page again from the next gateway (the client moved on) is harmless.
        if (GatewayClient::isUnreachable(page) && ++unreachable < client.gatewayCount())
            continue;
        unreachable = 0;
        if (!page.answered() || page.status != 200)
            return fail(Error, QStringLiteral("the gateway's list is not available: %1").arg(page.summary()));
        for (const QJsonValue &v : page.json.value(QStringLiteral("data")).toArray()) {
            const QJsonObject o = v.toObject();
            remote.insert(o.value(QStringLiteral("idempotency_key")).toString(), o);
        }
        cursor = page.json.value(QStringLiteral("next_cursor")).toString();
        if (cursor.isEmpty())
            break;
    }
    bool ok = false;
    QString error;
    const QList<Intent> local = listAll(*s.journal, {}, &ok, &error);
    if (!ok)
        return fail(Error, error);
    QJsonArray missing, extra, different;
    QSet<QString> localKeys;
    for (const Intent &i : local) {
        if (i.isCash())
            continue;
        localKeys.insert(i.key);
        const auto it = remote.constFind(i.key);
        if (it == remote.cend()) {
            // Never sent, or sent and given back (502): expected. Anything the gateway settled must be there.
            if (i.state == IntentState::Succeeded || i.state == IntentState::Declined || i.state == IntentState::Processing)
                missing.append(intentJson(i));
            continue;
        }
        const IntentState theirs = stateForPaymentStatus(it->value(QStringLiteral("status")).toString());
        if (theirs != i.state)
            different.append(QJsonObject{{QStringLiteral("key"), i.key}, {QStringLiteral("local"), intentStateName(i.state)},
                                         {QStringLiteral("gateway"), it->value(QStringLiteral("status"))}});
    }
    for (auto it = remote.cbegin(); it != remote.cend(); ++it) {
        if (!localKeys.contains(it.key()))
            extra.append(it.value());
    }
    out(QJsonDocument(QJsonObject{{QStringLiteral("missing"), missing}, {QStringLiteral("extra"), extra},
                                  {QStringLiteral("different"), different}})
            .toJson(QJsonDocument::Compact) + '\n');
    return missing.isEmpty() && extra.isEmpty() && different.isEmpty() ? Succeeded : NotFinal;
}

int cmdProxy(const QStringList &args)
{
    QCommandLineParser p;
    p.addOptions({{QStringLiteral("listen"), QStringLiteral("ADDR:PORT to listen on."), QStringLiteral("ADDR:PORT"), QStringLiteral("127.0.0.1:0")},
                  {QStringLiteral("upstream"), QStringLiteral("The gateway's URL."), QStringLiteral("URL")},
                  {QStringLiteral("mode"), QStringLiteral("online, offline, black_hole, lose_responses, latency=MS, flaky=PCT."),
                   QStringLiteral("MODE"), QStringLiteral("online")}});
    if (!p.parse(args))
        return fail(Usage, p.errorText());
    const QString listen = p.value(QStringLiteral("listen"));
    const qsizetype colon = listen.lastIndexOf(QLatin1Char(':'));
    QHostAddress address;
    bool portOk = false;
    const uint port = colon > 0 ? listen.mid(colon + 1).toUInt(&portOk) : 0;
    if (colon <= 0 || !portOk || port > 65535 || !address.setAddress(listen.left(colon)))
        return fail(Usage, QStringLiteral("--listen: expected ADDR:PORT, got \"%1\"").arg(listen));
    const QUrl upstream(p.value(QStringLiteral("upstream")));
    if (!upstream.isValid() || upstream.host().isEmpty() || upstream.port() <= 0)
        return fail(Usage, QStringLiteral("--upstream: expected a URL with a port such as http://127.0.0.1:8080"));
    const auto settings = NetSim::FaultProxy::parseMode(p.value(QStringLiteral("mode")));
    if (!settings)
        return fail(Usage, QStringLiteral("--mode: \"%1\" is not a mode (online, offline, black_hole, lose_responses, latency=MS, flaky=PCT)")
                               .arg(p.value(QStringLiteral("mode"))));
    NetSim::FaultProxy proxy;
    QString error;
    if (!proxy.listen(address, quint16(port), upstream.host(), quint16(upstream.port()), &error))
        return fail(Error, error);
    proxy.setSettings(*settings);
    out(QStringLiteral("proxy listening on %1 -> %2 (%3)\n")
            .arg(proxy.url().toString(), upstream.toString(), NetSim::FaultProxy::describe(*settings)).toUtf8());
    UnixSignals signalWatcher({SIGTERM, SIGINT});
    QObject::connect(&signalWatcher, &UnixSignals::received, QCoreApplication::instance(), [] { QCoreApplication::exit(0); });
    return QCoreApplication::exec();
}

} // namespace

int run(const QStringList &arguments)
{
    // Global options come before the command; each command parses the rest.
    Session s;
    s.dbPath = qEnvironmentVariable("ONCEPAY_DB");
    s.gatewayUrl = qEnvironmentVariable("ONCEPAY_GATEWAY", QStringLiteral("http://127.0.0.1:8080"));
    s.token = qEnvironmentVariable("ONCEPAY_TOKEN");
    int i = 1;
    for (; i < arguments.size(); ++i) {
        const QString a = arguments.at(i);
        auto value = [&](QString *target) {
            if (i + 1 >= arguments.size())
                return false;
            *target = arguments.at(++i);
            return true;
        };
        if (a == QLatin1String("--help") || a == QLatin1String("-h")) {
            out(kUsage);
            return Succeeded;
        }
        if (a == QLatin1String("--db")) {
            if (!value(&s.dbPath))
                return fail(Usage, QStringLiteral("--db needs a PATH"));
        } else if (a == QLatin1String("--gateway")) {
            if (!value(&s.gatewayUrl))
                return fail(Usage, QStringLiteral("--gateway needs a URL"));
            QList<QUrl> urls;   // a malformed list is an error even for commands that do not use it
            if (int rc = s.parseGateways(&urls); rc >= 0)
                return rc;
        } else if (a == QLatin1String("--token")) {
            if (!value(&s.token))
                return fail(Usage, QStringLiteral("--token needs a value"));
        } else if (a == QLatin1String("--request-timeout")) {
            QString v;
            const auto ms = value(&v) ? parseDurationMs(v) : std::nullopt;
            if (!ms || *ms < 10)
                return fail(Usage, QStringLiteral("--request-timeout needs a duration such as 500ms or 10s"));
            s.requestTimeoutMs = int(*ms);
        } else {
            break;
        }
    }
    if (i >= arguments.size())
        return fail(Usage, QStringLiteral("no command (try --help)"));
    const QString command = arguments.at(i);
    const QStringList rest = QStringList{arguments.first() + QLatin1Char(' ') + command} + arguments.mid(i + 1);
    if (command == QLatin1String("pay"))
        return cmdPay(s, rest);
    if (command == QLatin1String("sync"))
        return cmdSync(s, rest);
    if (command == QLatin1String("list"))
        return cmdList(s, rest, false);
    if (command == QLatin1String("queue"))
        return cmdList(s, rest, true);
    if (command == QLatin1String("show"))
        return cmdShow(s, rest);
    if (command == QLatin1String("export"))
        return cmdExport(s, rest);
    if (command == QLatin1String("reconcile"))
        return cmdReconcile(s, rest);
    if (command == QLatin1String("proxy"))
        return cmdProxy(rest);
    return fail(Usage, QStringLiteral("unknown command \"%1\" (try --help)").arg(command));
}

} // namespace OncePay::Ctl
