#include "paymentservice.h"

#include "paymentlog.h"
#include "timeutil.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QRandomGenerator>

#include <csignal>
#include <utility>
#include <unistd.h>

namespace OncePay::Gateway {

namespace {
QByteArray outcomeLabel(const AcquirerAnswer &a)
{
    switch (a.kind) {
    case AcquirerAnswer::Kind::Approved: return "approved";
    case AcquirerAnswer::Kind::Declined: return "declined";
    case AcquirerAnswer::Kind::AnswerLost: return "answer_lost";
    case AcquirerAnswer::Kind::Refused: return "refused";
    case AcquirerAnswer::Kind::NotFound: return "not_found";
    }
    return "unknown";
}
} // namespace

PaymentService::PaymentService(Config config, GatewayStore *store, Acquirer *acquirer, Metrics *metrics,
                               QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_store(store)
    , m_acquirer(acquirer)
    , m_metrics(metrics)
{
    // The acquirer must answer well within the lease, or a retry could take over a live call.
    m_config.acquirerTimeoutMs = qBound<qint64>(1, m_config.acquirerTimeoutMs, qMax<qint64>(1, m_config.leaseMs / 2));
    m_recoveryTimer.setInterval(int(qBound<qint64>(qint64(50), m_config.recoveryIntervalMs, qint64(3600000))));
    connect(&m_recoveryTimer, &QTimer::timeout, this, &PaymentService::runRecovery);
    m_deadlineTimer.setInterval(int(qBound<qint64>(qint64(5), m_config.acquirerTimeoutMs / 20, qint64(100))));
    connect(&m_deadlineTimer, &QTimer::timeout, this, &PaymentService::expireDeadlines);
    m_sweepTimer.setInterval(int(qBound<qint64>(qint64(200), m_config.retentionMs / 10, qint64(60000))));
    connect(&m_sweepTimer, &QTimer::timeout, this, &PaymentService::runRetentionSweep);
}

void PaymentService::start()
{
    m_recoveryTimer.start();
    m_sweepTimer.start();
    runRecovery();
}

void PaymentService::stop()
{
    m_recoveryTimer.stop();
    m_sweepTimer.stop();
}

QString PaymentService::newId(const char *prefix)
{
    static const char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    QString id = QLatin1String(prefix);
    auto *rng = QRandomGenerator::system();
    for (int i = 0; i < 24; ++i)
        id.append(QLatin1Char(alphabet[rng->bounded(62)]));
    return id;
}

template <typename T>
GatewayStore::Reply<T> PaymentService::timed(GatewayStore::Reply<T> reply)
{
    QElapsedTimer timer;
    timer.start();
    return [this, timer, reply = std::move(reply)](bool ok, const QString &error, T value) {
        m_metrics->observeStoreLatency(timer.nsecsElapsed() / 1000);
        if (!ok)
            qCWarning(lcPayments) << "store failed:" << error;
        reply(ok, error, std::move(value));
    };
}

void PaymentService::faultPoint(const char *step) const
{
    if (m_config.faultKillAt == QLatin1String(step)) {
        qCCritical(lcPayments) << "fault injection: killing the gateway at" << step;
        ::kill(::getpid(), SIGKILL);
    }
    if (m_config.faultPauseAt == QLatin1String(step) && !std::exchange(m_faultPaused, true)) {
        // A real stall (a VM freeze, a long pause): the whole process stops until SIGCONT, the
        // first time a payment reaches the step only (a test then sees the others go on).
        qCCritical(lcPayments) << "fault injection: stopping the gateway at" << step;
        ::raise(SIGSTOP);
    }
}

void PaymentService::createPayment(const Caller &caller, const QString &key, const QByteArray &fingerprint,
                                   Payment fields, Respond respond)
{
    const qint64 now = nowMs();
    fields.id = newId("pay_");
    fields.merchant = caller.merchant;
    fields.terminalId = caller.terminal;
    fields.idempotencyKey = key;
    fields.fingerprint = fingerprint;
    fields.status = PaymentStatus::Processing;
    fields.step = PaymentStep::Claimed;
    fields.createdAt = fields.updatedAt = now;
    const QString cacheKey = caller.merchant + QLatin1Char('\n') + key;
    if (const CachedAnswer *cached = m_answers.object(cacheKey); cached && cached->expiresAt > now) {
        if (cached->fingerprint != fingerprint) {
            m_metrics->count("oncepay_idempotency_mismatches_total");
            return respond(Answers::keyReused());
        }
        m_metrics->count("oncepay_idempotent_replays_total");
        return respond(HttpAnswer::fromStored(cached->response).markReplayed());
    }
    const PaymentClaim claim{caller.merchant, key, fingerprint, fields, m_config.leaseMs};

    m_store->claimPayment(claim, this, timed<ClaimOutcome>([this, respond, merchant = caller.merchant, key, fingerprint](
                                                               bool ok, const QString &, ClaimOutcome o) {
        if (!ok)
            return respond(Answers::storeUnavailable());   // nothing was claimed, nothing executed
        switch (o.kind) {
        case ClaimOutcome::Kind::Claimed:
            faultPoint("after_claim");
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
            remember(merchant, key, fingerprint, o.response, o.responseExpiresAt);
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

void PaymentService::callAcquirer(Work work)
{
    // Recorded before the call, and only under a live lease: after a crash or a takeover,
    // 'acquirer_called' means "ask the bank first", and a holder paused past its lease stops here.
    m_store->markAcquirerCalled(work.payment, m_config.leaseMs, nowMs(), this,
                                timed<StepWrite>([this, work](bool ok, const QString &, StepWrite w) mutable {
        if (!ok) {
            // Not called by us. A recovery run leaves the payment to the next run.
            return work.respond(work.recovery ? HttpAnswer{} : Answers::storeUnavailable());
        }
        if (w == StepWrite::Fenced)
            return answerFenced(work);
        faultPoint("after_mark_called");
        work.payment.step = PaymentStep::AcquirerCalled;
        charge(std::move(work));
    }));
}

void PaymentService::charge(Work work)
{
    const Payment &payment = work.payment;
    m_metrics->count("oncepay_acquirer_calls_total", "kind=\"charge\",outcome=\"sent\"");
    m_acquirerCallsInFlight.insert(payment.id);
    auto answered = std::make_shared<bool>(false);
    m_deadlines.push_back({nowMs() + m_config.acquirerTimeoutMs, answered, [this, work] {
        settle(work, {AcquirerAnswer::Kind::AnswerLost, {}, QStringLiteral("acquirer timeout")});
    }});
    if (!m_deadlineTimer.isActive())
        m_deadlineTimer.start();
    const ChargeRequest rq{payment.merchant, payment.idempotencyKey, payment.amount, payment.currency,
                           payment.paymentMethod};
    m_acquirer->charge(rq, this, [this, work, answered](const AcquirerAnswer &a) {
        m_acquirerCallsInFlight.remove(work.payment.id);
        m_metrics->count("oncepay_acquirer_calls_total", "kind=\"charge\",outcome=\"" + outcomeLabel(a) + '"');
        if (*answered)
            return;   // too late: the payment was answered 202 and recovery will ask the bank
        *answered = true;
        faultPoint("after_acquirer");
        settle(work, a);
    });
}

void PaymentService::expireDeadlines()
{
    const qint64 now = nowMs();
    while (!m_deadlines.empty() && (*m_deadlines.front().answered || m_deadlines.front().at <= now)) {
        Deadline d = std::move(m_deadlines.front());
        m_deadlines.pop_front();
        if (!*d.answered) {
            *d.answered = true;
            d.expire();
        }
    }
    if (m_deadlines.empty())
        m_deadlineTimer.stop();
}

void PaymentService::resume(Work work)
{
    if (work.payment.step == PaymentStep::Claimed) {
        // The previous holder never recorded a call, and can no longer (its generation is
        // stale): nobody has called the acquirer for this key.
        work.firstCall = true;
        return callAcquirer(std::move(work));
    }
    // The acquirer may have charged: ask it by key before anything else.
    m_metrics->count("oncepay_acquirer_calls_total", "kind=\"lookup\",outcome=\"sent\"");
    m_acquirer->lookup(work.payment.merchant, work.payment.idempotencyKey, this, [this, work](const AcquirerAnswer &a) {
        m_metrics->count("oncepay_acquirer_calls_total", "kind=\"lookup\",outcome=\"" + outcomeLabel(a) + '"');
        if (a.kind == AcquirerAnswer::Kind::NotFound)
            return callAcquirer(work);   // the same key: a call still on its way charges once
        if (a.kind == AcquirerAnswer::Kind::AnswerLost) {
            // Could not ask. Give the lease back so that the next retry or recovery asks again.
            m_store->releaseLease(work.payment, this, timed<StepWrite>([work](bool, const QString &, StepWrite) {
                work.respond(work.recovery ? HttpAnswer{} : Answers::outcomeUnknown());
            }));
            return;
        }
        settle(work, a);
    });
}

void PaymentService::answerFenced(const Work &work)
{
    const Payment &p = work.payment;
    qCWarning(lcPayments) << "payment" << p.id << "lease generation" << p.leaseGeneration
                          << "was taken over: answering from the store";
    m_metrics->count("oncepay_lease_fenced_total");
    if (work.recovery)
        return work.respond(HttpAnswer{});
    m_store->storedAnswer(p.merchant, p.idempotencyKey, p.fingerprint, this,
                          timed<ClaimOutcome>([respond = work.respond](bool ok, const QString &, ClaimOutcome o) {
        if (!ok)
            return respond(Answers::outcomeUnknown());
        switch (o.kind) {
        case ClaimOutcome::Kind::Replay:
            return respond(HttpAnswer::fromStored(o.response).markReplayed());
        case ClaimOutcome::Kind::ReplayCurrent:
            return respond(HttpAnswer::forPayment(o.payment).markReplayed());
        case ClaimOutcome::Kind::Mismatch:
            return respond(Answers::keyReused());
        case ClaimOutcome::Kind::Claimed:
        case ClaimOutcome::Kind::Resume:
        case ClaimOutcome::Kind::InProgress:
        case ClaimOutcome::Kind::Gone:
            // The new holder is working, or released a claim nobody had executed: retry.
            return respond(Answers::keyInUse());
        }
    }));
}

void PaymentService::settle(Work work, const AcquirerAnswer &answer)
{
    Payment &payment = work.payment;
    switch (answer.kind) {
    case AcquirerAnswer::Kind::Refused: {
        const HttpAnswer refused = Answers::acquirerUnavailable(
            QStringLiteral("The acquirer refused the payment before charging: %1").arg(answer.error));
        if (!work.firstCall) {
            // An earlier holder's call may still reach the acquirer: keep the payment, give the
            // lease back; a retry with the same key asks again.
            m_store->releaseLease(payment, this, timed<StepWrite>([work, refused](bool, const QString &, StepWrite) {
                work.respond(work.recovery ? HttpAnswer{} : refused);
            }));
            return;
        }
        // Nothing was charged and no other call exists: give the key back so that a retry
        // executes again (not recorded).
        m_store->releaseClaim(payment, true, this,
                              timed<StepWrite>([this, work, refused](bool ok, const QString &, StepWrite w) {
            if (ok && w == StepWrite::Fenced)
                return answerFenced(work);
            work.respond(work.recovery ? HttpAnswer{} : refused);
        }));
        return;
    }
    case AcquirerAnswer::Kind::NotFound:
        Q_UNREACHABLE();
        return;
    case AcquirerAnswer::Kind::Approved:
        payment.status = PaymentStatus::Succeeded;
        break;
    case AcquirerAnswer::Kind::Declined:
        payment.status = PaymentStatus::Declined;
        payment.declineCode = answer.declineCode;
        break;
    case AcquirerAnswer::Kind::AnswerLost:
        payment.status = PaymentStatus::Processing;
        break;
    }
    const qint64 now = nowMs();
    payment.updatedAt = now;
    if (payment.status != PaymentStatus::Processing)
        payment.step = PaymentStep::Settled;
    const HttpAnswer answerToSend = HttpAnswer::forPayment(payment);
    const Settlement s{payment.merchant, payment.idempotencyKey, payment.id, payment.leaseGeneration,
                       payment.status, payment.declineCode, now, answerToSend.toStored(), m_config.retentionMs,
                       work.recovery};
    writeSettlement(std::move(work), s, answerToSend, QDateTime::currentMSecsSinceEpoch());
}

void PaymentService::writeSettlement(Work work, const Settlement &s, const HttpAnswer &answer, qint64 firstTryAt)
{
    m_store->settlePayment(s, this, timed<StepWrite>([this, work, s, answer, firstTryAt](
                                                         bool ok, const QString &, StepWrite w) mutable {
        if (!ok) {
            // The acquirer may have charged: never 503 (promise 7). Keep trying to record the
            // outcome; the client is told 500 outcome-unknown once it has waited long enough,
            // and after a lease's time recovery (here or on another instance) takes over.
            const qint64 waited = QDateTime::currentMSecsSinceEpoch() - firstTryAt;
            m_metrics->count("oncepay_settle_retries_total");
            if (waited >= m_config.acquirerTimeoutMs)
                work.respond(work.recovery ? HttpAnswer{} : Answers::outcomeUnknown());
            if (waited >= m_config.leaseMs) {
                qCWarning(lcPayments) << "payment" << s.paymentId << "outcome not recorded; left to recovery";
                return;
            }
            QTimer::singleShot(200, this, [this, work, s, answer, firstTryAt] {
                writeSettlement(work, s, answer, firstTryAt);
            });
            return;
        }
        if (w == StepWrite::Fenced)
            return answerFenced(work);
        if (!s.recovery && answer.status != 202)
            remember(s.merchant, s.key, work.payment.fingerprint, s.response, s.now + s.retentionMs);
        faultPoint("after_settle");
        work.respond(answer);
    }));
}

void PaymentService::remember(const QString &merchant, const QString &key, const QByteArray &fingerprint,
                              const StoredResponse &response, qint64 expiresAt)
{
    if (fingerprint.isEmpty() || response.status == 202)
        return;
    m_answers.insert(merchant + QLatin1Char('\n') + key, new CachedAnswer{fingerprint, response, expiresAt});
}

void PaymentService::runRecovery()
{
    if (m_recoveryRunning)
        return;
    m_recoveryRunning = true;
    m_metrics->count("oncepay_recovery_runs_total");
    m_store->takeRecoveryWork(m_config.leaseMs, 200, this,
                              timed<QList<RecoveryItem>>([this](bool ok, const QString &, QList<RecoveryItem> items) {
        m_recoveryRunning = false;
        if (!ok || items.isEmpty()) {
            emit recoveryFinished(0);
            return;
        }
        auto pending = std::make_shared<int>(int(items.size()));
        auto resolved = std::make_shared<int>(0);
        for (const RecoveryItem &item : items) {
            recover(item, [this, pending, resolved](bool didResolve) {
                if (didResolve) {
                    ++*resolved;
                    m_metrics->count("oncepay_recovery_resolved_total");
                }
                if (--*pending == 0)
                    emit recoveryFinished(*resolved);
            });
        }
    }));
}

void PaymentService::recover(const RecoveryItem &item, std::function<void(bool)> finished)
{
    const Payment &p = item.payment;
    m_metrics->count("oncepay_lease_takeovers_total", "by=\"recovery\"");
    auto finishWith = [finished](bool resolved) {
        return [finished, resolved](bool, const QString &, StepWrite w) { finished(resolved && w == StepWrite::Written); };
    };
    if (m_acquirerCallsInFlight.contains(p.id)) {
        // Our own call is still out; its answer (or its deadline) settles it.
        m_store->releaseLease(p, this, timed<StepWrite>(finishWith(false)));
        return;
    }
    if (p.step == PaymentStep::Claimed) {
        // The acquirer was never called (the step is recorded before any call, under the
        // lease that recovery now holds): give the key back.
        m_store->releaseClaim(p, false, this, timed<StepWrite>(finishWith(true)));
        return;
    }
    // Resume as a request would, answering nobody: ask the acquirer by key; a key it never saw
    // is charged with the same key (idempotent there), never released.
    auto once = std::make_shared<bool>(false);
    Work work{p, [finished, once](const HttpAnswer &a) {
                  if (std::exchange(*once, true))
                      return;
                  finished(a.status == 201 || a.status == 402);
              }, true, false};
    qCInfo(lcPayments) << "recovery: resuming payment" << p.id << "lease generation" << p.leaseGeneration;
    resume(std::move(work));
}

void PaymentService::runRetentionSweep()
{
    m_store->sweepExpiredRecords(nowMs(), 5000, this, timed<int>([this](bool ok, const QString &, int n) {
        if (ok && n > 0) {
            m_metrics->count("oncepay_retention_swept_total", {}, n);
            qCDebug(lcPayments) << "retention: deleted" << n << "expired response records";
        }
    }));
}

void PaymentService::createRefund(const Caller &caller, const QString &key, const QByteArray &fingerprint,
                                  Refund fields, Respond respond)
{
    const qint64 now = nowMs();
    fields.id = newId("re_");
    fields.status = RefundStatus::Succeeded;
    fields.createdAt = now;
    const RefundRequest rq{caller.merchant, key, fingerprint, fields, now, m_config.retentionMs};
    m_store->createRefund(rq, this, timed<RefundOutcome>([this, respond](bool ok, const QString &, RefundOutcome o) {
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

void PaymentService::getPayment(const Caller &caller, const QString &id, Respond respond)
{
    m_store->findPayment(caller.merchant, id, this, timed<Payment>([respond](bool ok, const QString &, Payment p) {
        if (!ok)
            return respond(Answers::storeUnavailable());
        respond(p.isValid() ? HttpAnswer::json(200, p.toJson()) : Answers::notFound(QStringLiteral("No such payment.")));
    }));
}

void PaymentService::getPaymentByKey(const Caller &caller, const QString &key, Respond respond)
{
    m_store->findPaymentByKey(caller.merchant, key, this, timed<Payment>([respond](bool ok, const QString &, Payment p) {
        if (!ok)
            return respond(Answers::storeUnavailable());
        respond(p.isValid() ? HttpAnswer::json(200, p.toJson())
                            : Answers::notFound(QStringLiteral("No payment has this Idempotency-Key.")));
    }));
}

void PaymentService::listPayments(ListQuery query, Respond respond)
{
    const int limit = query.limit;
    query.limit = limit + 1;   // one more tells whether there is a next page
    m_store->listPayments(query, this, timed<QList<Payment>>([respond, limit](bool ok, const QString &, QList<Payment> list) {
        if (!ok)
            return respond(Answers::storeUnavailable());
        const bool more = list.size() > limit;
        if (more)
            list.resize(limit);
        QJsonArray data;
        for (const Payment &p : list)
            data.append(p.toJson());
        const QJsonValue cursor = more ? QJsonValue(QString::fromLatin1(QByteArray::number(list.last().seq)
                                                                             .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals)))
                                       : QJsonValue(QJsonValue::Null);
        respond(HttpAnswer::json(200, {{QStringLiteral("object"), QStringLiteral("list")},
                                       {QStringLiteral("data"), data},
                                       {QStringLiteral("next_cursor"), cursor}}));
    }));
}

} // namespace OncePay::Gateway
