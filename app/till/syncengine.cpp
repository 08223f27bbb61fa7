// SyncEngine, how stored intents go out: the queue by priority and backoff, one POST or lookup
// at a time per key, the answers classified (intentpolicy) and written back, and the connection
// probed while offline. What the till asks of it (store, void, give up, cancel) is
// syncenginerequests.cpp.
#include "syncengine.h"

#include "oncontext.h"
#include "timeutil.h"
#include "world.h"

#include <QLoggingCategory>

namespace OncePay {

Q_LOGGING_CATEGORY(lcSync, "oncepay.core.sync", QtInfoMsg)

SyncEngine::SyncEngine(IntentJournal *journal, GatewayClient *client, Config config, QObject *parent)
    : QObject(parent)
    , m_journal(journal)
    , m_client(client)
    , m_config(config)
    , m_rng(config.seed ? config.seed : randomSource()->generate())
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &SyncEngine::pump);
    m_probeTimer.setSingleShot(true);
    connect(&m_probeTimer, &QTimer::timeout, this, &SyncEngine::probe);
    if (m_journal)
        connect(m_journal, &IntentJournal::saveUncertain, this, &SyncEngine::saveUncertain);
    if (m_config.aliveProbeMs > 0) {
        m_aliveTimer.setInterval(int(m_config.aliveProbeMs));
        connect(&m_aliveTimer, &QTimer::timeout, this, &SyncEngine::askAlive);
    }
}

void SyncEngine::askAlive()
{
    // Only while online and nothing is being asked already; offline, the probes do this.
    if (m_connectivity != Connectivity::Online || m_askingAlive || !m_inFlight.isEmpty())
        return;
    m_askingAlive = true;
    m_client->healthAny(this, [this](const GatewayResult &r) {
        m_askingAlive = false;
        if (r.answered() && r.status == 200)
            return;
        if (m_connectivity == Connectivity::Online)
            lostConnection(r.transport == GatewayResult::Transport::LostAfterSend);
    });
}

void SyncEngine::start(QObject *context, std::function<void(bool, const QString &)> ready)
{
    ready = onContext(context, std::move(ready));
    m_journal->recoverInterrupted(this, [this, ready](bool ok, const TillError &error, int recovered) {
        if (!ok)
            return ready(false, error.text());
        if (recovered > 0)
            qCInfo(lcSync) << recovered << "intents were interrupted while sending; asking the gateway about them first";
        m_journal->activeIntents(this, [this, ready](bool ok, const TillError &error, const QList<Intent> &intents) {
            if (!ok)
                return ready(false, error.text());
            // A start drains at once, as a reconnection does: the backoff was this process's,
            // and a stored next attempt is a wall-clock time that may lie (a till restarted after
            // its clock was set back held its queue for as long; oncepay-sim seed 69).
            for (Intent i : intents) {
                i.nextAttemptAt = 0;
                putActive(i);
                m_keyById.insert(i.id, i.key);
            }
            m_started = true;
            for (const Intent &i : intents)
                schedule(i.key);
            emit queueChanged();
            pump();
            if (m_config.aliveProbeMs > 0) {
                m_aliveTimer.start();
                askAlive();   // "online" at start is measured too
            }
            makeAutoRefunds([ready] {
                ready(true, {});
            });   // any a crash left unmade, first
        });
    });
}

void SyncEngine::putActive(const Intent &intent)
{
    if (const auto it = m_active.constFind(intent.key); it != m_active.cend())
        countWaiting(*it, -1);
    m_active.insert(intent.key, intent);
    countWaiting(intent, +1);
}

void SyncEngine::dropActive(const QString &key)
{
    if (const auto it = m_active.constFind(key); it != m_active.cend()) {
        countWaiting(*it, -1);
        m_active.erase(it);
    }
    m_waitingDue.remove(key);
}

