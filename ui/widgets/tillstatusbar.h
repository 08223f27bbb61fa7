#pragma once

#include "tillstatus.h"

#include <QStatusBar>
#include <QTimer>

#include <functional>

class QLabel;

namespace OncePay {
class TillSession;
}

namespace OncePay::Ui {

// The till's status bar: the connection, the payments waiting and the gateway in use, in the
// words of TillStatus. It follows the engine's signals but refreshes at most every
// kCoalesceMs (a drain of 10,000 payments changes the queue 20,000 times), plus a tick for the
// "next try in N s" countdown. Permanent widgets: a passing message never hides them.
class TillStatusBar final : public QStatusBar
{
    Q_OBJECT

public:
    TillStatusBar(TillSession *session, bool demo, QWidget *parent = nullptr);

    void setTerminal(const QString &terminal);
    // A word after the gateway's, computed at each refresh (the demo: the simulated network).
    void setNote(std::function<QString()> note);
    // Between the queue and the gateway: the window's own alerts and notices.
    void addMiddleWidget(QWidget *widget, int stretch = 0);
    void refreshSoon();   // coalesced
    void refreshNow();

    static constexpr int kCoalesceMs = 100;

private:
    TillSession *m_session;
    bool m_demo;
    QString m_terminal;
    std::function<QString()> m_note;
    QLabel *m_connection;
    QLabel *m_queue;
    QLabel *m_gateway;
    QTimer m_coalesce;
    QTimer m_countdown;
    int m_middleIndex = 2;
};

}   // namespace OncePay::Ui
