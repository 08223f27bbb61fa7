#include "gatewayclient.h"

#include "idempotencykey.h"
#include "oncontext.h"
#include "timeutil.h"
#include "world.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QUrlQuery>

namespace OncePay {

Q_LOGGING_CATEGORY(lcClient, "oncepay.core.client", QtInfoMsg)

QJsonObject GatewayResult::payment() const
{
    if (json.value(QStringLiteral("object")).toString() == QLatin1String("payment"))
        return json;
    return json.value(QStringLiteral("payment")).toObject();
}

QJsonObject GatewayResult::refund() const
{
    if (json.value(QStringLiteral("object")).toString() == QLatin1String("refund"))
        return json;
    return json.value(QStringLiteral("refund")).toObject();
}

QString GatewayResult::summary() const
{
    switch (transport) {
    case Transport::NotSent:
        return QStringLiteral("not sent: %1").arg(transportError);
    case Transport::LostAfterSend:
        return QStringLiteral("no answer after sending: %1").arg(transportError);
    case Transport::Answered:
        break;
    }
    QString s = QString::number(status);
    const QJsonObject p = payment().isEmpty() ? refund() : payment();
    if (!p.isEmpty())
        s += QLatin1Char(' ') + p.value(QStringLiteral("status")).toString();
    else if (problem)
        s += QLatin1Char(' ') + problem->slug;
    if (replayed)
        s += QStringLiteral(" (replayed)");
    return s;
}

GatewayResult GatewayResult::fromAnswer(int status, const QByteArray &contentType, const QByteArray &retryAfter,
    const QByteArray &idempotentReplayed, const QByteArray &body)
{
    GatewayResult r;
    r.transport = Transport::Answered;
    r.status = status;
    r.body = body;
    const QJsonDocument doc = QJsonDocument::fromJson(r.body);
    if (doc.isObject())
        r.json = doc.object();
    if (contentType.trimmed().startsWith(Problem::mediaType))
        r.problem = Problem::fromJson(r.body);
    bool ok = false;
    const qint64 seconds = retryAfter.trimmed().toLongLong(&ok);
    if (ok && seconds >= 0)
        r.retryAfterMs = seconds * 1000;
    r.replayed = idempotentReplayed.trimmed().compare("true", Qt::CaseInsensitive) == 0;
    return r;
}

GatewayResult GatewayResult::failed(Transport transport, const QString &error)
{
    GatewayResult r;
    r.transport = transport;
    r.transportError = error;
    return r;
}

GatewayClient::GatewayClient(const QList<QUrl> &baseUrls, const QString &token, int timeoutMs, QObject *parent,
    int maxConnections)
    : GatewayClient(baseUrls, token, timeoutMs, new NetworkTransport(maxConnections), parent)
{
}

GatewayClient::GatewayClient(const QList<QUrl> &baseUrls, const QString &token, int timeoutMs,
    GatewayTransport *transport, QObject *parent)
    : QObject(parent)
    , m_transport(transport)
    , m_baseUrls(baseUrls.isEmpty() ? QList<QUrl>{QUrl()} : baseUrls)
    , m_token(token)
    , m_timeoutMs(timeoutMs)
{
    m_transport->setParent(this);
}

std::optional<QList<QUrl>> GatewayClient::parseBaseUrls(const QString &commaSeparated, QString *invalid)
{
    QList<QUrl> urls;
    for (const QString &part : commaSeparated.split(QLatin1Char(','))) {
        const QString text = part.trimmed();
        const QUrl url(text, QUrl::StrictMode);
        const bool http = url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https");
        if (text.isEmpty() || !url.isValid() || !http || url.host().isEmpty() || url.hasQuery() || url.hasFragment()) {
            if (invalid)
                *invalid = text.isEmpty() ? commaSeparated.trimmed() : text;
            return std::nullopt;
        }
        urls.append(url);
    }
    return urls;
}

bool GatewayClient::isUnreachable(const GatewayResult &r)
{
    // Not sent: refused, no such host, no route, TLS failure, no connection before the timeout.
    // Lost after sending: a timeout or reset on a gateway that took the request. The outcome is
    // unknown either way and the engine asks by key before anything else; that question is a
    // read every instance answers from the shared database, so it goes to the next instance
    // rather than to one that just stopped answering (black hole, overload, dying process).
    if (!r.answered())
        return true;
    // Our gateway's own 502 (acquirer unavailable) and 503 (store unavailable) are problem
    // documents about things every instance shares: another instance would say the same. A
    // 502/503/504 without one comes from something in front of the gateway (a load balancer or
    // reverse proxy) that cannot reach it: that address is as good as unreachable.
    const bool fromProxy = (r.status == 502 || r.status == 503 || r.status == 504) && !r.problem;
    return fromProxy;
}

void GatewayClient::setBaseUrls(const QList<QUrl> &urls)
{
    const QUrl previous = baseUrl();
    m_baseUrls = urls.isEmpty() ? QList<QUrl>{QUrl()} : urls;
    m_current = 0;
    ++m_generation;
    if (baseUrl() != previous)
        emit gatewayChanged(baseUrl(), previous);
}

void GatewayClient::makeCurrent(int index, const QString &reason)
{
    if (index == m_current || index < 0 || index >= m_baseUrls.size())
        return;
    const QUrl previous = baseUrl();
    m_current = index;
    ++m_generation;
    qCInfo(lcClient).noquote() << "gateway" << previous.toString() << reason << "- now using" << baseUrl().toString();
    emit gatewayChanged(baseUrl(), previous);
}

GatewayClient::Callback GatewayClient::failingOver(Callback done)
{
    return [this, generation = m_generation, done = std::move(done)](const GatewayResult &r) {
        // Moved before `done` runs, so the retry it schedules already goes to the next gateway.
        if (m_baseUrls.size() > 1 && generation == m_generation && isUnreachable(r)) {
            makeCurrent((m_current + 1) % int(m_baseUrls.size()),
                r.answered() ? QStringLiteral("answered %1 from a proxy").arg(r.status) : r.summary());
        }
        done(r);
    };
}

GatewayRequest GatewayClient::request(const QByteArray &method, const QString &pathAndQuery, int urlIndex) const
{
    QUrl url = m_baseUrls.value(urlIndex < 0 ? m_current : urlIndex);
    const qsizetype q = pathAndQuery.indexOf(QLatin1Char('?'));
    url.setPath(url.path().chopped(url.path().endsWith(QLatin1Char('/')) ? 1 : 0) + pathAndQuery.left(q));
    if (q >= 0)
        url.setQuery(pathAndQuery.mid(q + 1));
    GatewayRequest r;
    r.method = method;
    r.url = url;
    if (url.scheme() == QLatin1String("https"))
        r.tls = m_tls;
    r.timeoutMs = m_timeoutMs;
    r.headers.emplaceBack("Authorization", "Bearer " + m_token.toUtf8());
    r.headers.emplaceBack("Accept", "application/json, application/problem+json");
    return r;
}

namespace {
// A request with a JSON body: its Content-Type, and the key as a Structured Field string.
void withJsonBody(GatewayRequest &r, const QString &key, const QJsonObject &body)
{
    r.headers.emplaceBack("Content-Type", "application/json");
    const auto parsed = IdempotencyKey::fromString(key);
    r.headers.emplaceBack("Idempotency-Key", parsed ? parsed->toHeaderValue() : key.toLatin1());
    r.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
}
}   // namespace

void GatewayClient::postPayment(const Intent &intent, QObject *context, Callback done)
{
    GatewayRequest r = request("POST", QStringLiteral("/v1/payments"));
    QJsonObject body{
        {QStringLiteral("amount"), intent.amount.minorUnits()},
        {QStringLiteral("currency"), intent.amount.currency()},
        {QStringLiteral("order_id"), intent.orderId},
        {QStringLiteral("payment_method"), intent.paymentMethod},
    };
    // A wallet payment keeps the customer's payment code with its method (Intent::walletCode).
    if (intent.isWallet()) {
        body.insert(QStringLiteral("payment_method"), QStringLiteral("wallet"));
        body.insert(QStringLiteral("wallet_code"), intent.walletCode());
    }
    withJsonBody(r, intent.key, body);
    exchange(r, failingOver(onContext(context, std::move(done))));
}

void GatewayClient::postCancel(const QString &paymentId, const QString &cancelKey, QObject *context, Callback done)
{
    GatewayRequest r = request("POST", QStringLiteral("/v1/payments/%1/cancel").arg(QString::fromLatin1(QUrl::toPercentEncoding(paymentId))));
    withJsonBody(r, cancelKey, QJsonObject{});
    exchange(r, failingOver(onContext(context, std::move(done))));
}

void GatewayClient::getPaymentByKey(const QString &key, QObject *context, Callback done)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("idempotency_key"), key);
    exchange(request("GET", QStringLiteral("/v1/payments?") + q.toString(QUrl::FullyEncoded)), failingOver(onContext(context, std::move(done))));
}

