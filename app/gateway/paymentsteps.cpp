#include "paymentsteps.h"

#include "paymentlog.h"
#include "timeutil.h"

#include <optional>
#include <utility>

namespace OncePay::Gateway {

PaymentSteps::PaymentSteps(const PaymentConfig &config, GatewayStore *store, Acquirer *acquirer, Metrics *metrics,
    QObject *parent)
    : LeasedSteps(config, store, acquirer, metrics, parent)
{
}

void PaymentSteps::createPayment(const Caller &caller, const QString &key, const QByteArray &fingerprint,
    Payment fields, const Respond &respond)
{
    const qint64 now = nowMs();
    fields.id = newResourceId("pay_");
    fields.merchant = caller.merchant;
    fields.terminalId = caller.terminal;
    fields.idempotencyKey = key;
    fields.fingerprint = fingerprint;
    fields.status = PaymentStatus::Processing;
    fields.step = PaymentStep::Claimed;
    fields.createdAt = fields.updatedAt = now;
    if (const std::optional<ReplayCache::Answer> cached = m_replays.lookup(caller.merchant, key, now)) {
        if (cached->fingerprint != fingerprint) {
            m_metrics->count("oncepay_idempotency_mismatches_total");
            return respond(Answers::keyReused());
        }
        m_metrics->count("oncepay_idempotent_replays_total");
        return respond(HttpAnswer::fromStored(cached->response).markReplayed());
    }
    const PaymentClaim claim{caller.merchant, key, fingerprint, fields, m_config.leaseMs};

    m_store->claimPayment(claim, this, timed<ClaimOutcome>([this, respond, merchant = caller.merchant, key, fingerprint, draft = fields](bool ok, const QString &, const ClaimOutcome &o) {
        if (!ok)
            return answerFailedClaim(draft, respond);   // this request claimed nothing, executed nothing
        switch (o.kind) {
        case ClaimOutcome::Kind::Claimed:
            reach("after_claim");
            callAcquirer({o.payment, respond, false, true});
            return;
        case ClaimOutcome::Kind::Resume:
            qCInfo(lcPayments) << "resuming payment" << o.payment.id << "at step" << paymentStepName(o.payment.step)
                               << "lease generation" << o.payment.leaseGeneration;
            m_metrics->count("oncepay_lease_takeovers_total", "by=\"request\"");
            resume({o.payment, respond, false, false});
            return;
        case ClaimOutcome::Kind::Replay:
            m_metrics->count("oncepay_idempotent_replays_total");
            m_replays.remember(merchant, key, fingerprint, o.response, o.responseExpiresAt);
            respond(HttpAnswer::fromStored(o.response).markReplayed());
            return;
        case ClaimOutcome::Kind::ReplayCurrent:
            m_metrics->count("oncepay_idempotent_replays_total");
            respond(HttpAnswer::forPayment(o.payment).markReplayed());
            return;
        case ClaimOutcome::Kind::InProgress:
        case ClaimOutcome::Kind::Gone:
            m_metrics->count("oncepay_idempotency_conflicts_total");
            respond(Answers::keyInUse());
            return;
        case ClaimOutcome::Kind::Mismatch:
            m_metrics->count("oncepay_idempotency_mismatches_total");
            respond(Answers::keyReused());
            return;
        }
    }));
}

void PaymentSteps::settledForClient(const Work &work, const Settlement &s)
{
    m_replays.remember(s.merchant, s.key, work.record.fingerprint, s.response, s.now + s.retentionMs);
}

}   // namespace OncePay::Gateway
