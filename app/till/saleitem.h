#pragma once

#include "barcode.h"
#include "catalog.h"
#include "pricing.h"

#include <QJsonArray>
#include <QList>

#include <optional>

namespace OncePay {

// One line of a sale being rung up: the product as it was then (a later price change never
// reaches it), how many, or what it weighed, and its own discount.
struct SaleItem
{
    Product product;
    int quantity = 1;   // items; 1 for a weighed line
    qint64 grams = 0;   // goods sold by the kg: the weight
    std::optional<qint64> fixedAmount;   // a price from a label or typed by the cashier (open price)
    Discount discount = {};

    // Before discounts: unit price x quantity; a weighed line's price per kg x weight, half up
    // to the fen; or the label's or cashier's price.
    qint64 amount() const;
    bool isWeighed() const { return grams > 0; }
};

// What a scan (or typed code) in the sale step means.
struct ScanMatch
{
    enum class Kind {
        Product,   // `item` is ready to add (a weighed line carries its weight or price)
        Several,   // a name that fits several products: `candidates`
        NotFound,
        WrongCheckDigit,   // an EAN-13/EAN-8/UPC-A whose check digit is wrong: a misread
        EmbeddedNotFound,   // a weighed-goods label whose item code no product has: `code` is it
        NeedsPrice,   // an open-price product: the cashier types the price (`item` without it)
    };
    Kind kind = Kind::NotFound;
    SaleItem item = {};
    QList<const Product *> candidates = {};
    QString code = {};
};

// A code, barcode or name: a product of `catalog`, the item of a weighed-goods label (the first
// of `layouts` that fits), a misread, or nothing.
ScanMatch matchScan(const Catalog &catalog, const QString &text, const QList<EmbeddedLayout> &layouts);

// "0.532" kg -> 532 g: digits, at most three decimals, above 0 and at most 10 t; nullopt otherwise.
std::optional<qint64> parseKilograms(const QString &text);

// The sale's lines as the journal keeps them: {code, name, name_zh, unit_price, quantity, total,
// vat, unit, amount, and when they apply discount, sale_discount, weight_g, price_per_kg,
// net_prices}. `total` and `unit_price` are before discounts; `amount` is what the line comes
// to after both. A weighed line is quantity 1 at its price.
QJsonArray saleLinesJson(const QList<SaleItem> &items, const SalePricing &pricing, TaxMode mode);
// The items back from stored lines (a sale restored after a restart), at their prices then;
// `mode` is the tax mode they were priced in.
QList<SaleItem> saleItemsFromJson(const QJsonArray &lines, const QString &currency, TaxMode *mode);
SalePricing priceItems(const QList<SaleItem> &items, const Discount &saleDiscount, TaxMode mode);
// The tax bands of a sale from its stored lines (the receipt of a sale rung up earlier).
SalePricing pricingOfLines(const QJsonArray &lines);
// What each stored line cost the customer, tax included (grossPerLine): what giving all of it
// back is worth. Lines kept before discounts existed (no `amount`): unit price x quantity.
QList<qint64> paidPerLine(const QJsonArray &lines);
// What items given back of a sale come to, per rate, as their refund slip shows them: each line's
// `quantities[line]` items after the `before[line]` that earlier refunds gave back, at what they
// were paid (paidPerLine, refundOfItems), the tax computed once per rate on what goes back
// (priceReturn).
SalePricing pricingOfReturn(const QJsonArray &lines, const QHash<int, int> &quantities, const QHash<int, int> &before);

}   // namespace OncePay
