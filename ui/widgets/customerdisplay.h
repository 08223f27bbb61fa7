#pragma once

#include "customerdisplaymodel.h"

#include <QWidget>

class QLabel;
class QVBoxLayout;

namespace OncePay::Ui {

// The second screen, facing the customer (issue 24): the shop's name, the lines, the total and
// the payment's state in large words (CustomerDisplayModel). It takes no input and never takes
// the keyboard from the cashier's window.
class CustomerDisplay final : public QWidget
{
    Q_OBJECT

public:
    explicit CustomerDisplay(CustomerDisplayModel *model, QWidget *parent = nullptr);
    // Full screen on the screen of this index (QGuiApplication::screens()); false when there is
    // no such screen (the window is then shown as an ordinary window).
    bool showOnScreen(int index);
    QString stateShown() const;   // the words in the state line, as the customer reads them

private:
    void render();

    CustomerDisplayModel *m_model;
    QLabel *m_shop = nullptr;
    QLabel *m_lines = nullptr;
    QLabel *m_totalCaption = nullptr;
    QLabel *m_total = nullptr;
    QLabel *m_state = nullptr;
};

}   // namespace OncePay::Ui