void SyncEngine::countWaiting(const Intent &intent, int sign)
{
    // What the store-and-forward limits bound: card payments taken and not settled yet. Refunds
    // give money back to a card that paid; they are not counted.
    if (intent.isRefund())
        return;
    qint64 &total = m_waitingTotals[intent.amount.currency()];
    total += sign * intent.amount.minorUnits();
    if (total == 0)
        m_waitingTotals.remove(intent.amount.currency());
}

std::optional<Intent> SyncEngine::activeIntent(const QString &key) const
{
    const auto it = m_active.constFind(key);
    return it == m_active.cend() ? std::nullopt : std::optional<Intent>(*it);
}

void SyncEngine::retryNow(const QString &key)
{
    auto it = m_active.find(key);
    if (it == m_active.end() || m_inFlight.contains(key))
        return;
    it->nextAttemptAt = 0;
    m_failures.remove(key);
    schedule(key);
    if (m_connectivity != Connectivity::Online) {
        m_probeTimer.stop();
        probe();
        return;
    }
    pump();
}

void SyncEngine::checkConnectionNow()
{
    if (m_connectivity == Connectivity::Online || !m_started)
        return;
    m_probeTimer.stop();
    probe();
}

void SyncEngine::resume()
{
    if (!m_paused)
        return;
    m_paused = false;
    m_pauseReason.clear();
    emit pausedChanged(false, {});
    for (Intent &i : m_active) {
        i.nextAttemptAt = 0;
        schedule(i.key);
    }
    pump();
}

int SyncEngine::priority(const Intent &intent) const
{
    // What may already have happened at the gateway is settled before anything new goes out.
    return intent.state == IntentState::Unknown || intent.state == IntentState::Sending ? 0 : 1;
}

void SyncEngine::schedule(const QString &key)
{
    const auto it = m_active.constFind(key);
    if (it == m_active.cend() || m_inFlight.contains(key) || m_voiding.contains(key))
        return;
    // The intent's next attempt is a wall-clock time (stored, shown); the wait is measured on
    // the monotonic clock from now, and never longer than any delay the engine sets (the
    // backoff's cap, a Retry-After up to a minute), so that a wall clock set back does not hold
    // the queue back by as much (found by oncepay-sim: a jump of -211 s held two payments for
    // 206 s; seed 69: a till restarted after a jump held its queue for good).
    const qint64 wait = qMin(it->nextAttemptAt - nowMs(), qMax(m_config.backoffCapMs, kMaxRetryAfterMs));
    if (wait <= 0) {
        m_waitingDue.remove(key);
        m_ready.insert({priority(*it), it->id});
    } else {
        const qint64 due = monotonicMs() + wait;
        m_waitingDue.insert(key, due);
        m_waiting.emplace(due, key);
    }
}

bool SyncEngine::isCurrentWait(qint64 due, const QString &key) const
{
    const auto it = m_waitingDue.constFind(key);
    return it != m_waitingDue.cend() && *it == due && m_active.contains(key) && !m_inFlight.contains(key);
}

void SyncEngine::pump()
{
    if (!m_started)
        return;
    const qint64 now = monotonicMs();
    while (!m_waiting.empty() && m_waiting.begin()->first <= now) {
        const QString key = m_waiting.begin()->second;
        const qint64 due = m_waiting.begin()->first;
        m_waiting.erase(m_waiting.begin());
        if (isCurrentWait(due, key)) {
            m_waitingDue.remove(key);
            m_ready.insert({priority(m_active.value(key)), m_active.value(key).id});
        }
    }
    if (!m_paused && m_connectivity == Connectivity::Online) {
        while (m_inFlight.size() < m_config.maxInFlight && !m_ready.empty()) {
            const qint64 id = m_ready.begin()->second;
            m_ready.erase(m_ready.begin());
            const QString key = m_keyById.value(id);
            if (!m_active.contains(key) || m_inFlight.contains(key) || m_voiding.contains(key))
                continue;
            dispatch(key);
        }
    }
    armTimer();
}

