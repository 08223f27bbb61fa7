#include "cartmodel.h"

namespace OncePay::Ui {

CartModel::CartModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void CartModel::setLanguage(Language language)
{
    m_language = language;
    if (!m_lines.isEmpty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, 0));
}

void CartModel::add(const Product &product)
{
    m_currency = product.price.currency();
    for (int row = 0; row < m_lines.size(); ++row) {
        if (m_lines[row].product.code == product.code) {
            ++m_lines[row].quantity;
            emit dataChanged(index(row, int(Column::Quantity)), index(row, int(Column::LineTotal)));
            emit totalChanged();
            return;
        }
    }
    beginInsertRows({}, int(m_lines.size()), int(m_lines.size()));
    m_lines.append({product, 1});
    endInsertRows();
    emit totalChanged();
}

void CartModel::removeLine(int row)
{
    if (row < 0 || row >= m_lines.size())
        return;
    beginRemoveRows({}, row, row);
    m_lines.removeAt(row);
    endRemoveRows();
    emit totalChanged();
}

void CartModel::setQuantity(int row, int quantity)
{
    if (row < 0 || row >= m_lines.size() || quantity < 0 || quantity > 9999)
        return;
    if (quantity == 0)
        return removeLine(row);
    m_lines[row].quantity = quantity;
    emit dataChanged(index(row, int(Column::Quantity)), index(row, int(Column::LineTotal)));
    emit totalChanged();
}

void CartModel::clear()
{
    beginResetModel();
    m_lines.clear();
    endResetModel();
    emit totalChanged();
}

void CartModel::setLines(const QList<SaleLine> &lines)
{
    beginResetModel();
    m_lines.clear();
    for (const SaleLine &l : lines) {
        m_currency = l.unitPrice.currency();
        m_lines.append({Product{l.code, l.nameEn, l.nameZh, l.unitPrice}, l.quantity});
    }
    endResetModel();
    emit totalChanged();
}

Money CartModel::total() const
{
    qint64 sum = 0;
    for (const Line &l : m_lines)
        sum += l.product.price.minorUnits() * l.quantity;
    return Money(sum, m_currency);
}

int CartModel::itemCount() const
{
    int n = 0;
    for (const Line &l : m_lines)
        n += l.quantity;
    return n;
}

QList<SaleLine> CartModel::saleLines() const
{
    QList<SaleLine> out;
    out.reserve(m_lines.size());
    for (int row = 0; row < m_lines.size(); ++row) {
        const Line &l = m_lines.at(row);
        out.append({row, l.product.code, l.product.nameEn, l.product.nameZh, l.product.price, l.quantity});
    }
    return out;
}

int CartModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

int CartModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Column::Count);
}

QVariant CartModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Line &l = m_lines.at(index.row());
    if (role == Qt::TextAlignmentRole && index.column() != int(Column::Name))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::AccessibleTextRole)
        return {};
    switch (Column(index.column())) {
    case Column::Name:
        return l.product.name(m_language == Language::SimplifiedChinese);
    case Column::Quantity:
        return l.quantity;
    case Column::UnitPrice:
        return l.product.price.toDisplayString();
    case Column::LineTotal:
        return Money(l.product.price.minorUnits() * l.quantity, l.product.price.currency()).toDisplayString();
    case Column::Count:
        break;
    }
    return {};
}

QVariant CartModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Column::Name:
        return tr("Item");
    case Column::Quantity:
        return tr("Qty");
    case Column::UnitPrice:
        return tr("Price");
    case Column::LineTotal:
        return tr("Total");
    case Column::Count:
        break;
    }
    return {};
}

}   // namespace OncePay::Ui
