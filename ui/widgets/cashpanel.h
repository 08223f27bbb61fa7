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
// total), an amount field (Enter takes it), and a short tender told on the spot, with nothing
// recorded. Hides itself once the cash is taken, on Esc or Cancel, or when the sale cannot be paid.
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

    CheckoutViewModel *m_vm;
    QLineEdit *m_amount = nullptr;
    QGridLayout *m_quick = nullptr;
    QList<QPushButton *> m_quickButtons;
    QLabel *m_message = nullptr;
    QPushButton *m_part = nullptr;   // after a short tender: take it as part of the sale
};

}   // namespace OncePay::Ui
