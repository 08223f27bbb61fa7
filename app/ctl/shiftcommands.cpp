#include "shiftcommands.h"

#include "commandline.h"
#include "ctloutput.h"
#include "ctlsession.h"
#include "eventwait.h"
#include "exitcode.h"
#include "shiftbook.h"
#include "shiftcheck.h"
#include "timeutil.h"

#include <QDateTime>

namespace OncePay::Ctl {

namespace {

struct ShiftView
{
    ShiftBook::Snapshot snapshot;
    ShiftReport report;
    ShiftCheck::Result reconciliation;
    QString unreconciled;   // why the gateway could not be asked (close-shift --yes closes all the same)
};

QList<QCommandLineOption> commonOptions()
{
    return {
        {QStringLiteral("json"), QStringLiteral("JSON output: {\"report\": ..., \"reconciliation\": ...} on one line.")},
        {QStringLiteral("currency"), QStringLiteral("The till's currency (default: the one most of the shift's payments use)."),
            QStringLiteral("CODE")},
        {QStringLiteral("terminal"), QStringLiteral("The terminal whose payments the gateway lists, when none of the shift's "
                                                    "payments names it (default ONCEPAY_TERMINAL)."),
            QStringLiteral("ID")},
        {QStringLiteral("no-bank"), QStringLiteral("Do not ask a demo gateway's acquirer ledger.")},
    };
}

// "--counted-cash 123.45" in the report's currency; std::nullopt and *rc set when it is not one.
std::optional<qint64> amountOption(const CommandLine &cl, const QString &name, const QString &currency, std::optional<int> *rc)
{
    const auto m = Money::parse(cl.value(name), currency);
    if (!m || m->minorUnits() < 0) {
        *rc = fail(Usage, QStringLiteral("--%1: \"%2\" is not an amount in %3").arg(name, cl.value(name), currency));
        return std::nullopt;
    }
    return m->minorUnits();
}

// Amount options checked before anything is opened (bad usage stores nothing): in --currency,
// or CNY's form until the shift's currency is known.
std::optional<int> checkAmounts(const CommandLine &cl, const QStringList &names)
{
    const QString currency = cl.isSet(QStringLiteral("currency")) ? cl.value(QStringLiteral("currency")) : QStringLiteral("CNY");
    if (!Money::isSupportedCurrency(currency))
        return fail(Usage, QStringLiteral("--currency: \"%1\" is not a currency the till knows").arg(currency));
    std::optional<int> rc;
    for (const QString &name : names) {
        if (cl.isSet(name) && !amountOption(cl, name, currency, &rc))
            return rc;
    }
    return std::nullopt;
}

// The open shift, its report and its reconciliation with the gateway (and the bank, in demo mode).
std::optional<int> gather(CtlSession &session, const CommandLine &cl, ShiftBook &book, ShiftView *view,
    bool allowUnreconciled = false)
{
    bool finished = false;
    bool ok = false;
    QString error;
    EventWait read([&] {
        return finished;
    });
    book.current(read.context(), [&](bool o, const TillError &e, ShiftBook::Snapshot s) {
        ok = o;
        error = e.text();
        view->snapshot = std::move(s);
        finished = true;
        read.recheck();
    });
    read.exec();
    if (!ok)
        return fail(Error, error);

    ShiftCheck::Options options;
    options.terminalId = cl.isSet(QStringLiteral("terminal")) ? cl.value(QStringLiteral("terminal"))
                                                              : qEnvironmentVariable("ONCEPAY_TERMINAL");
    options.askBank = !cl.isSet(QStringLiteral("no-bank"));
    ShiftCheck reconciler(session.till().client(), &book, options);
    finished = false;
    EventWait reconciled([&] {
        return finished;
    });
    reconciler.run(view->snapshot, reconciled.context(), [&](bool o, const QString &e, const ShiftCheck::Result &r) {
        ok = o;
        error = e;
        view->reconciliation = r;
        finished = true;
        reconciled.recheck();
    });
    reconciled.exec();
    if (!ok && !allowUnreconciled)
        return fail(Error, QStringLiteral("the shift cannot be reconciled, the gateway's list is not available: %1").arg(error));
    if (!ok) {
        view->reconciliation = {};
        view->unreconciled = error;
    }
    view->report = ShiftReport::compute(view->snapshot.reportInput(cl.value(QStringLiteral("currency")), std::nullopt));
    return std::nullopt;
}

QString money(const ShiftReport &r, qint64 minor)
{
    return r.money(minor).toDecimalString();
}

QString time(qint64 ms)
{
    return ms > 0 ? QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm")) : QStringLiteral("-");
}

QString line(const QString &label, const ShiftReport &r, const ShiftReport::Totals &t)
{
    return QStringLiteral("  %1 %2 %3\n").arg(label, -26).arg(t.count, 6).arg(money(r, t.amount), 14);
}

QString waitingLine(const ShiftReport::Waiting &w)
{
    return QStringLiteral("%1 %2 (sale %3, %4, %5%6)")
        .arg(intentKindName(w.kind), w.key, w.saleLabel(), w.amount.toDisplayString(), intentStateName(w.state),
            w.carriedOver ? QStringLiteral(", from an earlier shift") : QString());
}

// A refund the till owes, with what to do about it (issue 35).
QString owedLine(const ShiftReport::Waiting &w)
{
    return waitingLine(w) + QStringLiteral(": ") + ShiftReport::owedAdvice(w.amount, w.paymentKey);
}

QByteArray reportText(const ShiftView &v, bool closed)
{
    const ShiftReport &r = v.report;
    QString t = QStringLiteral("Shift %1 %2, opened %3%4, %5 intents, in %6\n")
                    .arg(r.number)
                    .arg(closed ? QStringLiteral("closed") : QStringLiteral("(open)"), time(r.openedAt),
                        closed ? QStringLiteral(", closed ") + time(r.closedAt) : QString())
                    .arg(v.snapshot.intents.size())
                    .arg(r.currency);
    t += QStringLiteral("  %1 %2 %3\n").arg(QString(), -26).arg(QStringLiteral("COUNT"), 6).arg(QStringLiteral("AMOUNT"), 14);
    t += line(QStringLiteral("card sales"), r, r.cardSales);
    if (r.wechatSales.count > 0 || r.alipaySales.count > 0)   // the wallets among them (issue 26)
        t += line(QStringLiteral("  of which WeChat Pay"), r, r.wechatSales) + line(QStringLiteral("  of which Alipay"), r, r.alipaySales);
    t += line(QStringLiteral("cash sales"), r, r.cashSales);
    t += line(QStringLiteral("card refunds"), r, r.cardRefunds) + line(QStringLiteral("cash refunds"), r, r.cashRefunds);
    t += line(QStringLiteral("refunds failed"), r, r.failedRefunds) + line(QStringLiteral("declined"), r, r.declined);
    t += line(QStringLiteral("wallet cancelled"), r, r.cancelledWallet);
    t += line(QStringLiteral("voided"), r, r.voided) + line(QStringLiteral("needs attention"), r, r.needsAttention);
    t += line(QStringLiteral("waiting payments"), r, r.waitingPayments) + line(QStringLiteral("waiting refunds"), r, r.waitingRefunds);
    t += QStringLiteral("  %1 %2 %3\n").arg(QStringLiteral("net (sales - refunds)"), -26).arg(QString(), 6).arg(money(r, r.netTotal()), 14);
    t += QStringLiteral("Cash drawer: float %1 + cash sales %2 - cash refunds %3 = expected %4")
             .arg(money(r, r.openingFloat), money(r, r.cashSales.amount), money(r, r.cashRefunds.amount), money(r, r.cashExpected()));
    if (r.countedCash)
        t += QStringLiteral("; counted %1, difference %2").arg(money(r, *r.countedCash), money(r, *r.cashDifference()));
    t += QLatin1Char('\n');
    for (const ShiftReport::Waiting &w : r.waiting)
        t += QStringLiteral("Waiting: ") + waitingLine(w) + QLatin1Char('\n');
    for (const ShiftReport::Waiting &w : r.carriedOverEnded)
        t += QStringLiteral("Waiting at the last close, now %1: ").arg(intentStateName(w.state)) + waitingLine(w) + QLatin1Char('\n');
    for (const ShiftReport::Waiting &w : r.refundsByTill) {
        t += QStringLiteral("Refunded by the till (%1, %2): ").arg(w.reason, intentStateName(w.state)) + waitingLine(w)
            + QLatin1Char('\n');
    }
    for (const ShiftReport::Waiting &w : r.refundsOwed)
        t += QStringLiteral("Owed to a customer: ") + owedLine(w) + QLatin1Char('\n');
    if (!v.unreconciled.isEmpty())
        t += QStringLiteral("Reconciliation: not checked, the gateway did not answer: %1\n").arg(v.unreconciled);
    const ShiftCheck::Result &rec = v.reconciliation;
    int agree = 0;
    for (const ShiftFinding &f : rec.findings)
        agree += !f.needsAction();
    t += QStringLiteral("Reconciliation (terminal %1, %2 listed in %3 pages, bank %4): %5 of %6 rows need nothing\n")
             .arg(rec.terminalId.isEmpty() ? QStringLiteral("any") : rec.terminalId)
             .arg(rec.listed)
             .arg(rec.pages)
             .arg(rec.bankAsked ? QStringLiteral("asked") : QStringLiteral("not asked"))
             .arg(agree)
             .arg(rec.findings.size());
    for (const ShiftFinding &f : rec.findings) {
        if (!f.needsAction())
            continue;
        t += QStringLiteral("  %1 %2 %3  %4  bank: %5\n    to do: %6\n")
                 .arg(shiftSubjectName(f.subject), -12)
                 .arg(f.key, -44)
                 .arg(f.findingText(), -18)
                 .arg(f.localState ? intentStateName(*f.localState) : QStringLiteral("-"), f.bankText(), f.advice());
    }
    return t.toUtf8();
}

void print(const ShiftView &v, bool json, bool closed)
{
    if (json)
        outJson(QJsonObject{{QStringLiteral("report"), v.report.toJson()}, {QStringLiteral("reconciliation"), v.reconciliation.toJson()}});
    else
        out(reportText(v, closed));
}

bool needsPerson(const ShiftCheck::Result &r)
{
    return std::any_of(r.findings.cbegin(), r.findings.cend(),
        [](const ShiftFinding &f) {
            return f.action == ShiftFinding::Action::Investigate;
        });
}

}   // namespace

int shiftCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("shift"), QStringLiteral("[--json] [--counted-cash AMOUNT] [options]"),
        QStringLiteral("The open shift's Z report, as the till's Close shift shows it: totals by tender, refunds,\n"
                       "voids, what still waits, the cash the drawer should hold, sales per hour, and the\n"
                       "reconciliation with the gateway (and the demo's bank), each row with what to do. Reads only:\n"
                       "it works beside the till. Exit 0 when nothing needs doing, 4 otherwise."));
    cl.addOptions(commonOptions());
    cl.addOption({QStringLiteral("counted-cash"), QStringLiteral("Cash counted in the drawer, to compare."), QStringLiteral("AMOUNT")});
    if (auto rc = cl.parse(arguments))
        return *rc;
    if (auto rc = checkAmounts(cl, {QStringLiteral("counted-cash")}))
        return *rc;
    if (auto rc = session.open(CtlSession::Use::ReadAndAsk))
        return *rc;
    ShiftBook book(session.till().journal());
    ShiftView view;
    if (auto rc = gather(session, cl, book, &view))
        return *rc;
    if (cl.isSet(QStringLiteral("counted-cash"))) {
        std::optional<int> rc;
        view.report.countedCash = amountOption(cl, QStringLiteral("counted-cash"), view.report.currency, &rc);
        if (rc)
            return *rc;
    }
    print(view, cl.isSet(QStringLiteral("json")), false);
    return view.reconciliation.allAgree() && !view.report.hasWaiting() && !view.report.owesRefunds() ? Succeeded : NotFinal;
}

int closeShiftCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("close-shift"), QStringLiteral("[--json] [--counted-cash AMOUNT] [--opening-float AMOUNT] [--yes] [options]"),
        QStringLiteral("Closes the open shift: reconciles it with the gateway (and the demo's bank), stores its Z\n"
                       "report in the journal and prints it as `shift` does; the next payment opens the next\n"
                       "shift. Payments still waiting for the gateway, and refunds the till owes and could not\n"
                       "make (its own refund of a card part given up, declined), are named on stderr and the\n"
                       "shift stays open, unless --yes: then the waiting ones are carried into the next shift and\n"
                       "the refunds owed are kept in the report. When the gateway does not\n"
                       "answer, --yes also closes the shift without the check (said in the report kept). The\n"
                       "journal must not be in use by a till. Exit 0 closed, 4 not closed (payments wait or a\n"
                       "refund is owed), 5 closed but a reconciliation row or a refund owed needs a person, or\n"
                       "closed without the check."));
    cl.addOptions(commonOptions());
    cl.addOptions({{QStringLiteral("counted-cash"), QStringLiteral("Cash counted in the drawer."), QStringLiteral("AMOUNT")},
        {QStringLiteral("next-float"), QStringLiteral("Cash left in the drawer for the next shift (default 0)."),
            QStringLiteral("AMOUNT")},
        {QStringLiteral("opening-float"), QStringLiteral("The till's first shift only: the cash put in the drawer when it opened\n"
                                                         "(a later shift opens with what the previous close left)."),
            QStringLiteral("AMOUNT")},
        {QStringLiteral("yes"), QStringLiteral("Close even with payments waiting (they move to the next shift) or refunds owed.")}});
    if (auto rc = cl.parse(arguments))
        return *rc;
    if (auto rc = checkAmounts(cl, {QStringLiteral("counted-cash"), QStringLiteral("next-float"), QStringLiteral("opening-float")}))
        return *rc;
    if (auto rc = session.open(CtlSession::Use::OwnAndAsk))
        return *rc;
    ShiftBook book(session.till().journal());
    ShiftView view;
    if (auto rc = gather(session, cl, book, &view, cl.isSet(QStringLiteral("yes"))))
        return *rc;
    ShiftBook::Close request;
    request.number = view.snapshot.number;
    request.lastIntentId = view.snapshot.lastIntentId;
    request.currency = view.report.currency;
    std::optional<int> rc;
    if (cl.isSet(QStringLiteral("counted-cash")))
        request.countedCash = amountOption(cl, QStringLiteral("counted-cash"), request.currency, &rc);
    if (cl.isSet(QStringLiteral("next-float")))
        request.nextFloat = amountOption(cl, QStringLiteral("next-float"), request.currency, &rc).value_or(0);
    if (cl.isSet(QStringLiteral("opening-float")))
        request.openingFloat = amountOption(cl, QStringLiteral("opening-float"), request.currency, &rc);
    if (rc)
        return *rc;
    if (request.openingFloat && !view.snapshot.isFirst()) {
        return fail(Error, QStringLiteral("shift %1 is not closed: it opened with the %2 the previous close left; --opening-float "
                                          "is only for a till's first shift")
                               .arg(request.number)
                               .arg(Money(view.snapshot.openingFloat, request.currency).toDisplayString()));
    }
    if (view.report.hasWaiting()) {
        QStringList named;
        for (const ShiftReport::Waiting &w : std::as_const(view.report.waiting))
            named << waitingLine(w);
        if (!cl.isSet(QStringLiteral("yes"))) {
            return fail(NotFinal, QStringLiteral("shift %1 is not closed: %2 still wait for the gateway: %3. Run `oncepay-ctl sync` "
                                                 "first, or close with --yes to carry them into the next shift.")
                                      .arg(view.report.number)
                                      .arg(named.size())
                                      .arg(named.join(QStringLiteral("; "))));
        }
        for (const ShiftReport::Waiting &w : std::as_const(view.report.waiting))
            request.confirmedWaiting << w.key;
    }
    // Issue 35: a refund the till could not make is the customer's money in the shop's hands.
    if (view.report.owesRefunds()) {
        QStringList named;
        for (const ShiftReport::Waiting &w : std::as_const(view.report.refundsOwed))
            named << owedLine(w);
        if (!cl.isSet(QStringLiteral("yes"))) {
            return fail(NotFinal, QStringLiteral("shift %1 is not closed: the till owes %2 refund(s) it could not make: %3 "
                                                 "Close with --yes once that is in hand; the report keeps them.")
                                      .arg(view.report.number)
                                      .arg(named.size())
                                      .arg(named.join(QStringLiteral("; "))));
        }
        for (const ShiftReport::Waiting &w : std::as_const(view.report.refundsOwed))
            request.confirmedOwed << w.key;
    }
    request.reconciliation = view.reconciliation.toJson();
    if (!view.unreconciled.isEmpty()) {
        request.reconciliation = QJsonObject{{QStringLiteral("checked"), false}, {QStringLiteral("problem"), view.unreconciled}};
        (void)fail(NeedsAttention, QStringLiteral("shift %1 is closed without the gateway's check (%2); the next shift's report says how its waiting "
                                                  "payments ended")
                                       .arg(request.number)
                                       .arg(view.unreconciled));
    }

    bool finished = false;
    bool ok = false;
    QString error;
    EventWait closing([&] {
        return finished;
    });
    book.close(request, closing.context(), [&](bool o, const TillError &e, ShiftReport r) {
        ok = o;
        error = e.text();
        view.report = std::move(r);
        finished = true;
        closing.recheck();
    });
    closing.exec();
    if (!ok)
        return fail(Error, QStringLiteral("shift %1 is not closed: %2").arg(request.number).arg(error));
    print(view, cl.isSet(QStringLiteral("json")), true);
    return needsPerson(view.reconciliation) || !view.unreconciled.isEmpty() || view.report.owesRefunds() ? NeedsAttention : Succeeded;
}

}   // namespace OncePay::Ctl
