#pragma once

#include "gatewaytransport.h"
#include "intent.h"
#include "problem.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QSslConfiguration>
#include <QUrl>

#include <functional>
#include <optional>

namespace OncePay {

// What one request to the gateway came to: an HTTP answer, or how the transport failed and
// whether the request had been written before it did (then the gateway may have acted on it).
struct GatewayResult
{
    enum class Transport {
        Answered,   // an HTTP status came back
        NotSent,   // refused / unreachable before the request was written: safe to resend
        LostAfterSend,   // timeout or reset after the request was written: the outcome is unknown
    };
    Transport transport = Transport::NotSent;
    int status = 0;
    QByteArray body;
    QJsonObject json;   // the body when it is a JSON object
    std::optional<Problem> problem;   // the body when it is a problem document
    qint64 retryAfterMs = -1;   // from Retry-After, -1 if none
    bool replayed = false;   // Idempotent-Replayed: true
    qint64 latencyMs = 0;
    QString transportError;   // human-readable, when not answered

    bool answered() const { return transport == Transport::Answered; }
    // The payment object in a 200/201/202 body or inside a 402 problem.
    QJsonObject payment() const;
    // The refund object in a 200/201/202 body or inside a 402 refund-declined problem.
    QJsonObject refund() const;
    // One line for logs, the attempts table and the cashier's detail view.
    QString summary() const;

    // An HTTP answer, from its status, the fields that matter and the body.
    static GatewayResult fromAnswer(int status, const QByteArray &contentType, const QByteArray &retryAfter,
        const QByteArray &idempotentReplayed, const QByteArray &body);
    // No answer: `transport` says whether the request may have reached the gateway.
    static GatewayResult failed(Transport transport, const QString &error);
};

// The till's HTTP client of API.md: the requests, with a transfer timeout on every one and the
// key sent as a Structured Field string, carried by a GatewayTransport (HTTP, or the simulator's
// memory), answers turned into GatewayResult.
//
// It knows one or more gateway instances that share one database, so a key sent to one is known
// to all. Requests go to the current one; a request that finds it unreachable (see
// isUnreachable) makes the next one current, round robin, and whoever retries (the sync engine,
// with the same key and body) reaches that one. The client itself never resends anything.
class GatewayClient final : public QObject
{
    Q_OBJECT

public:
    using Callback = std::function<void(const GatewayResult &)>;

    // Qt 6.4's QNetworkAccessManager opens at most 6 connections per host; a client meant to
    // keep more requests in flight (a drain) spreads them over several managers.
    GatewayClient(const QList<QUrl> &baseUrls, const QString &token, int timeoutMs, QObject *parent = nullptr,
        int maxConnections = 6);
    // The same over another transport, which the client takes (the simulator's).
    GatewayClient(const QList<QUrl> &baseUrls, const QString &token, int timeoutMs, GatewayTransport *transport,
        QObject *parent = nullptr);
    GatewayClient(const QUrl &baseUrl, const QString &token, int timeoutMs, QObject *parent = nullptr,
        int maxConnections = 6)
        : GatewayClient(QList<QUrl>{baseUrl}, token, timeoutMs, parent, maxConnections)
    {
    }

    // "URL1,URL2,...": each an http or https URL with a host. std::nullopt if any entry is not,
    // with that entry (or the whole text when it holds none) in *invalid.
    static std::optional<QList<QUrl>> parseBaseUrls(const QString &commaSeparated, QString *invalid = nullptr);
    // Whether a result says its gateway cannot be reached, so the next one should be tried.
    static bool isUnreachable(const GatewayResult &result);

    QUrl baseUrl() const { return m_baseUrls.value(m_current); }   // the current gateway
    QList<QUrl> baseUrls() const { return m_baseUrls; }
    int gatewayCount() const { return int(m_baseUrls.size()); }
    void setBaseUrls(const QList<QUrl> &urls);
    void setToken(const QString &token) { m_token = token; }
    int timeoutMs() const { return m_timeoutMs; }
    // What https:// requests use (gatewayTls()); by default Qt's, which verifies the peer.
    void setTlsConfiguration(const QSslConfiguration &tls) { m_tls = tls; }

    // Every call answers on `context`, as QObject::connect with a context does: `done` runs only
    // if `context` still exists when the answer comes, so a window closed meanwhile is never
    // called back. The request itself goes on (a payment on the wire is not taken back).
    void postPayment(const Intent &intent, QObject *context, Callback done);
    // POST /v1/payments/{id}/cancel with `cancelKey`: gives up a wallet payment waiting for the
    // customer's confirmation (API.md "Wallet payments"): 200 with the payment, declined.
    void postCancel(const QString &paymentId, const QString &cancelKey, QObject *context, Callback done);
    void getPaymentByKey(const QString &key, QObject *context, Callback done);
    void getPayment(const QString &paymentId, QObject *context, Callback done);
    void listPayments(const QString &terminalId, const QString &cursor, int limit, QObject *context, Callback done);
    // One page of GET /v1/payments?terminal_id=&created_after=&limit=&cursor= (API.md); empty or
    // 0 fields are left out of the query.
    struct ListQuery
    {
        QString terminalId;
        qint64 createdAfterMs = 0;
        QString cursor;
        int limit = 500;
    };
    void listPayments(const ListQuery &query, QObject *context, Callback done);
    // A refund intent: POST /v1/payments/{its paymentId}/refunds with its key, {"amount", "reason"}.
    void postRefund(const Intent &refund, QObject *context, Callback done);
    void getRefundByKey(const QString &key, QObject *context, Callback done);   // GET /v1/refunds?idempotency_key=
    void getRefund(const QString &refundId, QObject *context, Callback done);   // GET /v1/refunds/{id}
    void listRefunds(const QString &paymentId, QObject *context, Callback done);   // GET /v1/payments/{id}/refunds
    // /healthz of the current gateway.
    void health(QObject *context, Callback done);
    // /healthz of every gateway at once: the first to answer 200 becomes the current one and its
    // answer is `done`'s; if none does, `done` gets the current gateway's failure.
    void healthAny(QObject *context, Callback done);
    // Any other request, e.g. the demo's /v1/_sim endpoints.
    void send(const QByteArray &method, const QString &pathAndQuery, const QByteArray &jsonBody, QObject *context,
        Callback done);

signals:
    void gatewayChanged(const QUrl &current, const QUrl &previous);

private:
    GatewayRequest request(const QByteArray &method, const QString &pathAndQuery, int urlIndex = -1) const;
    void exchange(const GatewayRequest &request, Callback done);
    // `done`, after moving on to the next gateway if the answer says this one is unreachable.
    Callback failingOver(Callback done);
    void makeCurrent(int index, const QString &reason);

    GatewayTransport *m_transport;
    QList<QUrl> m_baseUrls;
    int m_current = 0;
    // Bumped whenever the current gateway changes: of many requests that fail on one gateway,
    // only those sent before any move may move it, so an outage moves it once, not once each.
    quint64 m_generation = 0;
    QString m_token;
    int m_timeoutMs;
    QSslConfiguration m_tls = QSslConfiguration::defaultConfiguration();
};

}   // namespace OncePay
