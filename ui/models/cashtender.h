#pragma once

#include "money.h"

#include <QList>

namespace OncePay::Ui {

// The quick tender amounts for a cash total: the exact amount, then the notes of 10, 20, 50 and
// 100 (in the currency's major unit) that cover it; a note below or equal to the total is left out.
QList<Money> quickTenders(const Money &total);

}   // namespace OncePay::Ui
