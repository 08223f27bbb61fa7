#include "gateway/steps/refundsteps.h"

#include "gateway/answers.h"
#include "gateway/paymentlog.h"
#include "timeutil.h"

#include <utility>

namespace OncePay::Gateway {

namespace {

Http::HttpAnswer notRefundable(const QString &message)
{
    Problem p = Problem::make(400, QStringLiteral("validation-failed"), QStringLiteral("Validation failed"), message);
    p.errors.append({QStringLiteral("amount"), message});
    return Http::HttpAnswer::problem(p);
}
}   // namespace

void RefundSteps::createRefund(const Caller &caller, const QString &key, const QByteArray &fingerprint,
    Refund fields, const Respond &respond)
{
    const qint64 now = nowMs();
    fields.id = newResourceId("re_");
    fields.terminalId = caller.terminal;
    fields.status = RefundStatus::Processing;
    fields.step = PaymentStep::Claimed;
    fields.createdAt = fields.updatedAt = now;
    const RefundClaim claim{caller.merchant, key, fingerprint, fields, m_config.leaseMs};
    Refund draft = fields;
    draft.merchant = caller.merchant;
    draft.idempotencyKey = key;
    draft.fingerprint = fingerprint;
    m_store->claimRefund(claim, this, timed<RefundClaimOutcome>([this, respond, draft](bool ok, const QString &, const RefundClaimOutcome &o) {
        if (!ok)
            return answerFailedClaim(draft, o.commitUnknown, respond);   // this request executed nothing
        using Kind = RefundClaimOutcome::Kind;
        switch (o.kind) {
        case Kind::Claimed:
            reach("after_claim");
            return callAcquirer({o.refund, respond, false, true});
        case Kind::Resume:
            qCInfo(lcPayments) << "resuming refund" << o.refund.id << "at step" << paymentStepName(o.refund.step)
                               << "lease generation" << o.refund.leaseGeneration;
            m_metrics->count("oncepay_lease_takeovers_total", "by=\"request\"");
            return resume({o.refund, respond, false, false});
        case Kind::Replay:
            m_metrics->count("oncepay_idempotent_replays_total");
            return respond(Answers::fromStored(o.response).markReplayed());
        case Kind::ReplayCurrent:
            m_metrics->count("oncepay_idempotent_replays_total");
            return respond(Answers::forRefund(o.refund).markReplayed());
        case Kind::InProgress:
        case Kind::Gone:
            m_metrics->count("oncepay_idempotency_conflicts_total");
            return respond(Answers::keyInUse());
        case Kind::Mismatch:
            m_metrics->count("oncepay_idempotency_mismatches_total");
            return respond(Answers::keyReused());
        case Kind::PaymentNotFound:
            return respond(Answers::notFound(QStringLiteral("No such payment.")));
        case Kind::NotRefundable:
            return respond(notRefundable(o.message));
        }
    }));
}

}   // namespace OncePay::Gateway
