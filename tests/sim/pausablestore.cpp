#include "pausablestore.h"

#include <QPointer>

#include <utility>

namespace OncePay::Sim {

using namespace Gateway;

PausableStore::PausableStore(std::unique_ptr<GatewayStore> inner)
    : m_inner(std::move(inner))
{
}

PausableStore::~PausableStore()
{
    *m_alive = false;   // the inner store may still answer while it closes: straight through
    m_inner.reset();
}

void PausableStore::resume()
{
    m_paused = false;
    // What waited runs in order; whatever it asks now goes straight through (not paused).
    const std::shared_ptr<bool> alive = m_alive;
    while (!m_held.empty() && !m_paused && *alive) {
        std::function<void()> next = std::move(m_held.front());
        m_held.pop_front();
        next();
    }
}

template <typename T>
void PausableStore::forward(QObject *context, std::function<void(Reply<T>)> call, Reply<T> reply)
{
    Reply<T> heard = [this, alive = m_alive, reply = std::move(reply)](bool ok, const QString &error, T value) {
        if (*alive && m_paused) {
            m_held.push_back([reply, ok, error, value] {
                reply(ok, error, value);
            });
            return;
        }
        if (*alive && ok && m_loseCommit && m_loseCommit()) {
            markCommitUnknown(value);
            return reply(false, QStringLiteral("the COMMIT's answer was lost (simulated)"), std::move(value));
        }
        reply(ok, error, std::move(value));
    };
    std::function<void()> run = [this, context, alive = m_alive, call = std::move(call), heard = std::move(heard)] {
        if (*alive && m_unreachable && m_later) {
            // Answered on `context`, as the store answers: not at all once it is gone.
            m_later([heard, context = QPointer<QObject>(context)] {
                if (context)
                    heard(false, QStringLiteral("the store cannot be reached (simulated)"), T{});
            });
            return;
        }
        call(heard);
    };
    if (m_paused) {
        m_held.push_back(std::move(run));
        return;
    }
    run();
}

void PausableStore::claimPayment(const Gateway::PaymentClaim &claim, QObject *context, Reply<Gateway::ClaimOutcome> reply)
{
    forward<Gateway::ClaimOutcome>(
        context, [this, claim, context](Reply<Gateway::ClaimOutcome> r) {
            m_inner->claimPayment(claim, context, r);
        },
        std::move(reply));
}

void PausableStore::storedAnswer(const QString &merchant, const QString &key, const QByteArray &fingerprint, QObject *context,
    Reply<Gateway::ClaimOutcome> reply)
{
    forward<Gateway::ClaimOutcome>(
        context, [this, merchant, key, fingerprint, context](Reply<Gateway::ClaimOutcome> r) {
            m_inner->storedAnswer(merchant, key, fingerprint, context, r);
        },
        std::move(reply));
}

void PausableStore::settlePayment(const Gateway::Settlement &settlement, QObject *context, Reply<Gateway::StepWrite> reply)
{
    forward<Gateway::StepWrite>(
        context, [this, settlement, context](Reply<Gateway::StepWrite> r) {
            m_inner->settlePayment(settlement, context, r);
        },
        std::move(reply));
}

void PausableStore::findPayment(const QString &merchant, const QString &id, QObject *context, Reply<Gateway::Payment> reply)
{
    forward<Gateway::Payment>(
        context, [this, merchant, id, context](Reply<Gateway::Payment> r) {
            m_inner->findPayment(merchant, id, context, r);
        },
        std::move(reply));
}

void PausableStore::findPaymentByKey(const QString &merchant, const QString &key, QObject *context, Reply<Gateway::Payment> reply)
{
    forward<Gateway::Payment>(
        context, [this, merchant, key, context](Reply<Gateway::Payment> r) {
            m_inner->findPaymentByKey(merchant, key, context, r);
        },
        std::move(reply));
}

void PausableStore::listPayments(const Gateway::ListQuery &query, QObject *context, Reply<QList<Gateway::Payment>> reply)
{
    forward<QList<Gateway::Payment>>(
        context, [this, query, context](Reply<QList<Gateway::Payment>> r) {
            m_inner->listPayments(query, context, r);
        },
        std::move(reply));
}

void PausableStore::markAcquirerCalled(const Gateway::LeasedRow &row, qint64 leaseMs, qint64 now, QObject *context,
    Reply<Gateway::StepWrite> reply)
{
    forward<Gateway::StepWrite>(
        context, [this, row, leaseMs, now, context](Reply<Gateway::StepWrite> r) {
            m_inner->markAcquirerCalled(row, leaseMs, now, context, [this, alive = m_alive, row, r](bool ok, const QString &error, StepWrite w) {
                if (*alive && ok && w == StepWrite::Written) {
                    m_marked.insert(row.idempotencyKey, row.generation);
                    if (m_stopBeforeCall) {   // stopped before the answer is heard: it is held
                        pause();
                        std::exchange(m_stopBeforeCall, {})();
                    }
                }
                r(ok, error, w);
            });
        },
        std::move(reply));
}

void PausableStore::releaseClaim(const Gateway::LeasedRow &row, bool acquirerRefused, QObject *context, Reply<Gateway::StepWrite> reply)
{
    forward<Gateway::StepWrite>(
        context, [this, row, acquirerRefused, context](Reply<Gateway::StepWrite> r) {
            m_inner->releaseClaim(row, acquirerRefused, context, r);
        },
        std::move(reply));
}

void PausableStore::releaseLease(const Gateway::LeasedRow &row, QObject *context, Reply<Gateway::StepWrite> reply)
{
    forward<Gateway::StepWrite>(
        context, [this, row, context](Reply<Gateway::StepWrite> r) {
            m_inner->releaseLease(row, context, r);
        },
        std::move(reply));
}

void PausableStore::checkKeyWindow(const Gateway::LeasedRow &row, qint64 windowMs, const Gateway::StoredResponse &response,
    qint64 retentionMs, QObject *context, Reply<Gateway::KeyWindow> reply)
{
    forward<Gateway::KeyWindow>(
        context, [this, row, windowMs, response, retentionMs, context](Reply<Gateway::KeyWindow> r) {
            m_inner->checkKeyWindow(row, windowMs, response, retentionMs, context, r);
        },
        std::move(reply));
}

void PausableStore::claimCancel(const Gateway::CancelClaim &claim, QObject *context, Reply<Gateway::CancelOutcome> reply)
{
    forward<Gateway::CancelOutcome>(
        context, [this, claim, context](Reply<Gateway::CancelOutcome> r) {
            m_inner->claimCancel(claim, context, r);
        },
        std::move(reply));
}

void PausableStore::requestCancel(const Gateway::LeasedRow &row, const QString &reason, QObject *context,
    Reply<Gateway::StepWrite> reply)
{
    forward<Gateway::StepWrite>(
        context, [this, row, reason, context](Reply<Gateway::StepWrite> r) {
            m_inner->requestCancel(row, reason, context, r);
        },
        std::move(reply));
}

void PausableStore::claimRefund(const Gateway::RefundClaim &claim, QObject *context, Reply<Gateway::RefundClaimOutcome> reply)
{
    forward<Gateway::RefundClaimOutcome>(
        context, [this, claim, context](Reply<Gateway::RefundClaimOutcome> r) {
            m_inner->claimRefund(claim, context, r);
        },
        std::move(reply));
}

void PausableStore::storedRefundAnswer(const QString &merchant, const QString &key, const QByteArray &fingerprint, QObject *context,
    Reply<Gateway::RefundClaimOutcome> reply)
{
    forward<Gateway::RefundClaimOutcome>(
        context, [this, merchant, key, fingerprint, context](Reply<Gateway::RefundClaimOutcome> r) {
            m_inner->storedRefundAnswer(merchant, key, fingerprint, context, r);
        },
        std::move(reply));
}

void PausableStore::settleRefund(const Gateway::RefundSettlement &settlement, QObject *context, Reply<Gateway::StepWrite> reply)
{
    forward<Gateway::StepWrite>(
        context, [this, settlement, context](Reply<Gateway::StepWrite> r) {
            m_inner->settleRefund(settlement, context, r);
        },
        std::move(reply));
}

void PausableStore::findRefund(const QString &merchant, const QString &id, QObject *context, Reply<Gateway::Refund> reply)
{
    forward<Gateway::Refund>(
        context, [this, merchant, id, context](Reply<Gateway::Refund> r) {
            m_inner->findRefund(merchant, id, context, r);
        },
        std::move(reply));
}

void PausableStore::findRefundByKey(const QString &merchant, const QString &key, QObject *context, Reply<Gateway::Refund> reply)
{
    forward<Gateway::Refund>(
        context, [this, merchant, key, context](Reply<Gateway::Refund> r) {
            m_inner->findRefundByKey(merchant, key, context, r);
        },
        std::move(reply));
}

void PausableStore::listRefunds(const QString &merchant, const QString &paymentId, QObject *context,
    Reply<Gateway::RefundList> reply)
{
    forward<Gateway::RefundList>(
        context, [this, merchant, paymentId, context](Reply<Gateway::RefundList> r) {
            m_inner->listRefunds(merchant, paymentId, context, r);
        },
        std::move(reply));
}

void PausableStore::takeRefundRecoveryWork(qint64 leaseMs, int limit, QObject *context, Reply<QList<Gateway::Refund>> reply)
{
    forward<QList<Gateway::Refund>>(
        context, [this, leaseMs, limit, context](Reply<QList<Gateway::Refund>> r) {
            m_inner->takeRefundRecoveryWork(leaseMs, limit, context, r);
        },
        std::move(reply));
}

void PausableStore::takeRecoveryWork(qint64 leaseMs, int limit, QObject *context, Reply<QList<Gateway::RecoveryItem>> reply)
{
    forward<QList<Gateway::RecoveryItem>>(
        context, [this, leaseMs, limit, context](Reply<QList<Gateway::RecoveryItem>> r) {
            m_inner->takeRecoveryWork(leaseMs, limit, context, r);
        },
        std::move(reply));
}

void PausableStore::sweepExpiredRecords(qint64 now, int limit, QObject *context, Reply<int> reply)
{
    forward<int>(
        context, [this, now, limit, context](Reply<int> r) {
            m_inner->sweepExpiredRecords(now, limit, context, r);
        },
        std::move(reply));
}

void PausableStore::listNeedsReview(QObject *context, Reply<Gateway::ReviewList> reply)
{
    forward<Gateway::ReviewList>(
        context, [this, context](Reply<Gateway::ReviewList> r) {
            m_inner->listNeedsReview(context, r);
        },
        std::move(reply));
}

void PausableStore::resolveReview(const QString &id, const QString &outcome, qint64 leaseMs, QObject *context,
    Reply<Gateway::ReviewResolution> reply)
{
    forward<Gateway::ReviewResolution>(
        context, [this, id, outcome, leaseMs, context](Reply<Gateway::ReviewResolution> r) {
            m_inner->resolveReview(id, outcome, leaseMs, context, r);
        },
        std::move(reply));
}

void PausableStore::ping(QObject *context, Reply<bool> reply)
{
    forward<bool>(
        context, [this, context](Reply<bool> r) {
            m_inner->ping(context, r);
        },
        std::move(reply));
}

}   // namespace OncePay::Sim
