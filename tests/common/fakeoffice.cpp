#include "fakeoffice.h"

#include "http/httpanswer.h"
#include "http/httprequest.h"
#include "http/httpresponder.h"
#include "http/httpserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

using namespace OncePay::Http;

FakeOffice::FakeOffice(QObject *parent)
    : QObject(parent)
{
}

FakeOffice::~FakeOffice() = default;

bool FakeOffice::start(QString *error)
{
    HttpLimits limits;
    limits.maxBodyBytes = 32 * 1024 * 1024;   // 500 events of a till's sales
    m_server = std::make_unique<HttpServer>(limits, nullptr, [this](HttpRequest &&request, const HttpResponder &responder) {
        handle(std::move(request), responder);
    });
    m_port = m_server->start(QHostAddress::LocalHost, 0, error);
    m_clock.start();
    return m_port != 0;
}

QUrl FakeOffice::url() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_port));
}

qint64 FakeOffice::lastSeq(const QString &till) const
{
    const QMap<qint64, QJsonObject> held = m_events.value(till);
    return held.isEmpty() ? 0 : held.lastKey();
}

void FakeOffice::preload(const QString &till, const QJsonObject &event)
{
    m_events[till].insert(event.value(QStringLiteral("seq")).toInteger(), event);
}

void FakeOffice::failNext(int count, int status, int retryAfterSeconds)
{
    m_failCount = count;
    m_failStatus = status;
    m_retryAfter = retryAfterSeconds;
}

void FakeOffice::loseAnswersOfNext(int count)
{
    m_loseCount = count;
}

QByteArray FakeOffice::fingerprint(const QJsonObject &event)
{
    // QJsonObject keeps its keys sorted: its compact form is canonical enough for a fake.
    return QJsonDocument(event).toJson(QJsonDocument::Compact);
}

void FakeOffice::handle(HttpRequest &&request, const HttpResponder &responder)
{
    const QByteArray auth = request.value("Authorization");
    const QString till = auth.startsWith("Bearer ") ? m_tokens.value(QString::fromUtf8(auth.mid(7))) : QString();
    if (till.isEmpty())
        return responder.respond(HttpAnswer::problem(401, QStringLiteral("unauthorized"), QStringLiteral("Unauthorized"), {}));
    static const QRegularExpression position(QStringLiteral("^/v1/tills/([^/]+)/position$"));
    if (request.method == HttpRequest::Method::Get) {
        const QRegularExpressionMatch m = position.match(request.path);
        if (!m.hasMatch())
            return responder.respond(HttpAnswer::problem(404, QStringLiteral("not-found"), QStringLiteral("Not found"), {}));
        if (m.captured(1) != till)
            return responder.respond(HttpAnswer::problem(403, QStringLiteral("forbidden"), QStringLiteral("Forbidden"), {}));
        ++m_stats.positions;
        return responder.respond(HttpAnswer::json(200, QJsonObject{{QStringLiteral("last_seq"), lastSeq(till)}}));
    }
    if (request.method == HttpRequest::Method::Post && request.path == QLatin1String("/v1/events"))
        return events(till, request.body, responder);
    responder.respond(HttpAnswer::problem(404, QStringLiteral("not-found"), QStringLiteral("Not found"), {}));
}

void FakeOffice::events(const QString &till, const QByteArray &body, const HttpResponder &responder)
{
    ++m_stats.posts;
    m_stats.postAtMs.append(m_clock.elapsed());
    emit posted();
    if (m_failCount > 0) {
        --m_failCount;
        ++m_stats.failed;
        HttpAnswer a = HttpAnswer::problem(m_failStatus, QStringLiteral("unavailable"), QStringLiteral("Unavailable"), {});
        if (m_retryAfter >= 0)
            a.withHeader("Retry-After", QByteArray::number(m_retryAfter));
        return responder.respond(a);
    }
    const QJsonObject doc = QJsonDocument::fromJson(body).object();
    const QJsonArray list = doc.value(QStringLiteral("events")).toArray();
    if (doc.value(QStringLiteral("till")).toString() != till || list.isEmpty() || list.size() > 500)
        return responder.respond(HttpAnswer::problem(400, QStringLiteral("validation-failed"), QStringLiteral("Bad batch"), {}));
    m_stats.firstSeqOfPost.append(list.first().toObject().value(QStringLiteral("seq")).toInteger());
    m_stats.largestBatch = qMax(m_stats.largestBatch, int(list.size()));
    QMap<qint64, QJsonObject> &held = m_events[till];
    qint64 last = held.isEmpty() ? 0 : held.lastKey();
    int replayed = 0;
    QList<QJsonObject> fresh;
    for (const QJsonValue &v : list) {
        const QJsonObject e = v.toObject();
        const qint64 seq = e.value(QStringLiteral("seq")).toInteger();
        if (held.contains(seq)) {
            if (fingerprint(held.value(seq)) != fingerprint(e)) {
                ++m_stats.mismatches;
                QJsonObject p{{QStringLiteral("type"), QStringLiteral("https://oncepay.dev/problems/event-mismatch")},
                    {QStringLiteral("title"), QStringLiteral("Event mismatch")}, {QStringLiteral("status"), 422},
                    {QStringLiteral("seq"), seq}};
                HttpAnswer a = HttpAnswer::json(422, p);
                a.contentType = QByteArrayLiteral("application/problem+json");
                return responder.respond(a);
            }
            ++replayed;
            continue;
        }
        if (seq != last + 1) {
            ++m_stats.gaps;
            QJsonObject p{{QStringLiteral("type"), QStringLiteral("https://oncepay.dev/problems/seq-gap")},
                {QStringLiteral("title"), QStringLiteral("Seq gap")}, {QStringLiteral("status"), 409},
                {QStringLiteral("expected_seq"), (held.isEmpty() ? 0 : held.lastKey()) + 1}};
            HttpAnswer a = HttpAnswer::json(409, p);
            a.contentType = QByteArrayLiteral("application/problem+json");
            return responder.respond(a);
        }
        fresh.append(e);
        last = seq;
    }
    // All of it or none: checked above, applied here.
    for (const QJsonObject &e : std::as_const(fresh))
        held.insert(e.value(QStringLiteral("seq")).toInteger(), e);
    m_stats.applied += int(fresh.size());
    m_stats.replayed += replayed;
    if (m_loseCount > 0) {
        --m_loseCount;
        ++m_stats.lost;
        return responder.abort();
    }
    responder.respond(HttpAnswer::json(200, QJsonObject{{QStringLiteral("applied"), int(fresh.size())}, {QStringLiteral("replayed"), replayed}, {QStringLiteral("last_seq"), held.lastKey()}}));
}
