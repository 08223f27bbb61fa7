#pragma once

#include "gateway/steps/leasedsteps.h"
#include "gateway/store/replaycache.h"

namespace OncePay::Gateway {

// A payment's claim, then the leased steps (LeasedSteps): claimed -> acquirer_called, recorded
// before the call -> the acquirer's answer -> settled with the recorded answer (201 / 402), or
// 202 while the outcome is unknown. What only payments have: the replay cache, which answers
// recent keys before the store is asked, and remembers every outcome answered to a client.
class PaymentSteps final : public LeasedSteps<PaymentKind>
{
public:
    PaymentSteps(const PaymentConfig &config, GatewayStore *store, Acquirer *acquirer, Metrics *metrics,
        QObject *parent = nullptr);

    void createPayment(const Caller &caller, const QString &key, const QByteArray &fingerprint,
        Payment fields, const Respond &respond);
    // POST /v1/payments/{id}/cancel: gives up a wallet payment waiting for the customer, with the
    // cancel's own key (API.md "Wallet payments"): 200 with the payment, declined "cancelled".
    void cancelPayment(const Caller &caller, const QString &key, const QByteArray &fingerprint,
        const QString &paymentId, const Respond &respond);

private:
    void settledForClient(const Work &work, const Settlement &s) override;

    ReplayCache m_replays;
};

}   // namespace OncePay::Gateway
