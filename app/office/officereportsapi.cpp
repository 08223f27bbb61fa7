// The office's reports (docs/office.md, "Reports"): GET /v1/reports/sales, /shifts and /gaps,
// for owner tokens. The figures are computed by OfficeReports from the stored events.
#include "office/officeapi.h"
#include "office/officereports.h"
#include "office/officestore.h"
#include "timeutil.h"

#include <QDateTime>
#include <QJsonArray>
#include <QRegularExpression>

namespace OncePay::Office {

namespace {

using Answer = Http::HttpAnswer;
using Errors = QList<Problem::FieldError>;

// Longer ranges are asked for in several reports: every event of the range is read.
constexpr qint64 kMaxDays = 400;
constexpr qint64 kDayMs = 24 * 60 * 60 * 1000;

Answer unavailable()
{
    return Answer::problem(503, QStringLiteral("store-unavailable"), QStringLiteral("Store unavailable"),
        QStringLiteral("The office's store cannot be reached. Ask again."))
        .withHeader(QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1"));
}

struct Query
{
    QString store;
    QString till;
    QString groupBy;
    qint64 fromMs = 0;
    qint64 toMs = 0;   // exclusive: the start of the day after `to`
};

std::optional<QDate> day(const QString &text)
{
    static const QRegularExpression form(QStringLiteral("^\\d{4}-\\d{2}-\\d{2}$"));
    const QDate d = QDate::fromString(text, QStringLiteral("yyyy-MM-dd"));
    if (!form.match(text).hasMatch() || !d.isValid())
        return std::nullopt;
    return d;
}

qint64 startOf(const QDate &d, const QTimeZone &zone)
{
    return QDateTime(d, QTime(0, 0), zone).toMSecsSinceEpoch();
}

// Reads the parameters `allowed` names; every other one, a repeated one or a bad value is an error
// naming it.
Query readQuery(const QUrlQuery &q, const QStringList &allowed, const QTimeZone &zone, Errors &errors)
{
    Query out;
    QStringList seen;
    for (const auto &[name, value] : q.queryItems(QUrl::FullyDecoded)) {
        if (!allowed.contains(name))
            errors.append({name, QStringLiteral("is not a parameter of this report")});
        else if (seen.contains(name))
            errors.append({name, QStringLiteral("is given twice")});
        seen.append(name);
    }
    const auto value = [&](const QString &name) {
        return q.queryItemValue(name, QUrl::FullyDecoded);
    };
    for (const QString &name : {QStringLiteral("store"), QStringLiteral("till")}) {
        if (allowed.contains(name) && q.hasQueryItem(name) && value(name).isEmpty())
            errors.append({name, QStringLiteral("must name a %1, or be left out").arg(name)});
    }
    out.store = value(QStringLiteral("store"));
    out.till = value(QStringLiteral("till"));
    if (allowed.contains(QStringLiteral("from"))) {
        const std::optional<QDate> from = day(value(QStringLiteral("from")));
        const std::optional<QDate> to = day(value(QStringLiteral("to")));
        if (!from)
            errors.append({QStringLiteral("from"), QStringLiteral("must be a day as YYYY-MM-DD, e.g. 2026-12-07")});
        if (!to)
            errors.append({QStringLiteral("to"), QStringLiteral("must be a day as YYYY-MM-DD, e.g. 2026-12-07")});
        if (from && to && *to < *from)
            errors.append({QStringLiteral("to"), QStringLiteral("must not be before from")});
        else if (from && to && from->daysTo(*to) >= kMaxDays)
            errors.append({QStringLiteral("to"), QStringLiteral("must be less than %1 days after from").arg(kMaxDays)});
        if (from && to) {
            out.fromMs = startOf(*from, zone);
            out.toMs = startOf(to->addDays(1), zone);
        }
    }
    if (allowed.contains(QStringLiteral("group_by"))) {
        out.groupBy = value(QStringLiteral("group_by"));
        if (!OfficeReports::groupings().contains(out.groupBy))
            errors.append({QStringLiteral("group_by"), QStringLiteral("must be one of %1").arg(OfficeReports::groupings().join(QStringLiteral(", ")))});
    }
    return out;
}

QJsonValue timeOrNull(qint64 ms)
{
    return ms > 0 ? QJsonValue(toRfc3339(ms)) : QJsonValue(QJsonValue::Null);
}

// A till belongs in the gaps report when its last event (or, having sent none, its token) is
// older than a day, or when a batch of it was refused and nothing was stored since.
QJsonArray gapsOf(const QList<OfficeStore::TillState> &tills, qint64 now)
{
    QJsonArray out;
    for (const OfficeStore::TillState &t : tills) {
        const bool stale = (t.lastSeq > 0 ? t.lastAtMs : t.createdAt) < now - kDayMs;
        const bool refused = !t.problem.isEmpty() && t.refusedAt >= t.lastReceivedAt;
        if (!stale && !refused)
            continue;
        QJsonObject row{{QStringLiteral("store"), t.store}, {QStringLiteral("till"), t.till}, {QStringLiteral("last_seq"), t.lastSeq},
            {QStringLiteral("last_at"), t.lastSeq > 0 ? QJsonValue(t.lastAt) : QJsonValue(QJsonValue::Null)},
            {QStringLiteral("stale"), stale}, {QStringLiteral("refused"), QJsonValue(QJsonValue::Null)}};
        if (refused) {
            QJsonObject r{{QStringLiteral("problem"), t.problem}, {QStringLiteral("seq"), t.refusedSeq},
                {QStringLiteral("refusals"), t.refusals}, {QStringLiteral("at"), timeOrNull(t.refusedAt)}};
            r.insert(QStringLiteral("expected_seq"), t.expectedSeq > 0 ? QJsonValue(t.expectedSeq) : QJsonValue(QJsonValue::Null));
            row.insert(QStringLiteral("refused"), r);
        }
        out.append(row);
    }
    return out;
}

}   // namespace

void OfficeApi::getReport(const Request &rq, const OfficeCaller &caller, const QString &report, const Respond &respond)
{
    if (caller.isTill()) {
        return respond(Answer::problem(403, QStringLiteral("forbidden"), QStringLiteral("Forbidden"),
            QStringLiteral("Reports are read with an owner's token.")));
    }
    QStringList allowed{QStringLiteral("store")};
    if (report != QLatin1String("gaps"))
        allowed << QStringLiteral("from") << QStringLiteral("to");
    if (report == QLatin1String("sales"))
        allowed << QStringLiteral("till") << QStringLiteral("group_by");
    Errors errors;
    Query q = readQuery(rq.query, allowed, m_zone, errors);
    if (!errors.isEmpty())
        return respond(Answer::problem(Problem::validation(errors)));
    if (!caller.store.isEmpty()) {   // an owner of one store
        if (!q.store.isEmpty() && q.store != caller.store) {
            return respond(Answer::problem(403, QStringLiteral("forbidden"), QStringLiteral("Forbidden"),
                QStringLiteral("This token reads store %1 only.").arg(caller.store)));
        }
        q.store = caller.store;
    }
    const QJsonObject range{{QStringLiteral("from"), rq.query.queryItemValue(QStringLiteral("from"))},
        {QStringLiteral("to"), rq.query.queryItemValue(QStringLiteral("to"))}, {QStringLiteral("time_zone"), QString::fromUtf8(m_zone.id())}};
    if (report == QLatin1String("sales")) {
        return m_store->reportEvents(caller.merchant, q.store, q.till, q.fromMs, q.toMs, this,
            [this, q, range, respond](OfficeStore::Commit commit, const QString &, const QList<OfficeReports::StoredEvent> &events) {
                if (commit != OfficeStore::Commit::Done)
                    return respond(unavailable());
                QJsonObject body = OfficeReports::sales(events, q.groupBy, m_zone);
                for (auto it = range.begin(); it != range.end(); ++it)
                    body.insert(it.key(), it.value());
                respond(Answer::json(200, body));
            });
    }
    if (report == QLatin1String("shifts")) {
        return m_store->shiftEvents(caller.merchant, q.store, q.fromMs, q.toMs, this,
            [range, respond](OfficeStore::Commit commit, const QString &, const QList<OfficeStore::ShiftEvents> &shifts) {
                if (commit != OfficeStore::Commit::Done)
                    return respond(unavailable());
                QJsonArray out;
                for (const OfficeStore::ShiftEvents &s : shifts)
                    out.append(OfficeReports::shift(s.shift, s.events));
                QJsonObject body = range;
                body.insert(QStringLiteral("shifts"), out);
                respond(Answer::json(200, body));
            });
    }
    m_store->tillStates(caller.merchant, q.store, this,
        [respond](OfficeStore::Commit commit, const QString &, const QList<OfficeStore::TillState> &tills) {
            if (commit != OfficeStore::Commit::Done)
                return respond(unavailable());
            const qint64 now = nowMs();
            respond(Answer::json(200, {{QStringLiteral("now"), toRfc3339(now)}, {QStringLiteral("tills"), gapsOf(tills, now)}}));
        });
}

}   // namespace OncePay::Office
