#include "refundlinesmodel.h"

namespace OncePay::Ui {

RefundLinesModel::RefundLinesModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void RefundLinesModel::setLines(const QList<SaleLine> &lines, const QHash<int, int> &refunded)
{
    beginResetModel();
    m_lines = lines;
    m_refunded.clear();
    m_chosen.clear();
    for (const SaleLine &l : lines) {
        m_refunded.append(qBound(0, refunded.value(l.line), l.quantity));
        m_chosen.append(0);
    }
    m_total = Money(0, lines.isEmpty() ? QString() : lines.constFirst().unitPrice.currency());
    endResetModel();
    emit totalChanged(m_total);
}

void RefundLinesModel::setLanguage(Language language)
{
    m_language = language;
    if (!m_lines.isEmpty())
        emit dataChanged(index(0, int(Column::Item)), index(rowCount() - 1, int(Column::Item)));
}

void RefundLinesModel::setLocked(bool locked)
{
    if (m_locked == locked)
        return;
    m_locked = locked;
    if (!m_lines.isEmpty())
        emit dataChanged(index(0, int(Column::Refund)), index(rowCount() - 1, int(Column::Refund)));
}

int RefundLinesModel::refundable(int row) const
{
    return row >= 0 && row < m_lines.size() ? m_lines.at(row).quantity - m_refunded.at(row) : 0;
}

int RefundLinesModel::chosen(int row) const
{
    return row >= 0 && row < m_chosen.size() ? m_chosen.at(row) : 0;
}

void RefundLinesModel::setChosen(int row, int quantity)
{
    if (m_locked || row < 0 || row >= m_lines.size())
        return;
    quantity = qBound(0, quantity, refundable(row));
    const int before = m_chosen.at(row);
    if (quantity == before)
        return;
    m_chosen[row] = quantity;
    const SaleLine &l = m_lines.at(row);
    const int already = m_refunded.at(row);
    m_total = Money(m_total.minorUnits() + l.refundFor(already, quantity).minorUnits() - l.refundFor(already, before).minorUnits(),
        m_total.currency());
    emit dataChanged(index(row, int(Column::Refund)), index(row, int(Column::Amount)));
    emit totalChanged(m_total);
}

void RefundLinesModel::chooseAll()
{
    for (int row = 0; row < m_lines.size(); ++row)
        setChosen(row, refundable(row));
}

void RefundLinesModel::clearChoice()
{
    for (int row = 0; row < m_lines.size(); ++row)
        setChosen(row, 0);
}

QHash<int, int> RefundLinesModel::choice() const
{
    QHash<int, int> out;
    for (int row = 0; row < m_lines.size(); ++row) {
        if (m_chosen.at(row) > 0)
            out.insert(m_lines.at(row).line, m_chosen.at(row));
    }
    return out;
}

QHash<int, int> RefundLinesModel::givenBefore() const
{
    QHash<int, int> out;
    for (int row = 0; row < m_lines.size(); ++row) {
        if (m_refunded.at(row) > 0)
            out.insert(m_lines.at(row).line, m_refunded.at(row));
    }
    return out;
}

bool RefundLinesModel::anyRefundable() const
{
    for (int row = 0; row < m_lines.size(); ++row) {
        if (refundable(row) > 0)
            return true;
    }
    return false;
}

int RefundLinesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

int RefundLinesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Column::Count);
}

QVariant RefundLinesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const SaleLine &l = m_lines.at(row);
    const auto column = Column(index.column());
    if (role == Qt::TextAlignmentRole && column != Column::Item)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::EditRole && column == Column::Refund)
        return m_chosen.at(row);
    if (role == Qt::ToolTipRole && column == Column::Refund) {
        return refundable(row) > 0 ? tr("Type how many to give back (at most %1), or + and -.").arg(refundable(row))
                                   : tr("Everything of this line has been given back already.");
    }
    if (role != Qt::DisplayRole && role != Qt::AccessibleTextRole)
        return {};
    switch (column) {
    case Column::Item:
        return l.name(m_language);
    case Column::Sold:
        return l.quantity;
    case Column::Refunded:
        return m_refunded.at(row);
    case Column::Refund:
        return m_chosen.at(row);
    case Column::Amount:
        return l.refundFor(m_refunded.at(row), m_chosen.at(row)).toDisplayString();
    case Column::Count:
        break;
    }
    return {};
}

bool RefundLinesModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)
        || Column(index.column()) != Column::Refund || m_locked)
        return false;
    bool ok = false;
    const int quantity = value.toInt(&ok);
    if (!ok)
        return false;
    setChosen(index.row(), quantity);
    return true;
}

Qt::ItemFlags RefundLinesModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && Column(index.column()) == Column::Refund && !m_locked && refundable(index.row()) > 0)
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant RefundLinesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Column::Item:
        return tr("Item");
    case Column::Sold:
        return tr("Sold");
    case Column::Refunded:
        return tr("Given back");
    case Column::Refund:
        return tr("Refund now");
    case Column::Amount:
        return tr("Amount");
    case Column::Count:
        break;
    }
    return {};
}

}   // namespace OncePay::Ui
