#pragma once

#include "gateway/steps/leasedsteps.h"

namespace OncePay::Gateway {

// A refund's claim (its key claimed and its amount reserved against what remains, or refused:
// no such payment, not refundable), then the same leased steps as a payment's (LeasedSteps) on
// the refund's row, with the refund's own key at the acquirer. Never refunds twice: a holder
// that finds itself fenced answers from the store, and any holder after the first asks the
// acquirer before calling it.
class RefundSteps final : public LeasedSteps<RefundKind>
{
public:
    using LeasedSteps::LeasedSteps;

    void createRefund(const Caller &caller, const QString &key, const QByteArray &fingerprint, Refund fields,
        const Respond &respond);
};

}   // namespace OncePay::Gateway
