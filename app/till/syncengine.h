#pragma once

#include "gatewayclient.h"
#include "intent.h"
#include "intentjournal.h"
#include "intentpolicy.h"

#include <QHash>
#include <QLoggingCategory>
#include <QObject>
#include <QRandomGenerator>
#include <QSet>
#include <QTimer>

#include <functional>
#include <map>
#include <set>
#include <vector>

namespace OncePay {

// Takes every intent of the journal to the gateway's final answer, exactly once: one key per
// intent, reused on every retry; oldest first with a bounded number of requests in flight;
// backoff with full jitter; `unknown` resolved by asking before sending again; /healthz
// of every known gateway probed while offline and the queue drained at once on reconnection.
class SyncEngine final : public QObject
{
    Q_OBJECT

public:
    // As measured, never assumed: Online once an answer came; NoAnswer when requests reach the
    // gateway's address but no answer comes back (a black hole, a hung gateway); Offline when
    // they cannot even be sent (refused, unreachable); Reconnecting while a probe of an
    // offline gateway is out.
    enum class Connectivity {
        Online,
        Offline,
        Reconnecting,
        NoAnswer
    };
    Q_ENUM(Connectivity)

    struct Config
    {
        int maxInFlight = 4;
        qint64 backoffBaseMs = 500;
        qint64 backoffCapMs = 30'000;
        qint64 probeBaseMs = 250;
        qint64 probeCapMs = 10'000;
        // While online, the gateway is asked how it is this often (GET /healthz), so that "online"
        // is measured, not assumed until the next payment fails (the till: 5 s). 0: only
        // payments tell (a one-shot command, the suites that count connections).
        qint64 aliveProbeMs = 0;
        OfflineLimits limits;
        quint32 seed = 0;   // 0: random jitter; tests pass a seed
    };

    SyncEngine(IntentJournal *journal, GatewayClient *client, Config config, QObject *parent = nullptr);

    // Recovers intents a crash left in `sending` as `unknown`, loads what is not final, starts.
    void start(QObject *context, std::function<void(bool ok, const QString &error)> ready);

    // Every asynchronous call takes a context object and drops its answer if the context is gone
    // by then (onContext): the caller never guards its own lifetime by hand.
    using PayCallback = std::function<void(bool ok, const TillError &error, const Intent &intent)>;
    // Creates a card payment's intent with a new key, durably, then sends it with `cardToken`.
    // `done` says whether it was stored; on error nothing was sent and the error says why.
    void pay(const QString &orderId, const Money &amount, const QString &cardToken, QObject *context, PayCallback done);
    // Records a cash payment: an intent that is final at once and never goes to the gateway.
    void recordCash(const QString &orderId, const Money &amount, QObject *context, PayCallback done);
    // Creates a refund intent (a new key, "ref-...") of the card payment `paymentKey`, durably,
    // then sends it like a payment: the same queue, retries, lookup by key and polling. No
    // amount: what remains. The journal refuses it unless the payment is a settled
    // card payment with no other refund open and the amount does not exceed what remains.
    void refund(const QString &paymentKey, const std::optional<Money> &amount, const QString &reason, QObject *context,
        PayCallback done);
    // Records a cash refund of a cash payment: money out of the drawer, final at once, never sent.
    void recordCashRefund(const QString &paymentKey, const std::optional<Money> &amount, QObject *context, PayCallback done);
    // Voids a card payment or refund that is queued and was never sent: it becomes `voided`
    // (final; a voided payment frees its sale) and never goes out. One that may have been sent is
    // refused with the reason (only a payment that ends paid can then be refunded).
    // While the journal decides, the intent is held out of dispatch; one on the wire is refused.
    void voidIntent(const QString &key, QObject *context, PayCallback done);
    // "The customer pays another way" for the card part `key` of a sale: voided if it was never
    // sent, else given up: still resolved with the gateway by the same key, and if it turns out
    // charged the till refunds it by itself, once (autoRefundKey). Refused otherwise.
    void giveUp(const QString &key, QObject *context, PayCallback done);
    // Cancels a sale that is not paid (IntentJournal::cancelSale): open card parts voided or
    // given up, cash handed back, card parts charged refunded by the till. `done` gets the
    // intents it changed (the cash refunds say what to hand back).
    using CancelCallback = std::function<void(bool ok, const TillError &error, const QList<Intent> &changed)>;
    void cancelSale(const QString &orderId, QObject *context, CancelCallback done);
    // Gives up the wallet payment `intent` at the gateway (POST /v1/payments/{id}/cancel, issue
    // 26) with the cancel's own key, the same on every try (cancelKeyOf), so that it happens once;
    // the payment's id is asked by key first when the till does not know it yet. `done` gets the
    // gateway's answer to the cancel (200: given up, 400 payment-not-cancellable: already final,
    // else not known yet). The intent's own outcome comes as ever, asked of the gateway at once
    // (retryNow): intentChanged says it.
    void cancelWallet(const Intent &intent, QObject *context, std::function<void(const GatewayResult &result)> done);
    static QString cancelKeyOf(const QString &paymentKey) { return QStringLiteral("cancel-") + paymentKey; }
    void retryNow(const QString &key);
    // Probes the gateway now instead of at the next backoff (e.g. the system reports the
    // network is back); does nothing while online.
    void checkConnectionNow();
    // After the token changed: the queue paused by a 401 goes again.
    void resume();
    void setLimits(const OfflineLimits &limits) { m_config.limits = limits; }

