#include "pausablestore.h"

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
void PausableStore::forward(std::function<void(Reply<T>)> call, Reply<T> reply)
{
    Reply<T> heard = [this, alive = m_alive, reply = std::move(reply)](bool ok, const QString &error, T value) {
        if (*alive && m_paused) {
            m_held.push_back([reply, ok, error, value] {
                reply(ok, error, value);
            });
            return;
        }
        reply(ok, error, std::move(value));
    };
    if (m_paused) {
        m_held.push_back([call = std::move(call), heard = std::move(heard)] {
            call(heard);
        });
        return;
    }
    call(std::move(heard));
}

void PausableStore::claimPayment(const Gateway::PaymentClaim &claim, QObject *context, Reply<Gateway::ClaimOutcome> reply)
{
    forward<Gateway::ClaimOutcome>([this, claim, context](Reply<Gateway::ClaimOutcome> r) {
        m_inner->claimPayment(claim, context, r);
    },
        std::move(reply));
}

void PausableStore::storedAnswer(const QString &merchant, const QString &key, const QByteArray &fingerprint, QObject *context,
    Reply<Gateway::ClaimOutcome> reply)
{
    forward<Gateway::ClaimOutcome>([this, merchant, key, fingerprint, context](Reply<Gateway::ClaimOutcome> r) {
        m_inner->storedAnswer(merchant, key, fingerprint, context, r);
    },
        std::move(reply));
}

void PausableStore::settlePayment(const Gateway::Settlement &settlement, QObject *context, Reply<Gateway::StepWrite> reply)
{
    forward<Gateway::StepWrite>([this, settlement, context](Reply<Gateway::StepWrite> r) {
        m_inner->settlePayment(settlement, context, r);
    },
        std::move(reply));
}

void PausableStore::findPayment(const QString &merchant, const QString &id, QObject *context, Reply<Gateway::Payment> reply)
{
    forward<Gateway::Payment>([this, merchant, id, context](Reply<Gateway::Payment> r) {
        m_inner->findPayment(merchant, id, context, r);
    },
        std::move(reply));
}

void PausableStore::findPaymentByKey(const QString &merchant, const QString &key, QObject *context, Reply<Gateway::Payment> reply)
{
    forward<Gateway::Payment>([this, merchant, key, context](Reply<Gateway::Payment> r) {
        m_inner->findPaymentByKey(merchant, key, context, r);
    },
        std::move(reply));
}

void PausableStore::listPayments(const Gateway::ListQuery &query, QObject *context, Reply<QList<Gateway::Payment>> reply)
{
    forward<QList<Gateway::Payment>>([this, query, context](Reply<QList<Gateway::Payment>> r) {
        m_inner->listPayments(query, context, r);
    },
        std::move(reply));
}

void PausableStore::markAcquirerCalled(const Gateway::LeasedRow &row, qint64 leaseMs, qint64 now, QObject *context,
    Reply<Gateway::StepWrite> reply)
{
    forward<Gateway::StepWrite>([this, row, leaseMs, now, context](Reply<Gateway::StepWrite> r) {
        m_inner->markAcquirerCalled(row, leaseMs, now, context, r);
    },
        std::move(reply));
}

void PausableStore::releaseClaim(const Gateway::LeasedRow &row, bool acquirerRefused, QObject *context, Reply<Gateway::StepWrite> reply)
{
    forward<Gateway::StepWrite>([this, row, acquirerRefused, context](Reply<Gateway::StepWrite> r) {
        m_inner->releaseClaim(row, acquirerRefused, context, r);
    },
        std::move(reply));
}

void PausableStore::releaseLease(const Gateway::LeasedRow &row, QObject *context, Reply<Gateway::StepWrite> reply)
{
    forward<Gateway::StepWrite>([this, row, context](Reply<Gateway::StepWrite> r) {
        m_inner->releaseLease(row, context, r);
    },
        std::move(reply));
}

void PausableStore::checkKeyWindow(const Gateway::LeasedRow &row, qint64 windowMs, const Gateway::StoredResponse &response,
    qint64 retentionMs, QObject *context, Reply<Gateway::KeyWindow> reply)
{
    forward<Gateway::KeyWindow>([this, row, windowMs, response, retentionMs, context](Reply<Gateway::KeyWindow> r) {
        m_inner->checkKeyWindow(row, windowMs, response, retentionMs, context, r);
    },
        std::move(reply));
}

void PausableStore::claimCancel(const Gateway::CancelClaim &claim, QObject *context, Reply<Gateway::CancelOutcome> reply)
{
    forward<Gateway::CancelOutcome>([this, claim, context](Reply<Gateway::CancelOutcome> r) {
        m_inner->claimCancel(claim, context, r);
    },
        std::move(reply));
}

