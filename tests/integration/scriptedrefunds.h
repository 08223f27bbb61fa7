#pragma once

// A scripted gateway for refunds, for what today's gateway cannot be made to answer: POST
// /v1/payments/{id}/refunds answers 409 idempotency-key-in-use (Retry-After: 1) the first
// `busyAnswers` times, then 201 with a succeeded refund. Every POST is recorded.
#include "timeutil.h"

#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponse>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>

class ScriptedRefunds final
{
public:
    struct Post
    {
        QByteArray key;    // the Idempotency-Key header as sent
        QByteArray body;
        qint64 at = 0;     // epoch ms
    };

    explicit ScriptedRefunds(int busyAnswers) : m_busy(busyAnswers)
    {
        m_server.route(QStringLiteral("/v1/payments/<arg>/refunds"), QHttpServerRequest::Method::Post,
                       [this](const QString &paymentId, const QHttpServerRequest &request) {
            m_posts.append({request.value("Idempotency-Key"), request.body(), OncePay::nowMs()});
            if (m_posts.size() <= m_busy) {
                QHttpServerResponse busy("application/problem+json",
                                         R"({"type":"https://oncepay.example/problems/idempotency-key-in-use","title":"In use",)"
                                         R"("status":409,"detail":"A request with this key is in progress."})",
                                         QHttpServerResponse::StatusCode::Conflict);
                busy.setHeader("Retry-After", "1");
                return busy;
            }
            const QJsonObject body = QJsonDocument::fromJson(request.body()).object();
            return QHttpServerResponse(QJsonObject{{QStringLiteral("id"), QStringLiteral("re_scripted")},
                                                   {QStringLiteral("object"), QStringLiteral("refund")},
                                                   {QStringLiteral("payment_id"), paymentId},
                                                   {QStringLiteral("amount"), body.value(QStringLiteral("amount"))},
                                                   {QStringLiteral("currency"), QStringLiteral("CNY")},
                                                   {QStringLiteral("status"), QStringLiteral("succeeded")},
                                                   {QStringLiteral("idempotency_key"),
                                                    QString::fromLatin1(request.value("Idempotency-Key"))}},
                                       QHttpServerResponse::StatusCode::Created);
        });
    }

    quint16 listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    const QList<Post> &posts() const { return m_posts; }

private:
    int m_busy;
    QList<Post> m_posts;
    QHttpServer m_server;   // last: gone first, before what its routes use
};
