#include "gateway/answers.h"

namespace OncePay::Gateway::Answers {

Http::HttpAnswer fromStored(const StoredResponse &s)
{
    Http::HttpAnswer a;
    a.status = s.status;
    a.body = s.body;
    if (!s.contentType.isEmpty())
        a.contentType = s.contentType;
    if (!s.location.isEmpty())
        a.headers.append({QByteArrayLiteral("Location"), s.location});
    return a;
}

StoredResponse toStored(const Http::HttpAnswer &answer)
{
    return {answer.status, answer.body, answer.header(QByteArrayLiteral("Location")), answer.contentType};
}

Http::HttpAnswer forPayment(const Payment &p)
{
    if (p.status == PaymentStatus::Declined) {
        // One problem type for every declined payment (API.md); the words name the wallet.
        Problem problem = p.isWallet()
            ? Problem::make(402, QStringLiteral("card-declined"), QStringLiteral("Wallet payment declined"),
                QStringLiteral("The wallet payment was declined or given up (%1); nothing was kept.").arg(p.declineCode))
            : Problem::make(402, QStringLiteral("card-declined"), QStringLiteral("Card declined"),
                QStringLiteral("The card was declined (%1).").arg(p.declineCode));
        problem.extra.insert(QStringLiteral("payment"), p.toJson());
        return Http::HttpAnswer::problem(problem);
    }
    Http::HttpAnswer a = Http::HttpAnswer::json(p.status == PaymentStatus::Processing ? 202 : 201, p.toJson());
    a.headers.append({QByteArrayLiteral("Location"), "/v1/payments/" + p.id.toLatin1()});
    return a;
}

Http::HttpAnswer forRefund(const Refund &r)
{
    if (r.status == RefundStatus::Failed) {
        Problem problem = Problem::make(402, QStringLiteral("refund-declined"), QStringLiteral("Refund declined"),
            QStringLiteral("The acquirer declined the refund (%1); no money moved.")
                .arg(r.failureCode));
        problem.extra.insert(QStringLiteral("refund"), r.toJson());
        return Http::HttpAnswer::problem(problem);
    }
    Http::HttpAnswer a = Http::HttpAnswer::json(r.status == RefundStatus::Processing ? 202 : 201, r.toJson());
    a.headers.append({QByteArrayLiteral("Location"), "/v1/refunds/" + r.id.toLatin1()});
    return a;
}

Http::HttpAnswer storeUnavailable()
{
    return Http::HttpAnswer::problem(503, QStringLiteral("store-unavailable"), QStringLiteral("Store unavailable"),
        QStringLiteral("The gateway cannot reach its store; nothing was executed. Retry with the same key."))
        .withHeader(QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1"));
}

Http::HttpAnswer keyInUse()
{
    return Http::HttpAnswer::problem(409, QStringLiteral("idempotency-key-in-use"), QStringLiteral("Request in progress"),
        QStringLiteral("A request with this Idempotency-Key is being processed. Retry later with the same key."))
        .withHeader(QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1"));
}

Http::HttpAnswer keyReused()
{
    return Http::HttpAnswer::problem(422, QStringLiteral("idempotency-key-reused"), QStringLiteral("Idempotency-Key reused"),
        QStringLiteral("This Idempotency-Key was already used for a different request."));
}

Http::HttpAnswer acquirerUnavailable(const QString &detail)
{
    return Http::HttpAnswer::problem(502, QStringLiteral("acquirer-unavailable"), QStringLiteral("Acquirer unavailable"), detail);
}

Http::HttpAnswer outcomeUnknown()
{
    return Http::HttpAnswer::problem(500, QStringLiteral("outcome-unknown"), QStringLiteral("Outcome unknown"),
        QStringLiteral("The payment may have been executed; retry with the same Idempotency-Key to learn its outcome."))
        .withHeader(QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1"));
}

Http::HttpAnswer notFound(const QString &detail)
{
    return Http::HttpAnswer::problem(404, QStringLiteral("not-found"), QStringLiteral("Not found"), detail);
}

Http::HttpAnswer unsupportedMediaType()
{
    return Http::HttpAnswer::problem(415, QStringLiteral("unsupported-media-type"), QStringLiteral("Unsupported media type"),
        QStringLiteral("Send the body as Content-Type: application/json."));
}

Http::HttpAnswer methodNotAllowed(const QByteArray &allow)
{
    return Http::HttpAnswer::problem(405, QStringLiteral("method-not-allowed"), QStringLiteral("Method not allowed"),
        QStringLiteral("This resource accepts %1.").arg(QString::fromLatin1(allow)))
        .withHeader(QByteArrayLiteral("Allow"), allow);
}

}   // namespace OncePay::Gateway::Answers