void SyncEngine::armTimer()
{
    // Skip stale entries so the countdown shown to the cashier is a real one.
    while (!m_waiting.empty()) {
        const auto &[due, key] = *m_waiting.begin();
        if (isCurrentWait(due, key))
            break;
        m_waiting.erase(m_waiting.begin());
    }
    const qint64 wait = m_waiting.empty() ? 0 : qMax<qint64>(0, m_waiting.begin()->first - monotonicMs());
    qint64 next = m_waiting.empty() ? 0 : nowMs() + wait;
    if (m_connectivity != Connectivity::Online && m_probeTimer.isActive())
        next = nowMs() + m_probeTimer.remainingTime();
    if (!m_waiting.empty())
        m_timer.start(int(qMin<qint64>(wait, INT_MAX)));
    else
        m_timer.stop();
    if (next != m_nextRetryAt) {
        m_nextRetryAt = next;
        emit nextRetryChanged(next);
    }
}

void SyncEngine::dispatch(const QString &key)
{
    const Intent i = m_active.value(key);
    m_inFlight.insert(key);
    const qint64 started = nowMs();
    const bool refund = i.isRefund();
    const auto classify = refund ? classifyRefundLookup : classifyLookup;
    auto answer = [this, key, started, classify](Kind kind) {
        return [this, key, started, classify, kind](const GatewayResult &r) {
            handleAnswer(key, kind, r, classify(r), started);
        };
    };
    if (i.state == IntentState::Unknown || i.state == IntentState::Sending) {
        if (refund)
            m_client->getRefundByKey(key, this, answer(Kind::Lookup));
        else
            m_client->getPaymentByKey(key, this, answer(Kind::Lookup));
        return;
    }
    // A payment's own id; a refund's paymentId is its payment's, its own is refundId.
    const QString id = refund ? i.refundId : i.paymentId;
    if (i.state == IntentState::Processing && !id.isEmpty()) {
        if (refund)
            m_client->getRefund(id, this, answer(Kind::Poll));
        else
            m_client->getPayment(id, this, answer(Kind::Poll));
        return;
    }
    sendPost(key);
}

void SyncEngine::sendPost(const QString &key)
{
    const Intent before = m_active.value(key);
    Intent sending = before;
    sending.state = IntentState::Sending;
    sending.attempts += 1;
    sending.nextAttemptAt = 0;
    sending.updatedAt = nowMs();
    // Durable before the first byte: after a crash, `sending` means "ask before sending again".
    m_journal->update(sending, before.state, QStringLiteral("attempt %1").arg(sending.attempts), std::nullopt, this,
        [this, key, sending](bool ok, const TillError &error, bool applied) {
            if (ok && !applied) {
                // Not sent: the journal holds another state than the one this send was decided from.
                m_inFlight.remove(key);
                adoptStored(key);
                return;
            }
            if (!ok) {
                qCWarning(lcSync) << "cannot record the attempt, not sending:" << error;
                m_inFlight.remove(key);
                auto it = m_active.find(key);
                if (it != m_active.end()) {
                    it->lastProblem = error.text();
                    it->nextAttemptAt = nowMs() + backoffDelayMs(++m_failures[key], m_config.backoffBaseMs, m_config.backoffCapMs, m_rng);
                    schedule(key);
                }
                emit queueChanged();   // its next try and its problem changed; whoever waits looks again
                pump();
                return;
            }
            putActive(sending);
            emit intentChanged(sending);
            const qint64 started = nowMs();
            if (sending.isRefund()) {
                m_client->postRefund(sending, this, [this, key, started](const GatewayResult &r) {
                    handleAnswer(key, Kind::Post, r, classifyRefundPost(r), started);
                });
            } else {
                m_client->postPayment(sending, this, [this, key, started](const GatewayResult &r) {
                    handleAnswer(key, Kind::Post, r, classifyPost(r), started);
                });
            }
        });
}

