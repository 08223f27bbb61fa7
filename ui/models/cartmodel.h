#pragma once

#include "catalog.h"
#include "saleline.h"

#include <QAbstractTableModel>

namespace OncePay::Ui {

// The lines of the sale being rung up, with quantities; totals in integer money.
class CartModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum class Column {
        Name,
        Quantity,
        UnitPrice,
        LineTotal,
        Count
    };
    Q_ENUM(Column)

    explicit CartModel(QObject *parent = nullptr);

    void setLanguage(Language language);   // of the products' names
    Language language() const { return m_language; }
    void add(const Product &product);
    void removeLine(int row);
    // Sets a line's quantity; 0 removes the line.
    void setQuantity(int row, int quantity);
    int quantity(int row) const { return row >= 0 && row < m_lines.size() ? m_lines.at(row).quantity : 0; }
    void clear();
    // The lines of a sale kept in the journal, at the prices they were sold for (a sale restored
    // after a restart): replaces the cart.
    void setLines(const QList<SaleLine> &lines);
    Money total() const;
    bool isEmpty() const { return m_lines.isEmpty(); }
    int itemCount() const;
    // The lines as the sale keeps them once paid (for a refund by items later).
    QList<SaleLine> saleLines() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void totalChanged();

private:
    struct Line
    {
        Product product;
        int quantity = 1;
    };
    QList<Line> m_lines;
    QString m_currency = QStringLiteral("CNY");
    Language m_language = Language::English;
};

}   // namespace OncePay::Ui
