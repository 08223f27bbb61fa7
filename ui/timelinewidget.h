#pragma once

#include "intent.h"

#include <QList>
#include <QWidget>

namespace OncePay::Ui {

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

} // namespace OncePay::Ui
