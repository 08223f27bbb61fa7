#include "productsmodel.h"

#include "pricing.h"

#include <QColor>

namespace OncePay::Ui {

ProductsModel::ProductsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ProductsModel::setProducts(const QList<Product> &products)
{
    beginResetModel();
    m_products = products;
    endResetModel();
}

int ProductsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_products.size());
}

int ProductsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Column::Count);
}

QVariant ProductsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Product &p = m_products.at(index.row());
    if (role == Qt::ForegroundRole && p.retired)
        return QColor(Qt::gray);
    if (role != Qt::DisplayRole && role != Qt::AccessibleTextRole)
        return {};
    switch (Column(index.column())) {
    case Column::Code:
        return p.code;
    case Column::Name:
        return p.nameEn;
    case Column::NameZh:
        return p.nameZh;
    case Column::Price:
        return p.openPrice ? tr("typed") : p.unit == SaleUnit::Kilogram ? tr("%1/kg").arg(p.price.toDisplayString())
                                                                        : p.price.toDisplayString();
    case Column::Vat:
        return vatRateText(p.vatBasisPoints);
    case Column::Category:
        return p.category;
    case Column::Unit:
        return p.unit == SaleUnit::Kilogram ? tr("kg") : tr("each");
    case Column::Barcodes:
        return p.barcodes.join(QStringLiteral(", "));
    case Column::State:
        return p.retired ? tr("retired") : tr("on sale");
    case Column::Count:
        break;
    }
    return {};
}

QVariant ProductsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Column::Code:
        return tr("Code");
    case Column::Name:
        return tr("Name");
    case Column::NameZh:
        return tr("Chinese name");
    case Column::Price:
        return tr("Price");
    case Column::Vat:
        return tr("VAT");
    case Column::Category:
        return tr("Category");
    case Column::Unit:
        return tr("Unit");
    case Column::Barcodes:
        return tr("Barcodes");
    case Column::State:
        return tr("State");
    case Column::Count:
        break;
    }
    return {};
}

}   // namespace OncePay::Ui
