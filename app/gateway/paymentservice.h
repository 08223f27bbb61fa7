#pragma once

#include "acquirer.h"
#include "gatewaystore.h"
#include "httpanswer.h"
#include "metrics.h"

#include <QCache>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <deque>
#include <functional>
#include <memory>

namespace OncePay::Gateway {

// The payment state machine (claimed -> acquirer called -> settled) and the refund flow, on
// top of the store and the acquirer. Lives on the HTTP thread; never blocks it.
class PaymentService final : public QObject
{
    Q_OBJECT

public:
    struct Config
    {
        qint64 leaseMs = 30'000;
        qint64 retentionMs = 24 * 3600 * 1000LL;
        qint64 acquirerTimeoutMs = 10'000;
        qint64 recoveryIntervalMs = 5'000;
        QString faultKillAt;    // test hook: SIGKILL ourselves at this step (demo only)
        QString faultPauseAt;   // test hook: SIGSTOP ourselves at this step (demo only): a real stall
    };
    using Respond = std::function<void(const HttpAnswer &)>;

    PaymentService(Config config, GatewayStore *store, Acquirer *acquirer, Metrics *metrics,
                   QObject *parent = nullptr);

    void start();    // recovery now and periodically, retention sweeps
    void stop();

    void createPayment(const Caller &caller, const QString &key, const QByteArray &fingerprint,
                       Payment fields, Respond respond);
    void createRefund(const Caller &caller, const QString &key, const QByteArray &fingerprint,
                      Refund fields, Respond respond);
    void getPayment(const Caller &caller, const QString &id, Respond respond);
    void getPaymentByKey(const Caller &caller, const QString &key, Respond respond);
    void listPayments(ListQuery query, Respond respond);

    void runRecovery();
    void runRetentionSweep();

    static QString newId(const char *prefix);

signals:
    void recoveryFinished(int resolved);

private:
    // One holder of a payment's lease: a request, or a recovery run. Carries what every step
    // needs to write under the lease and to answer.
    struct Work
    {
        Payment payment;          // with the lease generation held
        Respond respond;
        bool recovery = false;    // keep a recorded 202; nobody waits for the answer
        bool firstCall = false;   // this holder moved the step from claimed: no earlier call exists
    };
    void callAcquirer(Work work);
    void charge(Work work);
    void settle(Work work, const AcquirerAnswer &answer);
    void writeSettlement(Work work, const Settlement &s, const HttpAnswer &answer, qint64 firstTryAt);
    void resume(Work work);
    void answerFenced(const Work &work);
    void recover(const RecoveryItem &item, std::function<void(bool resolved)> finished);
    void faultPoint(const char *step) const;
    template <typename T>
    GatewayStore::Reply<T> timed(GatewayStore::Reply<T> reply);

    Config m_config;
    GatewayStore *m_store;
    Acquirer *m_acquirer;
    Metrics *m_metrics;
    QSet<QString> m_acquirerCallsInFlight;   // payment ids

    // Finished answers are immutable until their retention ends, so replays of recent keys
    // are answered from memory without a trip to the store.
    struct CachedAnswer
    {
        QByteArray fingerprint;
        StoredResponse response;
        qint64 expiresAt = 0;
    };
    void remember(const QString &merchant, const QString &key, const QByteArray &fingerprint,
                  const StoredResponse &response, qint64 expiresAt);
    QCache<QString, CachedAnswer> m_answers{100'000};
    // Acquirer deadlines. The timeout is the same for every call, so deadlines arrive in order
    // and a FIFO checked by one timer replaces a QTimer per call (tens of thousands of live
    // timers make every event loop iteration slow).
    struct Deadline
    {
        qint64 at = 0;
        std::shared_ptr<bool> answered;
        std::function<void()> expire;
    };
    void expireDeadlines();
    std::deque<Deadline> m_deadlines;
    QTimer m_deadlineTimer;
    QTimer m_recoveryTimer;
    QTimer m_sweepTimer;
    bool m_recoveryRunning = false;
    mutable bool m_faultPaused = false;   // the pause hook stops the process once
};

} // namespace OncePay::Gateway
