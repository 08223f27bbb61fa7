#pragma once

#include "acquirer.h"
#include "acquirerdeadlines.h"
#include "faultpoints.h"
#include "gatewaystore.h"
#include "httpanswer.h"
#include "metrics.h"
#include "paymentconfig.h"

#include <QObject>
#include <QSet>

#include <functional>

namespace OncePay::Gateway {

// The steps of a refund, as a payment's (PaymentSteps) and under the same fenced lease, on the
// refund's row: claim (key claimed, amount reserved against what remains) -> acquirer_called,
// recorded before the call -> the acquirer's answer to a refund with the refund's own key ->
// settled (201, or 402 when the acquirer declined and nothing moved), or 202 while the
// outcome is unknown, resolved later by asking the acquirer by key. Never refunds twice: a
// holder that finds itself fenced answers from the store, and any holder after the first
// asks the acquirer before calling it. Lives on the HTTP thread; never blocks it.
class RefundSteps final : public QObject
{
    Q_OBJECT

public:
    using Respond = std::function<void(const HttpAnswer &)>;

    RefundSteps(const PaymentConfig &config, GatewayStore *store, Acquirer *acquirer, Metrics *metrics,
                QObject *parent = nullptr);

    void createRefund(const Caller &caller, const QString &key, const QByteArray &fingerprint, Refund fields,
                      Respond respond);
    // Recovery took `refund`'s lease over: resume as a request would, answering nobody.
    void resumeForRecovery(const Refund &refund, Respond respond);
    bool acquirerCallInFlight(const QString &refundId) const { return m_callsInFlight.contains(refundId); }

private:
    struct Work
    {
        Refund refund;            // with the lease generation held
        Respond respond;
        bool recovery = false;
        bool firstCall = false;   // this holder moved the step from claimed: no earlier call exists
    };
    void callAcquirer(Work work);
    void send(Work work);
    void resume(Work work);
    void callAgainIfRemembered(Work work);
    void releaseRefused(Work work, const HttpAnswer &refused, qint64 firstTryAt);
    void settle(Work work, const AcquirerAnswer &answer);
    void writeSettlement(Work work, const RefundSettlement &s, const HttpAnswer &answer, qint64 firstTryAt);
    void answerFenced(const Work &work);
    void answerNothing(const Work &work, const HttpAnswer &answer) const;
    template <typename T>
    GatewayStore::Reply<T> timed(GatewayStore::Reply<T> reply);

    PaymentConfig m_config;
    GatewayStore *m_store;
    Acquirer *m_acquirer;
    Metrics *m_metrics;
    QSet<QString> m_callsInFlight;   // refund ids
    AcquirerDeadlines m_deadlines;
    FaultPoints m_faults;
};

} // namespace OncePay::Gateway
