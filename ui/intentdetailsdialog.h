#pragma once

#include "intent.h"
#include "tillsession.h"

#include <QDialog>

class QPlainTextEdit;

namespace OncePay::Ui {

class TimelineWidget;

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
