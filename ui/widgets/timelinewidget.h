#pragma once

#include "intent.h"

#include <QList>
#include <QWidget>

namespace OncePay::Ui {

// The attempts of one intent drawn as a timeline: sent, answer lost, retried with the same
// key, replayed, settled. At least columnWidth per attempt: put it in a QScrollArea.
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
    static constexpr int columnWidth = 130;   // per attempt, at least
    static constexpr int sideMargin = 20;
    QList<Attempt> m_attempts;
};

}   // namespace OncePay::Ui
