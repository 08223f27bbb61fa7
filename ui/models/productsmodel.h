#pragma once

#include "catalog.h"
#include "languages.h"

#include <QAbstractTableModel>

namespace OncePay::Ui {

// Every product of the shop's catalog, retired ones too, for the products editor (issue 23).
class ProductsModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum class Column {
        Code,
        Name,
        NameZh,
        Price,
        Vat,
        Category,
        Unit,
        Barcodes,
        State,
        Count
    };
    Q_ENUM(Column)

    explicit ProductsModel(QObject *parent = nullptr);
    void setProducts(const QList<Product> &products);
    const Product &product(int row) const { return m_products.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<Product> m_products;
};

}   // namespace OncePay::Ui
