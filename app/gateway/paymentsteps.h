#pragma once

#include "acquirer.h"
#include "acquirerdeadlines.h"
#include "faultpoints.h"
#include "gatewaystore.h"
#include "httpanswer.h"
#include "metrics.h"
#include "paymentconfig.h"
#include "replaycache.h"

#include <QObject>
#include <QSet>

#include <functional>

namespace OncePay::Gateway {

// The steps of a payment, each written under the holder's fenced lease: claim (step claimed)
// -> acquirer_called, recorded before the call -> the acquirer's answer -> settled with the
// recorded answer (201 / 402), or 202 while the outcome is unknown. A request or a recovery
// run drives them; the replay cache answers recent keys first. Lives on the HTTP thread;
// never blocks it.
class PaymentSteps final : public QObject
{
    Q_OBJECT

public:
    using Respond = std::function<void(const HttpAnswer &)>;

    PaymentSteps(const PaymentConfig &config, GatewayStore *store, Acquirer *acquirer, Metrics *metrics,
                 QObject *parent = nullptr);

    void createPayment(const Caller &caller, const QString &key, const QByteArray &fingerprint,
                       Payment fields, Respond respond);
    // Recovery took `payment`'s lease over: resume as a request would; nobody waits for the
    // answer (`respond` learns how it ended, and a recorded 202 is kept).
    void resumeForRecovery(const Payment &payment, Respond respond);
    // Our own call to the acquirer for this payment is still out.
    bool acquirerCallInFlight(const QString &paymentId) const { return m_acquirerCallsInFlight.contains(paymentId); }

private:
    // One holder of a payment's lease: a request, or a recovery run. Carries what every step
    // needs to write under the lease and to answer.
    struct Work
    {
        Payment payment;          // with the lease generation held
        Respond respond;
        bool recovery = false;    // keep a recorded 202; nobody waits for the answer
        bool firstCall = false;   // this holder moved the step from claimed: no earlier call exists
    };
    void callAcquirer(Work work);
    void charge(Work work);
    void settle(Work work, const AcquirerAnswer &answer);
    void writeSettlement(Work work, const Settlement &s, const HttpAnswer &answer, qint64 firstTryAt);
    void resume(Work work);
    void callAgainIfRemembered(Work work);
    void releaseRefused(Work work, const HttpAnswer &refused, qint64 firstTryAt);
    void answerFenced(const Work &work);
    template <typename T>
    GatewayStore::Reply<T> timed(GatewayStore::Reply<T> reply);

    PaymentConfig m_config;
    GatewayStore *m_store;
    Acquirer *m_acquirer;
    Metrics *m_metrics;
    QSet<QString> m_acquirerCallsInFlight;   // payment ids
    ReplayCache m_replays;
    AcquirerDeadlines m_deadlines;
    FaultPoints m_faults;
};

} // namespace OncePay::Gateway