void GatewayClient::getPayment(const QString &paymentId, QObject *context, Callback done)
{
    exchange(request("GET", QStringLiteral("/v1/payments/") + QString::fromLatin1(QUrl::toPercentEncoding(paymentId))),
        failingOver(onContext(context, std::move(done))));
}

void GatewayClient::listPayments(const QString &terminalId, const QString &cursor, int limit, QObject *context,
    Callback done)
{
    listPayments(ListQuery{terminalId, 0, cursor, limit}, context, std::move(done));
}

void GatewayClient::listPayments(const ListQuery &query, QObject *context, Callback done)
{
    QUrlQuery q;
    if (!query.terminalId.isEmpty())
        q.addQueryItem(QStringLiteral("terminal_id"), query.terminalId);
    if (query.createdAfterMs > 0)
        q.addQueryItem(QStringLiteral("created_after"), toRfc3339(query.createdAfterMs));
    if (!query.cursor.isEmpty())
        q.addQueryItem(QStringLiteral("cursor"), query.cursor);
    q.addQueryItem(QStringLiteral("limit"), QString::number(query.limit));
    exchange(request("GET", QStringLiteral("/v1/payments?") + q.toString(QUrl::FullyEncoded)), failingOver(onContext(context, std::move(done))));
}

void GatewayClient::postRefund(const Intent &refund, QObject *context, Callback done)
{
    GatewayRequest r = request("POST", QStringLiteral("/v1/payments/%1/refunds").arg(QString::fromLatin1(QUrl::toPercentEncoding(refund.paymentId))));
    // The same body on every try (the reason is stored with the intent): the same fingerprint.
    QJsonObject body{{QStringLiteral("amount"), refund.amount.minorUnits()}};
    if (!refund.reason.isEmpty())
        body.insert(QStringLiteral("reason"), refund.reason);
    withJsonBody(r, refund.key, body);
    exchange(r, failingOver(onContext(context, std::move(done))));
}

