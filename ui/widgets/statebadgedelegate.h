#pragma once

#include <QStyledItemDelegate>

namespace OncePay::Ui {

// Draws a cell as a rounded badge: its text in words on the fill of the model's BackgroundRole,
// in its ForegroundRole colour (QueueModel's State column).
class StateBadgeDelegate final : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    static constexpr int padding = 8;   // inside the badge, each side
    static constexpr int margin = 3;   // around the badge
};

}   // namespace OncePay::Ui
