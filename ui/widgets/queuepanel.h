#pragma once

#include "staffsession.h"

#include "queuemodel.h"
#include "tillsession.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QAction;
class QComboBox;
class QLabel;
class QMessageBox;
class QTableView;

namespace OncePay::Ui {

// Every intent with a state filter ("Needs attention" when some payment needs the cashier,
// else "Waiting"), the count and total of what waits, "Retry now" and the selected intent's details,
// "Refund…" of the selected sale and "Void" of a payment still queued and never sent. Refund and
// Void are actions with their keys (F8, F7); the window puts them in its Sale menu too.
class QueuePanel final : public QWidget
{
    Q_OBJECT

public:
    explicit QueuePanel(TillSession *session, QWidget *parent = nullptr);
    // A void above `limit` waits for a manager (issue 23).
    void setManagerGate(ManagerGate gate, const Money &limit)
    {
        m_gate = std::move(gate);
        m_limit = limit;
    }
    QueueModel *model() { return &m_model; }
    QTableView *view() const { return m_view; }
    QAction *refundAction() const { return m_refundAction; }
    QAction *voidAction() const { return m_voidAction; }
    QAction *reprintAction() const { return m_reprintAction; }
    Intent selectedIntent() const;

signals:
    // Refund asked for the selected row (a payment, or a refund: its payment), or with no row
    // selected (an invalid intent: the window asks for the receipt number).
    void refundRequested(const OncePay::Intent &intent);
    // Reprint asked for the selected row: a sale's receipt, or a refund's slip.
    void reprintRequested(const OncePay::Intent &intent);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void applyFilter();
    void refreshSummary();
    void showDetails();
    void refreshActions();
    void askToVoid();
    void voidIntent(const Intent &intent);
    void sendVoid(const Intent &intent, const QString &approver);
    // Why it cannot be voided, in words; no question first when the answer is known.
    void showVoidRefused(const Intent &intent, const QString &why);
    // Switches the filter to "Needs attention" when some payment needs the cashier, unless
    // the cashier chose a filter.
    void showAttentionIfAny();

    TillSession *m_session;
    ManagerGate m_gate;
    Money m_limit;
    QueueModel m_model;
    QComboBox *m_filter = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_summary = nullptr;
    bool m_filterChosen = false;
    QTimer m_fitColumns;   // coalesces the column fitting of a burst of changes (a drain)
    // Coalesces the summary's refreshes as the status bar's are (TillStatusBar::kCoalesceMs): a
    // drain changes the queue 20,000 times, and each new text re-lays the window out.
    QTimer m_summaryCoalesce;
    QAction *m_refundAction = nullptr;
    QAction *m_voidAction = nullptr;
    QAction *m_reprintAction = nullptr;
    QPointer<QMessageBox> m_voidQuestion;   // one question at a time: a repeated key asks nothing more
    QString m_voiding;   // the key the engine is voiding now
};

}   // namespace OncePay::Ui
