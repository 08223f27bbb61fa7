#pragma once

#include "parkedsalebook.h"
#include "tillerror.h"

#include <QAbstractTableModel>
#include <QList>

namespace OncePay::Ui {

class CheckoutViewModel;

// The sales on hold at the counter (issue 36), as the "Parked sales" list shows them, and what the
// cashier does with them: park the sale on screen (its cart, nothing of it paid) and start the
// next, recall one into the cart exactly as it was, or delete one. The SQL is ParkedSaleBook's;
// the checkout is held (CheckoutViewModel::setHeld) while the journal answers.
//
// Recalling while the cart holds items parks that cart first, so that no customer's items are
// lost; when it cannot be parked (part paid, a payment waiting) the recall is refused, and why.
class ParkedSales final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum class Column {
        Number,
        ParkedAt,
        Items,   // how many, and the first names
        Total,
        ParkedBy,
        Count
    };
    Q_ENUM(Column)

    ParkedSales(ParkedSaleBook *book, CheckoutViewModel *checkout, QObject *parent = nullptr);

    void refresh();   // the list again, from the journal
    const QList<ParkedSale> &sales() const { return m_sales; }
    bool isBusy() const { return m_busy; }

    // Items are rung up and the sale is not over (paid): there is a cart to park.
    bool hasCartToPark() const;
    // Why the cart on screen cannot be parked now (a part paid, a payment waiting or being saved);
    // None when it can.
    TillError parkRefusal() const;
    // Parks the cart on screen and starts the next sale: parked(), or refused().
    void park();
    // Puts the parked sale of `row` back in the cart (parking the cart on screen first, when it
    // has one): recalled(), or refused().
    void recall(int row);
    // Deletes the parked sale of `row` (kept in the journal as deleted, a staff action): removed().
    void remove(int row);

    // "Tea ×2, Rice, …": the first items of a parked cart, in the cart's language.
    QString itemsText(const ParkedSale &sale) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void parked(const OncePay::ParkedSale &sale);
    // `totalNow` differs from the parked total only when prices are figured otherwise now (the
    // shop switched between prices with and without VAT meanwhile).
    void recalled(const OncePay::ParkedSale &sale, const OncePay::Money &totalNow);
    void removed(const OncePay::ParkedSale &sale);
    void refused(const OncePay::TillError &why);
    void busyChanged();

private:
    void setBusy(bool busy);
    void parkThen(std::function<void()> then);
    void putBack(const ParkedSale &sale);

    ParkedSaleBook *m_book;
    CheckoutViewModel *m_checkout;
    QList<ParkedSale> m_sales;
    bool m_busy = false;
};

}   // namespace OncePay::Ui
