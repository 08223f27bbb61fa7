#include "timelinewidget.h"

#include <QDateTime>
#include <QPainter>

namespace OncePay::Ui {

TimelineWidget::TimelineWidget(QWidget *parent)
    : QWidget(parent)
{
    setAccessibleName(tr("Timeline of attempts"));
    setMinimumHeight(112);
}

void TimelineWidget::setAttempts(const QList<Attempt> &attempts)
{
    m_attempts = attempts;
    // Never narrower than every attempt's column: in a scroll area, the last dot scrolls into
    // view instead of being drawn outside the widget.
    setMinimumWidth(int(m_attempts.size()) * columnWidth + 2 * sideMargin);
    updateGeometry();
    update();
}

QSize TimelineWidget::sizeHint() const
{
    return {qMax(480, int(m_attempts.size()) * columnWidth + 2 * sideMargin), 116};
}

void TimelineWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    if (m_attempts.isEmpty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("No attempt yet: the payment has not left the till."));
        return;
    }
    const int y = 24;
    const int step = qMax(columnWidth, (width() - 2 * sideMargin) / int(m_attempts.size()));
    const int first = sideMargin + step / 2;   // each attempt is centred in its own column
    p.setPen(QPen(palette().mid().color(), 2));
    p.drawLine(first, y, first + step * int(m_attempts.size() - 1), y);
    for (int n = 0; n < m_attempts.size(); ++n) {
        const Attempt &a = m_attempts.at(n);
        const int x = first + step * n;
        QColor c(0x9e, 0x9e, 0x9e);   // not sent
        QString what;
        if (a.httpStatus >= 200 && a.httpStatus < 300) {
            c = QColor(0x2e, 0x7d, 0x32);
            what = a.replayed ? tr("replayed") : tr("answered");
        } else if (a.httpStatus == 402) {
            c = QColor(0xc6, 0x28, 0x28);
            what = tr("declined");
        } else if (a.httpStatus == 404 && a.kind == Attempt::Kind::Lookup) {
            c = QColor(0x15, 0x65, 0xc0);
            what = tr("not at the gateway");
        } else if (a.httpStatus >= 400) {
            c = QColor(0xc6, 0x28, 0x28);
            what = tr("refused (%1)", "an HTTP status").arg(a.httpStatus);
        } else if (a.transport == Attempt::Transport::AnswerLost) {
            c = QColor(0xef, 0x6c, 0x00);
            what = tr("answer lost");
        } else {
            what = tr("not sent");
        }
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawEllipse(QPoint(x, y), 9, 9);
        p.setPen(palette().text().color());
        QString kind;
        switch (a.kind) {
        case Attempt::Kind::Post:
            kind = n == 0 ? tr("sent") : tr("retried, same key");
            break;
        case Attempt::Kind::Lookup:
            kind = tr("asked by key");
            break;
        case Attempt::Kind::Poll:
            kind = tr("polled");
            break;
        }
        const QRect box(x - step / 2 + 4, y + 14, step - 8, 80);
        p.drawText(box, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
            QStringLiteral("%1\n%2\n%3").arg(kind, what, QDateTime::fromMSecsSinceEpoch(a.startedAt).toString(QStringLiteral("HH:mm:ss"))));
    }
}

}   // namespace OncePay::Ui
