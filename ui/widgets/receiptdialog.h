#pragma once

#include <QDialog>

namespace OncePay::Ui {

// Preview of a receipt (or a pending slip) with "Print…" (QPrintDialog: CUPS printers) and
// "Save as PDF…" (the receipt number as the default file name).
class ReceiptDialog final : public QDialog
{
    Q_OBJECT

public:
    ReceiptDialog(const QString &html, const QString &fileName, QWidget *parent = nullptr);

private:
    void print();
    void savePdf();

    QString m_html;
    QString m_fileName;
};

}   // namespace OncePay::Ui
