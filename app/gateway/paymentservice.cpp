#include "paymentservice.h"

#include "timeutil.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QRandomGenerator>

#include <csignal>
#include <unistd.h>

namespace OncePay::Gateway {

Q_LOGGING_CATEGORY(lcPayments, "oncepay.gateway.payments", QtInfoMsg)

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
    fields.status = Status::processing;
    fields.step = Step::claimed;
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
    const PaymentClaim claim{caller.merchant, key, fingerprint, fields, now, m_config.leaseMs};

    m_store->claimPayment(claim, this, timed<ClaimOutcome>([this, respond, merchant = caller.merchant, key, fingerprint](
                                                               bool ok, const QString &, ClaimOutcome o) {
        if (!ok)
            return respond(Answers::storeUnavailable());
        switch (o.kind) {
        case ClaimOutcome::Kind::Claimed:
            faultPoint("after_claim");
            markCalledThenCharge(o.payment, respond);
            return;
        case ClaimOutcome::Kind::Resume:
            qCInfo(lcPayments) << "resuming payment" << o.payment.id << "at step" << o.payment.step;
            resume(o.payment, respond);
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

void PaymentService::markCalledThenCharge(const Payment &payment, Respond respond)
{
    // Recorded before the call: after a crash, 'acquirer_called' means "ask the bank first".
    m_store->markAcquirerCalled(payment.id, nowMs(), this,
                                timed<bool>([this, payment, respond](bool ok, const QString &, bool) {
        if (!ok)
            return respond(Answers::storeUnavailable());   // the acquirer was not called
        faultPoint("after_mark_called");
        Payment p = payment;
        p.step = Step::acquirerCalled;
        charge(p, respond);
    }));
}

void PaymentService::charge(const Payment &payment, Respond respond)
{
    m_metrics->count("oncepay_acquirer_calls_total", "kind=\"charge\",outcome=\"sent\"");
    m_acquirerCallsInFlight.insert(payment.id);
    auto answered = std::make_shared<bool>(false);
    m_deadlines.push_back({nowMs() + m_config.acquirerTimeoutMs, answered, [this, payment, respond] {
        settle(payment, {AcquirerAnswer::Kind::AnswerLost, {}, QStringLiteral("acquirer timeout")}, respond, false);
    }});
    if (!m_deadlineTimer.isActive())
        m_deadlineTimer.start();
    const ChargeRequest rq{payment.merchant, payment.idempotencyKey, payment.amount, payment.currency,
                           payment.paymentMethod};
    m_acquirer->charge(rq, this, [this, payment, respond, answered](const AcquirerAnswer &a) {
        m_acquirerCallsInFlight.remove(payment.id);
        m_metrics->count("oncepay_acquirer_calls_total", "kind=\"charge\",outcome=\"" + outcomeLabel(a) + '"');
        if (*answered)
            return;   // too late: the payment was answered 202 and recovery will ask the bank
        *answered = true;
        faultPoint("after_acquirer");
        settle(payment, a, respond, false);
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

void PaymentService::resume(const Payment &payment, Respond respond)
{
    if (payment.step == Step::claimed)
        return markCalledThenCharge(payment, respond);
    // The acquirer may have charged: ask it by key before anything else.
    m_metrics->count("oncepay_acquirer_calls_total", "kind=\"lookup\",outcome=\"sent\"");
    m_acquirer->lookup(payment.merchant, payment.idempotencyKey, this, [this, payment, respond](const AcquirerAnswer &a) {
        m_metrics->count("oncepay_acquirer_calls_total", "kind=\"lookup\",outcome=\"" + outcomeLabel(a) + '"');
        if (a.kind == AcquirerAnswer::Kind::NotFound)
            return charge(payment, respond);
        if (a.kind == AcquirerAnswer::Kind::AnswerLost)
            return respond(Answers::acquirerUnavailable(QStringLiteral("The acquirer could not be asked; retry later with the same key.")));
        settle(payment, a, respond, false);
    });
}

void PaymentService::release(const Payment &payment, std::function<void()> then)
{
    m_store->releaseClaim(payment.merchant, payment.idempotencyKey, payment.id, this,
                          timed<bool>([then = std::move(then)](bool, const QString &, bool) { then(); }));
}

void PaymentService::settle(Payment payment, const AcquirerAnswer &answer, Respond respond, bool recovery)
{
    switch (answer.kind) {
    case AcquirerAnswer::Kind::Refused:
        // Nothing was charged: give the key back so that a retry executes again (not recorded).
        release(payment, [respond, detail = answer.error] {
            respond(Answers::acquirerUnavailable(QStringLiteral("The acquirer refused the payment before charging: %1").arg(detail)));
        });
        return;
    case AcquirerAnswer::Kind::NotFound:
        Q_UNREACHABLE();
        return;
    case AcquirerAnswer::Kind::Approved:
        payment.status = Status::succeeded;
        break;
    case AcquirerAnswer::Kind::Declined:
        payment.status = Status::declined;
        payment.declineCode = answer.declineCode;
        break;
    case AcquirerAnswer::Kind::AnswerLost:
        payment.status = Status::processing;
        break;
    }
    const qint64 now = nowMs();
    payment.updatedAt = now;
    if (payment.status != Status::processing)
        payment.step = Step::settled;
    const HttpAnswer answerToSend = HttpAnswer::forPayment(payment);
    Settlement s{payment.merchant, payment.idempotencyKey, payment.id, payment.status, payment.declineCode,
                 now, answerToSend.toStored(), m_config.retentionMs, recovery};
    m_store->settlePayment(s, this, timed<bool>([this, respond, answerToSend, s, fp = payment.fingerprint](
                                                    bool ok, const QString &, bool settled) {
        if (!ok)
            return respond(Answers::storeUnavailable());   // a retry resumes by asking the acquirer
        if (settled && !s.recovery && answerToSend.status != 202)
            remember(s.merchant, s.key, fp, s.response, s.now + s.retentionMs);
        faultPoint("after_settle");
        respond(answerToSend);
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
    const qint64 now = nowMs();
    m_store->takeRecoveryWork(now, m_config.leaseMs, 200, this,
                              timed<QList<RecoveryItem>>([this, now](bool ok, const QString &, QList<RecoveryItem> items) {
        m_recoveryRunning = false;
        if (!ok) {
            emit recoveryFinished(0);
            return;
        }
        auto pending = std::make_shared<int>(0);
        auto resolved = std::make_shared<int>(0);
        auto finishOne = [this, pending, resolved](bool didResolve) {
            if (didResolve) {
                ++*resolved;
                m_metrics->count("oncepay_recovery_resolved_total");
            }
            if (--*pending == 0)
                emit recoveryFinished(*resolved);
        };
        for (const RecoveryItem &item : items) {
            const Payment &p = item.payment;
            if (m_acquirerCallsInFlight.contains(p.id))
                continue;
            ++*pending;
            if (p.step == Step::claimed) {
                release(p, [finishOne] { finishOne(true); });   // the acquirer was never called
                continue;
            }
            m_acquirer->lookup(p.merchant, p.idempotencyKey, this, [=](const AcquirerAnswer &a) {
                m_metrics->count("oncepay_acquirer_calls_total", "kind=\"lookup\",outcome=\"" + outcomeLabel(a) + '"');
                if (a.kind == AcquirerAnswer::Kind::Approved || a.kind == AcquirerAnswer::Kind::Declined) {
                    qCInfo(lcPayments) << "recovery: payment" << p.id << "is" << outcomeLabel(a);
                    settle(p, a, [finishOne](const HttpAnswer &) { finishOne(true); }, true);
                } else if (a.kind == AcquirerAnswer::Kind::NotFound && !item.recordCompleted) {
                    release(p, [finishOne] { finishOne(true); });   // no answer was ever given
                } else if (a.kind == AcquirerAnswer::Kind::NotFound && now - p.updatedAt > m_config.acquirerTimeoutMs) {
                    // Answered 202, and no call is in flight anywhere: the bank never got it.
                    settle(p, {AcquirerAnswer::Kind::Declined, QStringLiteral("processing_error"), {}},
                           [finishOne](const HttpAnswer &) { finishOne(true); }, true);
                } else {
                    finishOne(false);
                }
            });
        }
        if (*pending == 0)
            emit recoveryFinished(0);
    }));
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
    fields.status = Status::succeeded;
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
