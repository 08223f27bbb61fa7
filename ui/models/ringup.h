#pragma once

#include "cartmodel.h"
#include "catalog.h"

#include <QCoreApplication>

#include <optional>

namespace OncePay::Ui {

// Ringing up a cart: what a scanned or typed code means (a product, a weighed-goods label, an
// open price, a weight typed in kg), the lines' quantities and the discounts, with the reason
// in words when something is refused. CheckoutViewModel owns one for its cart and decides when
// the cart may change (its Gate); it knows nothing of payments.
class RingUp
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::Ui::RingUp)

public:
    // What the cart's owner (CheckoutViewModel) decides: whether the cart may change now (nothing
    // paid or on its way), and what happens before an item is added (the sale that is over gives
    // way to the next; false and why when the cart cannot change).
    class Gate
    {
    public:
        virtual bool canEditCart() const = 0;
        virtual bool readyToAdd(QString *reason) = 0;

    protected:
        ~Gate() = default;
    };

    // The gate outlives this (its owner holds both).
    RingUp(const Catalog *catalog, CartModel *cart, Gate *gate);

    // See CheckoutViewModel: the same calls, which delegate here.
    bool addProduct(const QString &codeOrName, QString *reason);
    std::optional<Product> needsPrice(const QString &codeOrName) const;
    bool addProductAtPrice(const QString &codeOrName, const QString &price, QString *reason);
    bool addWeighedProduct(const QString &code, const QString &kilograms, QString *reason);
    QList<Product> matchingProducts(const QString &codeOrName) const;
    void setOpenPriceLimit(const Money &limit) { m_openPriceLimit = limit; }
    Money openPriceLimit() const { return m_openPriceLimit; }
    void setEmbeddedLayouts(const QList<EmbeddedLayout> &layouts) { m_layouts = layouts; }

    bool canDiscount(int row, QString *reason) const;
    bool discountLine(int row, const QString &text, QString *reason);
    bool discountSale(const QString &text, QString *reason);
    bool discountAboveLimit(int row, const QString &text, int limitPercent) const;
    void removeLine(int row);
    void changeQuantity(int row, int delta);

private:
    std::optional<Discount> parseDiscount(int row, const QString &text, QString *reason) const;

    const Catalog *m_catalog;
    CartModel *m_cart;
    Gate *m_gate;
    QList<EmbeddedLayout> m_layouts{EmbeddedLayout::defaultLayout()};
    Money m_openPriceLimit{100'000, QStringLiteral("CNY")};
};

}   // namespace OncePay::Ui
