#pragma once

#include "catalog.h"
#include "saleitem.h"
#include "saleline.h"

#include <QAbstractTableModel>

namespace OncePay::Ui {

// The lines of the sale being rung up, with quantities or weights; priced after every change
// (discounts, tax per rate: priceItems()) and kept so, in integer money.
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
    // A weighed line, or one at a label's or the cashier's price: always a line of its own.
    void addItem(const SaleItem &item);
    void setTaxMode(TaxMode mode);
    // A discount on one line, or on the whole sale (spread over the lines: priceSale()).
    void setLineDiscount(int row, const Discount &discount);
    Discount lineDiscount(int row) const { return row >= 0 && row < m_lines.size() ? m_lines.at(row).discount : Discount(); }
    void setSaleDiscount(const Discount &discount);
    Discount saleDiscount() const { return m_saleDiscount; }
    TaxMode taxMode() const { return m_taxMode; }
    void removeLine(int row);
    // Sets a line's quantity; 0 removes the line.
    void setQuantity(int row, int quantity);
    int quantity(int row) const { return row >= 0 && row < m_lines.size() ? m_lines.at(row).quantity : 0; }
    // A weighed line or one at its own price: its quantity is not the cashier's to change.
    bool hasFixedQuantity(int row) const
    {
        return row >= 0 && row < m_lines.size() && (m_lines.at(row).isWeighed() || m_lines.at(row).fixedAmount);
    }
    void clear();
    // The lines of a sale kept in the journal, at the prices they were sold for (a sale restored
    // after a restart): replaces the cart.
    void setLines(const QList<SaleLine> &lines);
    void setLinesJson(const QJsonArray &lines, const QString &currency);
    // The items of a parked sale as they were rung up (issue 36), with the sale's own discount:
    // replaces the cart. items() is what parking keeps.
    void restoreItems(const QList<SaleItem> &items, const Discount &saleDiscount);
    const QList<SaleItem> &items() const { return m_lines; }
    Money total() const { return Money(m_pricing.total, m_currency); }
    const SalePricing &pricing() const { return m_pricing; }
    // The lines as the journal keeps them (saleLinesJson()).
    QJsonArray linesJson() const;
    // The line as rung up (its product, count or weight, own discount): what a receipt prints.
    const SaleItem &item(int row) const { return m_lines.at(row); }
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
    void languageChanged();

private:
    void reprice();

    QList<SaleItem> m_lines;
    SalePricing m_pricing;
    Discount m_saleDiscount;
    TaxMode m_taxMode = TaxMode::Inclusive;
    QString m_currency = QStringLiteral("CNY");
    Language m_language = Language::English;
};

}   // namespace OncePay::Ui
