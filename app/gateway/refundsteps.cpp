#include "refundsteps.h"

#include "timedreply.h"
#include "timeutil.h"

namespace OncePay::Gateway {

RefundSteps::RefundSteps(qint64 retentionMs, GatewayStore *store, Metrics *metrics, QObject *parent)
    : QObject(parent)
    , m_retentionMs(retentionMs)
    , m_store(store)
    , m_metrics(metrics)
{
}

void RefundSteps::createRefund(const Caller &caller, const QString &key, const QByteArray &fingerprint,
                               Refund fields, Respond respond)
{
    const qint64 now = nowMs();
    fields.id = newResourceId("re_");
    fields.status = RefundStatus::Succeeded;
    fields.createdAt = now;
    const RefundRequest rq{caller.merchant, key, fingerprint, fields, now, m_retentionMs};
    m_store->createRefund(rq, this, timedReply<RefundOutcome>(m_metrics, [this, respond](
                                                    bool ok, const QString &, RefundOutcome o) {
        if (!ok)
            return respond(Answers::storeUnavailable());
        switch (o.kind) {
        case RefundOutcome::Kind::Created:
            return respond(HttpAnswer::fromStored(o.response));
        case RefundOutcome::Kind::Replay:
            m_metrics->count("oncepay_idempotent_replays_total");
            return respond(HttpAnswer::fromStored(o.response).markReplayed());
        case RefundOutcome::Kind::InProgress:
            m_metrics->count("oncepay_idempotency_conflicts_total");
            return respond(Answers::keyInUse());
        case RefundOutcome::Kind::Mismatch:
            m_metrics->count("oncepay_idempotency_mismatches_total");
            return respond(Answers::keyReused());
        case RefundOutcome::Kind::PaymentNotFound:
            return respond(Answers::notFound(QStringLiteral("No such payment.")));
        case RefundOutcome::Kind::NotRefundable: {
            Problem p = Problem::make(400, QStringLiteral("validation-failed"), QStringLiteral("Validation failed"), o.message);
            p.errors.append({QStringLiteral("amount"), o.message});
            return respond(HttpAnswer::problem(p));
        }
        }
    }));
}

} // namespace OncePay::Gateway
