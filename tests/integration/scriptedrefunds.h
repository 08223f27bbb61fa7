#pragma once

// A scripted gateway for refunds, for what today's gateway cannot be made to answer: POST
// /v1/payments/{id}/refunds answers 409 idempotency-key-in-use (Retry-After: 1) the first
// `busyAnswers` times, then 201 with a succeeded refund. Every POST is recorded.
// POST /v1/payments is held unanswered until answerPayment(): a test decides the instant the
// till hears that a card was charged. GET /healthz answers 200.
#include "timeutil.h"

#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponse>
#include <QJsonDocument>
#include <QJsonObject>
#include <QHttpServerResponder>
#include <QList>

#include <memory>
#include <vector>

class ScriptedRefunds final
{
public:
    struct Post
    {
        QByteArray key;   // the Idempotency-Key header as sent
        QByteArray body;
        qint64 at = 0;   // epoch ms
    };

    explicit ScriptedRefunds(int busyAnswers)
        : m_busy(busyAnswers)
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

    quint16 listen()
    {
        m_server.route(QStringLiteral("/v1/payments"), QHttpServerRequest::Method::Post,
            [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                m_paymentPosts.append({request.value("Idempotency-Key"), request.body(), OncePay::nowMs()});
                m_held.push_back(std::make_unique<QHttpServerResponder>(std::move(responder)));
            });
        m_server.route(QStringLiteral("/healthz"), QHttpServerRequest::Method::Get,
            [] {
                return QHttpServerResponse(QJsonObject{{QStringLiteral("status"), QStringLiteral("ok")}});
            });
        return m_server.listen(QHostAddress::LocalHost, 0);
    }
    const QList<Post> &posts() const { return m_posts; }
    const QList<Post> &paymentPosts() const { return m_paymentPosts; }
    bool holdsPayment() const { return !m_held.empty(); }
    // Answers the oldest held POST /v1/payments: 201, the payment succeeded.
    void answerPayment()
    {
        const Post &post = m_paymentPosts.at(int(m_paymentPosts.size() - m_held.size()));
        const QJsonObject body = QJsonDocument::fromJson(post.body).object();
        const QJsonObject payment{{QStringLiteral("id"), QStringLiteral("pay_scripted_%1").arg(m_paymentPosts.size())},
            {QStringLiteral("object"), QStringLiteral("payment")},
            {QStringLiteral("amount"), body.value(QStringLiteral("amount"))},
            {QStringLiteral("currency"), body.value(QStringLiteral("currency"))},
            {QStringLiteral("status"), QStringLiteral("succeeded")},
            {QStringLiteral("idempotency_key"), QString::fromLatin1(post.key).remove(QLatin1Char('"'))}};
        std::unique_ptr<QHttpServerResponder> responder = std::move(m_held.front());
        m_held.erase(m_held.begin());
        responder->write(QJsonDocument(payment), QHttpServerResponder::StatusCode::Created);
    }

private:
    int m_busy;
    QList<Post> m_posts;
    QList<Post> m_paymentPosts;
    QHttpServer m_server;   // gone before what its routes use
    std::vector<std::unique_ptr<QHttpServerResponder>> m_held;   // last: gone before the server's sockets
};