void SyncEngine::adoptStored(const QString &key)
{
    qCWarning(lcSync) << "the journal holds another state for" << key << "than this engine decided from; reading it";
    m_journal->find(key, this, [this, key](bool ok, const TillError &error, Intent stored) {
        if (!ok || !stored.isValid()) {
            qCWarning(lcSync) << "cannot read" << key << "back:" << error;
            return;
        }
        if (isFinal(stored.state)) {
            dropActive(key);
            m_keyById.remove(stored.id);
        } else {
            stored.nextAttemptAt = 0;
            putActive(stored);
            schedule(key);
        }
        emit intentChanged(stored);
        emit queueChanged();
        pump();
    });
}

void SyncEngine::handleAnswer(const QString &key, Kind kind, const GatewayResult &r, const Decision &d, qint64 startedAt)
{
    const Intent before = m_active.value(key);
    Intent after = before;
    after.state = d.state;
    after.updatedAt = nowMs();
    const QJsonObject payment = before.isRefund() ? QJsonObject() : r.payment();
    const QJsonObject refund = before.isRefund() ? r.refund() : QJsonObject();
    if (!refund.isEmpty()) {
        after.refundId = refund.value(QStringLiteral("id")).toString(after.refundId);
        after.gatewayStatus = refund.value(QStringLiteral("status")).toString();
        after.declineCode = refund.value(QStringLiteral("failure_code")).toString();
    }
    if (!payment.isEmpty()) {
        after.paymentId = payment.value(QStringLiteral("id")).toString(after.paymentId);
        after.gatewayStatus = payment.value(QStringLiteral("status")).toString();
        after.declineCode = payment.value(QStringLiteral("decline_code")).toString();
        // What the acquirer said about the card, for the receipt; kept when an answer lacks it.
        const QJsonObject card = payment.value(QStringLiteral("card")).toObject();
        after.cardBrand = card.value(QStringLiteral("brand")).toString(after.cardBrand);
        after.cardLast4 = card.value(QStringLiteral("last4")).toString(after.cardLast4);
        // A wallet payment's brand takes the card's place on the receipt ("wechat", "alipay").
        const QJsonObject wallet = payment.value(QStringLiteral("wallet")).toObject();
        after.cardBrand = wallet.value(QStringLiteral("brand")).toString(after.cardBrand);
        after.authorizationCode = payment.value(QStringLiteral("authorization_code")).toString(after.authorizationCode);
    }
    after.lastProblem = d.state == IntentState::Succeeded ? QString() : d.problem;
    const bool again = d.next == Decision::Next::RetryPost || d.next == Decision::Next::Poll
        || d.next == Decision::Next::Resolve;
    if (kind != Kind::Post && d.next == Decision::Next::RetryPost && r.answered()) {
        // The gateway says it never executed this key (404): send it now, not after the
        // backoff that the polls before built up.
        m_failures.remove(key);
        after.nextAttemptAt = 0;
    } else if (again) {
        const int failures = ++m_failures[key];
        after.nextAttemptAt = nowMs() + backoffDelayMs(failures - 1, m_config.backoffBaseMs, m_config.backoffCapMs, m_rng, d.retryAfterMs);
    } else {
        m_failures.remove(key);
        after.nextAttemptAt = 0;
    }
    Attempt attempt;
    attempt.kind = kind;
    attempt.startedAt = startedAt;
    attempt.endedAt = nowMs();
    attempt.transport = r.transport == GatewayResult::Transport::Answered ? Attempt::Transport::Answered
        : r.transport == GatewayResult::Transport::LostAfterSend          ? Attempt::Transport::AnswerLost
                                                                          : Attempt::Transport::NotSent;
    attempt.outcome = r.summary();
    attempt.httpStatus = r.status;
    attempt.replayed = r.replayed;
    attempt.latencyMs = r.latencyMs;

    m_journal->update(after, before.state, r.summary(), attempt, this,
        [this, key, after, d, answered = r.answered(),
            lostAfterSend = r.transport == GatewayResult::Transport::LostAfterSend](bool ok, const TillError &error,
            bool applied) mutable {
            m_inFlight.remove(key);
            if (ok && !applied) {
                adoptStored(key);
                return;
            }
            // Given up while this answer was on its way to the journal (the give-up was stored
            // first, its reply came first): the engine's copy knows it, `after` was made before.
            // A charge it then records is owed back at once.
            if (auto it = m_active.constFind(key); it != m_active.cend())
                after.givenUpAt = qMax(after.givenUpAt, it->givenUpAt);
            if (!ok) {
                // The journal cannot follow: keep what it holds, ask again later (same key, safe).
                qCWarning(lcSync) << "cannot record the answer:" << error;
                auto it = m_active.find(key);
                if (it != m_active.end()) {
                    it->nextAttemptAt = nowMs() + backoffDelayMs(++m_failures[key], m_config.backoffBaseMs, m_config.backoffCapMs, m_rng);
                    schedule(key);
                }
                pump();
                return;
            }
            if (isFinal(after.state)) {
                dropActive(key);
                m_keyById.remove(after.id);
            } else {
                putActive(after);
            }
            emit intentChanged(after);
            if (after.isRefund() && after.state == IntentState::Succeeded)
                announcePayment(after.paymentKey);   // the journal credited it with this refund
            if (!after.isRefund() && after.state == IntentState::Succeeded && after.givenUpAt > 0)
                makeAutoRefunds();   // charged after the customer paid another way: give it back
            emit queueChanged();
            if (d.pauseQueue && !m_paused) {
                m_paused = true;
                m_pauseReason = after.lastProblem;
                emit pausedChanged(true, m_pauseReason);
            }
            if (d.connectivityLost)
                lostConnection(!answered && lostAfterSend);
            else if (answered && m_connectivity != Connectivity::Online)
                backOnline();
            schedule(key);
            pump();
        });
}

