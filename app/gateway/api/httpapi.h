#pragma once

#include "http/httpanswer.h"
#include "http/httprequest.h"
#include "http/httpresponder.h"
#include "gateway/acquirer/acquirersimulation.h"
#include "gateway/metrics.h"
#include "gateway/steps/paymentservice.h"
#include "gateway/api/tokenstore.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>

#include <functional>

namespace OncePay::Gateway {

// The routes of API.md: authentication, limits, validation and fingerprints, then the
// payment service. Answers are written when the service calls back, never by blocking.
class HttpApi final : public QObject
{
    Q_OBJECT

public:
    // The metrics label of a path: one of a fixed set of route templates, or "other".
    static QString routeTemplate(const QString &path);
    struct Config
    {
        bool demo = false;
        int rateLimitPerSecond = 0;   // per token; 0: off
    };
    // `simulation`: the simulated bank's ledgers and modes, for the demo's /v1/_sim routes (null:
    // a real acquirer, and those routes are not found).
    HttpApi(Config config, const TokenStore *tokens, PaymentService *payments, AcquirerSimulation *simulation,
        Metrics *metrics, QObject *parent = nullptr);

    // Fills gauges just before /metrics is rendered.
    std::function<void()> beforeMetrics;

    void handle(Http::HttpRequest &&request, const Http::HttpResponder &responder);
    int requestsInFlight() const { return m_inFlight; }

    static constexpr qsizetype maxBodyBytes = 64 * 1024;

signals:
    void idle();   // no request in flight any more

private:
    using Respond = PaymentService::Respond;
    using Request = Http::HttpRequest;

    void route(const Request &rq, const Respond &respond);
    void postPayment(const Request &rq, const Caller &caller, const Respond &respond);
    void postCancel(const Request &rq, const Caller &caller, const QString &paymentId, const Respond &respond);
    void postRefund(const Request &rq, const Caller &caller, const QString &paymentId, const Respond &respond);
    void getPayments(const Request &rq, const Caller &caller, const Respond &respond);
    void simulation(const Request &rq, const Caller &caller, const QString &rest, const Respond &respond);
    bool allowRate(const Caller &caller);

    Config m_config;
    const TokenStore *m_tokens;
    PaymentService *m_payments;
    AcquirerSimulation *m_simulation;
    Metrics *m_metrics;
    int m_inFlight = 0;
    struct Bucket
    {
        double tokens = 0;
        QElapsedTimer refilled;
    };
    QHash<QString, Bucket> m_buckets;
};

}   // namespace OncePay::Gateway
