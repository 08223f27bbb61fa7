#pragma once

#include "cartmodel.h"
#include "intent.h"

#include <QDialog>

class QTextDocument;

namespace OncePay::Ui {

// The receipt of a paid sale as HTML; only built for an intent the gateway confirmed (or cash).
QString receiptHtml(const Intent &intent, const CartModel &cart, const QString &terminal);
// Writes the receipt to a PDF file with QPdfWriter; false and a reason on failure.
bool saveReceiptPdf(const QString &html, const QString &path, QString *error);

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
