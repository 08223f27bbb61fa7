#pragma once

#include "queuemodel.h"
#include "tillsession.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QTableView;

namespace OncePay::Ui {

// Every intent with a state filter, the count and total of what waits, "Retry now" and
// the details of the selected intent.
class QueuePanel final : public QWidget
{
    Q_OBJECT

public:
    explicit QueuePanel(TillSession *session, QWidget *parent = nullptr);
    QueueModel *model() { return &m_model; }

private:
    void applyFilter();
    void refreshSummary();
    void showDetails();

    TillSession *m_session;
    QueueModel m_model;
    QComboBox *m_filter = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_summary = nullptr;
};

} // namespace OncePay::Ui
