#pragma once

#include "queuemodel.h"
#include "tillsession.h"

#include <QDialog>
#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
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

// The attempts of one intent drawn as a timeline: sent, answer lost, retried with the same
// key, replayed, settled.
class TimelineWidget final : public QWidget
{
    Q_OBJECT

public:
    explicit TimelineWidget(QWidget *parent = nullptr);
    void setAttempts(const QList<Attempt> &attempts);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QList<Attempt> m_attempts;
};

// One intent in full: its timeline, its journal, and the gateway's own record beside the local one.
class IntentDetailsDialog final : public QDialog
{
    Q_OBJECT

public:
    IntentDetailsDialog(TillSession *session, const Intent &intent, QWidget *parent = nullptr);

private:
    void fetchGatewayRecord();

    TillSession *m_session;
    Intent m_intent;
    TimelineWidget *m_timeline = nullptr;
    QPlainTextEdit *m_journal = nullptr;
    QPlainTextEdit *m_local = nullptr;
    QPlainTextEdit *m_remote = nullptr;
};

} // namespace OncePay::Ui
