#pragma once

#include "intent.h"

#include <QDialog>

class QKeyEvent;
class QLabel;
class QPushButton;
class QTableWidget;

namespace OncePay::Ui {

class LateOutcomes;

// The payments that ended badly after their customer had left, until the cashier acknowledges
// them: the sale, the amount and why, so that someone can follow up; and the card payments the
// till refunded by itself after the customer paid another way, with what to tell the customer.
class LateOutcomesDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit LateOutcomesDialog(LateOutcomes *outcomes, QWidget *parent = nullptr);

signals:
    // What a barcode scanner (or a cashier who did not look up) typed while the dialog had the
    // keyboard: it belongs to the checkout's scan field; `enter` ends the scan.
    void typedForCheckout(const QString &text, bool enter);

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    void refresh();
    static QString why(const OncePay::Intent &intent);

    LateOutcomes *m_outcomes;
    QLabel *m_intro = nullptr;
    QTableWidget *m_table = nullptr;
    QPushButton *m_acknowledge = nullptr;
};

}   // namespace OncePay::Ui
