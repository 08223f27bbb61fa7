#pragma once

#include "intent.h"
#include "receipt.h"
#include "sale.h"
#include "saleline.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QString>

namespace OncePay::Ui {

// The slip a cashier hands over with a refund, as HTML (no widget), printed or saved as PDF by
// the receipt dialog: the shop, "REFUND", the sale's receipt number, the refund's own number,
// the items given back (a refund by items), the amount, where it goes (the card as the bank
// named it, or cash from the drawer), the reason, and the refund's state in words. A refund that
// is not final yet says so at the top: it is not proof that money went back.
class RefundSlip final
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::Ui::RefundSlip)

public:
    // `lines`, `items` (per SaleLine::line): the items given back and those earlier refunds gave
    // back (what the amounts are computed after); none for a refund by amount.
    static QString html(const Intent &refund, const Intent &payment, const QList<SaleLine> &lines,
        const RefundItems &items, Language language, const ReceiptContext &context);
    // "till-1-000043-refund.pdf" (its own number; "-pending" while it is not final).
    static QString fileName(const Intent &refund, const QString &terminal);
};

}   // namespace OncePay::Ui
