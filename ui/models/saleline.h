#pragma once

#include "languages.h"
#include "money.h"

#include <QString>

namespace OncePay::Ui {

// One line of a sale as it was paid: the product, its price then, how many.
struct SaleLine
{
    int line = 0;   // 0, 1, ... in the cart's order
    QString code;
    QString nameEn;
    QString nameZh;
    Money unitPrice;
    int quantity = 0;
    // What the line came to after its discounts, tax included (issue 23; paidPerLine); -1 on
    // lines kept before discounts existed (then unit price x quantity).
    qint64 paid = -1;
    int vatBasisPoints = 0;

    QString name(Language language) const
    {
        return language == Language::SimplifiedChinese && !nameZh.isEmpty() ? nameZh : nameEn;
    }
    Money total(int count) const { return refundFor(0, count); }
    // What giving back `count` more items is worth after `already` were given back: the line's
    // discounted amount spread over its items, rounded down, so that every item given back, in
    // any number of refunds, adds up to what was paid for the line, never more.
    Money refundFor(int already, int count) const
    {
        const qint64 whole = paid >= 0 ? paid : unitPrice.minorUnits() * quantity;
        if (quantity <= 0)
            return Money(0, unitPrice.currency());
        auto upTo = [&](qint64 n) {
            return qint64(static_cast<__int128>(whole) * n / quantity);
        };
        return Money(upTo(already + count) - upTo(already), unitPrice.currency());
    }
};

}   // namespace OncePay::Ui
