#pragma once

#include <QDialog>

namespace OncePay::Ui {

// Preview with "Save as PDF…".
class ReceiptDialog final : public QDialog
{
    Q_OBJECT

public:
    ReceiptDialog(const QString &html, QWidget *parent = nullptr);

private:
    QString m_html;
};

} // namespace OncePay::Ui
