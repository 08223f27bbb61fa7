#pragma once

#include "cartmodel.h"
#include "intent.h"
#include "money.h"

#include <QCoreApplication>
#include <QImage>
#include <QString>

#include <optional>

namespace OncePay::Ui {

// What a receipt shows beyond the sale and its intent: who printed it and where.
struct ReceiptContext
{
    QString terminal;
    QString shopName;
    QString shopAddress;
    std::optional<Money> cashTendered;   // cash: what the customer handed over, when known
    // A split sale: the parts paid before `intent` (cash taken, cards that succeeded), each
    // named on the receipt; the total is then the sale's.
    QList<Intent> earlierParts = {};
};

// The document a cashier hands over, as HTML (no widget): a receipt for a paid sale, or a
// "payment pending, not a receipt" slip for a card payment the till is still waiting for.
class Receipt final
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::Ui::Receipt)

public:
    enum class Kind {
        None,   // nothing to hand over (declined, needs attention)
        PendingSlip,   // stored, not confirmed yet: queued, sending, processing, unknown
        Receipt,   // the gateway said succeeded, or cash
    };
    static Kind kindFor(const Intent &intent);

    // A sale's payment: the sale's short number ("1-000123"), the same on the screen, the payments
    // panel and the refund lookup. Otherwise (a refund, an order stored before sales existed)
    // "till-1-000042": the terminal and the journal's intent id. The same every time it prints.
    static QString number(const Intent &intent, const QString &terminal);
    // The PDF's default file name: the number (slips say "pending"), safe on any file system.
    static QString fileName(const Intent &intent, const QString &terminal);
    // "Visa ··4242"; the brand alone, or "Card", when the gateway did not say more.
    static QString cardLabel(const QString &brand, const QString &last4);

    // `text` as a Code 128 barcode: black bars on white, quiet zones included; null when it cannot
    // be encoded.
    static QImage barcodeImage(const QString &text, int moduleWidth, int height);
    // The barcode and its text under it, as an HTML paragraph (the image inline).
    static QString barcodeHtml(const QString &text);

    // The document for kindFor(intent) (empty for None).
    static QString html(const Intent &intent, const CartModel &cart, const ReceiptContext &context);
};

// The receipt of a paid sale as HTML, with the terminal only (no shop).
QString receiptHtml(const Intent &intent, const CartModel &cart, const QString &terminal);
// Writes the receipt to a PDF file with QPdfWriter; false and a reason on failure.
bool saveReceiptPdf(const QString &html, const QString &path, QString *error);

}   // namespace OncePay::Ui
