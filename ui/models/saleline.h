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

    QString name(Language language) const
    {
        return language == Language::SimplifiedChinese && !nameZh.isEmpty() ? nameZh : nameEn;
    }
    Money total(int count) const { return Money(unitPrice.minorUnits() * count, unitPrice.currency()); }
};

}   // namespace OncePay::Ui