void GatewayClient::getRefundByKey(const QString &key, QObject *context, Callback done)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("idempotency_key"), key);
    exchange(request("GET", QStringLiteral("/v1/refunds?") + q.toString(QUrl::FullyEncoded)), failingOver(onContext(context, std::move(done))));
}

void GatewayClient::getRefund(const QString &refundId, QObject *context, Callback done)
{
    exchange(request("GET", QStringLiteral("/v1/refunds/") + QString::fromLatin1(QUrl::toPercentEncoding(refundId))),
        failingOver(onContext(context, std::move(done))));
}

void GatewayClient::listRefunds(const QString &paymentId, QObject *context, Callback done)
{
    exchange(request("GET", QStringLiteral("/v1/payments/%1/refunds").arg(QString::fromLatin1(QUrl::toPercentEncoding(paymentId)))),
        failingOver(onContext(context, std::move(done))));
}

void GatewayClient::health(QObject *context, Callback done)
{
    exchange(request("GET", QStringLiteral("/healthz")), failingOver(onContext(context, std::move(done))));
}

void GatewayClient::healthAny(QObject *context, Callback done)
{
    struct Round
    {
        int pending = 0;
        bool settled = false;
        GatewayResult current;   // the current gateway's answer, reported when none is healthy
        Callback done;
    };
    auto round = std::make_shared<Round>();
    round->pending = int(m_baseUrls.size());
    round->done = onContext(context, std::move(done));
    const int first = m_current;
    for (int k = 0; k < round->pending; ++k) {
        const int index = (first + k) % int(m_baseUrls.size());
        exchange(request("GET", QStringLiteral("/healthz"), index), [this, round, index, first](const GatewayResult &r) {
            --round->pending;
            if (round->settled)
                return;
            if (r.answered() && r.status == 200) {
                round->settled = true;
                makeCurrent(index, QStringLiteral("did not answer the health check first"));
                round->done(r);
                return;
            }
            if (index == first)
                round->current = r;
            if (round->pending == 0) {
                round->settled = true;
                round->done(round->current);
            }
        });
    }
}

void GatewayClient::send(const QByteArray &method, const QString &pathAndQuery, const QByteArray &jsonBody,
    QObject *context, Callback done)
{
    GatewayRequest r = request(method, pathAndQuery);
    if (!jsonBody.isEmpty())
        r.headers.emplaceBack("Content-Type", "application/json");
    r.body = jsonBody;
    exchange(r, failingOver(onContext(context, std::move(done))));
}

void GatewayClient::exchange(const GatewayRequest &request, Callback done)
{
    const qint64 started = monotonicMs();
    const QByteArray method = request.method;
    const QString path = request.url.path();
    m_transport->exchange(request, [started, method, path, done = std::move(done)](const GatewayResult &answer) {
        GatewayResult r = answer;
        r.latencyMs = monotonicMs() - started;
        qCDebug(lcClient) << method << path << r.summary() << r.latencyMs << "ms";
        done(r);
    });
}

}   // namespace OncePay
