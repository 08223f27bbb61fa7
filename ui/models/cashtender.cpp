#include "cashtender.h"

namespace OncePay::Ui {

QList<Money> quickTenders(const Money &total)
{
    if (!total.isValid() || total.minorUnits() <= 0)
        return {};
    QList<Money> out{total};
    qint64 unit = 1;
    for (int d = qMax(0, Money::minorDigits(total.currency())); d > 0; --d)
        unit *= 10;
    for (const qint64 note : {10, 20, 50, 100}) {
        if (note * unit > total.minorUnits())
            out << Money(note * unit, total.currency());
    }
    return out;
}

}   // namespace OncePay::Ui
