#pragma once

#include "money.h"

#include <QWidget>

class QGridLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace OncePay::Ui {

class CheckoutViewModel;

// Cash, inline beside the cart: quick tender buttons (exact, then the notes that cover the
// total), an amount field (Enter takes it), and, as soon as less than the total is typed, the
// part payment offered in plain words (what is left, Alt+P takes it), nothing recorded until
// then; an error only for what failed. Hides itself once the cash is taken, on Esc or Cancel, or
// when the sale cannot be paid.
class CashPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit CashPanel(CheckoutViewModel *vm, QWidget *parent = nullptr);

    // Shows the panel for the current total, the amount field focused with the total selected.
    void start();

signals:
    void closed();   // paid, cancelled or no longer payable: focus may go back to the scan field

private:
    void refreshTenders();
    void takeTyped();
    void take(const Money &tendered);
    void finish();
    // The part payment offered for what the field says, when it is less than the total; hidden
    // otherwise. True when offered.
    bool offerPart();
    void showError(const QString &text);

    CheckoutViewModel *m_vm;
    QLineEdit *m_amount = nullptr;
    QGridLayout *m_quick = nullptr;
    QList<QPushButton *> m_quickButtons;
    QLabel *m_message = nullptr;   // what failed (red)
    QLabel *m_prompt = nullptr;   // the part payment offered (neutral)
    QPushButton *m_part = nullptr;   // after a short tender: take it as part of the sale
};

}   // namespace OncePay::Ui
