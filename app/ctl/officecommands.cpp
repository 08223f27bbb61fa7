#include "officecommands.h"

#include "commandline.h"
#include "ctloutput.h"
#include "ctlsession.h"
#include "eventwait.h"
#include "exitcode.h"
#include "followintent.h"
#include "officeevents.h"
#include "officereportcommand.h"
#include "officesync.h"

#include <QJsonObject>

namespace OncePay::Ctl {

namespace {

// {"office": URL, "waiting": N, "last_sent_seq": K, "oldest_waiting_at": T}: OFFICE.md's names.
QJsonObject statusJson(const QString &office, const OfficeEvents::Status &s)
{
    return QJsonObject{{QStringLiteral("office"), office.isEmpty() ? QJsonValue() : QJsonValue(office)},
        {QStringLiteral("waiting"), s.waiting}, {QStringLiteral("last_sent_seq"), s.lastSentSeq},
        {QStringLiteral("oldest_waiting_at"),
            s.oldestWaitingAtMs > 0 ? QJsonValue(OfficeEvents::isoMs(s.oldestWaitingAtMs)) : QJsonValue()}};
}

OfficeEvents::Status fromSync(const OfficeSync::Status &s)
{
    OfficeEvents::Status out;
    out.waiting = s.waiting;
    out.lastSentSeq = s.lastSentSeq;
    out.lastSeq = s.lastSeq;
    out.oldestWaitingAtMs = s.oldestWaitingAtMs;
    return out;
}

int statusCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("office status"), QStringLiteral("[--json]"),
        QStringLiteral("What of the till's outbox waits to be sent to the office: how many events, the last\n"
                       "one the office acknowledged and when the oldest waiting one happened. Read beside the\n"
                       "till; nothing is sent."));
    cl.addOption({QStringLiteral("json"), QStringLiteral("One JSON object: office, waiting, last_sent_seq, oldest_waiting_at.")});
    if (auto rc = cl.parse(arguments))
        return *rc;
    if (!cl.positionalArguments().isEmpty())
        return fail(Usage, QStringLiteral("office status takes no argument (try --help)"));
    if (auto rc = session.open(CtlSession::Use::ReadJournal))
        return *rc;
    std::optional<OfficeEvents::Status> status;
    QString error;
    EventWait read([&] {
        return status.has_value() || !error.isEmpty();
    });
    session.till().journal()->transact<OfficeEvents::Status>(
        read.context(), [](SqlTx &tx) {
            return OfficeEvents::status(tx);
        },
        [&](bool ok, const TillError &e, const OfficeEvents::Status &s) {
            if (ok)
                status = s;
            else
                error = e.text();
            read.recheck();
        });
    read.exec();
    if (!status)
        return fail(Error, QStringLiteral("the outbox cannot be read: %1").arg(error));
    const QString office = session.options().office;
    if (cl.isSet(QStringLiteral("json"))) {
        outJson(statusJson(office, *status));
        return Succeeded;
    }
    QString text = QStringLiteral("office: %1\nwaiting: %2\nlast sent: %3\n")
                       .arg(office.isEmpty() ? QStringLiteral("(none)") : office)
                       .arg(status->waiting)
                       .arg(status->lastSentSeq);
    if (status->oldestWaitingAtMs > 0)
        text += QStringLiteral("oldest waiting: %1\n").arg(OfficeEvents::isoMs(status->oldestWaitingAtMs));
    out(text.toUtf8());
    return Succeeded;
}

int pushCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("office push"), QStringLiteral("[--wait SECONDS]"),
        QStringLiteral("Sends the till's outbox to the office (--office, --office-token) until nothing waits or\n"
                       "the time is up; prints office status --json as one line. Exit 0 nothing waits, 4 some\n"
                       "still wait (the office cannot be reached), 1 refused (no office, a token refused, an\n"
                       "event the office holds with other contents)."));
    cl.addOption({QStringLiteral("wait"), QStringLiteral("Seconds to keep trying (default 30)."), QStringLiteral("SECONDS"), QStringLiteral("30")});
    if (auto rc = cl.parse(arguments))
        return *rc;
    if (!cl.positionalArguments().isEmpty())
        return fail(Usage, QStringLiteral("office push takes no argument (try --help)"));
    std::optional<int> usage;
    const auto timeoutMs = waitMs(cl, &usage);
    if (!timeoutMs)
        return *usage;
    const QString office = session.options().office;
    if (office.isEmpty())
        return fail(Error, QStringLiteral("no office: give --office URL or set ONCEPAY_OFFICE"));
    if (session.options().officeToken.isEmpty())
        return fail(Error, QStringLiteral("no office token: give --office-token T or set ONCEPAY_OFFICE_TOKEN"));
    if (auto rc = session.open(CtlSession::Use::Change))
        return *rc;
    OfficeSync &sync = *session.till().office();
    bool known = false;
    EventWait sent([&] {
        return known && (sync.status().waiting == 0 || sync.status().stopped);
    });
    sent.recheckOn(&sync, &OfficeSync::statusChanged);
    sync.readStatus(sent.context(), [&](const OfficeSync::Status &) {
        known = true;
        sent.recheck();
    });
    sync.start();
    sent.exec(*timeoutMs);
    const OfficeSync::Status s = sync.status();
    outJson(statusJson(office, fromSync(s)));
    if (s.stopped)
        return fail(Error, s.problem);
    if (s.waiting > 0) {
        return fail(NotFinal, QStringLiteral("%1 event(s) still wait for the office at %2%3").arg(s.waiting).arg(office, s.offline ? QStringLiteral(": it cannot be reached") : QString()));
    }
    return Succeeded;
}

}   // namespace

int officeCommand(CtlSession &session, const QStringList &arguments)
{
    const QString sub = arguments.value(0);
    if (sub == QLatin1String("status"))
        return statusCommand(session, arguments.mid(1));
    if (sub == QLatin1String("push"))
        return pushCommand(session, arguments.mid(1));
    if (sub == QLatin1String("report"))
        return officeReportCommand(session, arguments.mid(1));
    if (sub == QLatin1String("--help") || sub == QLatin1String("-h")) {
        out(QByteArrayLiteral("Usage: oncepay-ctl office status [--json] | push [--wait SECONDS] | report --from DAY --to DAY"
                              " [--group-by G] [--json|--csv]\n"
                              "The till's outbox and the shop's office. `oncepay-ctl office status --help`, `office push --help`,"
                              " `office report --help`.\n"));
        return Succeeded;
    }
    return fail(Usage, QStringLiteral("office: expected status, push or report (try --help)"));
}

}   // namespace OncePay::Ctl
