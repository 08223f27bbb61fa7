#pragma once

#include "pricing.h"
#include "printerlink.h"
#include "tillsettings.h"

#include <QDialog>

#include <memory>

class QCheckBox;
class QLabel;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace OncePay::Ui {

// Where a merchant edits the TillSettings.
class SettingsDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit SettingsDialog(const TillSettings &settings, const QString &currency, QWidget *parent = nullptr);
    // Whether the catalog's prices include VAT: the catalog's own setting (CatalogStore), shown here.
    void setTaxMode(TaxMode mode);
    TaxMode taxMode() const;
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
    // The shop's rules (issue 23).
    QLineEdit *m_catalogUrl = nullptr;
    QLineEdit *m_office = nullptr;   // issue 38: the shop's office and the till's token there
    QLineEdit *m_officeToken = nullptr;
    QCheckBox *m_pricesExcludeVat = nullptr;
    QSpinBox *m_openPriceLimit = nullptr;
    QLineEdit *m_barcodeLayouts = nullptr;
    QSpinBox *m_discountLimit = nullptr;
    QSpinBox *m_refundLimit = nullptr;
    QDoubleSpinBox *m_cashDifferenceLimit = nullptr;   // in major units (issue 36)
    QSpinBox *m_idleLock = nullptr;
    // The counter's devices (issue 24).
    QLineEdit *m_printer = nullptr;
    QComboBox *m_paperWidth = nullptr;
    QCheckBox *m_autoPrint = nullptr;
    QLineEdit *m_drawer = nullptr;
    QLabel *m_testResult = nullptr;
    QComboBox *m_customerScreen = nullptr;
    QComboBox *m_customerLanguage = nullptr;
    std::unique_ptr<OncePay::PrinterLink> m_testLink;
};

}   // namespace OncePay::Ui
