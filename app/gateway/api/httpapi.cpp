#include "gateway/api/httpapi.h"

#include "gateway/answers.h"
#include "canonicaljson.h"
#include "http/httplog.h"
#include "idempotencykey.h"
#include "gateway/api/requestvalidation.h"
#include "timeutil.h"

#include <QJsonArray>
#include <QLoggingCategory>
#include <QPointer>
#include <QUrlQuery>

namespace OncePay::Gateway {

namespace {

QString methodName(Http::HttpRequest::Method m)
{
    using M = Http::HttpRequest::Method;
    switch (m) {
    case M::Get:
        return QStringLiteral("GET");
    case M::Post:
        return QStringLiteral("POST");
    case M::Put:
        return QStringLiteral("PUT");
    case M::Delete:
        return QStringLiteral("DELETE");
    case M::Head:
        return QStringLiteral("HEAD");
    case M::Patch:
        return QStringLiteral("PATCH");
    default:
        return QStringLiteral("OTHER");
    }
}

// HEAD is answered wherever GET is, with GET's status and fields (RFC 9110 9.3.2): routed as GET,
// and the connection leaves the body out.
Http::HttpRequest::Method routed(Http::HttpRequest::Method method)
{
    return method == Http::HttpRequest::Method::Head ? Http::HttpRequest::Method::Get : method;
}

Http::HttpAnswer badRequest(const QString &field, const QString &message)
{
    return Http::HttpAnswer::problem(validationProblem({{field, message}}));
}

// Parses and canonicalises a JSON request body, or says why it cannot.
std::optional<JsonNode> parseBody(const QByteArray &body, Http::HttpAnswer *error)
{
    Problem problem;
    std::optional<JsonNode> node = parseRequestBody(body, &problem);
    if (!node)
        *error = Http::HttpAnswer::problem(problem);
    return node;
}

}   // namespace

HttpApi::HttpApi(Config config, const TokenStore *tokens, PaymentService *payments, AcquirerSimulation *simulation,
    Metrics *metrics, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_tokens(tokens)
    , m_payments(payments)
    , m_simulation(simulation)
    , m_metrics(metrics)
{
}

// The route a path belongs to, as a metrics label: a fixed set of templates, never the client's
// bytes (an attacker's 40,000 unknown paths are one series, "other", not 40,000).
QString HttpApi::routeTemplate(const QString &path)
{
    static const QString payments = QStringLiteral("/v1/payments");
    if (path == QLatin1String("/healthz") || path == QLatin1String("/livez") || path == QLatin1String("/metrics")
        || path == payments)
        return path;
    if (path.startsWith(payments + QLatin1Char('/'))) {
        const QStringList parts = path.mid(payments.size() + 1).split(QLatin1Char('/'));
        if (parts.size() == 1 && !parts[0].isEmpty())
            return QStringLiteral("/v1/payments/{id}");
        if (parts.size() == 2 && !parts[0].isEmpty() && parts[1] == QLatin1String("refunds"))
            return QStringLiteral("/v1/payments/{id}/refunds");
        if (parts.size() == 2 && !parts[0].isEmpty() && parts[1] == QLatin1String("cancel"))
            return QStringLiteral("/v1/payments/{id}/cancel");
    }
    static const QString refunds = QStringLiteral("/v1/refunds");
    if (path == refunds)
        return path;
    if (path.startsWith(refunds + QLatin1Char('/')) && path.size() > refunds.size() + 1
        && !path.mid(refunds.size() + 1).contains(QLatin1Char('/')))
        return QStringLiteral("/v1/refunds/{id}");
    if (path.startsWith(QLatin1String("/v1/_sim/")))
        return QStringLiteral("/v1/_sim/*");
    return QStringLiteral("other");
}

void HttpApi::handle(Http::HttpRequest &&request, const Http::HttpResponder &responder)
{
    const Request rq = std::move(request);
    ++m_inFlight;
    const QByteArray routeLabel = label("method", methodName(rq.method)) + ',' + label("route", routeTemplate(rq.path));
    auto answered = std::make_shared<bool>(false);
    Respond respond = [this, responder, routeLabel, answered](const Http::HttpAnswer &a) {
        if (*answered)
            return;
        *answered = true;
        m_metrics->count("oncepay_http_requests_total", routeLabel + ',' + label("status", QString::number(a.status)));
        responder.respond(a);
        if (--m_inFlight == 0)
            emit idle();
    };
    route(rq, respond);
}

bool HttpApi::allowRate(const Caller &caller)
{
    if (m_config.rateLimitPerSecond <= 0)
        return true;
    Bucket &b = m_buckets[caller.tokenHash];
    const double capacity = m_config.rateLimitPerSecond;
    if (!b.refilled.isValid()) {
        b.tokens = capacity;
        b.refilled.start();
    } else {
        b.tokens = qMin(capacity, b.tokens + b.refilled.restart() * capacity / 1000.0);
    }
    if (b.tokens < 1.0)
        return false;
    b.tokens -= 1.0;
    return true;
}

void HttpApi::route(const Request &rq, const Respond &respond)
{
    using M = Http::HttpRequest::Method;
    const M method = routed(rq.method);
    if (rq.path == QLatin1String("/healthz")) {   // ready: the store answers
        if (method != M::Get)
            return respond(Answers::methodNotAllowed("GET, HEAD"));
        return m_payments->readiness(respond);
    }
    if (rq.path == QLatin1String("/livez")) {   // alive: this process answers HTTP
        if (method != M::Get)
            return respond(Answers::methodNotAllowed("GET, HEAD"));
        return respond(Http::HttpAnswer::json(200, {{QStringLiteral("status"), QStringLiteral("alive")}}));
    }
    if (rq.path == QLatin1String("/metrics")) {
        if (method != M::Get)
            return respond(Answers::methodNotAllowed("GET, HEAD"));
        Http::HttpAnswer a;
        if (beforeMetrics)
            beforeMetrics();
        a.body = m_metrics->render();
        a.contentType = QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8");
        return respond(a);
    }
    if (!rq.path.startsWith(QLatin1String("/v1/")))
        return respond(Answers::notFound(QStringLiteral("No such resource.")));

    if (rq.body.size() > maxBodyBytes) {
        return respond(Http::HttpAnswer::problem(413, QStringLiteral("payload-too-large"), QStringLiteral("Payload too large"),
            QStringLiteral("Request bodies are limited to %1 bytes.").arg(maxBodyBytes)));
    }
    const std::optional<Caller> caller = m_tokens->authenticate(rq.value("authorization"));
    if (!caller) {
        return respond(Http::HttpAnswer::problem(401, QStringLiteral("unauthorized"), QStringLiteral("Unauthorized"),
            QStringLiteral("A valid bearer token is required."))
                           .withHeader(QByteArrayLiteral("WWW-Authenticate"), QByteArrayLiteral("Bearer")));
    }
    if (!allowRate(*caller)) {
        return respond(Http::HttpAnswer::problem(429, QStringLiteral("rate-limited"), QStringLiteral("Too many requests"),
            QStringLiteral("This token is limited to %1 requests per second.").arg(m_config.rateLimitPerSecond))
                           .withHeader(QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1")));
    }

    static const QString payments = QStringLiteral("/v1/payments");
    if (rq.path == payments) {
        if (method == M::Post)
            return postPayment(rq, *caller, respond);
        if (method == M::Get)
            return getPayments(rq, *caller, respond);
        return respond(Answers::methodNotAllowed("GET, HEAD, POST"));
    }
    if (rq.path.startsWith(payments + QLatin1Char('/'))) {
        const QStringList parts = rq.path.mid(payments.size() + 1).split(QLatin1Char('/'));
        if (parts.size() == 1 && !parts[0].isEmpty()) {
            if (method != M::Get)
                return respond(Answers::methodNotAllowed("GET, HEAD"));
            return m_payments->getPayment(*caller, parts[0], respond);
        }
        if (parts.size() == 2 && !parts[0].isEmpty() && parts[1] == QLatin1String("cancel")) {
            if (method != M::Post)
                return respond(Answers::methodNotAllowed("POST"));
            return postCancel(rq, *caller, parts[0], respond);
        }
        if (parts.size() == 2 && !parts[0].isEmpty() && parts[1] == QLatin1String("refunds")) {
            if (method == M::Post)
                return postRefund(rq, *caller, parts[0], respond);
            if (method == M::Get)
                return m_payments->listRefunds(*caller, parts[0], respond);
            return respond(Answers::methodNotAllowed("GET, HEAD, POST"));
        }
    }
    static const QString refunds = QStringLiteral("/v1/refunds");
    if (rq.path == refunds) {
        if (method != M::Get)
            return respond(Answers::methodNotAllowed("GET, HEAD"));
        const QString key = rq.query.queryItemValue(QStringLiteral("idempotency_key"), QUrl::FullyDecoded);
        if (!IdempotencyKey::isValidKey(key))
            return respond(badRequest(QStringLiteral("idempotency_key"), QStringLiteral("is required: a valid Idempotency-Key")));
        return m_payments->getRefundByKey(*caller, key, respond);
    }
    if (rq.path.startsWith(refunds + QLatin1Char('/'))) {
        const QString id = rq.path.mid(refunds.size() + 1);
        if (!id.isEmpty() && !id.contains(QLatin1Char('/'))) {
            if (method != M::Get)
                return respond(Answers::methodNotAllowed("GET, HEAD"));
            return m_payments->getRefund(*caller, id, respond);
        }
    }
    static const QString sim = QStringLiteral("/v1/_sim/");
    if (m_config.demo && rq.path.startsWith(sim))
        return simulation(rq, *caller, rq.path.mid(sim.size()), respond);
    respond(Answers::notFound(QStringLiteral("No such resource.")));
}

namespace {

// The checks every keyed POST shares, in the order of API.md; nothing is recorded for them.
std::optional<std::pair<QString, JsonNode>> preflightKeyedPost(const QList<QByteArray> &contentType,
    const QList<QByteArray> &keyHeaders,
    const QByteArray &body, Http::HttpAnswer *error)
{
    if (contentType.size() != 1 || !Http::isJsonContentType(contentType.first())) {
        *error = Answers::unsupportedMediaType();
        return std::nullopt;
    }
    const IdempotencyKey::ParseResult key = IdempotencyKey::fromHeaderValues(keyHeaders);
    if (key.error == IdempotencyKey::Error::Missing) {
        *error = Http::HttpAnswer::problem(400, QStringLiteral("idempotency-key-missing"),
            QStringLiteral("Idempotency-Key missing"), key.reason);
        return std::nullopt;
    }
    if (key.error == IdempotencyKey::Error::Invalid) {
        *error = Http::HttpAnswer::problem(400, QStringLiteral("idempotency-key-invalid"),
            QStringLiteral("Idempotency-Key invalid"), key.reason);
        return std::nullopt;
    }
    std::optional<JsonNode> node = parseBody(body, error);
    if (!node)
        return std::nullopt;
    return std::make_pair(key.key->value(), std::move(*node));
}

}   // namespace

void HttpApi::postPayment(const Request &rq, const Caller &caller, const Respond &respond)
{
    Http::HttpAnswer error;
    auto pre = preflightKeyedPost(rq.values("content-type"), rq.values("idempotency-key"), rq.body, &error);
    if (!pre)
        return respond(error);
    PaymentValidation v = validatePayment(pre->second);
    if (!v.errors.isEmpty())
        return respond(Http::HttpAnswer::problem(validationProblem(v.errors)));
    const QByteArray fingerprint = requestFingerprint("POST", "/v1/payments", canonicalJson(pre->second));
    m_payments->createPayment(caller, pre->first, fingerprint, v.fields, respond);
}

void HttpApi::postRefund(const Request &rq, const Caller &caller, const QString &paymentId, const Respond &respond)
{
    Http::HttpAnswer error;
    auto pre = preflightKeyedPost(rq.values("content-type"), rq.values("idempotency-key"), rq.body, &error);
    if (!pre)
        return respond(error);
    RefundValidation v = validateRefund(pre->second);
    if (!v.errors.isEmpty())
        return respond(Http::HttpAnswer::problem(validationProblem(v.errors)));
    v.fields.paymentId = paymentId;
    const QByteArray fingerprint = requestFingerprint("POST", rq.path.toUtf8(), canonicalJson(pre->second));
    m_payments->createRefund(caller, pre->first, fingerprint, v.fields, respond);
}

void HttpApi::postCancel(const Request &rq, const Caller &caller, const QString &paymentId, const Respond &respond)
{
    Http::HttpAnswer error;
    auto pre = preflightKeyedPost(rq.values("content-type"), rq.values("idempotency-key"), rq.body, &error);
    if (!pre)
        return respond(error);
    // The body is {} (API.md): anything in it is a mistake worth saying.
    if (pre->second.type != JsonNode::Type::Object || !pre->second.members.empty()) {
        return respond(Http::HttpAnswer::problem(validationProblem({{QStringLiteral("body"),
            QStringLiteral("must be the empty object {}")}})));
    }
    const QByteArray fingerprint = requestFingerprint("POST", rq.path.toUtf8(), canonicalJson(pre->second));
    m_payments->cancelPayment(caller, pre->first, fingerprint, paymentId, respond);
}

void HttpApi::getPayments(const Request &rq, const Caller &caller, const Respond &respond)
{
    const QUrlQuery &q = rq.query;
    if (q.hasQueryItem(QStringLiteral("idempotency_key"))) {
        const QString key = q.queryItemValue(QStringLiteral("idempotency_key"), QUrl::FullyDecoded);
        if (!IdempotencyKey::isValidKey(key))
            return respond(badRequest(QStringLiteral("idempotency_key"), QStringLiteral("is not a valid Idempotency-Key")));
        return m_payments->getPaymentByKey(caller, key, respond);
    }
    ListQuery lq;
    lq.merchant = caller.merchant;
    lq.terminalId = q.queryItemValue(QStringLiteral("terminal_id"), QUrl::FullyDecoded);
    if (q.hasQueryItem(QStringLiteral("created_after"))) {
        const auto t = fromRfc3339(q.queryItemValue(QStringLiteral("created_after"), QUrl::FullyDecoded));
        if (!t)
            return respond(badRequest(QStringLiteral("created_after"), QStringLiteral("must be an RFC 3339 time")));
        lq.createdAfter = *t;
    }
    if (q.hasQueryItem(QStringLiteral("limit"))) {
        bool ok = false;
        lq.limit = q.queryItemValue(QStringLiteral("limit")).toInt(&ok);
        if (!ok || lq.limit < 1 || lq.limit > 500)
            return respond(badRequest(QStringLiteral("limit"), QStringLiteral("must be an integer from 1 to 500")));
    }
    if (q.hasQueryItem(QStringLiteral("cursor"))) {
        bool ok = false;
        const QByteArray raw = QByteArray::fromBase64(q.queryItemValue(QStringLiteral("cursor")).toLatin1(),
            QByteArray::Base64UrlEncoding);
        lq.afterSeq = raw.toLongLong(&ok);
        if (!ok || lq.afterSeq < 0)
            return respond(badRequest(QStringLiteral("cursor"), QStringLiteral("is not a cursor this gateway gave out")));
    }
    m_payments->listPayments(lq, respond);
}

void HttpApi::simulation(const Request &rq, const Caller &caller, const QString &rest, const Respond &respond)
{
    using M = Http::HttpRequest::Method;
    const M method = routed(rq.method);
    if (!m_simulation)
        return respond(Answers::notFound(QStringLiteral("No such resource.")));
    auto answerState = [respond](bool ok, const SimulationState &state) {
        respond(ok ? Http::HttpAnswer::json(200, state.toJson()) : Answers::acquirerUnavailable(QStringLiteral("The acquirer could not be reached.")));
    };
    if (rest == QLatin1String("acquirer")) {
        if (method == M::Get)
            return m_simulation->simulation(caller.merchant, this, answerState);
        if (method != M::Put)
            return respond(Answers::methodNotAllowed("GET, HEAD, PUT"));
        if (rq.values("content-type").size() != 1 || !Http::isJsonContentType(rq.value("content-type")))
            return respond(Answers::unsupportedMediaType());
        Http::HttpAnswer error;
        const std::optional<JsonNode> body = parseBody(rq.body, &error);
        if (!body)
            return respond(error);
        const SimulationValidation v = validateSimulation(*body);
        if (!v.errors.isEmpty())
            return respond(Http::HttpAnswer::problem(validationProblem(v.errors)));
        // The fields left out keep the merchant's: read, then set the whole state.
        return m_simulation->simulation(caller.merchant, this, [this, merchant = caller.merchant, v, answerState](bool ok, const SimulationState &current) {
            if (!ok)
                return answerState(false, current);
            m_simulation->setSimulation(merchant, v.applyTo(current), this, answerState);
        });
    }
    if (rest == QLatin1String("acquirer/refunds")) {
        if (method != M::Get)
            return respond(Answers::methodNotAllowed("GET, HEAD"));
        const QString chargeKey = rq.query.queryItemValue(QStringLiteral("charge_key"), QUrl::FullyDecoded);
        if (rq.query.hasQueryItem(QStringLiteral("charge_key")) && !IdempotencyKey::isValidKey(chargeKey))
            return respond(badRequest(QStringLiteral("charge_key"), QStringLiteral("is not a valid Idempotency-Key")));
        return m_simulation->refundLedger(caller.merchant, chargeKey, this,
            [respond](bool ok, const QList<RefundLedgerEntry> &entries) {
                if (!ok)
                    return respond(Answers::acquirerUnavailable(QStringLiteral("The acquirer's ledger could not be read.")));
                QJsonArray data;
                for (const RefundLedgerEntry &e : entries)
                    data.append(e.toJson());
                respond(Http::HttpAnswer::json(200, {{QStringLiteral("data"), data}}));
            });
    }
    if (rest == QLatin1String("acquirer/charges")) {
        if (method != M::Get)
            return respond(Answers::methodNotAllowed("GET, HEAD"));
        const QString key = rq.query.queryItemValue(QStringLiteral("idempotency_key"), QUrl::FullyDecoded);
        return m_simulation->ledger(caller.merchant, key, this, [respond](bool ok, const QList<LedgerEntry> &entries) {
            if (!ok)
                return respond(Answers::storeUnavailable());
            QJsonArray data;
            for (const LedgerEntry &e : entries)
                data.append(e.toJson());
            respond(Http::HttpAnswer::json(200, {{QStringLiteral("data"), data}}));
        });
    }
    respond(Answers::notFound(QStringLiteral("No such resource.")));
}

}   // namespace OncePay::Gateway
