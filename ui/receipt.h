#pragma once

#include "cartmodel.h"
#include "intent.h"

class QTextDocument;

namespace OncePay::Ui {

// The receipt of a paid sale as HTML; only built for an intent the gateway confirmed (or cash).
QString receiptHtml(const Intent &intent, const CartModel &cart, const QString &terminal);
// Writes the receipt to a PDF file with QPdfWriter; false and a reason on failure.
bool saveReceiptPdf(const QString &html, const QString &path, QString *error);

} // namespace OncePay::Ui
