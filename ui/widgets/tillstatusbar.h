#pragma once

#include "tillstatus.h"

#include <QStatusBar>
#include <QTimer>

#include <functional>

namespace OncePay {
class TillSession;
}

namespace OncePay::Ui {

class ElidedLabel;

// The till's status bar: the connection, the payments waiting and the gateway in use, in the
// words of TillStatus. It follows the engine's signals but refreshes at most every
// kCoalesceMs (a drain of 10,000 payments changes the queue 20,000 times), plus a tick for the
// "next try in N s" countdown. Permanent widgets: a passing message never hides them. Whatever
// it says never makes the window wider (issue 36): its labels are elided, their whole text a
// click away, and a passing message (showMessage) is shown in one of them too.
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
    // The label that shows a passing message (showMessage); empty while there is none.
    ElidedLabel *messageLabel() const { return m_message; }

    static constexpr int kCoalesceMs = 100;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    TillSession *m_session;
    bool m_demo;
    QString m_terminal;
    std::function<QString()> m_note;
    ElidedLabel *m_connection;
    ElidedLabel *m_queue;
    ElidedLabel *m_office;   // issue 38: the till's records waiting for the shop's office
    ElidedLabel *m_gateway;
    ElidedLabel *m_message;
    QTimer m_coalesce;
    QTimer m_countdown;
    int m_middleIndex = 3;
};

}   // namespace OncePay::Ui
