#include "refundviewmodel.h"

#include "intentjournal.h"
#include "intenttext.h"
#include "salelookup.h"
#include "salerecords.h"
#include "syncengine.h"

#include <QLoggingCategory>

namespace OncePay::Ui {

Q_LOGGING_CATEGORY(lcRefund, "oncepay.ui.refund", QtInfoMsg)

RefundViewModel::RefundViewModel(SyncEngine *engine, IntentJournal *journal, SaleRecords *records, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_journal(journal)
    , m_records(records)
{
    connect(m_engine, &SyncEngine::intentChanged, this, [this](const Intent &i) {
        if (m_refund && i.key == m_refund->key) {
            follow(i);
        } else if (m_payment && i.key == m_payment->key) {
            m_payment = i;   // what its refunds gave back
            emit changed();
        }
    });
    connect(m_engine, &SyncEngine::saveUncertain, this, [this] {
        if (m_asked && m_phase == Phase::Storing)
            setPhase(Phase::Storing, IntentText::uncertainSave());
    });
    connect(m_engine, &SyncEngine::connectivityChanged, this, [this] {
        if (m_refund && !isFinal(m_refund->state))
            follow(*m_refund);
    });
    connect(&m_lines, &RefundLinesModel::totalChanged, this, &RefundViewModel::changed);
}

void RefundViewModel::setPhase(Phase phase, const QString &message)
{
    m_error = {};
    if (phase == m_phase && message == m_message)
        return;
    m_phase = phase;
    m_message = message;
    emit phaseChanged(phase, message);
}

void RefundViewModel::setPhase(Phase phase, const TillError &refusal)
{
    setPhase(phase, refusal.text());
    m_error = refusal;
}

void RefundViewModel::find(const QString &receiptOrSale)
{
    if (m_asked)
        return;   // this dialog's refund is on its way: the sale shown stays
    const int generation = ++m_generation;
    m_payment.reset();
    m_lines.setLines({}, {});
    setPhase(Phase::Loading, tr("Looking for the sale…"));
    emit changed();
    SaleLookup::find(m_journal, receiptOrSale, m_terminal, this, [this, generation](bool ok, const TillError &error, const Intent &intent) {
        if (generation != m_generation)
            return;
        if (!ok) {
            setPhase(Phase::NotFound, error);
            emit changed();
            return;
        }
        load(intent);
    });
}

void RefundViewModel::load(const Intent &intent)
{
    if (m_asked)
        return;
    const int generation = ++m_generation;
    m_payment.reset();
    m_inProgress = 0;
    m_openRefund.clear();
    m_amountText.clear();
    m_lines.setLines({}, {});
    setPhase(Phase::Loading, tr("Reading the sale…"));
    emit changed();
    // Read again, whatever the caller holds: what was given back is the journal's, as of now.
    const QString key = intent.isRefund() ? intent.paymentKey : intent.key;
    m_journal->find(key, this, [this, generation, refund = intent.isRefund()](bool ok, const TillError &error, const Intent &payment) {
        if (generation != m_generation)
            return;
        if (!ok || !payment.isValid()) {
            if (error.isError())
                setPhase(Phase::NotFound, error);
            else
                setPhase(Phase::NotFound, refund ? tr("The payment this refund belongs to is not in the journal.") : tr("This payment is not in the journal."));
            emit changed();
            return;
        }
        showPayment(payment);
    });
}

void RefundViewModel::showPayment(const Intent &payment)
{
    m_payment = payment;
    setPhase(Phase::Loading, tr("Reading the sale…"));
    emit changed();
    loadRefunds();
}

void RefundViewModel::loadRefunds()
{
    const int generation = m_generation;
    IntentJournal::Query q;
    q.paymentKey = m_payment->key;
    q.kind = IntentKind::Refund;
    q.limit = 1000;
    m_journal->list(q, this, [this, generation](bool ok, const TillError &error, const QList<Intent> &refunds) {
        if (generation != m_generation)
            return;
        if (!ok) {
            setPhase(Phase::NotFound, error);
            emit changed();
            return;
        }
        m_inProgress = 0;
        m_openRefund.clear();
        QStringList counted;   // refunds whose items are gone from the sale: succeeded or on their way
        for (const Intent &r : refunds) {
            if (!isFinal(r.state)) {
                m_inProgress += r.amount.minorUnits();
                m_openRefund = r.key;
            }
            if (!isFinal(r.state) || r.state == IntentState::Succeeded)
                counted << r.key;
        }
        auto ready = [this](const QList<SaleLine> &lines, const QHash<int, int> &refunded) {
            m_lines.setLines(lines, refunded);
            m_mode = m_lines.anyRefundable() ? Mode::Items : Mode::Amount;
            const QString why = paymentProblem();
            setPhase(Phase::Ready, why.isEmpty() ? tr("Choose the items or the amount to give back, then Refund.") : why);
            emit changed();
        };
        if (!m_records)
            return ready({}, {});
        m_records->lines(m_payment->orderId, this, [this, generation, counted, ready](bool ok, const TillError &error, const QList<SaleLine> &lines) {
            if (generation != m_generation)
                return;
            if (!ok) {
                qCWarning(lcRefund) << "the lines of sale" << m_payment->orderId << "cannot be read:" << error;
                return ready({}, {});
            }
            m_records->refundedQuantities(counted, this, [this, generation, lines, ready](bool ok, const TillError &, const QHash<int, int> &refunded) {
                if (generation != m_generation)
                    return;
                // Without what earlier refunds took, lines would offer too much: by amount then.
                ready(ok ? lines : QList<SaleLine>(), refunded);
            });
        });
    });
}

void RefundViewModel::setMode(Mode mode)
{
    if (m_asked || mode == m_mode || (mode == Mode::Items && !m_lines.anyRefundable()))
        return;
    m_mode = mode;
    emit changed();
}

void RefundViewModel::setAmountText(const QString &text)
{
    if (m_asked || text == m_amountText)
        return;
    m_amountText = text;
    emit changed();
}

void RefundViewModel::chooseAll()
{
    if (m_asked || !m_payment)
        return;
    if (m_mode == Mode::Items) {
        m_lines.chooseAll();
    } else {
        m_amountText = remaining().minorUnits() > 0 ? remaining().toDecimalString() : QString();
        emit changed();
    }
}

Money RefundViewModel::paid() const
{
    return m_payment ? m_payment->amount : Money();
}

Money RefundViewModel::refunded() const
{
    return m_payment ? Money(m_payment->amountRefunded, m_payment->amount.currency()) : Money();
}

Money RefundViewModel::inProgress() const
{
    return m_payment ? Money(m_inProgress, m_payment->amount.currency()) : Money();
}

Money RefundViewModel::remaining() const
{
    if (!m_payment)
        return {};
    return Money(qMax<qint64>(0, m_payment->amount.minorUnits() - m_payment->amountRefunded - m_inProgress),
        m_payment->amount.currency());
}

std::optional<Money> RefundViewModel::parsedAmount() const
{
    if (!m_payment)
        return std::nullopt;
    QString text = m_amountText.trimmed();
    text.remove(QLatin1Char(','));
    // The display form is accepted too: "¥5.00".
    while (!text.isEmpty() && !text.front().isDigit() && text.front() != QLatin1Char('.'))
        text.remove(0, 1);
    return Money::parse(text, m_payment->amount.currency());
}

Money RefundViewModel::amount() const
{
    if (!m_payment)
        return {};
    const QString currency = m_payment->amount.currency();
    if (m_mode == Mode::Items)
        return m_lines.isEmpty() ? Money(0, currency) : Money(m_lines.total().minorUnits(), currency);
    return parsedAmount().value_or(Money(0, currency));
}

QString RefundViewModel::paymentProblem() const
{
    if (!m_payment)
        return {};
    const Intent &p = *m_payment;
    switch (p.state) {
    case IntentState::Succeeded:
        break;
    case IntentState::Declined:
        return tr("This payment was declined: nothing was charged, so there is nothing to refund.");
    case IntentState::Voided:
        return tr("This payment was voided before it was sent: nothing was charged, so there is nothing to refund.");
    case IntentState::NeedsAttention:
        return tr("This payment was never executed (it needs attention): there is nothing to refund.");
    case IntentState::Queued:
    case IntentState::Sending:
    case IntentState::Processing:
    case IntentState::Unknown:
        return tr("This payment is not confirmed yet. It can be refunded once the gateway says it is paid.");
    }
    if (m_asked)
        return {};
    if (!p.isCash() && p.paymentId.isEmpty())
        return tr("The gateway's id of this payment is not known, so it cannot be refunded from the till.");
    if (!m_openRefund.isEmpty())
        return tr("A refund of this sale is still on its way. Wait for its outcome before refunding again.");
    if (remaining().minorUnits() <= 0)
        return tr("This sale has been refunded in full.");
    return {};
}

QString RefundViewModel::problem() const
{
    if (!m_payment || m_phase == Phase::Loading)
        return {};
    if (QString why = paymentProblem(); !why.isEmpty())
        return why;
    if (m_asked)
        return {};
    if (m_mode == Mode::Amount && !m_amountText.trimmed().isEmpty() && !parsedAmount())
        return tr("\"%1\" is not an amount.").arg(m_amountText.trimmed());
    if (amount().minorUnits() > remaining().minorUnits())
        return tr("At most %1 of this sale remains to be refunded.").arg(remaining().toDisplayString());
    return {};
}

bool RefundViewModel::canRefund() const
{
    return m_phase == Phase::Ready && !m_asked && m_payment && problem().isEmpty() && amount().minorUnits() > 0;
}

void RefundViewModel::refund()
{
    if (!canRefund())
        return;
    m_asked = true;   // first, so that a second click or Enter in the same burst does nothing
    const Money amount = this->amount();
    m_items = m_mode == Mode::Items ? RefundItems{m_lines.choice(), m_lines.givenBefore()} : RefundItems();
    m_lines.setLocked(true);
    emit changed();
    setPhase(Phase::Storing, tr("Saving the refund…"));
    // Answered on this view model: dropped if the dialog closed meanwhile.
    auto done = [this, amount](bool ok, const TillError &error, const Intent &refund) {
        if (!ok) {
            // Nothing was stored, so nothing was sent: the cashier may correct and try again.
            m_asked = false;
            m_items = {};
            m_lines.setLocked(false);
            setPhase(Phase::Failed, error);
            emit changed();
            return;
        }
        if (!isFinal(refund.state))
            m_inProgress += amount.minorUnits();
        if (!m_items.given.isEmpty() && m_records) {
            m_records->recordRefund(refund.key, refund.orderId, m_items.given, this,
                [key = refund.key](bool ok, const TillError &error, bool) {
                    if (!ok)
                        qCWarning(lcRefund) << "the items of refund" << key << "were not kept:" << error;
                });
        }
        follow(refund);
    };
    if (m_payment->isCash())
        m_engine->recordCashRefund(m_payment->key, amount, this, done);
    else
        m_engine->refund(m_payment->key, amount, m_reason.trimmed(), this, done);
}

void RefundViewModel::follow(const Intent &refund)
{
    const bool wasFinal = m_refund && isFinal(m_refund->state);
    m_refund = refund;
    const QString money = refund.amount.toDisplayString();
    const bool offline = m_engine->connectivity() != SyncEngine::Connectivity::Online || m_engine->isPaused();
    switch (refund.state) {
    case IntentState::Queued:
        if (offline || refund.attempts > 0)
            setPhase(Phase::WaitingForConnection,
                tr("Waiting for connection. The refund of %1 is saved and will be sent by itself; it is never made twice.").arg(money));
        else
            setPhase(Phase::Sending, tr("Sending the refund of %1…").arg(money));
        break;
    case IntentState::Sending:
        setPhase(Phase::Sending, tr("Sending the refund of %1…").arg(money));
        break;
    case IntentState::Processing:
        setPhase(Phase::BankProcessing, tr("The bank is processing the refund of %1.").arg(money));
        break;
    case IntentState::Unknown:
        setPhase(Phase::Checking, tr("Checking with the server… The answer was lost; the till asks before sending again, so the refund is never made twice."));
        break;
    case IntentState::Succeeded:
        if (refund.isCash())
            setPhase(Phase::Refunded, tr("Refunded %1 in cash: give it back to the customer from the drawer.").arg(money));
        else
            setPhase(Phase::Refunded, tr("Refunded %1 to %2.").arg(money, IntentText::paymentMethod(*m_payment)));
        break;
    case IntentState::Declined: {
        const QString why = refund.declineCode.isEmpty() ? refund.lastProblem : IntentText::declineReason(refund.declineCode);
        setPhase(Phase::Declined, why.isEmpty() ? tr("The refund was declined. Nothing was given back.") : tr("The refund was declined (%1). Nothing was given back.").arg(why));
        break;
    }
    case IntentState::NeedsAttention:
        setPhase(Phase::NeedsAttention, tr("The refund needs attention: %1").arg(refund.lastProblem));
        break;
    case IntentState::Voided:
        setPhase(Phase::Voided, tr("The refund was voided before it was sent: nothing was given back."));
        break;
    }
    if (isFinal(refund.state) && !wasFinal && m_payment) {
        // What is given back and what is on its way, as the journal now has them.
        m_inProgress = qMax<qint64>(0, m_inProgress - refund.amount.minorUnits());
        const int generation = m_generation;
        m_journal->find(m_payment->key, this, [this, generation](bool ok, const TillError &, const Intent &payment) {
            if (ok && payment.isValid() && generation == m_generation) {
                m_payment = payment;
                emit changed();
            }
        });
    }
    emit changed();
}

}   // namespace OncePay::Ui
