#pragma once

#include "intent.h"
#include "problem.h"

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QUrl>

#include <functional>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;

namespace OncePay {

// What one request to the gateway came to: an HTTP answer, or how the transport failed and
// whether the request had been written before it did (then the gateway may have acted on it).
struct GatewayResult
{
    enum class Transport {
        Answered,        // an HTTP status came back
        NotSent,         // refused / unreachable before the request was written: safe to resend
        LostAfterSend,   // timeout or reset after the request was written: the outcome is unknown
    };
    Transport transport = Transport::NotSent;
    int status = 0;
    QByteArray body;
    QJsonObject json;                 // the body when it is a JSON object
    std::optional<Problem> problem;   // the body when it is a problem document
    qint64 retryAfterMs = -1;         // from Retry-After, -1 if none
    bool replayed = false;            // Idempotent-Replayed: true
    qint64 latencyMs = 0;
    QString transportError;           // human-readable, when not answered

    bool answered() const { return transport == Transport::Answered; }
    // The payment object in a 200/201/202 body or inside a 402 problem.
    QJsonObject payment() const;
    // One line for logs, the attempts table and the cashier's detail view.
    QString summary() const;
};

// The till's HTTP client of API.md: one QNetworkAccessManager, a transfer timeout on every
// request, the key sent as a Structured Field string, answers turned into GatewayResult.
class GatewayClient final : public QObject
{
    Q_OBJECT

public:
    using Callback = std::function<void(const GatewayResult &)>;

    // Qt 6.4's QNetworkAccessManager opens at most 6 connections per host; a client meant to
    // keep more requests in flight (a drain) spreads them over several managers.
    GatewayClient(const QUrl &baseUrl, const QString &token, int timeoutMs, QObject *parent = nullptr,
                  int maxConnections = 6);

    QUrl baseUrl() const { return m_baseUrl; }
    void setBaseUrl(const QUrl &url) { m_baseUrl = url; }
    void setToken(const QString &token) { m_token = token; }
    int timeoutMs() const { return m_timeoutMs; }

    void postPayment(const Intent &intent, Callback done);
    void getPaymentByKey(const QString &key, Callback done);
    void getPayment(const QString &paymentId, Callback done);
    void listPayments(const QString &terminalId, const QString &cursor, int limit, Callback done);
    void health(Callback done);
    // Any other request, e.g. the demo's /v1/_sim endpoints.
    void send(const QByteArray &method, const QString &pathAndQuery, const QByteArray &jsonBody, Callback done);

private:
    QNetworkRequest request(const QString &pathAndQuery) const;
    void track(QNetworkReply *reply, Callback done);

    QNetworkAccessManager *nextManager();

    QList<QNetworkAccessManager *> m_managers;
    int m_next = 0;
    QUrl m_baseUrl;
    QString m_token;
    int m_timeoutMs;
};

} // namespace OncePay