    Connectivity connectivity() const { return m_connectivity; }
    bool isPaused() const { return m_paused; }
    QString pauseReason() const { return m_pauseReason; }
    qint64 nextRetryAt() const { return m_nextRetryAt; }   // epoch ms, 0: nothing scheduled
    int waitingCount() const { return int(m_active.size()); }   // payments and refunds
    // Of payments, by currency, in minor units: kept as intents come and go, never a walk of the
    // queue (the status bar asks on every change of a 10,000-payment drain).
    const QHash<QString, qint64> &waitingTotals() const { return m_waitingTotals; }
    QList<Intent> activeIntents() const { return m_active.values(); }
    std::optional<Intent> activeIntent(const QString &key) const;
    int requestsInFlight() const { return int(m_inFlight.size()); }
    // Storing the refunds the till owes by itself (a given-up card part charged): not idle yet,
    // even with nothing waiting.
    bool isMakingRefunds() const { return m_makingAutoRefunds; }

signals:
    // After the change is durable. A refund that succeeds changes its payment too (what was
    // given back): the payment is announced after it.
    void intentChanged(const OncePay::Intent &intent);
    void queueChanged();
    void connectivityChanged(OncePay::SyncEngine::Connectivity connectivity);
    void nextRetryChanged(qint64 epochMs);
    void pausedChanged(bool paused, const QString &reason);
    // The journal could not tell whether a new intent was saved (IntentJournal::saveUncertain):
    // its pay() or refund() answers once the journal knows; nothing is sent until then.
    void saveUncertain(const QString &key, const QString &orderId);

private:
    using Kind = Attempt::Kind;
    void schedule(const QString &key);
    void pump();
    void armTimer();
    void dispatch(const QString &key);
    void sendPost(const QString &key);
    void create(const QString &orderId, const Money &amount, Tender tender, const QString &cardToken, const PayCallback &done);
    void createRefund(const QString &paymentKey, const std::optional<Money> &amount, const QString &reason, Tender tender,
        const PayCallback &done);
    void stored(const Intent &intent);   // a new intent is durable: announce it, queue it unless final
    void announcePayment(const QString &paymentKey);   // its refund succeeded: read it back, announce it
    void adoptGivenUp(const Intent &part);   // the journal gave it up (or voided it): follow
    // Stores and sends the refunds the till owes by itself (IntentJournal::dueAutoRefunds).
    // `then` runs once the refunds owed when it was called are stored.
    void makeAutoRefunds(std::function<void()> then = {});
    void handleAnswer(const QString &key, Kind kind, const GatewayResult &result, const Decision &decision, qint64 startedAt);
    // The journal refused a change made from a state it no longer holds: take what it holds.
    void adoptStored(const QString &key);
    void setConnectivity(Connectivity c);
    void lostConnection(bool noAnswer);
    void probe();
    void backOnline();
    int priority(const Intent &intent) const;
    // Every change of m_active goes through these two, which keep m_waitingTotals.
    void putActive(const Intent &intent);
    void dropActive(const QString &key);
    void countWaiting(const Intent &intent, int sign);

    IntentJournal *m_journal;
    GatewayClient *m_client;
    Config m_config;
    QRandomGenerator m_rng;

    QHash<QString, Intent> m_active;   // not final, by key (changed by putActive/dropActive only)
    QHash<QString, qint64> m_waitingTotals;   // payments of m_active, by currency
    QSet<QString> m_inFlight;
    QSet<QString> m_voiding;   // held out of dispatch while the journal decides a void
    QHash<QString, int> m_failures;   // consecutive non-final answers, for backoff
    std::set<std::pair<int, qint64>> m_ready;   // (priority, id): unknown first, then oldest first
    QHash<qint64, QString> m_keyById;
    // Monotonic due time -> key (stale entries are skipped); a key's current due time.
    std::multimap<qint64, QString> m_waiting;
    QHash<QString, qint64> m_waitingDue;
    bool isCurrentWait(qint64 due, const QString &key) const;
    QTimer m_timer;

    Connectivity m_connectivity = Connectivity::Online;
    int m_probeAttempt = 0;
    QTimer m_probeTimer;
    QTimer m_aliveTimer;
    bool m_askingAlive = false;
    void askAlive();
    bool m_paused = false;
    QString m_pauseReason;
    qint64 m_nextRetryAt = 0;
    bool m_started = false;
    bool m_makingAutoRefunds = false;
    bool m_autoRefundsAgain = false;
    std::vector<std::function<void()>> m_afterAutoRefunds;
};

// The engine's log (oncepay.core.sync), shared by its two source files.
Q_DECLARE_LOGGING_CATEGORY(lcSync)

}   // namespace OncePay
