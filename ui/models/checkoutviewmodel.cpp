#include "checkoutviewmodel.h"

#include "intenttext.h"
#include "salerecords.h"
#include "walletcode.h"

#include <QDateTime>
#include <algorithm>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRandomGenerator>

namespace OncePay::Ui {

Q_LOGGING_CATEGORY(lcCheckout, "oncepay.ui.checkout", QtInfoMsg)

namespace {
// The gateway's decline code in words (IntentText holds them all), or what went wrong.
QString declineReason(const Intent &i)
{
    return i.declineCode.isEmpty() ? i.lastProblem : IntentText::declineReason(i.declineCode);
}
}   // namespace

CheckoutViewModel::CheckoutViewModel(SyncEngine *engine, const Catalog *catalog, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_ringUp(catalog, &m_cart, this)
    , m_orderId(newOrderId())
{
    connect(m_engine, &SyncEngine::intentChanged, this, [this](const Intent &i) {
        if (m_intent && i.key == m_intent->key)
            follow(i);
    });
    connect(m_engine, &SyncEngine::connectivityChanged, this, [this] {
        if (m_intent)
            follow(*m_intent);
    });
    connect(m_engine, &SyncEngine::saveUncertain, this, [this](const QString &, const QString &orderId) {
        if (orderId == m_orderId && m_payInProgress)
            setPhase(Phase::Storing, IntentText::uncertainSave());
    });
    connect(&m_cart, &CartModel::totalChanged, this, &CheckoutViewModel::actionsChanged);
    m_walletCountdown.setInterval(1000);
    connect(&m_walletCountdown, &QTimer::timeout, this, [this] {
        if (m_intent && !isFinal(m_intent->state))
            follow(*m_intent);
        else
            m_walletCountdown.stop();
    });
    m_unconfirmedTimer.setSingleShot(true);
    connect(&m_unconfirmedTimer, &QTimer::timeout, this, [this] {
        // A wallet payment ends within the gateway's confirmation time: the cashier waits for
        // it or gives it up, and is never told to serve the next customer meanwhile.
        if (!m_intent || isFinal(m_intent->state) || m_intent->isWallet())
            return;
        m_unconfirmed = true;
        follow(*m_intent);
    });
}

QString CheckoutViewModel::newOrderId()
{
    return QStringLiteral("S%1-%2")
        .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmsszzz")))
        .arg(QRandomGenerator::global()->bounded(1000), 3, 10, QLatin1Char('0'));
}

bool CheckoutViewModel::tenderOpen() const
{
    return !m_payInProgress && !m_givingUp && !m_held
        && (!m_intent || m_intent->state == IntentState::Declined || m_intent->state == IntentState::Voided);
}

bool CheckoutViewModel::canEditCart() const
{
    // Once part of the sale is paid its items are what the customer pays for.
    return tenderOpen() && m_salePaid == 0;
}

bool CheckoutViewModel::canPay() const
{
    return tenderOpen() && !m_cart.isEmpty() && remaining().minorUnits() > 0;
}

Money CheckoutViewModel::remaining() const
{
    const Money total = m_cart.total();
    return Money(qMax<qint64>(0, total.minorUnits() - m_salePaid), total.currency());
}

QList<Intent> CheckoutViewModel::earlierParts() const
{
    QList<Intent> out;
    for (const Intent &p : m_paidParts) {
        if (!m_intent || p.key != m_intent->key)
            out.append(p);
    }
    return out;
}

Money CheckoutViewModel::paid() const
{
    return Money(m_salePaid, m_cart.total().currency());
}

Money CheckoutViewModel::waiting() const
{
    const bool open = m_intent && !m_intent->isCash() && !isFinal(m_intent->state);
    return Money(open ? m_intent->amount.minorUnits() : 0, m_cart.total().currency());
}

std::optional<Money> CheckoutViewModel::cardAmount(const QString &typed, QString *reason) const
{
    const Money rest = remaining();
    if (typed.trimmed().isEmpty())
        return rest;
    std::optional<Money> amount = Money::parse(typed.trimmed(), rest.currency());
    if (!amount || amount->minorUnits() < 1 || amount->minorUnits() > rest.minorUnits()) {
        *reason = tr("\"%1\" is not an amount the card can pay: type at most the %2 that remains, e.g. %3.")
                      .arg(typed.trimmed(), rest.toDisplayString(), rest.toDecimalString());
        return std::nullopt;
    }
    return amount;
}

void CheckoutViewModel::restoreSale(const Sale &sale)
{
    if (!m_sales || !sale.isValid() || m_payInProgress || !m_saleNumber.isEmpty() || !m_cart.isEmpty())
        return;
    m_cart.setLinesJson(sale.lines, sale.total.currency());
    m_orderId = sale.orderId;
    m_saleNumber = sale.number;
    m_saleTotal = sale.total.minorUnits();
    m_saleLines = sale.lines;
    m_salePaid = 0;
    m_paidParts.clear();
    m_intent.reset();
    for (const Intent &i : sale.intents) {
        if (i.isRefund() || i.givenUpAt > 0)
            continue;
        if (i.state == IntentState::Succeeded) {
            m_salePaid += i.amount.minorUnits();
            m_paidParts.append(i);
        } else if (!isFinal(i.state)) {
            m_intent = i;   // the card part still waiting: followed again
        }
    }
    const QString restored = tr("Sale %1 was open when the till stopped and is back: %2 paid, %3 remains.")
                                 .arg(sale.number, paid().toDisplayString(), remaining().toDisplayString());
    if (m_intent) {
        m_unconfirmedTimer.start(m_unconfirmedAfterMs);
        follow(*m_intent);
    } else {
        setPhase(Phase::Selling, restored);
    }
    emit actionsChanged();
}

bool CheckoutViewModel::canCancelSale() const
{
    return tenderOpen() && m_salePaid > 0 && remaining().minorUnits() > 0;
}

void CheckoutViewModel::cancelSale()
{
    if (!canCancelSale() || !m_sales)
        return;
    m_payInProgress = true;
    emit actionsChanged();
    m_engine->cancelSale(m_orderId, this, [this](bool ok, const TillError &error, const QList<Intent> &changed) {
        m_payInProgress = false;
        if (!ok) {
            setPhase(Phase::Failed, error);
            emit actionsChanged();
            return;
        }
        qint64 handBack = 0;
        for (const Intent &i : changed) {
            if (i.isRefund() && i.isCash())
                handBack += i.amount.minorUnits();
        }
        const QString said = tr("Sale %1 is cancelled. Hand back %2 in cash.")
                                 .arg(m_saleNumber, Money(handBack, m_cart.total().currency()).toDisplayString());
        m_salePaid = 0;
        m_paidParts.clear();
        m_intent.reset();
        m_saleNumber.clear();   // cancelled already: the next sale starts clean
        startNewSale();
        setPhase(Phase::Selling, said);
    });
}

bool CheckoutViewModel::payCashPart(const Money &tendered, QString *reason)
{
    if (!canPay() || !m_sales) {
        *reason = tr("There is nothing to pay.");
        return false;
    }
    const Money rest = remaining();
    if (tendered.currency() != rest.currency() || tendered.minorUnits() < 1 || tendered.minorUnits() >= rest.minorUnits()) {
        *reason = tr("A part payment in cash must be less than the %1 that remains.").arg(rest.toDisplayString());
        return false;
    }
    m_payInProgress = true;
    m_unconfirmedTimer.stop();
    emit actionsChanged();
    setPhase(Phase::Storing, tr("Saving the payment…"));
    withSale([this, tendered](bool ok, const TillError &error) {
        if (!ok) {
            m_payInProgress = false;
            setPhase(Phase::Failed, error);
            emit actionsChanged();
            return;
        }
        m_engine->recordCash(m_orderId, tendered, this, [this](bool ok, const TillError &error, const Intent &i) {
            m_payInProgress = false;
            if (!ok) {
                setPhase(Phase::Failed, error);
                emit actionsChanged();
                return;
            }
            m_salePaid += i.amount.minorUnits();
            m_paidParts.append(i);
            m_intent.reset();   // the next tender is open
            emit cashTaken(i);
            setPhase(Phase::Selling, tr("%1 taken in cash. %2 remains: card (F12) or more cash (F10).").arg(i.amount.toDisplayString(), remaining().toDisplayString()));
            emit actionsChanged();
        });
    });
    return true;
}

bool CheckoutViewModel::leavingAsksFirst() const
{
    return m_sales && m_intent && !m_intent->isCash() && !isFinal(m_intent->state) && !m_saleNumber.isEmpty();
}

bool CheckoutViewModel::canPayAnotherWay() const
{
    return !m_payInProgress && !m_givingUp && leavingAsksFirst();
}

void CheckoutViewModel::payAnotherWay()
{
    if (!canPayAnotherWay())
        return;
    m_givingUp = true;
    emit actionsChanged();
    const QString key = m_intent->key;
    m_engine->giveUp(key, this, [this, key](bool ok, const TillError &error, const Intent &part) {
        m_givingUp = false;
        if (!ok) {
            // E.g. it became final meanwhile: show what it is now.
            if (part.isValid() && m_intent && part.key == m_intent->key)
                follow(part);
            setPhase(m_phase, error);
            emit actionsChanged();
            return;
        }
        m_unconfirmedTimer.stop();
        m_walletCountdown.stop();
        m_unconfirmed = false;
        m_intent.reset();
        if (part.isWallet() && part.state != IntentState::Voided) {
            // The customer gave up on the phone: cancelled at the bank through the gateway, once
            // (its own key); a confirmation that crossed it is undone there, and one the gateway
            // had settled already is refunded by the till (given up, as a card part).
            m_engine->cancelWallet(part, this, [](const GatewayResult &) {});
            setPhase(Phase::Selling, tr("The wallet payment is being cancelled at the bank: nothing stays charged. Take cash or a card."));
            emit actionsChanged();
            return;
        }
        setPhase(Phase::Selling, part.state == IntentState::Voided ? tr("The card payment was never sent and is voided. Take cash or another card.") : tr("The card payment is given up: if it turns out charged, the till refunds it by itself. "
                                                                                                                                                          "Take cash or another card."));
        emit actionsChanged();
    });
}

bool CheckoutViewModel::canStartNewSale() const
{
    if (m_payInProgress || m_givingUp || m_held)
        return false;
    // Part of it paid and the rest not: never dropped silently (cancelSale gives the money back).
    if (m_salePaid > 0 && remaining().minorUnits() > 0 && (!m_intent || isFinal(m_intent->state)))
        return false;
    // A sale waiting offline (queued) may be left as "payment pending": the queue sends it; so
    // may one that found no final answer within the limit. Only a first send in flight holds it.
    return !m_intent || m_unconfirmed || m_intent->state != IntentState::Sending;
}

bool CheckoutViewModel::discardAsksFirst() const
{
    const bool nothingHolds = !m_intent || (isFinal(m_intent->state) && m_intent->state != IntentState::Succeeded);
    return canStartNewSale() && !m_cart.isEmpty() && m_salePaid == 0 && nothingHolds;
}

void CheckoutViewModel::discardSale()
{
    if (!discardAsksFirst())
        return;
    if (m_sales && m_saleNumber.isEmpty()) {
        // Never in the journal yet: kept there now, cancelled, with its lines.
        m_sales->discard(m_cart.total(), m_cart.linesJson(), this, [](bool ok, const TillError &error, const Sale &sale) {
            if (ok)
                qCInfo(lcCheckout) << "sale" << sale.number << "discarded before any tender";
            else
                qCWarning(lcCheckout) << "the discarded sale was not recorded:" << error;
        });
    }
    startNewSale();   // a sale in the journal already (a card declined) is cancelled there
}

bool CheckoutViewModel::scanStartsNextSale() const
{
    return !m_payInProgress && m_intent && m_intent->state == IntentState::Succeeded;
}

bool CheckoutViewModel::readyToAdd(QString *reason)
{
    // A sale that is over (paid, or handed to the queue) gives way to the next customer's. One
    // with a card payment not final asks first (the window's question), never silently.
    if (!canEditCart() && canStartNewSale() && !leavingAsksFirst())
        startNewSale();
    if (!canEditCart()) {
        *reason = tr("This sale is being paid; start a new sale to add items.");
        return false;
    }
    return true;
}

void CheckoutViewModel::setTaxMode(TaxMode mode)
{
    // A cart already in the journal keeps the prices it was stored with.
    if (m_saleNumber.isEmpty())
        m_cart.setTaxMode(mode);
}

bool CheckoutViewModel::isWalletCode(const QString &text)
{
    return !walletBrandOf(text.trimmed()).isEmpty();
}

bool CheckoutViewModel::payByWallet(const QString &code, QString *reason)
{
    if (!canPay()) {
        *reason = tr("There is nothing to pay.");
        return false;
    }
    if (m_engine->connectivity() != SyncEngine::Connectivity::Online || m_engine->isPaused()) {
        *reason = tr("The server cannot be reached, and a wallet payment code expires within a minute: it cannot be "
                     "saved and sent later. Take cash or a card instead.");
        return false;
    }
    payByCard(QStringLiteral("wallet:") + code.trimmed());
    return true;
}

bool CheckoutViewModel::waitsForWallet() const
{
    return m_intent && m_intent->isWallet() && !isFinal(m_intent->state);
}

void CheckoutViewModel::payByCard(const QString &cardToken, std::optional<Money> amount)
{
    if (!canPay())
        return;
    const Money rest = remaining();
    if (amount && (amount->currency() != rest.currency() || amount->minorUnits() < 1 || amount->minorUnits() > rest.minorUnits()))
        return setPhase(Phase::Failed, tr("A card can pay at most the %1 that remains.").arg(rest.toDisplayString()));
    const Money charge = amount.value_or(rest);
    m_payInProgress = true;   // first, so that a second click in the same event burst does nothing
    m_unconfirmed = false;
    emit actionsChanged();
    setPhase(Phase::Storing, tr("Saving the payment…"));
    withSale([this, cardToken, charge](bool ok, const TillError &error) {
        if (!ok) {
            m_payInProgress = false;
            setPhase(Phase::Failed, error);
            emit actionsChanged();
            return;
        }
        m_unconfirmedTimer.start(m_unconfirmedAfterMs);
        m_engine->pay(m_orderId, charge, cardToken, this, [this](bool ok, const TillError &error, const Intent &i) {
            m_payInProgress = false;
            if (!ok) {
                setPhase(Phase::Failed, error);
                emit actionsChanged();
                return;
            }
            follow(i);
        });
    });
}

bool CheckoutViewModel::payCash(const Money &tendered, Money *change, QString *reason)
{
    if (!canPay()) {
        *reason = tr("There is nothing to pay.");
        return false;
    }
    const Money total = remaining();   // the whole total, or what remains after a part paid
    if (tendered.currency() != total.currency() || tendered.minorUnits() < total.minorUnits()) {
        *reason = m_salePaid > 0 ? tr("The amount tendered is less than the %1 that remains.").arg(total.toDisplayString())
                                 : tr("The amount tendered is less than the total %1.").arg(total.toDisplayString());
        return false;
    }
    *change = Money(tendered.minorUnits() - total.minorUnits(), total.currency());
    m_payInProgress = true;
    m_unconfirmedTimer.stop();
    emit actionsChanged();
    setPhase(Phase::Storing, tr("Saving the payment…"));
    // Known before the journal answers: the engine may report the paid intent first.
    m_cashTendered = tendered;
    withSale([this, total, change = *change](bool ok, const TillError &error) {
        if (!ok) {
            m_payInProgress = false;
            m_cashTendered.reset();
            setPhase(Phase::Failed, error);
            emit actionsChanged();
            return;
        }
        m_engine->recordCash(m_orderId, total, this, [this, change](bool ok, const TillError &error, const Intent &i) {
            m_payInProgress = false;
            if (!ok) {
                m_cashTendered.reset();
                setPhase(Phase::Failed, error);
                emit actionsChanged();
                return;
            }
            m_cashChange = change;
            emit cashTaken(i);
            follow(i);
        });
    });
    return true;
}

void CheckoutViewModel::withSale(const std::function<void(bool, const TillError &)> &then)
{
    if (!m_sales)
        return then(true, {});
    const Money total = m_cart.total();
    const QJsonArray lines = m_cart.linesJson();
    if (!m_saleNumber.isEmpty()) {
        if (total.minorUnits() == m_saleTotal && lines == m_saleLines)
            return then(true, {});
        // The cart changed after a card was declined or given up: its lines and total follow
        // while nothing of it is paid (the journal refuses otherwise).
        return m_sales->reprice(m_orderId, total, lines, this, [this, total, lines, then](bool ok, const TillError &error, bool) {
            if (ok) {
                m_saleTotal = total.minorUnits();
                m_saleLines = lines;
            }
            then(ok, error);
        });
    }
    m_sales->open(total, lines, this, [this, then](bool ok, const TillError &error, const Sale &sale) {
        if (ok) {
            m_orderId = sale.orderId;
            m_saleNumber = sale.number;
            m_saleTotal = sale.total.minorUnits();
            m_saleLines = sale.lines;
        }
        then(ok, error);
    });
}

void CheckoutViewModel::startNewSale(Leaving leaving)
{
    if (!canStartNewSale())
        return;
    if (leaving == Leaving::PaysAnotherWay && leavingAsksFirst())
        return payAnotherWay();
    if (m_intent && !isFinal(m_intent->state))
        emit customerLeft(*m_intent);
    // A sale in the journal that nothing paid and nothing waits for (a card declined or given up,
    // then the customer went) is cancelled: a given-up card charged late is then refunded.
    const bool nothingHolds = !m_intent || (isFinal(m_intent->state) && m_intent->state != IntentState::Succeeded);
    if (m_sales && !m_saleNumber.isEmpty() && nothingHolds) {
        m_engine->cancelSale(m_orderId, this, [number = m_saleNumber](bool ok, const TillError &error, const QList<Intent> &) {
            if (!ok)
                qCInfo(lcCheckout) << "sale" << number << "left as it is:" << error;
        });
    }
    m_unconfirmedTimer.stop();
    m_unconfirmed = false;
    m_cart.clear();
    m_intent.reset();
    m_cashTendered.reset();
    m_cashChange.reset();
    m_salePaid = 0;
    m_paidParts.clear();
    m_orderId = newOrderId();
    m_saleNumber.clear();
    m_saleTotal = 0;
    m_saleLines = {};
    setPhase(Phase::Selling, QString());
    emit saleStarted();
    emit actionsChanged();
}

void CheckoutViewModel::follow(const Intent &i)
{
    m_intent = i;
    if (isFinal(i.state)) {
        m_unconfirmedTimer.stop();
        m_walletCountdown.stop();
    }
    if (m_unconfirmed && !isFinal(i.state)) {
        setPhase(Phase::NotConfirmed,
            tr("Not confirmed yet: the till will confirm this payment by itself. Do not take another payment for this sale; you may serve the next customer."));
        emit actionsChanged();
        return;
    }
    const bool offline = m_engine->connectivity() != SyncEngine::Connectivity::Online || m_engine->isPaused();
    switch (i.state) {
    case IntentState::Queued:
        if (offline || i.attempts > 0)
            setPhase(Phase::WaitingForConnection,
                tr("Waiting for connection. The payment is saved and will be sent automatically; you may serve the next customer."));
        else
            setPhase(Phase::Sending, tr("Sending the payment…"));
        break;
    case IntentState::Sending:
        setPhase(Phase::Sending, tr("Sending the payment…"));
        break;
    case IntentState::Processing:
        if (i.isWallet()) {
            // The wallet asks the customer to confirm on the phone; the gateway gives it up when
            // its time is over. Said every second while it waits.
            const qint64 leftMs = i.createdAt + m_walletConfirmMs - QDateTime::currentMSecsSinceEpoch();
            const int seconds = int(qMax<qint64>(0, (leftMs + 999) / 1000));
            setPhase(Phase::BankProcessing,
                tr("Ask the customer to confirm the payment on the phone (%n s left). If they cannot, press Customer gave up.", "", seconds));
            if (!m_walletCountdown.isActive())
                m_walletCountdown.start();
            break;
        }
        setPhase(Phase::BankProcessing, tr("The bank is processing the payment. Please wait."));
        break;
    case IntentState::Unknown:
        setPhase(Phase::Checking, tr("Checking with the server… The answer was lost; this sale cannot be paid again until the server answers."));
        break;
    case IntentState::Succeeded:
        // Counted once, however often the same answer is followed.
        if (std::none_of(m_paidParts.cbegin(), m_paidParts.cend(), [&i](const Intent &p) {
                return p.key == i.key;
            })) {
            m_salePaid += i.amount.minorUnits();
            m_paidParts.append(i);
        }
        if (!i.isCash() && m_salePaid < m_cart.total().minorUnits()) {
            // A card part: the rest is paid by more cards or cash.
            m_intent.reset();
            setPhase(Phase::Selling, tr("%1 paid by card. %2 remains: card (F12) or cash (F10).").arg(i.amount.toDisplayString(), remaining().toDisplayString()));
            break;
        }
        // The change stays said until the next sale, whatever is announced meanwhile.
        if (i.isCash() && m_cashChange)
            setPhase(Phase::Paid, tr("Paid in cash. Change: %1").arg(m_cashChange->toDisplayString()));
        else if (m_paidParts.size() > 1)   // a split sale: its whole total, then this card's part
            setPhase(Phase::Paid, tr("Paid in full: %1 (this card %2).").arg(paid().toDisplayString(), i.amount.toDisplayString()));
        else
            setPhase(Phase::Paid, tr("Paid. %1").arg(i.amount.toDisplayString()));
        break;
    case IntentState::Declined:
        if (i.isWallet())
            setPhase(Phase::Declined, tr("Wallet payment declined (%1). Scan a new payment code, or take a card (F12) or cash (F10).").arg(declineReason(i)));
        else
            setPhase(Phase::Declined, tr("Declined (%1). Ask for another card (F12) or cash (F10).").arg(declineReason(i)));
        break;
    case IntentState::NeedsAttention:
        setPhase(Phase::NeedsAttention, tr("Needs attention: %1").arg(i.lastProblem));
        break;
    case IntentState::Voided:
        setPhase(Phase::Voided, tr("Voided before it was sent: nothing was charged. The sale may be paid again."));
        break;
    }
    emit actionsChanged();
}

void CheckoutViewModel::setPhase(Phase phase, const QString &message)
{
    m_error = {};
    if (phase == m_phase && message == m_message)
        return;
    m_phase = phase;
    m_message = message;
    emit phaseChanged(phase, message);
}

void CheckoutViewModel::setPhase(Phase phase, const TillError &refusal)
{
    setPhase(phase, refusal.text());
    m_error = refusal;
}

}   // namespace OncePay::Ui