void SyncEngine::setConnectivity(Connectivity c)
{
    if (c == m_connectivity)
        return;
    m_connectivity = c;
    qCInfo(lcSync) << "connectivity" << c;
    emit connectivityChanged(c);
}

void SyncEngine::lostConnection(bool noAnswer)
{
    if (m_connectivity != Connectivity::Online) {
        // Already probing; say what the last failure measured.
        if (m_connectivity != Connectivity::Reconnecting)
            setConnectivity(noAnswer ? Connectivity::NoAnswer : Connectivity::Offline);
        return;
    }
    {
        m_probeAttempt = 0;
        setConnectivity(noAnswer ? Connectivity::NoAnswer : Connectivity::Offline);
        // With other gateways to try, ask them at once: the client has already moved on, and
        // every moment spent offline applies the offline limits to sales for no reason.
        const bool others = m_client->gatewayCount() > 1;
        m_probeTimer.start(others ? 0 : int(backoffDelayMs(0, m_config.probeBaseMs, m_config.probeCapMs, m_rng) + 50));
        armTimer();
    }
}

void SyncEngine::probe()
{
    // A gateway that does not answer stays "no answer" while it is asked again: "reconnecting"
    // would read as if it were coming back.
    if (m_connectivity != Connectivity::NoAnswer)
        setConnectivity(Connectivity::Reconnecting);
    // Every gateway at once: back online as soon as any of them answers.
    m_client->healthAny(this, [this](const GatewayResult &r) {
        if (r.answered() && r.status == 200) {
            backOnline();
            return;
        }
        if (m_connectivity == Connectivity::Online)
            return;   // an answer to a payment brought us back meanwhile
        setConnectivity(r.transport == GatewayResult::Transport::LostAfterSend ? Connectivity::NoAnswer
                                                                               : Connectivity::Offline);
        ++m_probeAttempt;
        m_probeTimer.start(int(backoffDelayMs(m_probeAttempt, m_config.probeBaseMs, m_config.probeCapMs, m_rng) + 50));
        armTimer();
    });
}

void SyncEngine::backOnline()
{
    m_probeTimer.stop();
    setConnectivity(Connectivity::Online);
    // Drain at once: every waiting intent is due now, unknown ones first.
    for (Intent &i : m_active) {
        if (m_inFlight.contains(i.key))
            continue;
        i.nextAttemptAt = 0;
        m_failures.remove(i.key);
        schedule(i.key);
    }
    pump();
}

}   // namespace OncePay
