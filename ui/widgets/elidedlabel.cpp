#include "elidedlabel.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QStyle>
#include <QToolTip>

namespace OncePay::Ui {

namespace {

QString oneLine(QString text)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text;
}

// As rich text, so that the tooltip wraps a long message instead of running off the screen.
QString wrapped(const QString &text)
{
    return QStringLiteral("<p>%1</p>").arg(text.toHtmlEscaped());
}

}   // namespace

ElidedLabel::ElidedLabel(QWidget *parent)
    : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
}

void ElidedLabel::setPreferredChars(int chars)
{
    m_preferredChars = chars;
    updateGeometry();
}

void ElidedLabel::setMinimumChars(int chars)
{
    m_minimumChars = chars;
    updateGeometry();
}

int ElidedLabel::charsWide(int chars) const
{
    const QMargins m = contentsMargins();
    return fontMetrics().averageCharWidth() * chars + m.left() + m.right() + 2 * margin();
}

int ElidedLabel::textWidth() const
{
    return qMax(0, contentsRect().width() - 2 * margin());
}

QSize ElidedLabel::sizeHint() const
{
    QSize size = QLabel::sizeHint();
    size.setWidth(qMin(size.width(), charsWide(m_preferredChars)));
    return size;
}

QSize ElidedLabel::minimumSizeHint() const
{
    // Never the text's width: only as wide as a few characters (or the text, when shorter).
    QSize size = QLabel::minimumSizeHint();
    size.setWidth(qMin(QLabel::sizeHint().width(), charsWide(m_minimumChars)));
    return size;
}

QString ElidedLabel::shownText() const
{
    return fontMetrics().elidedText(oneLine(text()), Qt::ElideRight, textWidth());
}

bool ElidedLabel::isElided() const
{
    return shownText() != oneLine(text());
}

void ElidedLabel::showWholeText()
{
    if (text().isEmpty())
        return;
    // A tooltip's window never takes the keyboard; it goes when the mouse leaves the label, on a
    // click, or after 30 s.
    QToolTip::showText(mapToGlobal(QPoint(0, height())), wrapped(text()), this, rect(), 30'000);
}

bool ElidedLabel::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && toolTip().isEmpty()) {
        if (text().isEmpty())
            return QLabel::event(event);
        QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(), wrapped(text()), this, rect());
        return true;
    }
    return QLabel::event(event);
}

void ElidedLabel::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    drawFrame(&painter);
    const QRect area = contentsRect().adjusted(margin(), margin(), -margin(), -margin());
    const int flags = int(QStyle::visualAlignment(layoutDirection(), alignment())) | Qt::TextSingleLine;
    style()->drawItemText(&painter, area, flags, palette(), isEnabled(), shownText(), foregroundRole());
}

void ElidedLabel::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && rect().contains(event->position().toPoint())) {
        showWholeText();
        event->accept();
        return;
    }
    QLabel::mouseReleaseEvent(event);
}

}   // namespace OncePay::Ui
