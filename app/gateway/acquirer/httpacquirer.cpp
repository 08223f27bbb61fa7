#include "gateway/acquirer/httpacquirer.h"

#include "problem.h"
#include "replywatcher.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QUrlQuery>

namespace OncePay::Gateway {

Q_LOGGING_CATEGORY(lcHttpAcquirer, "oncepay.gateway.acquirer.http", QtInfoMsg)

struct HttpAcquirer::Reply
{
    int status = 0;   // 0: no HTTP answer at all (see error)
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QString errorString;
    QByteArray body;
    bool sent = false;   // some attempt wrote the whole request: it may have been acted upon
    int connections = 0;   // connections opened for it (more than one: Qt resent it)

    QJsonObject object() const { return QJsonDocument::fromJson(body).object(); }
    QString describe() const
    {
        return status ? QStringLiteral("HTTP %1 from the acquirer").arg(status)
                      : QStringLiteral("no answer from the acquirer: %1").arg(errorString);
    }
};

namespace {

// A 200 of /v1/charges or /v1/refunds (POST or GET): {"status": "succeeded" | "declined",
// "decline_code", "card": {"brand", "last4"}, "authorization_code"} (a refund has no card or code). Anything else in a 200 is not an answer we
// understand, so the outcome stays unknown.
AcquirerAnswer outcomeOf(const QJsonObject &o)
{
    const QString status = o.value(QStringLiteral("status")).toString();
    AcquirerAnswer a;
    if (status == QLatin1String("succeeded")) {
        a.kind = AcquirerAnswer::Kind::Approved;
        a.authorizationCode = o.value(QStringLiteral("authorization_code")).toString();
    } else if (status == QLatin1String("declined")) {
        a.kind = AcquirerAnswer::Kind::Declined;
        a.declineCode = o.value(QStringLiteral("decline_code")).toString();
    } else if (status == QLatin1String("processing")) {
        a.kind = AcquirerAnswer::Kind::Pending;   // a wallet payment the customer has not confirmed yet
    } else if (status == QLatin1String("reversed")) {
        a.kind = AcquirerAnswer::Kind::Reversed;   // a wallet payment given up: nothing kept
    } else {
        return {AcquirerAnswer::Kind::AnswerLost, {}, QStringLiteral("the acquirer's answer could not be read")};
    }
    a.card = Card::fromJson(o.value(QStringLiteral("card")));
    return a;
}

std::optional<SimulationState> simulationOf(const QJsonObject &o)
{
    const auto mode = SimulationState::modeFromName(o.value(QStringLiteral("mode")).toString());
    const QJsonValue latency = o.value(QStringLiteral("latency_ms"));
    const QJsonValue confirm = o.value(QStringLiteral("wallet_confirm_ms"));
    if (!mode || !latency.isDouble() || !confirm.isDouble())
        return std::nullopt;
    return SimulationState{*mode, latency.toInt(), confirm.toInt()};
}

}   // namespace

HttpAcquirer::HttpAcquirer(const QUrl &baseUrl, int timeoutMs, QObject *parent)
    : Acquirer(parent)
    , m_baseUrl(baseUrl)
    , m_timeoutMs(qMax(1, timeoutMs))
    , m_watcher(new ReplyWatcher(this))
{
}

HttpAcquirer::~HttpAcquirer()
{
    close();
}

bool HttpAcquirer::open(QString *error)
{
    const QString scheme = m_baseUrl.scheme();
    if (!m_baseUrl.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https"))
        || m_baseUrl.host().isEmpty() || m_baseUrl.port() < 0) {
        *error = QStringLiteral("acquirer URL must be http(s)://HOST:PORT, got \"%1\"").arg(m_baseUrl.toString());
        return false;
    }
    // Not probed here: the acquirer may start after the gateway; until then payments get 502.
    if (!m_manager)
        m_manager = new QNetworkAccessManager(this);
    return true;
}

void HttpAcquirer::close()
{
    if (!m_manager)
        return;
    // Requests still on the wire end as AnswerLost (charges) or failures (the rest).
    const QList<QNetworkReply *> replies = m_manager->findChildren<QNetworkReply *>();
    for (QNetworkReply *reply : replies)
        reply->abort();
    m_manager->deleteLater();
    m_manager = nullptr;
}

QNetworkRequest HttpAcquirer::request(const QString &path, const QList<QPair<QString, QString>> &query) const
{
    QUrl url = m_baseUrl;
    url.setPath(path);
    QUrlQuery q;
    for (const auto &item : query)
        q.addQueryItem(item.first, QString::fromLatin1(QUrl::toPercentEncoding(item.second)));
    url.setQuery(q);
    QNetworkRequest r(url);
    r.setTransferTimeout(m_timeoutMs);
    // HTTP/1.1 only: its resend behaviour is the one reasoned about in charge().
    r.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    r.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    return r;
}

void HttpAcquirer::send(const QByteArray &verb, const QNetworkRequest &request, const QByteArray &body,
    QObject *context, Finished finished)
{
    QPointer<QObject> guard(context);
    if (!m_manager) {
        const Reply closed{0, QNetworkReply::OperationCanceledError, QStringLiteral("acquirer client closed"), {}};
        QMetaObject::invokeMethod(
            context, [closed, finished = std::move(finished)] {
                finished(closed);
            },
            Qt::QueuedConnection);
        return;
    }
    QNetworkReply *reply = m_manager->sendCustomRequest(request, verb, body);
    m_watcher->watch(reply, [guard, finished = std::move(finished)](QNetworkReply *reply, const ReplyProgress &progress) {
        if (!guard)
            return;   // the caller is gone: nobody to tell
        Reply r;
        r.sent = progress.written;
        r.connections = progress.connections;
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.error = reply->error();
        r.errorString = reply->errorString();
        r.body = reply->readAll();
        // Runs at once on the caller's thread, or is queued there and dropped if it goes away.
        QMetaObject::invokeMethod(guard.data(), [r, finished] {
            finished(r);
        });
    });
}

void HttpAcquirer::charge(const ChargeRequest &rq, QObject *context, AnswerCallback done)
{
    const QJsonObject body{{QStringLiteral("merchant"), rq.merchant},
        {QStringLiteral("key"), rq.key},
        {QStringLiteral("amount"), rq.amount},
        {QStringLiteral("currency"), rq.currency},
        {QStringLiteral("token"), rq.token}};
    postMoney(QStringLiteral("/v1/charges"), body, rq.key, rq.timeoutMs, context, std::move(done));
}

void HttpAcquirer::refund(const RefundCall &call, QObject *context, AnswerCallback done)
{
    const QJsonObject body{{QStringLiteral("merchant"), call.merchant},
        {QStringLiteral("key"), call.key},
        {QStringLiteral("charge_key"), call.chargeKey},
        {QStringLiteral("amount"), call.amount},
        {QStringLiteral("currency"), call.currency}};
    postMoney(QStringLiteral("/v1/refunds"), body, call.key, call.timeoutMs, context, std::move(done));
}

void HttpAcquirer::reverse(const QString &merchant, const QString &key, QObject *context, AnswerCallback done)
{
    const QJsonObject body{{QStringLiteral("merchant"), merchant}, {QStringLiteral("key"), key}};
    postMoney(QStringLiteral("/v1/reversals"), body, key, 0, context, std::move(done));
}

void HttpAcquirer::postMoney(const QString &path, const QJsonObject &body, const QString &key, qint64 timeoutMs,
    QObject *context, AnswerCallback done)
{
    // Qt 6.4 resends a request, POST included, when the connection closes before any byte of
    // the answer (later Qt versions resend idempotent methods only). Harmless for money: the
    // acquirer is idempotent by (merchant, key) and answers a repeated key with what it did the
    // first time, so a key never charges (or refunds) twice. What a resend must not do is make
    // a failure look like "never reached the acquirer": see `sent` and `connections` below.
    // The gateway's deadline, when shorter than ours, ends before its lease: a request still
    // queued here then (every connection to the acquirer busy) is given up, never sent late.
    QNetworkRequest rq = request(path, {});
    if (timeoutMs > 0 && timeoutMs < m_timeoutMs)
        rq.setTransferTimeout(int(timeoutMs));
    send("POST", rq, QJsonDocument(body).toJson(QJsonDocument::Compact), context,
        [done = std::move(done), key, path](const Reply &r) {
            if (r.status == 200)
                return done(outcomeOf(r.object()));
            if (r.status == 502) {
                const std::optional<Problem> p = Problem::fromJson(r.body);
                if (p && p->slug == QLatin1String("acquirer-refused"))
                    return done({AcquirerAnswer::Kind::Refused, {}, p->detail});
            }
            // Refused for what the acquirer holds (its slug is the code: key-reused, charge-refunded,
            // charge-reversed); nothing moved for this request.
            if (r.status == 409) {
                const std::optional<Problem> p = Problem::fromJson(r.body);
                if (p && !p->slug.isEmpty())
                    return done({AcquirerAnswer::Kind::Conflict, QString(p->slug).replace(QLatin1Char('-'), QLatin1Char('_')), p->detail});
            }
            // Only a connection that never opened, for a request never written before, proves that
            // nothing reached the acquirer. A refused reconnect after an attempt that was sent (the
            // acquirer died mid-call), a timeout, a reset, a closed connection or any other status
            // may follow a charge.
            if (r.status == 0 && !r.sent && r.connections <= 1
                && (r.error == QNetworkReply::ConnectionRefusedError || r.error == QNetworkReply::HostNotFoundError)) {
                return done({AcquirerAnswer::Kind::Refused, {},
                    QStringLiteral("the acquirer could not be reached (%1); nothing was sent").arg(r.errorString)});
            }
            qCInfo(lcHttpAcquirer) << path << key << "outcome unknown:" << r.describe();
            done({AcquirerAnswer::Kind::AnswerLost, {}, r.describe()});
        });
}

void HttpAcquirer::lookup(const QString &merchant, const QString &key, QObject *context, AnswerCallback done)
{
    lookupAt(QStringLiteral("/v1/charges"), merchant, key, context, std::move(done));
}

void HttpAcquirer::lookupRefund(const QString &merchant, const QString &key, QObject *context, AnswerCallback done)
{
    lookupAt(QStringLiteral("/v1/refunds"), merchant, key, context, std::move(done));
}

void HttpAcquirer::lookupAt(const QString &path, const QString &merchant, const QString &key, QObject *context,
    AnswerCallback done)
{
    // A GET may be resent by Qt on a reset connection: harmless, it only reads.
    send("GET", request(path, {{QStringLiteral("merchant"), merchant}, {QStringLiteral("key"), key}}),
        {}, context, [done = std::move(done)](const Reply &r) {
            if (r.status == 200)
                return done(outcomeOf(r.object()));
            if (r.status == 404)
                return done({AcquirerAnswer::Kind::NotFound, {}, {}});
            done({AcquirerAnswer::Kind::AnswerLost, {}, r.describe()});   // could not ask
        });
}

void HttpAcquirer::ledger(const QString &merchant, const QString &key, QObject *context, LedgerCallback done)
{
    QList<QPair<QString, QString>> query{{QStringLiteral("merchant"), merchant}};
    if (!key.isEmpty())
        query.append({QStringLiteral("key"), key});
    send("GET", request(QStringLiteral("/v1/ledger"), query), {}, context, [done = std::move(done)](const Reply &r) {
        const QJsonValue data = r.object().value(QStringLiteral("data"));
        if (r.status != 200 || !data.isArray())
            return done(false, {});
        QList<LedgerEntry> entries;
        const QJsonArray rows = data.toArray();
        for (const QJsonValue &v : rows) {
            const std::optional<LedgerEntry> e = LedgerEntry::fromJson(v.toObject());
            if (!e)
                return done(false, {});
            entries.append(*e);
        }
        done(true, entries);
    });
}

void HttpAcquirer::refundLedger(const QString &merchant, const QString &chargeKey, QObject *context,
    RefundLedgerCallback done)
{
    QList<QPair<QString, QString>> query{{QStringLiteral("merchant"), merchant}};
    if (!chargeKey.isEmpty())
        query.append({QStringLiteral("charge_key"), chargeKey});
    send("GET", request(QStringLiteral("/v1/refund-ledger"), query), {}, context,
        [done = std::move(done)](const Reply &r) {
            const QJsonValue data = r.object().value(QStringLiteral("data"));
            if (r.status != 200 || !data.isArray())
                return done(false, {});
            QList<RefundLedgerEntry> entries;
            const QJsonArray rows = data.toArray();
            for (const QJsonValue &v : rows) {
                const std::optional<RefundLedgerEntry> e = RefundLedgerEntry::fromJson(v.toObject());
                if (!e)
                    return done(false, {});
                entries.append(*e);
            }
            done(true, entries);
        });
}

void HttpAcquirer::simulation(const QString &merchant, QObject *context, SimulationCallback done)
{
    send("GET", request(QStringLiteral("/v1/simulation"), {{QStringLiteral("merchant"), merchant}}), {}, context,
        [done = std::move(done)](const Reply &r) {
            const std::optional<SimulationState> s = r.status == 200 ? simulationOf(r.object()) : std::nullopt;
            done(bool(s), s.value_or(SimulationState{}));
        });
}

void HttpAcquirer::setSimulation(const QString &merchant, const SimulationState &state, QObject *context,
    SimulationCallback done)
{
    send("PUT", request(QStringLiteral("/v1/simulation"), {{QStringLiteral("merchant"), merchant}}),
        QJsonDocument(state.toJson()).toJson(QJsonDocument::Compact), context, [done = std::move(done)](const Reply &r) {
            const std::optional<SimulationState> s = r.status == 200 ? simulationOf(r.object()) : std::nullopt;
            done(bool(s), s.value_or(SimulationState{}));
        });
}

}   // namespace OncePay::Gateway
