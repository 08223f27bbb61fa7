#pragma once

#include "shiftbook.h"
#include "shiftfindingsmodel.h"
#include "shiftcheck.h"
#include "shiftreport.h"
#include "shiftreportdocument.h"
#include "shifttotalsmodel.h"
#include "tillsession.h"

#include <QObject>
#include <QTimer>

#include <memory>
#include <optional>

namespace OncePay::Ui {

// Close shift, without a widget: the open shift's Z report read from the journal, reconciled with
// the gateway (and the demo's bank), the cash the cashier counted against what the drawer should
// hold, and the close itself, which stores the report. Everything it waits for is asynchronous;
// while the dialog is open, a payment that changes refreshes it (at most once a second).
class ShiftCloseViewModel final : public QObject
{
    Q_OBJECT

public:
    enum class Phase {
        Loading,   // reading the journal and asking the gateway
        Ready,   // report and reconciliation shown: the shift may be closed
        Unreconciled,   // the gateway's list could not be had: closed only without the check
        Closing,
        Closed,
    };
    Q_ENUM(Phase)

    ShiftCloseViewModel(TillSession *session, const QString &currency, const QString &terminal, QObject *parent = nullptr);
    ~ShiftCloseViewModel() override;

    void refresh();
    Phase phase() const { return m_phase; }
    QString problem() const { return m_problem; }   // why Unreconciled, or why the close was refused
    const ShiftReport &report() const { return m_report; }
    const ShiftCheck::Result &reconciliation() const { return m_reconciliation; }
    ShiftTotalsModel *totals() { return &m_totals; }
    ShiftFindingsModel *findings() { return &m_findings; }
    const ShiftFindingsModel *findings() const { return &m_findings; }

    // The cash counted, as typed ("" = not counted): false when it is not an amount.
    bool setCountedCash(const QString &text);
    // Left in the drawer for the next shift ("" = nothing).
    bool setNextFloat(const QString &text);
    // The first shift's opening float, as counted into the drawer ("" = none): false when it is
    // not an amount. A later shift opens with what the previous close left (takesOpeningFloat() is false).
    bool setOpeningFloat(const QString &text);
    bool takesOpeningFloat() const { return m_snapshotRead && m_snapshot.isFirst(); }
    std::optional<qint64> countedCash() const { return m_counted; }
    qint64 nextFloat() const { return m_nextFloat; }

    // Ready, or Unreconciled: a shift is closed even while the server does not answer, its
    // waiting payments named and carried into the next shift (whose report says how they ended).
    bool canClose() const { return m_phase == Phase::Ready || m_phase == Phase::Unreconciled; }
    // Whether the report shown (or closed) was checked with the server.
    bool isReconciled() const { return m_reconciliation.finishedAt > 0; }
    // The payments and refunds still waiting, one line each for the confirmation.
    QStringList waitingLines() const;
    // The card parts the till refunded by itself this shift, in words ("charged late, refunded
    // automatically", or "needs attention" when its refund was refused).
    QStringList tillRefundLines() const;
    // Refunds the till owes and could not make (issue 35), each with what to do: closing over
    // them confirms them, as it does the waiting ones.
    QStringList owedLines() const;
    // Payments an earlier shift closed while they waited, and how each ended.
    QStringList endedLines() const;
    // The report's document as the close prints it, from the report alone: the waiting, the till's
    // own refunds and the carried-over lines above. Past shifts reprint a stored close with it.
    static ShiftReportDocument::Context documentContext(const ShiftReport &report, bool reconciled);
    // Issue 36: the counted cash may differ from what the drawer should hold by this much (minor
    // units, either way; 0: not at all) before closing needs a manager.
    void setCashDifferenceLimit(qint64 minorUnits) { m_cashDifferenceLimit = minorUnits; }
    bool closeNeedsManager() const;
    // Closes the shift as shown; the waiting ones listed by waitingLines() are confirmed.
    void close();

signals:
    void phaseChanged(OncePay::Ui::ShiftCloseViewModel::Phase phase);
    void reportChanged();
    void closed(const OncePay::ShiftReport &report);
    // The journal refused the close (closed meanwhile, something new waits): shown again after it.
    void closeRefused(const QString &reason);

private:
    void setPhase(Phase phase, const QString &problem = {});
    void recompute();
    std::optional<qint64> parseAmount(const QString &text, bool *ok) const;
    static QStringList waitingLinesOf(const ShiftReport &report);
    static QStringList tillRefundLinesOf(const ShiftReport &report);
    static QStringList endedLinesOf(const ShiftReport &report);

    TillSession *m_session;
    QString m_currency;
    std::unique_ptr<ShiftBook> m_book;
    ShiftCheck m_reconciler;
    Phase m_phase = Phase::Loading;
    QString m_problem;
    ShiftBook::Snapshot m_snapshot;
    ShiftReport m_report;
    ShiftCheck::Result m_reconciliation;
    ShiftTotalsModel m_totals;
    ShiftFindingsModel m_findings;
    std::optional<qint64> m_counted;
    qint64 m_nextFloat = 0;
    std::optional<qint64> m_openingFloat;   // typed, for the first shift only
    bool m_snapshotRead = false;
    qint64 m_cashDifferenceLimit = 1'00;
    QTimer m_refreshSoon;
    bool m_reading = false;
};

}   // namespace OncePay::Ui
