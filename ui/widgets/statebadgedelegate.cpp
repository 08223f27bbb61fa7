#include "statebadgedelegate.h"

#include <QApplication>
#include <QPainter>

namespace OncePay::Ui {

void StateBadgeDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    const QVariant fill = index.data(Qt::BackgroundRole);
    // The cell (selection, focus) as usual, without its text and fill: the badge carries both.
    opt.text.clear();
    opt.backgroundBrush = Qt::NoBrush;
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    if (text.isEmpty())
        return;
    const QFontMetrics fm(opt.font);
    // +2: horizontalAdvance() rounds, and elidedText() would cut a text it measures a fraction wider.
    const int w = qMin(fm.horizontalAdvance(text) + 2 * padding + 2, option.rect.width() - 2 * margin);
    const QRect badge(option.rect.left() + margin, option.rect.top() + margin, w, option.rect.height() - 2 * margin);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(fill.canConvert<QColor>() ? fill.value<QColor>() : option.palette.midlight().color());
    painter->drawRoundedRect(badge, badge.height() / 2.0, badge.height() / 2.0);
    const QVariant fg = index.data(Qt::ForegroundRole);
    painter->setPen(fg.canConvert<QColor>() ? fg.value<QColor>() : option.palette.text().color());
    painter->setFont(opt.font);
    painter->drawText(badge.adjusted(padding, 0, -padding, 0), Qt::AlignCenter,
        fm.elidedText(text, Qt::ElideRight, badge.width() - 2 * padding + 1));
    painter->restore();
}

QSize StateBadgeDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QFontMetrics fm(opt.font);
    const QSize base = QStyledItemDelegate::sizeHint(option, index);
    return {fm.horizontalAdvance(opt.text) + 2 * (padding + margin) + 4, qMax(base.height(), fm.height() + 2 * margin + 6)};
}

}   // namespace OncePay::Ui
