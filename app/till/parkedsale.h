#pragma once

#include "money.h"
#include "pricing.h"
#include "saleitem.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace OncePay {

// A sale on hold (issue 36): a customer who forgot something steps aside, the cashier parks the
// cart, serves the next customer, and recalls it. Nothing of it is paid; it lives in the journal
// (ParkedSaleBook) until it is recalled or deleted, and one still parked when a shift closes is
// named in its Z report.
enum class ParkedState {
    Parked,
    Recalled,   // back in a cart (the cart is then paid, parked again or discarded as any cart)
    Deleted,   // thrown away from the list (a staff action)
};
QString parkedStateName(ParkedState state);   // "parked", "recalled", "deleted" as stored
std::optional<ParkedState> parkedStateFromName(const QString &name);

// The cart as it was, to be put back exactly: its items (each product as it was rung up, the
// quantity or weight, a label's or typed price, the line's own discount as typed: a percent stays
// a percent), the discount on the whole sale and the tax mode it was priced in.
struct ParkedCart
{
    QList<SaleItem> items;
    Discount saleDiscount = {};
    TaxMode taxMode = TaxMode::Inclusive;

    QJsonObject toJson() const;
    static ParkedCart fromJson(const QJsonObject &object, const QString &currency);
};

struct ParkedSale
{
    qint64 id = 0;
    QString number;   // what people read and say: "P3"
    ParkedState state = ParkedState::Parked;
    qint64 parkedAt = 0;   // epoch ms
    QString parkedBy = {};   // who parked it (empty on a till without staff)
    Money total;
    int itemCount = 0;   // items, a weighed line counting one
    QJsonObject cart = {};   // ParkedCart::toJson()
    // The journal's sale the cart was before it was parked (a card was declined or given up,
    // nothing paid): cancelled when it was parked; the recalled cart becomes a new sale.
    QString fromSale = {};
    qint64 endedAt = 0;   // recalled or deleted at
    QString endedBy = {};

    bool isValid() const { return id > 0; }
    ParkedCart parkedCart() const { return ParkedCart::fromJson(cart, total.currency()); }
};

// "P" and the row's id: short enough to say to the customer.
QString parkedNumber(qint64 id);

}   // namespace OncePay
