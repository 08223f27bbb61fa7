#pragma once

#include "intent.h"
#include "tillsession.h"

#include <QDialog>

class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;

namespace OncePay::Ui {

class TimelineWidget;

// One payment or refund, for the cashier first: its state and what that means for the money in
// plain words, the sale, amount and card, and what the gateway says (asked when the window
// opens). "Technical details" (Alt+T), for support, opens the rest: the timeline of attempts,
// this till's record with the key and ids, the gateway's record as fields with its raw JSON
// behind "Show raw", and the journal in words with retry loops folded.
class IntentDetailsDialog final : public QDialog
{
    Q_OBJECT

public:
    IntentDetailsDialog(TillSession *session, const Intent &intent, QWidget *parent = nullptr);

private:
    QWidget *makeSummary();
    QWidget *makeTechnical();
    void showTechnical(bool on);
    void fetchGatewayRecord();
    void showGatewayFields(const QList<QPair<QString, QString>> &fields);
    void showGatewayMessage(const QString &message);

    TillSession *m_session;
    Intent m_intent;
    QLabel *m_gatewaySays = nullptr;
    QPushButton *m_technicalButton = nullptr;
    QWidget *m_technical = nullptr;
    QScrollArea *m_timelineArea = nullptr;
    TimelineWidget *m_timeline = nullptr;
    QPlainTextEdit *m_journal = nullptr;
    QFormLayout *m_remoteFields = nullptr;
    QPushButton *m_showRaw = nullptr;
    QPlainTextEdit *m_raw = nullptr;
};

}   // namespace OncePay::Ui
