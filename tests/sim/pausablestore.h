#pragma once

#include "gateway/store/gatewaystore.h"

#include <QHash>

#include <deque>
#include <functional>
#include <memory>

namespace OncePay::Sim {

// A gateway instance's store as a stopped process (SIGSTOP) sees it, for the simulator's
// "stalled past its lease": while paused, what the instance asks of its store waits to be
// submitted, and what the store answers waits to be heard; on resume() both happen, in the
// order they came. The instance's timers still fire meanwhile, but all they can do goes through
// the store or the world's links, which hold it too, so the instance acts as one that woke up
// with its timers overdue. The store itself (the database, shared with the other instances)
// never stops.
class PausableStore final : public Gateway::GatewayStore
{
public:
    explicit PausableStore(std::unique_ptr<Gateway::GatewayStore> inner);
    ~PausableStore() override;

    void pause() { m_paused = true; }
    void resume();
    bool isPaused() const { return m_paused; }

    // The store's own faults (issue 35), each what a real database does to its client:
    // - unreachable: every call fails without running (the server down, or a lock held past the
    //   busy timeout); the failure is heard through `later`, never inside the call;
    // - a lost COMMIT answer: the call runs, and when `loseCommit()` says so its answer is
    //   replaced by a failure whose commit is unknown (markCommitUnknown);
    // - a stop right before the acquirer call: armed, the instance stops (pause()) as the answer
    //   to its next written acquirer_called arrives, so it hears it, and calls, only on resume();
    //   `stopped` is told when it happened.
    void setLater(std::function<void(std::function<void()>)> later) { m_later = std::move(later); }
    void setUnreachable(bool unreachable) { m_unreachable = unreachable; }
    void setLoseCommit(std::function<bool()> loseCommit) { m_loseCommit = std::move(loseCommit); }
    void armStopBeforeCall(std::function<void()> stopped) { m_stopBeforeCall = std::move(stopped); }
    bool stopBeforeCallArmed() const { return bool(m_stopBeforeCall); }
    // The lease generation under which this instance last wrote acquirer_called for the key
    // (-1: never): what a call to the acquirer for that key may be made under.
    qint64 markedGeneration(const QString &key) const { return m_marked.value(key, -1); }

    bool open(QString *error) override { return m_inner->open(error); }
    void close() override { m_inner->close(); }
    Stats stats() const override { return m_inner->stats(); }

    void claimPayment(const Gateway::PaymentClaim &claim, QObject *context, Reply<Gateway::ClaimOutcome> reply) override;
    void storedAnswer(const QString &merchant, const QString &key, const QByteArray &fingerprint, QObject *context,
        Reply<Gateway::ClaimOutcome> reply) override;
    void settlePayment(const Gateway::Settlement &settlement, QObject *context, Reply<Gateway::StepWrite> reply) override;
    void findPayment(const QString &merchant, const QString &id, QObject *context, Reply<Gateway::Payment> reply) override;
    void findPaymentByKey(const QString &merchant, const QString &key, QObject *context, Reply<Gateway::Payment> reply) override;
    void listPayments(const Gateway::ListQuery &query, QObject *context, Reply<QList<Gateway::Payment>> reply) override;
    void markAcquirerCalled(const Gateway::LeasedRow &row, qint64 leaseMs, qint64 now, QObject *context,
        Reply<Gateway::StepWrite> reply) override;
    void releaseClaim(const Gateway::LeasedRow &row, bool acquirerRefused, QObject *context, Reply<Gateway::StepWrite> reply) override;
    void releaseLease(const Gateway::LeasedRow &row, QObject *context, Reply<Gateway::StepWrite> reply) override;
    void checkKeyWindow(const Gateway::LeasedRow &row, qint64 windowMs, const Gateway::StoredResponse &response,
        qint64 retentionMs, QObject *context, Reply<Gateway::KeyWindow> reply) override;
    void claimCancel(const Gateway::CancelClaim &claim, QObject *context, Reply<Gateway::CancelOutcome> reply) override;
    void requestCancel(const Gateway::LeasedRow &row, const QString &reason, QObject *context,
        Reply<Gateway::StepWrite> reply) override;
    void claimRefund(const Gateway::RefundClaim &claim, QObject *context, Reply<Gateway::RefundClaimOutcome> reply) override;
    void storedRefundAnswer(const QString &merchant, const QString &key, const QByteArray &fingerprint, QObject *context,
        Reply<Gateway::RefundClaimOutcome> reply) override;
    void settleRefund(const Gateway::RefundSettlement &settlement, QObject *context, Reply<Gateway::StepWrite> reply) override;
    void findRefund(const QString &merchant, const QString &id, QObject *context, Reply<Gateway::Refund> reply) override;
    void findRefundByKey(const QString &merchant, const QString &key, QObject *context, Reply<Gateway::Refund> reply) override;
    void listRefunds(const QString &merchant, const QString &paymentId, QObject *context,
        Reply<Gateway::RefundList> reply) override;
    void takeRefundRecoveryWork(qint64 leaseMs, int limit, QObject *context, Reply<QList<Gateway::Refund>> reply) override;
    void takeRecoveryWork(qint64 leaseMs, int limit, QObject *context, Reply<QList<Gateway::RecoveryItem>> reply) override;
    void sweepExpiredRecords(qint64 now, int limit, QObject *context, Reply<int> reply) override;
    void listNeedsReview(QObject *context, Reply<Gateway::ReviewList> reply) override;
    void resolveReview(const QString &id, const QString &outcome, qint64 leaseMs, QObject *context,
        Reply<Gateway::ReviewResolution> reply) override;
    void ping(QObject *context, Reply<bool> reply) override;

private:
    // Submits `call` with a reply that is held while paused; the call itself waits while paused.
    template <typename T>
    void forward(QObject *context, std::function<void(Reply<T>)> call, Reply<T> reply);

    std::unique_ptr<Gateway::GatewayStore> m_inner;
    bool m_paused = false;
    bool m_unreachable = false;
    std::function<void(std::function<void()>)> m_later;
    std::function<bool()> m_loseCommit;
    std::function<void()> m_stopBeforeCall;
    QHash<QString, qint64> m_marked;
    std::deque<std::function<void()>> m_held;
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
};

}   // namespace OncePay::Sim
