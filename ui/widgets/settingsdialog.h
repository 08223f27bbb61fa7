#pragma once

#include "tillsettings.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace OncePay::Ui {

// Where a merchant edits the TillSettings.
class SettingsDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit SettingsDialog(const TillSettings &settings, const QString &currency, QWidget *parent = nullptr);
    TillSettings settings() const;

private:
    TillSettings m_initial;
    QString m_currency;
    QLineEdit *m_gateway = nullptr;
    QLineEdit *m_token = nullptr;
    QLineEdit *m_terminal = nullptr;
    QSpinBox *m_maxSingle = nullptr;
    QSpinBox *m_maxTotal = nullptr;
    QSpinBox *m_maxAgeHours = nullptr;
    QSpinBox *m_unconfirmedAfter = nullptr;
    QComboBox *m_language = nullptr;
    QLineEdit *m_shopName = nullptr;
    QLineEdit *m_shopAddress = nullptr;
};

}   // namespace OncePay::Ui
