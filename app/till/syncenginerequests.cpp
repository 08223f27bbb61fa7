// SyncEngine, what the till asks of it: storing a payment's or a refund's intent before anything
// is sent (the checks first, then the journal's rules in the journal's transaction), voiding,
// giving a card part up, cancelling a sale, and the refunds the till owes by itself. How the
// stored intents are sent, retried and settled is syncengine.cpp.
#include "syncengine.h"

#include "idempotencykey.h"
#include "oncontext.h"
#include "timeutil.h"

#include <QRegularExpression>

namespace OncePay {

void SyncEngine::pay(const QString &orderId, const Money &amount, const QString &cardToken, QObject *context,
    PayCallback done)
{
    create(orderId, amount, Tender::Card, cardToken, onContext(context, std::move(done)));
}

void SyncEngine::recordCash(const QString &orderId, const Money &amount, QObject *context, PayCallback done)
{
    create(orderId, amount, Tender::Cash, {}, onContext(context, std::move(done)));
}

namespace {

TillError amountOutOfRange(const QString &currency)
{
    return TillError(TillError::Kind::AmountOutOfRange,
        {Money(1, currency).toDecimalString(), Money(100'000'000, currency).toDecimalString()});
}

}   // namespace

void SyncEngine::create(const QString &orderId, const Money &amount, Tender tender, const QString &cardToken,
    const PayCallback &done)
{
    static const QRegularExpression orderShape(QStringLiteral("^[A-Za-z0-9_-]{1,64}$"));
    if (!orderShape.match(orderId).hasMatch())
        return done(false, TillError(TillError::Kind::BadOrderNumber), {});
    if (!Money::isSupportedCurrency(amount.currency()))
        return done(false, TillError(TillError::Kind::UnsupportedCurrency, {amount.currency()}), {});
    if (amount.minorUnits() < 1 || amount.minorUnits() > 100'000'000)
        return done(false, amountOutOfRange(amount.currency()), {});
    Intent intent;
    intent.key = IdempotencyKey::generate(QStringLiteral("pay")).value();
    intent.orderId = orderId;
    intent.amount = amount;
    intent.tender = tender;
    intent.paymentMethod = cardToken;
    intent.state = IntentState::Queued;
    if (intent.isCash()) {
        intent.state = IntentState::Succeeded;   // cash never goes to the gateway
    } else if (m_connectivity != Connectivity::Online || m_paused) {
        qint64 oldest = 0;
        for (const Intent &i : std::as_const(m_active)) {
            if (!i.isRefund())
                oldest = qMax(oldest, nowMs() - i.createdAt);
        }
        const TillError refusal = offlineRefusal(m_config.limits, amount, waitingTotals().value(amount.currency()), oldest);
        if (refusal.isError())
            return done(false, refusal, {});
    }
    m_journal->create(intent, this, [this, done](bool ok, const TillError &error, const Intent &intent) {
        if (!ok) {
            qCWarning(lcSync) << "intent not stored, nothing sent:" << error;
            return done(false, error, {});
        }
        stored(intent);
        done(true, {}, intent);
    });
}

void SyncEngine::refund(const QString &paymentKey, const std::optional<Money> &amount, const QString &reason,
    QObject *context, PayCallback done)
{
    createRefund(paymentKey, amount, reason, Tender::Card, onContext(context, std::move(done)));
}

void SyncEngine::recordCashRefund(const QString &paymentKey, const std::optional<Money> &amount, QObject *context,
    PayCallback done)
{
    createRefund(paymentKey, amount, {}, Tender::Cash, onContext(context, std::move(done)));
}

void SyncEngine::createRefund(const QString &paymentKey, const std::optional<Money> &amount, const QString &reason,
    Tender tender, const PayCallback &done)
{
    if (!IdempotencyKey::isValidKey(paymentKey))
        return done(false, TillError(TillError::Kind::NotAPaymentKey, {paymentKey}), {});
    if (amount && (amount->minorUnits() < 1 || amount->minorUnits() > 100'000'000))
        return done(false, amountOutOfRange(amount->currency()), {});
    if (reason.size() > 500)
        return done(false, TillError(TillError::Kind::ReasonTooLong), {});
    Intent refund;
    refund.kind = IntentKind::Refund;
    refund.key = IdempotencyKey::generate(QStringLiteral("ref")).value();
    refund.paymentKey = paymentKey;
    refund.amount = amount.value_or(Money());   // not valid: the journal takes what remains
    refund.tender = tender;
    refund.reason = reason;
    // Cash comes out of the drawer now; it never goes to the gateway.
    refund.state = tender == Tender::Cash ? IntentState::Succeeded : IntentState::Queued;
    m_journal->create(refund, this, [this, done](bool ok, const TillError &error, const Intent &intent) {
        if (!ok) {
            qCInfo(lcSync) << "refund not stored, nothing sent:" << error;
            return done(false, error, {});
        }
        stored(intent);
        if (intent.state == IntentState::Succeeded)
            announcePayment(intent.paymentKey);
        done(true, {}, intent);
    });
}

void SyncEngine::stored(const Intent &intent)
{
    emit intentChanged(intent);
    if (isFinal(intent.state))
        return;
    putActive(intent);
    m_keyById.insert(intent.id, intent.key);
    emit queueChanged();
    schedule(intent.key);
    pump();
}

void SyncEngine::announcePayment(const QString &paymentKey)
{
    m_journal->find(paymentKey, this, [this](bool ok, const TillError &error, const Intent &payment) {
        if (ok && payment.isValid())
            emit intentChanged(payment);
        else
            qCWarning(lcSync) << "cannot read a refunded payment back:" << error;
    });
}

void SyncEngine::voidIntent(const QString &key, QObject *context, PayCallback done)
{
    done = onContext(context, std::move(done));
    const auto it = m_active.constFind(key);
    if (m_inFlight.contains(key)) {
        const bool refund = it != m_active.cend() && it->isRefund();
        return done(false, TillError(refund ? TillError::Kind::VoidRefundWhileOnTheWire : TillError::Kind::VoidWhileOnTheWire),
            it == m_active.cend() ? Intent() : *it);
    }
    if (m_voiding.contains(key))
        return done(false, TillError(TillError::Kind::BeingVoided), {});
    // Held out of dispatch until the journal decides: the engine never sends what the cashier is
    // voiding, and the journal's compare-and-set settles a send that was recorded first.
    m_voiding.insert(key);
    m_journal->voidIntent(key, this, [this, key, done](bool ok, const TillError &error, const Intent &intent) {
        m_voiding.remove(key);
        if (ok) {
            dropActive(key);
            m_keyById.remove(intent.id);
            m_failures.remove(key);
            emit intentChanged(intent);
            emit queueChanged();
        } else {
            schedule(key);
        }
        pump();
        done(ok, error, intent);
    });
}

void SyncEngine::giveUp(const QString &key, QObject *context, PayCallback done)
{
    done = onContext(context, std::move(done));
    if (m_voiding.contains(key))
        return done(false, TillError(TillError::Kind::BeingGivenUp), {});
    // One on the wire now may reach the gateway: it is given up, never voided. Otherwise it is
    // held out of dispatch while the journal decides, so that a part voided is never sent.
    const bool mayVoid = !m_inFlight.contains(key);
    if (mayVoid)
        m_voiding.insert(key);
    m_journal->giveUp(key, mayVoid, this, [this, key, mayVoid, done](bool ok, const TillError &error, const Intent &part) {
        if (mayVoid)
            m_voiding.remove(key);
        if (ok)
            adoptGivenUp(part);
        else
            schedule(key);
        pump();
        done(ok, error, part);
    });
}

void SyncEngine::cancelWallet(const Intent &intent, QObject *context, std::function<void(const GatewayResult &)> done)
{
    done = onContext(context, std::move(done));
    const QString key = intent.key;
    auto send = [this, key, done](const QString &paymentId) {
        m_client->postCancel(paymentId, cancelKeyOf(key), this, [this, key, done](const GatewayResult &r) {
            retryNow(key);   // the payment's outcome, from the gateway, as every answer is taken
            done(r);
        });
    };
    if (!intent.paymentId.isEmpty())
        return send(intent.paymentId);
    m_client->getPaymentByKey(key, this, [this, key, send, done](const GatewayResult &r) {
        const QString id = r.payment().value(QStringLiteral("id")).toString();
        if (id.isEmpty()) {
            retryNow(key);
            return done(r);   // not known to the gateway (yet), or it could not be asked
        }
        send(id);
    });
}

void SyncEngine::cancelSale(const QString &orderId, QObject *context, CancelCallback done)
{
    done = onContext(context, std::move(done));
    QSet<QString> mayVoid;
    for (const Intent &i : std::as_const(m_active)) {
        if (i.orderId == orderId && !i.isRefund() && !m_inFlight.contains(i.key) && !m_voiding.contains(i.key))
            mayVoid.insert(i.key);
    }
    for (const QString &key : std::as_const(mayVoid))
        m_voiding.insert(key);
    m_journal->cancelSale(orderId, mayVoid, this, [this, mayVoid, done](bool ok, const TillError &error, const QList<Intent> &changed) {
        for (const QString &key : mayVoid) {
            m_voiding.remove(key);
            schedule(key);
        }
        for (const Intent &i : changed) {
            if (i.isRefund())
                emit intentChanged(i);   // cash handed back: final at once
            else
                adoptGivenUp(i);
        }
        pump();
        if (!ok)
            return done(ok, error, changed);
        // Card parts charged already go back to the card: stored (and on their way) before `done`.
        makeAutoRefunds([done, changed] {
            done(true, {}, changed);
        });
    });
}

void SyncEngine::adoptGivenUp(const Intent &part)
{
    if (isFinal(part.state)) {
        // Voided: it never goes out.
        dropActive(part.key);
        m_keyById.remove(part.id);
        m_failures.remove(part.key);
    } else if (auto it = m_active.find(part.key); it != m_active.end()) {
        it->givenUpAt = part.givenUpAt;   // the engine's copy: a success then makes its refund
        schedule(part.key);
    } else {
        // Its answer was stored between the give-up and this reply (the engine's copy did not
        // know it was given up yet): the journal holds the truth. If it ended charged, it is owed
        // back now, not at the next start.
        makeAutoRefunds();
        m_journal->find(part.key, this, [this](bool ok, const TillError &, const Intent &now) {
            if (ok && now.isValid())
                emit intentChanged(now);
        });
        emit queueChanged();
        return;
    }
    emit intentChanged(part);
    emit queueChanged();
}

void SyncEngine::makeAutoRefunds(std::function<void()> then)
{
    if (then)
        m_afterAutoRefunds.push_back(std::move(then));
    if (m_makingAutoRefunds) {
        m_autoRefundsAgain = true;   // what changed meanwhile is read by one more pass
        return;
    }
    m_makingAutoRefunds = true;
    m_journal->dueAutoRefunds(this, [this](bool ok, const TillError &error, const QStringList &keys) {
        if (!ok)
            qCWarning(lcSync) << "cannot read the refunds the till owes:" << error;
        auto remaining = std::make_shared<int>(int(keys.size()));
        auto finished = [this] {
            m_makingAutoRefunds = false;
            if (std::exchange(m_autoRefundsAgain, false))
                return makeAutoRefunds();
            for (const auto &f : std::exchange(m_afterAutoRefunds, {}))
                f();
        };
        if (keys.isEmpty())
            return finished();
        for (const QString &paymentKey : keys) {
            m_journal->createAutoRefund(paymentKey, this, [this, paymentKey, remaining, finished](bool ok, const TillError &error, const Intent &refund) {
                if (ok && refund.isValid()) {
                    qCInfo(lcSync) << "refunding by itself" << IdempotencyKey::fromString(paymentKey)->redacted()
                                   << "(the till no longer keeps it)";
                    stored(refund);
                } else {
                    // E.g. a refund of it by the cashier is still open: asked again at the next start.
                    qCWarning(lcSync) << "cannot refund a given-up payment yet:" << error;
                }
                if (--*remaining == 0)
                    finished();
            });
        }
    });
}

}   // namespace OncePay
