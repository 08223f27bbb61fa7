#include "gateway/acquirer/acquirerservice.h"

#include "gateway/acquirer/acquirersimulator.h"
#include "gateway/answers.h"
#include "gateway/api/httpapi.h"
#include "http/httpserver.h"
#include "idempotencykey.h"
#include "gateway/api/requestvalidation.h"

#include <QJsonArray>
#include <QLoggingCategory>
#include <QPointer>
#include <QUrlQuery>

namespace OncePay::Gateway {

Q_LOGGING_CATEGORY(lcService, "oncepay.acquirer.http", QtInfoMsg)

struct AcquirerService::Request
{
    Http::HttpRequest::Method method;
    QString path;
    QUrlQuery query;
    QByteArray body;
    QList<QByteArray> contentTypes;
    Http::HttpResponder responder;
};

namespace {

Http::HttpAnswer badRequest(const QString &field, const QString &message)
{
    return Http::HttpAnswer::problem(validationProblem({{field, message}}));
}

// The body of a JSON request, or the 415/400 answer it deserves.
std::optional<JsonNode> jsonBody(const QList<QByteArray> &contentTypes, const QByteArray &body, Http::HttpAnswer *error)
{
    if (contentTypes.size() != 1 || !Http::isJsonContentType(contentTypes.first())) {
        *error = Answers::unsupportedMediaType();
        return std::nullopt;
    }
    Problem problem;
    std::optional<JsonNode> node = parseRequestBody(body, &problem);
    if (!node)
        *error = Http::HttpAnswer::problem(problem);
    return node;
}

// The charge's outcome as the acquirer's API gives it: {status, decline_code, card, authorization_code};
// status succeeded, declined, or for a wallet payment processing (not confirmed yet) or reversed.
QJsonObject outcomeJson(const AcquirerAnswer &a)
{
    const bool approved = a.kind == AcquirerAnswer::Kind::Approved;
    QString status = QStringLiteral("declined");
    if (approved)
        status = QStringLiteral("succeeded");
    else if (a.kind == AcquirerAnswer::Kind::Pending)
        status = QStringLiteral("processing");
    else if (a.kind == AcquirerAnswer::Kind::Reversed)
        status = QStringLiteral("reversed");
    return {{QStringLiteral("status"), status},
        {QStringLiteral("decline_code"), a.declineCode.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(a.declineCode)},
        {QStringLiteral("card"), a.card.toJson()},
        {QStringLiteral("authorization_code"),
            a.authorizationCode.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(a.authorizationCode)}};
}

Http::HttpAnswer ledgerUnavailable()
{
    return Http::HttpAnswer::problem(503, QStringLiteral("ledger-unavailable"), QStringLiteral("Ledger unavailable"),
        QStringLiteral("The acquirer's ledger could not be read; ask again later."));
}

}   // namespace

AcquirerService::AcquirerService(Config config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
{
}

AcquirerService::~AcquirerService()
{
    stop();
}

QString AcquirerService::baseUrl() const
{
    return Http::HttpServer::baseUrl(m_config.address, m_port, false);
}

bool AcquirerService::start(QString *error)
{
    m_simulator = std::make_unique<AcquirerSimulator>(m_config.dbPath, m_config.keyMemoryMs);
    if (!m_simulator->open(error)) {
        m_simulator.reset();
        return false;
    }
    m_server = new Http::HttpServer(
        Http::HttpLimits{}, nullptr, [this](Http::HttpRequest &&request, const Http::HttpResponder &responder) {
            handle(std::move(request), responder);
        },
        this);
    m_port = m_server->start(m_config.address, m_config.port, error);
    if (m_port == 0)
        return false;
    qCInfo(lcService) << "acquirer listening on" << baseUrl() << "ledger" << m_config.dbPath;
    return true;
}

void AcquirerService::stop()
{
    if (m_server)
        m_server->close();
    // Queued ledger work finishes first: a charge that reached the ledger stays charged.
    if (m_simulator)
        m_simulator->close();
    m_simulator.reset();
}

void AcquirerService::handle(Http::HttpRequest &&request, const Http::HttpResponder &responder)
{
    // HEAD is answered wherever GET is (RFC 9110 9.3.2), as the gateway does: routed as GET, and
    // the connection leaves the body out.
    const Http::HttpRequest::Method method = request.method == Http::HttpRequest::Method::Head ? Http::HttpRequest::Method::Get : request.method;
    const Request rq{method, std::move(request.path), request.query, std::move(request.body),
        request.values("content-type"), responder};
    route(rq, [responder](const Http::HttpAnswer &a) {
        responder.respond(a);
    });
}

void AcquirerService::route(const Request &rq, const Respond &respond)
{
    using M = Http::HttpRequest::Method;
    if (!m_simulator)
        return respond(ledgerUnavailable());
    if (rq.body.size() > HttpApi::maxBodyBytes) {
        return respond(Http::HttpAnswer::problem(413, QStringLiteral("payload-too-large"), QStringLiteral("Payload too large"),
            QStringLiteral("Request bodies are limited to %1 bytes.").arg(HttpApi::maxBodyBytes)));
    }
    const bool charges = rq.path == QLatin1String("/v1/charges");
    const bool refunds = rq.path == QLatin1String("/v1/refunds");
    const bool reversals = rq.path == QLatin1String("/v1/reversals");
    const bool ledger = rq.path == QLatin1String("/v1/ledger");
    const bool refundLedger = rq.path == QLatin1String("/v1/refund-ledger");
    const bool sim = rq.path == QLatin1String("/v1/simulation");
    if (!charges && !refunds && !reversals && !ledger && !refundLedger && !sim)
        return respond(Answers::notFound(QStringLiteral("No such resource.")));
    if (charges && rq.method == M::Post)
        return postCharge(rq, respond);
    if (reversals) {
        if (rq.method != M::Post)
            return respond(Answers::methodNotAllowed("POST"));
        return postReversal(rq, respond);
    }
    if (refunds && rq.method == M::Post)
        return postRefund(rq, respond);
    if (rq.method != M::Get && !(sim && rq.method == M::Put))
        return respond(Answers::methodNotAllowed(charges || refunds ? "GET, HEAD, POST" : sim ? "GET, HEAD, PUT"
                                                                                              : "GET, HEAD"));

    // Every GET and the PUT name their merchant in the query.
    const QString merchant = rq.query.queryItemValue(QStringLiteral("merchant"), QUrl::FullyDecoded);
    if (merchant.isEmpty() || codePoints(merchant) > 64)
        return respond(badRequest(QStringLiteral("merchant"), QStringLiteral("is required: 1 to 64 characters")));
    if (charges)
        return getCharge(rq, merchant, respond);
    if (refunds)
        return getRefund(rq, merchant, respond);
    if (ledger)
        return getLedger(rq, merchant, respond);
    if (refundLedger)
        return getRefundLedger(rq, merchant, respond);
    simulation(rq, merchant, respond);
}

void AcquirerService::postCharge(const Request &rq, const Respond &respond)
{
    Http::HttpAnswer error;
    const std::optional<JsonNode> body = jsonBody(rq.contentTypes, rq.body, &error);
    if (!body)
        return respond(error);
    const ChargeValidation v = validateCharge(*body);
    if (!v.errors.isEmpty())
        return respond(Http::HttpAnswer::problem(validationProblem(v.errors)));
    qCInfo(lcService) << "charge received: merchant" << v.fields.merchant << "key" << v.fields.key
                      << "token" << v.fields.token;
    const ChargeRequest charge = v.fields;
    executeMoney(
        rq, QStringLiteral("charge"), charge.key, m_simulator->losesAnswer(charge),
        [this, charge](QObject *context, Acquirer::AnswerCallback done) {
            m_simulator->charge(charge, context, std::move(done));
        },
        respond);
}

void AcquirerService::postReversal(const Request &rq, const Respond &respond)
{
    Http::HttpAnswer error;
    const std::optional<JsonNode> body = jsonBody(rq.contentTypes, rq.body, &error);
    if (!body)
        return respond(error);
    const ReversalValidation v = validateReversal(*body);
    if (!v.errors.isEmpty())
        return respond(Http::HttpAnswer::problem(validationProblem(v.errors)));
    qCInfo(lcService) << "reversal received: merchant" << v.merchant << "key" << v.key;
    executeMoney(
        rq, QStringLiteral("reversal"), v.key, m_simulator->losesRefundAnswer(v.merchant),
        [this, merchant = v.merchant, key = v.key](QObject *context, Acquirer::AnswerCallback done) {
            m_simulator->reverse(merchant, key, context, std::move(done));
        },
        respond);
}

void AcquirerService::postRefund(const Request &rq, const Respond &respond)
{
    Http::HttpAnswer error;
    const std::optional<JsonNode> body = jsonBody(rq.contentTypes, rq.body, &error);
    if (!body)
        return respond(error);
    const AcquirerRefundValidation v = validateAcquirerRefund(*body);
    if (!v.errors.isEmpty())
        return respond(Http::HttpAnswer::problem(validationProblem(v.errors)));
    qCInfo(lcService) << "refund received: merchant" << v.fields.merchant << "key" << v.fields.key
                      << "charge" << v.fields.chargeKey << "amount" << v.fields.amount;
    const RefundCall call = v.fields;
    // A refund moves money back in the charge's currency only: 100 USD against a 100 CNY charge
    // is refused before the bank acts (nothing recorded, like any invalid request). An unknown
    // charge is the simulator's to decline (charge_not_found).
    m_simulator->ledger(call.merchant, call.chargeKey, this,
        [this, rq, call, respond](bool ok, const QList<LedgerEntry> &charges) {
            if (!ok || !m_simulator)
                return respond(ledgerUnavailable());
            if (!charges.isEmpty() && charges.first().currency != call.currency) {
                return respond(badRequest(QStringLiteral("currency"),
                    QStringLiteral("must be the currency of the charge (%1)").arg(charges.first().currency)));
            }
            executeMoney(
                rq, QStringLiteral("refund"), call.key, m_simulator->losesRefundAnswer(call.merchant),
                [this, call](QObject *context, Acquirer::AnswerCallback done) {
                    m_simulator->refund(call, context, std::move(done));
                },
                respond);
        });
}

void AcquirerService::executeMoney(const Request &rq, const QString &what, const QString &key, bool losesAnswer,
    const std::function<void(QObject *, Acquirer::AnswerCallback)> &execute,
    const Respond &respond)
{
    Http::HttpConnection *connection = rq.responder.connection();
    if (!connection)
        return;   // the caller is gone before the bank acted: nothing happens
    // The context lives as long as the caller's connection: when the caller hangs up during
    // the simulated latency (its deadline passed), the bank never acts on it, because the
    // simulator drops work whose context is gone. Asked later, it says "not found": the truth.
    auto *context = new QObject(connection);
    connect(connection, &Http::HttpConnection::closed, context, &QObject::deleteLater);
    // `losesAnswer` is decided on arrival, like the simulator's mode. A lost answer stays lost
    // for a repeat of the same request too: an HTTP stack that resends it after the dropped
    // connection (Qt 6.4 does, once or twice) must not turn the simulated loss into an answer.
    execute(context, [respond, context, losesAnswer, responder = rq.responder, what, key](const AcquirerAnswer &a) {
        context->deleteLater();
        if (a.kind == AcquirerAnswer::Kind::Refused) {
            return respond(Http::HttpAnswer::problem(502, QStringLiteral("acquirer-refused"), QStringLiteral("Acquirer refused"),
                QStringLiteral("Refused before acting, nothing was done: %1").arg(a.error)));
        }
        // Refused because of what the ledger holds (a key used for another request, money gone
        // back already): nothing moved, so the answer is never lost. The slug is the code.
        if (a.kind == AcquirerAnswer::Kind::Conflict) {
            return respond(Http::HttpAnswer::problem(409, QString(a.declineCode).replace(QLatin1Char('_'), QLatin1Char('-')),
                QStringLiteral("Conflict"), QStringLiteral("Refused, nothing was done: %1").arg(a.error)));
        }
        const bool answered = a.kind == AcquirerAnswer::Kind::Approved || a.kind == AcquirerAnswer::Kind::Declined
            || a.kind == AcquirerAnswer::Kind::Pending || a.kind == AcquirerAnswer::Kind::Reversed;
        if (answered && !losesAnswer)
            return respond(Http::HttpAnswer::json(200, outcomeJson(a)));
        // Done (or unsure: the ledger failed): the answer is lost on the wire, as a real
        // bank's can be. The caller sees its connection closed and has to ask by key.
        qCInfo(lcService) << qUtf8Printable(what) << key << "answer dropped:" << (a.error.isEmpty() ? QStringLiteral("simulated loss") : a.error);
        responder.abort();
    });
}

void AcquirerService::getCharge(const Request &rq, const QString &merchant, const Respond &respond)
{
    const QString key = rq.query.queryItemValue(QStringLiteral("key"), QUrl::FullyDecoded);
    if (!IdempotencyKey::isValidKey(key))
        return respond(badRequest(QStringLiteral("key"), QStringLiteral("is required: 1 to 255 of A-Z a-z 0-9 - _ . : ~")));
    m_simulator->ledger(merchant, key, this, [this, merchant, key, respond](bool ok, const QList<LedgerEntry> &entries) {
        if (!ok || !m_simulator)
            return respond(ledgerUnavailable());
        if (!entries.isEmpty())
            return respond(Http::HttpAnswer::json(200, entries.first().toJson()));
        // No charge: a wallet payment given up before any charge is still known, as reversed.
        m_simulator->lookup(merchant, key, this, [respond, key](const AcquirerAnswer &a) {
            if (a.kind == AcquirerAnswer::Kind::NotFound)
                return respond(Answers::notFound(QStringLiteral("The acquirer never charged this key.")));
            if (a.kind != AcquirerAnswer::Kind::Reversed)
                return respond(ledgerUnavailable());
            QJsonObject o = outcomeJson(a);
            o.insert(QStringLiteral("idempotency_key"), key);
            respond(Http::HttpAnswer::json(200, o));
        });
    });
}

void AcquirerService::getRefund(const Request &rq, const QString &merchant, const Respond &respond)
{
    const QString key = rq.query.queryItemValue(QStringLiteral("key"), QUrl::FullyDecoded);
    if (!IdempotencyKey::isValidKey(key))
        return respond(badRequest(QStringLiteral("key"), QStringLiteral("is required: 1 to 255 of A-Z a-z 0-9 - _ . : ~")));
    m_simulator->lookupRefund(merchant, key, this, [respond](const AcquirerAnswer &a) {
        if (a.kind == AcquirerAnswer::Kind::NotFound)
            return respond(Answers::notFound(QStringLiteral("The acquirer never refunded with this key.")));
        if (a.kind != AcquirerAnswer::Kind::Approved && a.kind != AcquirerAnswer::Kind::Declined)
            return respond(ledgerUnavailable());
        respond(Http::HttpAnswer::json(200, outcomeJson(a)));
    });
}

void AcquirerService::getRefundLedger(const Request &rq, const QString &merchant, const Respond &respond)
{
    const QString chargeKey = rq.query.queryItemValue(QStringLiteral("charge_key"), QUrl::FullyDecoded);
    if (rq.query.hasQueryItem(QStringLiteral("charge_key")) && !IdempotencyKey::isValidKey(chargeKey))
        return respond(badRequest(QStringLiteral("charge_key"), QStringLiteral("must be 1 to 255 of A-Z a-z 0-9 - _ . : ~")));
    m_simulator->refundLedger(merchant, chargeKey, this, [respond](bool ok, const QList<RefundLedgerEntry> &entries) {
        if (!ok)
            return respond(ledgerUnavailable());
        QJsonArray data;
        for (const RefundLedgerEntry &e : entries)
            data.append(e.toJson());
        respond(Http::HttpAnswer::json(200, {{QStringLiteral("data"), data}}));
    });
}

void AcquirerService::getLedger(const Request &rq, const QString &merchant, const Respond &respond)
{
    const QString key = rq.query.queryItemValue(QStringLiteral("key"), QUrl::FullyDecoded);
    if (rq.query.hasQueryItem(QStringLiteral("key")) && !IdempotencyKey::isValidKey(key))
        return respond(badRequest(QStringLiteral("key"), QStringLiteral("must be 1 to 255 of A-Z a-z 0-9 - _ . : ~")));
    m_simulator->ledger(merchant, key, this, [respond](bool ok, const QList<LedgerEntry> &entries) {
        if (!ok)
            return respond(ledgerUnavailable());
        QJsonArray data;
        for (const LedgerEntry &e : entries)
            data.append(e.toJson());
        respond(Http::HttpAnswer::json(200, {{QStringLiteral("data"), data}}));
    });
}

void AcquirerService::simulation(const Request &rq, const QString &merchant, const Respond &respond)
{
    auto answerState = [respond](bool ok, const SimulationState &state) {
        respond(ok ? Http::HttpAnswer::json(200, state.toJson()) : ledgerUnavailable());
    };
    if (rq.method == Http::HttpRequest::Method::Get)
        return m_simulator->simulation(merchant, this, answerState);
    Http::HttpAnswer error;
    const std::optional<JsonNode> body = jsonBody(rq.contentTypes, rq.body, &error);
    if (!body)
        return respond(error);
    const SimulationValidation v = validateSimulation(*body);
    if (!v.errors.isEmpty())
        return respond(Http::HttpAnswer::problem(validationProblem(v.errors)));
    m_simulator->simulation(merchant, this, [this, merchant, v, answerState](bool ok, const SimulationState &current) {
        if (!ok || !m_simulator)
            return answerState(false, current);
        m_simulator->setSimulation(merchant, v.applyTo(current), this, answerState);
    });
}

}   // namespace OncePay::Gateway
