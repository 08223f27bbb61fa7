#include "office/officeapi.h"

#include "bearertoken.h"
#include "office/eventbatch.h"
#include "office/officestore.h"

#include <QJsonObject>
#include <QLoggingCategory>

namespace OncePay::Office {

Q_LOGGING_CATEGORY(lcOfficeApi, "oncepay.office.http", QtInfoMsg)

namespace {

using Answer = Http::HttpAnswer;

Answer notFound()
{
    return Answer::problem(404, QStringLiteral("not-found"), QStringLiteral("Not found"), QStringLiteral("No such resource."));
}

Answer methodNotAllowed(const QByteArray &allow)
{
    return Answer::problem(405, QStringLiteral("method-not-allowed"), QStringLiteral("Method not allowed"),
        QStringLiteral("This resource accepts %1.").arg(QString::fromLatin1(allow)))
        .withHeader(QByteArrayLiteral("Allow"), allow);
}

Answer forbidden(const QString &detail)
{
    return Answer::problem(403, QStringLiteral("forbidden"), QStringLiteral("Forbidden"), detail);
}

// 503: the office knows that nothing of the request was written.
Answer storeUnavailable()
{
    return Answer::problem(503, QStringLiteral("store-unavailable"), QStringLiteral("Store unavailable"),
        QStringLiteral("The office's store cannot be reached; nothing was stored. Send the same batch again."))
        .withHeader(QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1"));
}

// 500: the batch's COMMIT was sent and its answer lost; it may have been stored.
Answer outcomeUnknown()
{
    return Answer::problem(500, QStringLiteral("outcome-unknown"), QStringLiteral("Outcome unknown"),
        QStringLiteral("The batch may have been stored. Send the same batch again: what was stored counts as replayed."))
        .withHeader(QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1"));
}

Answer refused(const BatchOutcome &out)
{
    Problem p;
    if (out.kind == BatchOutcome::Kind::Gap) {
        p = Problem::make(409, QStringLiteral("seq-gap"), QStringLiteral("Events missing before this batch"),
            QStringLiteral("The till's next event is seq %1; nothing was applied. Send from there.").arg(out.expectedSeq));
        p.extra.insert(QStringLiteral("expected_seq"), out.expectedSeq);
        p.extra.insert(QStringLiteral("last_seq"), out.expectedSeq - 1);
    } else {
        p = Problem::make(422, QStringLiteral("event-mismatch"), QStringLiteral("Event differs from the one stored"),
            QStringLiteral("Event seq %1 is stored with other contents; nothing was applied.").arg(out.mismatchSeq));
        p.extra.insert(QStringLiteral("seq"), out.mismatchSeq);
    }
    return Answer::problem(p);
}

bool isGet(Http::HttpRequest::Method m)
{
    return m == Http::HttpRequest::Method::Get || m == Http::HttpRequest::Method::Head;
}

}   // namespace

OfficeApi::OfficeApi(OfficeStore *store, QObject *parent)
    : QObject(parent)
    , m_store(store)
{
}

void OfficeApi::handle(Http::HttpRequest &&request, const Http::HttpResponder &responder)
{
    const Request rq = std::move(request);
    ++m_inFlight;
    auto answered = std::make_shared<bool>(false);
    Respond respond = [this, responder, answered](const Answer &a) {
        if (*answered)
            return;
        *answered = true;
        responder.respond(a);
        if (--m_inFlight == 0)
            emit idle();
    };
    route(rq, respond);
}

void OfficeApi::route(const Request &rq, const Respond &respond)
{
    if (rq.path == QLatin1String("/healthz")) {   // ready: the store answers
        if (!isGet(rq.method))
            return respond(methodNotAllowed("GET, HEAD"));
        return m_store->ping(this, [respond](OfficeStore::Commit commit, const QString &, bool) {
            if (commit != OfficeStore::Commit::Done)
                return respond(storeUnavailable());
            respond(Answer::json(200, {{QStringLiteral("status"), QStringLiteral("ok")}}));
        });
    }
    if (rq.path == QLatin1String("/livez")) {
        if (!isGet(rq.method))
            return respond(methodNotAllowed("GET, HEAD"));
        return respond(Answer::json(200, {{QStringLiteral("status"), QStringLiteral("alive")}}));
    }
    if (!rq.path.startsWith(QLatin1String("/v1/")))
        return respond(notFound());
    authenticate(rq.value("authorization"), respond, [this, rq, respond](std::optional<OfficeCaller> caller) {
        if (!caller) {
            return respond(Answer::problem(401, QStringLiteral("unauthorized"), QStringLiteral("Unauthorized"),
                QStringLiteral("A valid bearer token is required."))
                               .withHeader(QByteArrayLiteral("WWW-Authenticate"), QByteArrayLiteral("Bearer")));
        }
        authenticated(rq, *caller, respond);
    });
}

void OfficeApi::authenticate(const QByteArray &authorization, const Respond &respond,
    const std::function<void(std::optional<OfficeCaller>)> &done)
{
    const std::optional<QByteArray> token = BearerToken::fromAuthorization(authorization);
    if (!token)
        return done(std::nullopt);
    const QString hash = BearerToken::hash(*token);
    const auto known = m_known.constFind(hash);
    if (known != m_known.cend())
        return done(*known);
    // Tokens made by `oncepay-office till add` while this instance runs (or by another instance)
    // are in the store: asked once, then kept.
    m_store->findToken(hash, this, [this, hash, respond, done](OfficeStore::Commit commit, const QString &error, std::optional<OfficeCaller> caller) {
        if (commit != OfficeStore::Commit::Done) {
            qCWarning(lcOfficeApi) << "cannot read the tokens:" << error;
            return respond(storeUnavailable());
        }
        if (caller)
            m_known.insert(hash, *caller);
        done(caller);
    });
}

void OfficeApi::authenticated(const Request &rq, const OfficeCaller &caller, const Respond &respond)
{
    if (rq.path == QLatin1String("/v1/events")) {
        if (rq.method != Http::HttpRequest::Method::Post)
            return respond(methodNotAllowed("POST"));
        return postEvents(rq, caller, respond);
    }
    static const QString reports = QStringLiteral("/v1/reports/");
    if (rq.path.startsWith(reports)) {
        const QString report = rq.path.mid(reports.size());
        if (report == QLatin1String("sales") || report == QLatin1String("shifts") || report == QLatin1String("gaps")) {
            if (!isGet(rq.method))
                return respond(methodNotAllowed("GET, HEAD"));
            return getReport(rq, caller, report, respond);
        }
    }
    static const QString tills = QStringLiteral("/v1/tills/");
    if (rq.path.startsWith(tills)) {
        const QStringList parts = rq.path.mid(tills.size()).split(QLatin1Char('/'));
        if (parts.size() == 2 && !parts[0].isEmpty() && parts[1] == QLatin1String("position")) {
            if (!isGet(rq.method))
                return respond(methodNotAllowed("GET, HEAD"));
            return getPosition(rq, caller, parts[0], respond);
        }
    }
    respond(notFound());
}

void OfficeApi::postEvents(const Request &rq, const OfficeCaller &caller, const Respond &respond)
{
    if (!caller.isTill())
        return respond(forbidden(QStringLiteral("Only a till's token sends events.")));
    const QList<QByteArray> contentType = rq.values("content-type");
    if (contentType.size() != 1 || !Http::isJsonContentType(contentType.first())) {
        return respond(Answer::problem(415, QStringLiteral("unsupported-media-type"), QStringLiteral("Unsupported media type"),
            QStringLiteral("Send the body as Content-Type: application/json.")));
    }
    Problem problem;
    std::optional<EventBatch> batch = EventBatchReader::read(rq.body, &problem);
    if (!batch)
        return respond(Answer::problem(problem));
    if (batch->till != caller.till)
        return respond(forbidden(QStringLiteral("This token writes the events of till %1 only.").arg(caller.till)));
    m_store->applyBatch(caller, *batch, this, [this, caller, respond](OfficeStore::Commit commit, const QString &error, BatchOutcome out) {
        if (out.kind != BatchOutcome::Kind::Stored) {
            // A refusal wrote nothing: its unit read, compared and stopped (or rolled back).
            m_store->recordRefusal(caller, out, this);
            return respond(refused(out));
        }
        if (commit == OfficeStore::Commit::Unknown) {
            qCWarning(lcOfficeApi) << "a batch's COMMIT was not confirmed:" << error;
            return respond(outcomeUnknown());
        }
        if (commit == OfficeStore::Commit::Failed) {
            qCWarning(lcOfficeApi) << "a batch was not stored:" << error;
            return respond(storeUnavailable());
        }
        respond(Answer::json(200, {{QStringLiteral("applied"), out.applied}, {QStringLiteral("replayed"), out.replayed}, {QStringLiteral("last_seq"), out.lastSeq}}));
    });
}

void OfficeApi::getPosition(const Request &rq, const OfficeCaller &caller, const QString &till, const Respond &respond)
{
    QString store = rq.query.queryItemValue(QStringLiteral("store"), QUrl::FullyDecoded);
    if (caller.isTill()) {
        if (till != caller.till || (!store.isEmpty() && store != caller.store))
            return respond(forbidden(QStringLiteral("This token reads the position of till %1 only.").arg(caller.till)));
        store = caller.store;
    } else if (!caller.store.isEmpty()) {
        if (!store.isEmpty() && store != caller.store)
            return respond(forbidden(QStringLiteral("This token reads store %1 only.").arg(caller.store)));
        store = caller.store;
    }
    m_store->positions(caller.merchant, store, till, this,
        [respond, till](OfficeStore::Commit commit, const QString &, const QList<OfficeStore::Position> &found) {
            if (commit != OfficeStore::Commit::Done)
                return respond(storeUnavailable());
            if (found.isEmpty())
                return respond(Answer::problem(404, QStringLiteral("not-found"), QStringLiteral("Not found"),
                    QStringLiteral("No till %1 here.").arg(till)));
            if (found.size() > 1) {
                return respond(Answer::problem(Problem::validation({{QStringLiteral("store"),
                    QStringLiteral("must name the store: till %1 is in several stores").arg(till)}})));
            }
            respond(Answer::json(200, {{QStringLiteral("last_seq"), found.constFirst().lastSeq}, {QStringLiteral("store"), found.constFirst().store}, {QStringLiteral("till"), till}}));
        });
}

}   // namespace OncePay::Office