void PausableStore::requestCancel(const Gateway::LeasedRow &row, const QString &reason, QObject *context,
    Reply<Gateway::StepWrite> reply)
{
    forward<Gateway::StepWrite>([this, row, reason, context](Reply<Gateway::StepWrite> r) {
        m_inner->requestCancel(row, reason, context, r);
    },
        std::move(reply));
}

void PausableStore::claimRefund(const Gateway::RefundClaim &claim, QObject *context, Reply<Gateway::RefundClaimOutcome> reply)
{
    forward<Gateway::RefundClaimOutcome>([this, claim, context](Reply<Gateway::RefundClaimOutcome> r) {
        m_inner->claimRefund(claim, context, r);
    },
        std::move(reply));
}

void PausableStore::storedRefundAnswer(const QString &merchant, const QString &key, const QByteArray &fingerprint, QObject *context,
    Reply<Gateway::RefundClaimOutcome> reply)
{
    forward<Gateway::RefundClaimOutcome>([this, merchant, key, fingerprint, context](Reply<Gateway::RefundClaimOutcome> r) {
        m_inner->storedRefundAnswer(merchant, key, fingerprint, context, r);
    },
        std::move(reply));
}

void PausableStore::settleRefund(const Gateway::RefundSettlement &settlement, QObject *context, Reply<Gateway::StepWrite> reply)
{
    forward<Gateway::StepWrite>([this, settlement, context](Reply<Gateway::StepWrite> r) {
        m_inner->settleRefund(settlement, context, r);
    },
        std::move(reply));
}

void PausableStore::findRefund(const QString &merchant, const QString &id, QObject *context, Reply<Gateway::Refund> reply)
{
    forward<Gateway::Refund>([this, merchant, id, context](Reply<Gateway::Refund> r) {
        m_inner->findRefund(merchant, id, context, r);
    },
        std::move(reply));
}

void PausableStore::findRefundByKey(const QString &merchant, const QString &key, QObject *context, Reply<Gateway::Refund> reply)
{
    forward<Gateway::Refund>([this, merchant, key, context](Reply<Gateway::Refund> r) {
        m_inner->findRefundByKey(merchant, key, context, r);
    },
        std::move(reply));
}

void PausableStore::listRefunds(const QString &merchant, const QString &paymentId, QObject *context,
    Reply<Gateway::RefundList> reply)
{
    forward<Gateway::RefundList>([this, merchant, paymentId, context](Reply<Gateway::RefundList> r) {
        m_inner->listRefunds(merchant, paymentId, context, r);
    },
        std::move(reply));
}

void PausableStore::takeRefundRecoveryWork(qint64 leaseMs, int limit, QObject *context, Reply<QList<Gateway::Refund>> reply)
{
    forward<QList<Gateway::Refund>>([this, leaseMs, limit, context](Reply<QList<Gateway::Refund>> r) {
        m_inner->takeRefundRecoveryWork(leaseMs, limit, context, r);
    },
        std::move(reply));
}

void PausableStore::takeRecoveryWork(qint64 leaseMs, int limit, QObject *context, Reply<QList<Gateway::RecoveryItem>> reply)
{
    forward<QList<Gateway::RecoveryItem>>([this, leaseMs, limit, context](Reply<QList<Gateway::RecoveryItem>> r) {
        m_inner->takeRecoveryWork(leaseMs, limit, context, r);
    },
        std::move(reply));
}

void PausableStore::sweepExpiredRecords(qint64 now, int limit, QObject *context, Reply<int> reply)
{
    forward<int>([this, now, limit, context](Reply<int> r) {
        m_inner->sweepExpiredRecords(now, limit, context, r);
    },
        std::move(reply));
}

void PausableStore::listNeedsReview(QObject *context, Reply<Gateway::ReviewList> reply)
{
    forward<Gateway::ReviewList>([this, context](Reply<Gateway::ReviewList> r) {
        m_inner->listNeedsReview(context, r);
    },
        std::move(reply));
}

void PausableStore::resolveReview(const QString &id, const QString &outcome, qint64 leaseMs, QObject *context,
    Reply<Gateway::ReviewResolution> reply)
{
    forward<Gateway::ReviewResolution>([this, id, outcome, leaseMs, context](Reply<Gateway::ReviewResolution> r) {
        m_inner->resolveReview(id, outcome, leaseMs, context, r);
    },
        std::move(reply));
}

void PausableStore::ping(QObject *context, Reply<bool> reply)
{
    forward<bool>([this, context](Reply<bool> r) {
        m_inner->ping(context, r);
    },
        std::move(reply));
}

}   // namespace OncePay::Sim
