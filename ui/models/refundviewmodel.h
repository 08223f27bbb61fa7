#pragma once

#include "intent.h"
#include "languages.h"
#include "refundlinesmodel.h"
#include "sale.h"
#include "tillerror.h"

#include <QObject>

#include <optional>

namespace OncePay {
class IntentJournal;
class SyncEngine;
}   // namespace OncePay

namespace OncePay::Ui {

class SaleRecords;

// The refund dialog's logic, testable without widgets: the paid sale (found by its receipt
// number, or given), its lines with a quantity to give back each, or an amount; what was given
// back already, what is on its way and what remains; then one refund intent, followed through
// the sync engine. Card: a refund through the gateway; cash: money out of the drawer, final at
// once. refund() locks itself before it asks the engine, and one view model asks once: a double
// click or a double Enter makes one refund intent.
class RefundViewModel final : public QObject
{
    Q_OBJECT

public:
    enum class Mode {
        Items,
        Amount
    };
    Q_ENUM(Mode)
    enum class Phase {
        Empty,   // no sale yet: type or scan its receipt number
        Loading,   // reading the sale from the journal
        NotFound,   // the number names no sale of this till
        Ready,   // a sale is shown; canRefund() says whether it may be refunded now
        Storing,   // the refund intent is being written to the journal
        Sending,
        WaitingForConnection,
        BankProcessing,
        Checking,   // the answer was lost: asking the gateway, never refunding twice
        Refunded,
        Declined,
        NeedsAttention,
        Voided,
        Failed,   // not stored: nothing was sent; the refusal says why
    };
    Q_ENUM(Phase)

    RefundViewModel(SyncEngine *engine, IntentJournal *journal, SaleRecords *records, QObject *parent = nullptr);

    void setTerminal(const QString &terminal) { m_terminal = terminal; }
    QString terminal() const { return m_terminal; }
    void setLanguage(Language language) { m_lines.setLanguage(language); }

    // The sale a receipt number, an intent number or a sale number names (SaleLookup).
    void find(const QString &receiptOrSale);
    // A payment, or a refund (its payment is shown).
    void load(const Intent &intent);

    Phase phase() const { return m_phase; }
    QString message() const { return m_message; }
    // Why the last thing asked was refused, as a kind (message() holds its words); None once
    // anything else is said.
    TillError lastError() const { return m_error; }
    std::optional<Intent> payment() const { return m_payment; }
    RefundLinesModel *lines() { return &m_lines; }
    const RefundLinesModel *lines() const { return &m_lines; }
    bool hasLines() const { return !m_lines.isEmpty(); }

    Mode mode() const { return m_mode; }
    void setMode(Mode mode);
    QString amountText() const { return m_amountText; }
    void setAmountText(const QString &text);
    QString reason() const { return m_reason; }
    void setReason(const QString &reason) { m_reason = reason; }
    // Everything that remains: every line's remainder (items) or the remaining amount.
    void chooseAll();

    Tender tender() const { return m_payment ? m_payment->tender : Tender::Card; }
    Money paid() const;
    Money refunded() const;   // refunds that succeeded (the journal's amount_refunded)
    Money inProgress() const;   // refunds stored and not final yet
    Money remaining() const;   // paid - refunded - in progress
    // What the Refund button would give back now (0 while nothing valid is chosen).
    Money amount() const;

    bool canRefund() const;
    // Why the sale cannot be refunded now, or why the amount chosen is not possible; empty when
    // canRefund() or when only nothing is chosen yet.
    QString problem() const;

    void refund();
    bool refundAsked() const { return m_asked; }
    std::optional<Intent> refundIntent() const { return m_refund; }
    // Per SaleLine::line, what the refund asked for here gives back (empty: by amount).
    QHash<int, int> refundChoice() const { return m_items.given; }
    // The same, with what earlier refunds had given back when it was asked for (its slip).
    RefundItems refundItems() const { return m_items; }

signals:
    void phaseChanged(OncePay::Ui::RefundViewModel::Phase phase, const QString &message);
    // Amounts, the mode, what may be done, or the sale shown changed.
    void changed();

private:
    void setPhase(Phase phase, const QString &message);
    void setPhase(Phase phase, const TillError &refusal);   // its words where they are shown: here
    void showPayment(const Intent &payment);
    void loadRefunds();
    void follow(const Intent &refund);
    std::optional<Money> parsedAmount() const;
    QString paymentProblem() const;

    SyncEngine *m_engine;
    IntentJournal *m_journal;
    SaleRecords *m_records;
    QString m_terminal;
    RefundLinesModel m_lines;
    Phase m_phase = Phase::Empty;
    QString m_message;
    TillError m_error;
    std::optional<Intent> m_payment;
    qint64 m_inProgress = 0;   // minor units
    QString m_openRefund;   // the key of a refund of this payment that is not final
    Mode m_mode = Mode::Items;
    QString m_amountText;
    QString m_reason;
    int m_generation = 0;   // answers about a sale no longer shown are dropped
    bool m_asked = false;   // set in the click's own handler, before the engine is asked
    std::optional<Intent> m_refund;
    RefundItems m_items;
};

}   // namespace OncePay::Ui
