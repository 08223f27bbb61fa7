#pragma once

#include "queuemodel.h"
#include "tillsession.h"

#include <QTimer>
#include <QWidget>

class QComboBox;
class QLabel;
class QTableView;

namespace OncePay::Ui {

// Every intent with a state filter ("Needs attention" when some payment needs the cashier,
// else "Waiting"), the count and total of what waits, "Retry now" and the selected intent's details.
class QueuePanel final : public QWidget
{
    Q_OBJECT

public:
    explicit QueuePanel(TillSession *session, QWidget *parent = nullptr);
    QueueModel *model() { return &m_model; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void applyFilter();
    void refreshSummary();
    void showDetails();
    // Switches the filter to "Needs attention" when some payment needs the cashier, unless
    // the cashier chose a filter.
    void showAttentionIfAny();

    TillSession *m_session;
    QueueModel m_model;
    QComboBox *m_filter = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_summary = nullptr;
    bool m_filterChosen = false;
    QTimer m_fitColumns;   // coalesces the column fitting of a burst of changes (a drain)
};

} // namespace OncePay::Ui
