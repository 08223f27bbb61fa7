#pragma once

#include "languages.h"
#include "money.h"
#include "pricing.h"

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
    // What the line came to after its discounts, tax included (issue 23; paidPerLine); -1: unit
    // price x quantity.
    qint64 paid = -1;
    int vatBasisPoints = 0;

    QString name(Language language) const
    {
        return language == Language::SimplifiedChinese && !nameZh.isEmpty() ? nameZh : nameEn;
    }
    // What the whole line cost.
    qint64 linePaid() const { return paid >= 0 ? paid : unitPrice.minorUnits() * quantity; }
    // What giving back `count` more items is worth after `already` were given back: the till's
    // one rule (OncePay::refundOfItems, pricing.h), the same on the slip and in the Z report.
    Money refundFor(int already, int count) const
    {
        return Money(refundOfItems(linePaid(), quantity, already, count), unitPrice.currency());
    }
};

}   // namespace OncePay::Ui
