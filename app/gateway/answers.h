#pragma once

#include "gateway/gatewaytypes.h"
#include "http/httpanswer.h"

namespace OncePay::Gateway {

// The gateway's answers: what a payment's or refund's state, a recorded answer and the
// gateway's own problems look like on the wire (API.md).
namespace Answers {
// The answer a payment's current state deserves: 201, 202 or 402 (with the payment inside).
Http::HttpAnswer forPayment(const Payment &payment);
// The same for a refund: 201 succeeded, 202 processing, 402 refund-declined (the refund
// inside, status failed).
Http::HttpAnswer forRefund(const Refund &refund);
// A recorded answer, and the record of an answer.
Http::HttpAnswer fromStored(const StoredResponse &stored);
StoredResponse toStored(const Http::HttpAnswer &answer);

Http::HttpAnswer storeUnavailable();
Http::HttpAnswer keyInUse();
Http::HttpAnswer keyReused();
Http::HttpAnswer acquirerUnavailable(const QString &detail);
Http::HttpAnswer outcomeUnknown();   // the acquirer may have been called; not recorded, never a 503
Http::HttpAnswer notFound(const QString &detail);
Http::HttpAnswer unsupportedMediaType();
Http::HttpAnswer methodNotAllowed(const QByteArray &allow);
}   // namespace Answers

}   // namespace OncePay::Gateway
