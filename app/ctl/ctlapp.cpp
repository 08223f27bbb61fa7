#include "ctlapp.h"

#include "catalogcommands.h"
#include "commandline.h"
#include "ctloutput.h"
#include "ctlsession.h"
#include "exitcode.h"
#include "journalcommands.h"
#include "officecommands.h"
#include "paycommands.h"
#include "proxycommand.h"
#include "reconcilecommand.h"
#include "refundcommands.h"
#include "salecommands.h"
#include "shiftcommands.h"
#include "staffcommands.h"
#include "timeutil.h"

#include <QCommandLineParser>

#include <climits>

namespace OncePay::Ctl {

namespace {

struct Command
{
    const char *name;
    const char *synopsis;   // for the overview; `oncepay-ctl COMMAND --help` has the details
    const char *summary;
    int (*run)(CtlSession &session, const QStringList &arguments);
};

constexpr Command kCommands[] = {
    {"pay", "--amount 19.99 [--currency CNY] --order ID [--method tok_visa|wallet:CODE|cash] [--no-wait] [--wait SECONDS]",
        "store a payment intent, send it, wait for the gateway's answer", payCommand},
    {"refund", "PAYMENT_KEY [--amount 5.00] [--reason TEXT] [--no-wait] [--wait SECONDS]",
        "refund a payment of this till (to the card, or cash from the drawer), wait for the answer", refundCommand},
    {"sale", "--item CODE[:QTY]... --tender T... [--no-wait] [--wait SECONDS]",
        "ring up a sale and take its tenders (card[:AMOUNT], card/TOKEN[:AMOUNT], wallet/CODE[:AMOUNT], cash[:AMOUNT]) in order", saleCommand},
    {"catalog", "import FILE | show CODE [--json] | export [--format csv|json]",
        "the till's catalog (beside its journal): import a CSV or JSON file, show a product, export", catalogCommand},
    {"staff", "add NAME --role cashier|manager | list [--json]",
        "the till's staff (beside its journal): add a person (PIN from a terminal or standard input), list", staffCommand},
    {"sales", "[--json]", "every sale with its tenders, newest last", salesCommand},
    {"pay-another-way", "KEY --tender T... [--no-wait] [--wait SECONDS]",
        "give up the card part KEY (refunded by the till if it turns out charged) and take the rest", payAnotherWayCommand},
    {"sale-cancel", "SALE [--wait SECONDS]", "cancel a sale not paid: void or give up its cards, refund, hand back cash",
        saleCancelCommand},
    {"cancel", "KEY [--wait SECONDS]", "give up a wallet payment waiting for the customer's confirmation (once)", cancelCommand},
    {"void", "KEY", "cancel a card payment or refund that is queued and was never sent", voidCommand},
    {"sync", "[--wait SECONDS]", "send what waits until nothing is pending or the time is up", syncCommand},
    {"list", "[--json] [--state S] [--kind K]", "every intent of the journal (payments and refunds)", listCommand},
    {"queue", "[--json] [--state S]", "what is not final", queueCommand},
    {"show", "KEY [--json]", "one intent with its attempts and journal (a payment: and its refunds)", showCommand},
    {"reconcile", "[--terminal T] [--explain]", "the journal against the gateway's list: missing, extra, different",
        reconcileCommand},
    {"shift", "[--json] [--counted-cash AMOUNT]", "the open shift's Z report, reconciled with the gateway (and the demo's bank)",
        shiftCommand},
    {"close-shift", "[--json] [--counted-cash AMOUNT] [--next-float AMOUNT] [--yes]",
        "close the shift: its Z report stored in the journal; refused while payments wait, unless --yes", closeShiftCommand},
    {"export", "[--format csv|json]", "every intent", exportCommand},
    {"office", "status [--json] | push [--wait SECONDS] | report --from DAY --to DAY [--group-by G] [--json|--csv]",
        "the till's outbox and the shop's office: what waits to be sent; send it now; the shop's sales report", officeCommand},
    {"proxy", "--upstream URL [--listen ADDR:PORT] [--mode MODE]", "a network simulator in front of a gateway", proxyCommand},
};

const Command *findCommand(const QString &name)
{
    for (const Command &c : kCommands) {
        if (name == QLatin1String(c.name))
            return &c;
    }
    return nullptr;
}

QString globalHelp(const QCommandLineParser &parser)
{
    QString text = CommandLine::helpText(parser, QStringLiteral("oncepay-ctl [global options] COMMAND [options]"));
    text += QStringLiteral("\nCommands:\n");
    for (const Command &c : kCommands)
        text += QStringLiteral("  %1 %2\n      %3\n").arg(QLatin1String(c.name), QLatin1String(c.synopsis), QLatin1String(c.summary));
    text += QStringLiteral(
        "\n`oncepay-ctl COMMAND --help` (or `oncepay-ctl help COMMAND`) shows a command's options.\n"
        "--gateway: several URLs, comma separated, are instances of one gateway (one database); when one\n"
        "  cannot be reached the next is tried, with the same idempotency key.\n"
        "--office: the shop's office (OFFICE.md); every command that sends (pay, sale, sync...) sends the\n"
        "  till's outbox there too, and `office push` only that.\n"
        "Environment: ONCEPAY_DB, ONCEPAY_GATEWAY, ONCEPAY_TOKEN, ONCEPAY_OFFICE, ONCEPAY_OFFICE_TOKEN,\n"
        "  ONCEPAY_OFFICE_TILL (defaults of the options above);\n"
        "  ONCEPAY_BACKOFF_CAP_MS (longest wait between retries), ONCEPAY_JOURNAL_MAX_PAGES (a bounded journal, for tests).\n"
        "Exit: 0 succeeded/ok (void: voided), 1 error or refused, 2 usage, 3 declined (or voided), 4 not final yet\n"
        "  (or differences), 5 needs attention.\n");
    return text;
}

}   // namespace

int run(const QStringList &arguments)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("The till's client without a window, for scripts, support staff and tests."));
    // Everything from the command on belongs to the command.
    p.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);
    const QCommandLineOption version({QStringLiteral("v"), QStringLiteral("version")}, QStringLiteral("Displays the version."));
    const QCommandLineOption db(QStringLiteral("db"), QStringLiteral("The till's journal (SQLite file)."), QStringLiteral("PATH"));
    const QCommandLineOption gateway(QStringLiteral("gateway"),
        QStringLiteral("The gateway: one URL, or several instances of one gateway, comma "
                       "separated (default http://127.0.0.1:8080)."),
        QStringLiteral("URL[,URL...]"));
    const QCommandLineOption token(QStringLiteral("token"), QStringLiteral("The terminal's API token."), QStringLiteral("T"));
    const QCommandLineOption timeout(QStringLiteral("request-timeout"),
        QStringLiteral("Time a request to the gateway may take, e.g. 500ms or 10s (default 10s)."),
        QStringLiteral("DURATION"));
    const QCommandLineOption caFile(QStringLiteral("ca-file"),
        QStringLiteral("Certificate authorities (PEM) to trust for an https:// gateway, besides the system's."),
        QStringLiteral("FILE"));
    const QCommandLineOption insecure(QStringLiteral("allow-insecure-http"),
        QStringLiteral("Allow sending the token over plain HTTP to a gateway on another machine."));
    const QCommandLineOption office(QStringLiteral("office"),
        QStringLiteral("The shop's office, where the till's records are sent (default: none)."), QStringLiteral("URL"));
    const QCommandLineOption officeToken(QStringLiteral("office-token"), QStringLiteral("The till's token at the office."),
        QStringLiteral("T"));
    const QCommandLineOption officeTill(QStringLiteral("office-till"),
        QStringLiteral("The till's number at the office (default 1)."), QStringLiteral("N"));
    p.addOptions({CommandLine::helpOption(), version, db, gateway, token, timeout, caFile, insecure, office, officeToken, officeTill});
    p.addPositionalArgument(QStringLiteral("command"), QStringLiteral("One of the commands below, then its own options."),
        QStringLiteral("COMMAND [options]"));
    if (!p.parse(arguments))
        return fail(Usage, p.errorText());
    if (p.isSet(QStringLiteral("help"))) {
        out(globalHelp(p).toUtf8());
        return Succeeded;
    }
    if (p.isSet(version)) {
        out(QByteArrayLiteral("oncepay-ctl " ONCEPAY_VERSION "\n"));
        return Succeeded;
    }

    CtlSession::Options options = CtlSession::optionsFromEnvironment();
    if (p.isSet(db))
        options.dbPath = p.value(db);
    if (p.isSet(gateway)) {
        options.gateways = p.value(gateway);
        if (auto rc = CtlSession::checkGateways(options.gateways))   // even for commands that do not use it
            return *rc;
    }
    if (p.isSet(token))
        options.token = p.value(token);
    if (p.isSet(caFile))
        options.caFile = p.value(caFile);
    if (p.isSet(office))
        options.office = p.value(office);
    if (auto rc = CtlSession::checkOffice(options.office))
        return *rc;
    if (p.isSet(officeToken))
        options.officeToken = p.value(officeToken);
    if (p.isSet(officeTill))
        options.officeTill = p.value(officeTill);
    options.allowInsecureHttp = options.allowInsecureHttp || p.isSet(insecure);
    if (p.isSet(timeout)) {
        const auto ms = parseDurationMs(p.value(timeout));
        if (!ms || *ms < 10)
            return fail(Usage, QStringLiteral("--request-timeout needs a duration such as 500ms or 10s"));
        options.requestTimeoutMs = int(qMin<qint64>(*ms, INT_MAX));
    }

    const QStringList positional = p.positionalArguments();
    if (positional.isEmpty())
        return fail(Usage, QStringLiteral("no command (try --help)"));
    QString name = positional.first();
    QStringList rest = positional.mid(1);
    if (name == QLatin1String("help")) {
        if (rest.isEmpty()) {
            out(globalHelp(p).toUtf8());
            return Succeeded;
        }
        name = rest.first();
        rest = {QStringLiteral("--help")};
    }
    const Command *command = findCommand(name);
    if (!command)
        return fail(Usage, QStringLiteral("unknown command \"%1\" (try --help)").arg(name));
    CtlSession session(options);
    return command->run(session, rest);
}

}   // namespace OncePay::Ctl
