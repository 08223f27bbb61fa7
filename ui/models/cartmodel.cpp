#include "cartmodel.h"

#include <QJsonObject>

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
    emit languageChanged();
}

void CartModel::add(const Product &product)
{
    m_currency = product.price.currency();
    for (int row = 0; row < m_lines.size(); ++row) {
        SaleItem &l = m_lines[row];
        if (l.product.code == product.code && !l.isWeighed() && !l.fixedAmount && l.product.price == product.price) {
            ++l.quantity;
            reprice();
            emit dataChanged(index(row, int(Column::Quantity)), index(row, int(Column::LineTotal)));
            emit totalChanged();
            return;
        }
    }
    SaleItem item;
    item.product = product;
    addItem(item);
}

void CartModel::addItem(const SaleItem &item)
{
    m_currency = item.product.price.currency();
    beginInsertRows({}, int(m_lines.size()), int(m_lines.size()));
    m_lines.append(item);
    reprice();
    endInsertRows();
    emit totalChanged();
}

void CartModel::setTaxMode(TaxMode mode)
{
    if (mode == m_taxMode)
        return;
    m_taxMode = mode;
    reprice();
    if (!m_lines.isEmpty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    emit totalChanged();
}

void CartModel::setLineDiscount(int row, const Discount &discount)
{
    if (row < 0 || row >= m_lines.size())
        return;
    m_lines[row].discount = discount;
    reprice();
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    emit totalChanged();
}

void CartModel::setSaleDiscount(const Discount &discount)
{
    m_saleDiscount = discount;
    reprice();
    if (!m_lines.isEmpty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    emit totalChanged();
}

void CartModel::reprice()
{
    m_pricing = priceItems(m_lines, m_saleDiscount, m_taxMode);
}

QJsonArray CartModel::linesJson() const
{
    return saleLinesJson(m_lines, m_pricing, m_taxMode);
}

void CartModel::removeLine(int row)
{
    if (row < 0 || row >= m_lines.size())
        return;
    beginRemoveRows({}, row, row);
    m_lines.removeAt(row);
    reprice();
    endRemoveRows();
    emit totalChanged();
}

void CartModel::setQuantity(int row, int quantity)
{
    if (row < 0 || row >= m_lines.size() || quantity < 0 || quantity > 9999)
        return;
    if (quantity == 0)
        return removeLine(row);
    if (hasFixedQuantity(row))
        return;
    m_lines[row].quantity = quantity;
    reprice();
    emit dataChanged(index(row, int(Column::Quantity)), index(row, int(Column::LineTotal)));
    emit totalChanged();
}

void CartModel::clear()
{
    beginResetModel();
    m_lines.clear();
    m_saleDiscount = {};
    reprice();
    endResetModel();
    emit totalChanged();
}

void CartModel::setLines(const QList<SaleLine> &lines)
{
    beginResetModel();
    m_lines.clear();
    for (const SaleLine &l : lines) {
        m_currency = l.unitPrice.currency();
        SaleItem item;
        item.product = Product{l.code, l.nameEn, l.nameZh, l.unitPrice};
        item.quantity = l.quantity;
        m_lines.append(item);
    }
    reprice();
    endResetModel();
    emit totalChanged();
}

void CartModel::setLinesJson(const QJsonArray &lines, const QString &currency)
{
    beginResetModel();
    m_currency = currency;
    m_lines = saleItemsFromJson(lines, currency, &m_taxMode);
    // The sale's discount as it was spread: its shares, summed, spread again the same way.
    qint64 saleOff = 0;
    for (const QJsonValue &v : lines)
        saleOff += v.toObject().value(QStringLiteral("sale_discount")).toInteger();
    m_saleDiscount = saleOff > 0 ? Discount{Discount::Kind::Amount, saleOff} : Discount();
    reprice();
    endResetModel();
    emit totalChanged();
}

void CartModel::restoreItems(const QList<SaleItem> &items, const Discount &saleDiscount)
{
    beginResetModel();
    m_lines = items;
    if (!items.isEmpty())
        m_currency = items.constFirst().product.price.currency();
    m_saleDiscount = saleDiscount;
    reprice();
    endResetModel();
    emit totalChanged();
}

int CartModel::itemCount() const
{
    int n = 0;
    for (const SaleItem &l : m_lines)
        n += l.isWeighed() ? 1 : l.quantity;
    return n;
}

QList<SaleLine> CartModel::saleLines() const
{
    QList<SaleLine> out;
    out.reserve(m_lines.size());
    for (int row = 0; row < m_lines.size(); ++row) {
        const SaleItem &l = m_lines.at(row);
        const bool single = l.isWeighed() || l.fixedAmount;
        out.append({row, l.product.code, l.product.nameEn, l.product.nameZh,
            single ? Money(l.amount(), m_currency) : l.product.price, single ? 1 : l.quantity,
            m_pricing.lines.value(row).finalAmount, l.product.vatBasisPoints});
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
    const SaleItem &l = m_lines.at(index.row());
    if (role == Qt::TextAlignmentRole && index.column() != int(Column::Name))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::AccessibleTextRole)
        return {};
    switch (Column(index.column())) {
    case Column::Name: {
        const QString name = l.product.name(m_language == Language::SimplifiedChinese);
        // Both discounts in the line's name, so that its price and quantity, less what is said
        // here, are its total (issue 36: the sale's share was in the total and nowhere else).
        const PricedLine priced = m_pricing.lines.value(index.row());
        const QString line = Money(priced.lineDiscount, m_currency).toDisplayString();
        const QString sale = Money(priced.saleDiscount, m_currency).toDisplayString();
        if (priced.lineDiscount > 0 && priced.saleDiscount > 0)
            return tr("%1 (−%2, −%3 off the sale)").arg(name, line, sale);
        if (priced.saleDiscount > 0)
            return tr("%1 (−%2 off the sale)").arg(name, sale);
        return priced.lineDiscount > 0 ? tr("%1 (−%2)").arg(name, line) : name;
    }
    case Column::Quantity:
        if (l.isWeighed())
            return tr("%1 kg").arg(QString::number(double(l.grams) / 1000.0, 'f', 3));
        return l.quantity;
    case Column::UnitPrice:
        if (l.isWeighed())
            return tr("%1/kg").arg(l.product.price.toDisplayString());
        if (l.fixedAmount)
            return Money(*l.fixedAmount, m_currency).toDisplayString();
        return l.product.price.toDisplayString();
    case Column::LineTotal:
        return Money(m_pricing.lines.value(index.row()).finalAmount, m_currency).toDisplayString();
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
