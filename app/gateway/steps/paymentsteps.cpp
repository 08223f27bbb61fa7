#include "gateway/steps/paymentsteps.h"

#include "gateway/answers.h"
#include "gateway/paymentlog.h"
#include "timeutil.h"

#include <QJsonDocument>
#include <QJsonObject>

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
        return respond(Answers::fromStored(cached->response).markReplayed());
    }
    const PaymentClaim claim{caller.merchant, key, fingerprint, fields, m_config.leaseMs};

    m_store->claimPayment(claim, this, timed<ClaimOutcome>([this, respond, merchant = caller.merchant, key, fingerprint, draft = fields](bool ok, const QString &, const ClaimOutcome &o) {
        if (!ok)
            return answerFailedClaim(draft, o.commitUnknown, respond);   // this request executed nothing
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
            respond(Answers::fromStored(o.response).markReplayed());
            return;
        case ClaimOutcome::Kind::ReplayCurrent:
            m_metrics->count("oncepay_idempotent_replays_total");
            respond(Answers::forPayment(o.payment).markReplayed());
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

void PaymentSteps::cancelPayment(const Caller &caller, const QString &key, const QByteArray &fingerprint,
    const QString &paymentId, const Respond &respond)
{
    const CancelClaim claim{caller.merchant, key, fingerprint, paymentId, m_config.leaseMs, nowMs()};
    m_store->claimCancel(claim, this, timed<CancelOutcome>([this, respond, claim](bool ok, const QString &, const CancelOutcome &o) {
        if (!ok) {
            // The claim is one transaction, but an earlier cancel with this key may have recorded
            // its reason, which recovery still reverses at the acquirer; and a claim whose COMMIT
            // answer was lost may be this one (tst_commitlost_pg cancelCommitAnswerLost). 503
            // only when the store says it holds nothing for the key, as for a payment.
            Payment draft;
            draft.merchant = claim.merchant;
            draft.idempotencyKey = claim.key;
            draft.fingerprint = claim.fingerprint;
            return answerFailedClaim(draft, o.commitUnknown, respond);
        }
        switch (o.kind) {
        case CancelOutcome::Kind::Cancelling: {
            reach("after_cancel_claim");
            // The payment's answers become the cancel's: a declined payment (given up) is 200 with
            // the payment, and so is one the acquirer would not reverse (refunded at the bank: it
            // stays succeeded); 500 while the reversal's outcome is unknown stays 500.
            Respond asCancel = [respond](const Http::HttpAnswer &a) {
                if (a.status == 201)
                    return respond(Http::HttpAnswer::json(200, QJsonDocument::fromJson(a.body).object()));
                if (a.status != 402)
                    return respond(a);
                const QJsonObject payment = QJsonDocument::fromJson(a.body).object().value(QStringLiteral("payment")).toObject();
                respond(Http::HttpAnswer::json(200, payment));
            };
            Work work{o.payment, std::move(asCancel), false, false};
            work.cancelRequest = true;
            return reverseAndSettle(std::move(work));
        }
        case CancelOutcome::Kind::Replay:
            m_metrics->count("oncepay_idempotent_replays_total");
            return respond(Answers::fromStored(o.response).markReplayed());
        case CancelOutcome::Kind::Mismatch:
            m_metrics->count("oncepay_idempotency_mismatches_total");
            return respond(Answers::keyReused());
        case CancelOutcome::Kind::PaymentNotFound:
            return respond(Answers::notFound(QStringLiteral("No payment with this id.")));
        case CancelOutcome::Kind::NotCancellable:
            return respond(Http::HttpAnswer::problem(400, QStringLiteral("payment-not-cancellable"),
                QStringLiteral("Payment not cancellable"), o.message));
        case CancelOutcome::Kind::Ended:
            return respond(Http::HttpAnswer::json(200, o.payment.toJson()));
        }
    }));
}

void PaymentSteps::settledForClient(const Work &work, const Settlement &s)
{
    m_replays.remember(s.merchant, s.key, work.record.fingerprint, s.response, s.now + s.retentionMs);
}

}   // namespace OncePay::Gateway
