#pragma once

#include <QDialog>

class QPushButton;
class QTableWidget;

namespace OncePay::Ui {

class LateOutcomes;

// The payments that ended badly after their customer had left, until the cashier acknowledges
// them: the sale, the amount and why, so that someone can follow up.
class LateOutcomesDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit LateOutcomesDialog(LateOutcomes *outcomes, QWidget *parent = nullptr);

private:
    void refresh();

    LateOutcomes *m_outcomes;
    QTableWidget *m_table = nullptr;
    QPushButton *m_acknowledge = nullptr;
};

} // namespace OncePay::Ui
