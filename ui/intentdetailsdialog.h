#pragma once

#include "intent.h"
#include "tillsession.h"

#include <QDialog>

class QFormLayout;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;

namespace OncePay::Ui {

class TimelineWidget;

// One intent in full: its timeline (scrolling when it does not fit), its journal in words, this
// till's record and the gateway's, as labelled fields; the gateway's raw JSON behind "Show raw".
class IntentDetailsDialog final : public QDialog
{
    Q_OBJECT

public:
    IntentDetailsDialog(TillSession *session, const Intent &intent, QWidget *parent = nullptr);

private:
    void fetchGatewayRecord();
    void showGatewayFields(const QList<QPair<QString, QString>> &fields);
    void showGatewayMessage(const QString &message);

    TillSession *m_session;
    Intent m_intent;
    QScrollArea *m_timelineArea = nullptr;
    TimelineWidget *m_timeline = nullptr;
    QPlainTextEdit *m_journal = nullptr;
    QFormLayout *m_remoteFields = nullptr;
    QPushButton *m_showRaw = nullptr;
    QPlainTextEdit *m_raw = nullptr;
};

} // namespace OncePay::Ui
