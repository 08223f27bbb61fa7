#include "gatewaytransport.h"

#include "gatewayclient.h"
#include "replywatcher.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

namespace OncePay {

NetworkTransport::NetworkTransport(int maxConnections, QObject *parent)
    : GatewayTransport(parent)
    , m_watcher(new ReplyWatcher(this))   // a child made before the managers: destroyed first
{
    const int managers = qBound(1, (maxConnections + 5) / 6, 16);
    for (int i = 0; i < managers; ++i)
        m_managers.append(new QNetworkAccessManager(this));
}

void NetworkTransport::exchange(const GatewayRequest &request, Done done)
{
    QNetworkRequest r(request.url);
    if (request.tls)
        r.setSslConfiguration(*request.tls);
    r.setTransferTimeout(request.timeoutMs);
    for (const auto &[name, value] : request.headers)
        r.setRawHeader(name, value);
    // HTTP/1.1 only. Note that Qt 6.4 itself re-sends a request once when a kept-alive
    // connection closes before the answer; the Idempotency-Key makes that resend a replay.
    r.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    m_next = (m_next + 1) % int(m_managers.size());
    QNetworkAccessManager *manager = m_managers.at(m_next);
    QNetworkReply *reply = request.method == "GET" ? manager->get(r)
        : request.method == "POST"                 ? manager->post(r, request.body)
                                                   : manager->sendCustomRequest(r, request.method, request.body);
    // After every byte of the request left, silence means "unknown", not "not sent".
    m_watcher->watch(reply, [done = std::move(done)](QNetworkReply *reply, const ReplyProgress &progress) {
        const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (status.isValid() && status.toInt() > 0) {
            done(GatewayResult::fromAnswer(status.toInt(), reply->rawHeader("Content-Type"), reply->rawHeader("Retry-After"),
                reply->rawHeader("Idempotent-Replayed"), reply->readAll()));
            return;
        }
        const QNetworkReply::NetworkError e = reply->error();
        // An incomplete request is never executed; a complete one may have been, whatever the
        // final error says: Qt 6.4 silently re-sends a request whose connection closed before
        // the answer and reports the resend's error, e.g. "connection refused" by a gateway
        // that died while it was executing the first one.
        done(GatewayResult::failed(progress.written ? GatewayResult::Transport::LostAfterSend : GatewayResult::Transport::NotSent,
            e == QNetworkReply::OperationCanceledError ? QStringLiteral("timed out") : reply->errorString()));
    });
}

}   // namespace OncePay
