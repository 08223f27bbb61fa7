#include "receipt.h"

#include "code128.h"
#include "pricing.h"
#include "salebook.h"

#include <QBuffer>
#include <QDateTime>
#include <QImage>
#include <QPainter>
#include <QFileInfo>
#include <QPageSize>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QTextDocument>

namespace OncePay::Ui {

namespace {

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

QString when(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

// A line of two columns: a label on the left, a value on the right.
QString row(const QString &label, const QString &value, bool bold = false)
{
    const QString open = bold ? QStringLiteral("<b>") : QString();
    const QString close = bold ? QStringLiteral("</b>") : QString();
    return QStringLiteral("<tr><td>%1%2%3</td><td align=right>%1%4%3</td></tr>").arg(open, esc(label), close, esc(value));
}

// Net, tax and gross per VAT rate (issue 23), under the total.
QString taxTable(const SalePricing &pricing, const QString &currency)
{
    if (pricing.bands.isEmpty())
        return {};
    auto money = [&](qint64 minor) {
        return esc(Money(minor, currency).toDisplayString());
    };
    QString out = QStringLiteral("<table width=100%><tr><td>%1</td><td align=right>%2</td><td align=right>%3</td>"
                                 "<td align=right>%4</td></tr>")
                      .arg(esc(Receipt::tr("VAT")), esc(Receipt::tr("Net")), esc(Receipt::tr("Tax")), esc(Receipt::tr("Gross")));
    for (const TaxBand &b : pricing.bands) {
        out += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td><td align=right>%4</td></tr>")
                   .arg(esc(vatRateText(b.vatBasisPoints)), money(b.net), money(b.tax), money(b.gross));
    }
    return out + QStringLiteral("</table>");
}

// A line's own discount as the receipt names it: "Discount 10%", or "Discount" for an amount.
QString discountLabel(const Discount &discount)
{
    return discount.kind == Discount::Kind::Percent ? Receipt::tr("Discount %1").arg(vatRateText(int(discount.value)))
                                                    : Receipt::tr("Discount");
}

// The items at their full price, each line's own discount under it (issue 36: the line totals
// were already discounted, and a "Discount" row under them took it off again in the reader's
// eyes). What a weighed line weighed and cost a kg, and how many at what price, are on paper.
QString linesHtml(const CartModel &cart, const QString &currency)
{
    auto money = [&currency](qint64 minor) {
        return esc(Money(minor, currency).toDisplayString());
    };
    const bool chinese = cart.language() == Language::SimplifiedChinese;
    QString out = QStringLiteral("<table width=100%>");
    for (int r = 0; r < cart.rowCount(); ++r) {
        const SaleItem &item = cart.item(r);
        const PricedLine priced = cart.pricing().lines.value(r);
        QString detail;
        if (item.isWeighed()) {
            detail = Receipt::tr("%1 kg × %2/kg")
                         .arg(QString::number(double(item.grams) / 1000.0, 'f', 3), item.product.price.toDisplayString());
        } else if (!item.fixedAmount && item.quantity != 1) {
            detail = Receipt::tr("%1 × %2").arg(item.quantity).arg(item.product.price.toDisplayString());
        }
        const QString name = esc(item.product.name(chinese));
        if (detail.isEmpty()) {
            out += QStringLiteral("<tr><td>%1</td><td align=right>%2</td></tr>").arg(name, money(priced.amount));
        } else {
            out += QStringLiteral("<tr><td colspan=2>%1</td></tr><tr><td>&nbsp;&nbsp;%2</td><td align=right>%3</td></tr>")
                       .arg(name, esc(detail), money(priced.amount));
        }
        if (priced.lineDiscount > 0) {
            out += QStringLiteral("<tr><td>&nbsp;&nbsp;%1</td><td align=right>%2</td></tr>")
                       .arg(esc(discountLabel(item.discount)), money(-priced.lineDiscount));
        }
    }
    return out + QStringLiteral("</table><hr>");
}

// From the lines to the total, every step a row: what the lines come to, the sale's discount,
// the tax added to prices without it. Nothing when the lines are the total.
QString sumsHtml(const SalePricing &pricing, TaxMode mode, const QString &currency)
{
    const bool taxAdded = mode == TaxMode::Exclusive && pricing.tax > 0;
    if (pricing.saleDiscount <= 0 && !taxAdded)
        return {};
    QString out = row(Receipt::tr("Subtotal"), Money(pricing.subtotal - pricing.lineDiscounts, currency).toDisplayString());
    if (pricing.saleDiscount > 0)
        out += row(Receipt::tr("Discount on the sale"), Money(-pricing.saleDiscount, currency).toDisplayString());
    if (taxAdded)
        out += row(Receipt::tr("VAT added"), Money(pricing.tax, currency).toDisplayString());
    return out;
}

}   // namespace

QImage Receipt::barcodeImage(const QString &text, int moduleWidth, int height)
{
    const std::optional<QByteArray> modules = Code128::modules(text);
    if (!modules)
        return {};
    const int quiet = 10;   // modules of white each side, as the standard asks
    QImage image(int(modules->size() + 2 * quiet) * moduleWidth, height, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    for (qsizetype i = 0; i < modules->size(); ++i) {
        if (modules->at(i) == '1')
            painter.fillRect(int(quiet + i) * moduleWidth, 0, moduleWidth, height, Qt::black);
    }
    return image;
}

QString Receipt::barcodeHtml(const QString &text)
{
    const QImage image = barcodeImage(text, 2, 56);
    if (image.isNull())
        return {};
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return QStringLiteral("<p align=center><img src=\"data:image/png;base64,%1\" alt=\"%2\"><br>%2</p>")
        .arg(QString::fromLatin1(png.toBase64()), esc(text));
}

Receipt::Kind Receipt::kindFor(const Intent &intent)
{
    if (intent.state == IntentState::Succeeded)
        return Kind::Receipt;
    if (locksSale(intent.state))
        return Kind::PendingSlip;
    return Kind::None;
}

QString Receipt::number(const Intent &intent, const QString &terminal)
{
    if (!intent.isRefund() && !intent.saleNumber.isEmpty())
        return intent.saleNumber;
    // A refund reads like a sale's number, with an R: "R1-000043" (issue 36).
    if (intent.isRefund())
        return QStringLiteral("R%1-%2").arg(SaleBook::tillNumberOf(terminal)).arg(intent.id, 6, 10, QLatin1Char('0'));
    const QString till = terminal.trimmed().isEmpty() ? QStringLiteral("till") : terminal.trimmed();
    return QStringLiteral("%1-%2").arg(till).arg(intent.id, 6, 10, QLatin1Char('0'));
}

QString Receipt::fileName(const Intent &intent, const QString &terminal)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]"));
    QString name = number(intent, terminal).replace(unsafe, QStringLiteral("_"));
    if (kindFor(intent) == Kind::PendingSlip)
        name += QStringLiteral("-pending");
    return name + QStringLiteral(".pdf");
}

QString Receipt::cardLabel(const QString &brand, const QString &last4)
{
    QString name;
    if (brand == QLatin1String("visa"))
        name = QStringLiteral("Visa");
    else if (brand == QLatin1String("mastercard"))
        name = QStringLiteral("Mastercard");
    else if (brand == QLatin1String("unionpay"))
        name = tr("UnionPay");
    else if (brand == QLatin1String("amex"))
        name = QStringLiteral("American Express");
    else if (brand == QLatin1String("jcb"))
        name = QStringLiteral("JCB");
    else if (brand == QLatin1String("wechat"))   // wallet payments (issue 26): the brand, no card number
        name = tr("WeChat Pay");
    else if (brand == QLatin1String("alipay"))
        name = tr("Alipay");
    else if (!brand.isEmpty())
        name = brand.left(1).toUpper() + brand.mid(1);
    else
        name = tr("Card");
    if (last4.isEmpty())
        return name;
    return name + QStringLiteral(" \u00B7\u00B7") + last4;
}

QString Receipt::html(const Intent &intent, const CartModel &cart, const ReceiptContext &context)
{
    const Kind kind = kindFor(intent);
    if (kind == Kind::None)
        return {};
    const bool pending = kind == Kind::PendingSlip;

    QString out = QStringLiteral("<h2 align=center>%1</h2>").arg(esc(context.shopName.isEmpty() ? QStringLiteral("OncePay") : context.shopName));
    if (!context.shopAddress.isEmpty())
        out += QStringLiteral("<p align=center>%1</p>").arg(esc(context.shopAddress).replace(QLatin1Char('\n'), QStringLiteral("<br>")));
    if (pending) {
        out += QStringLiteral("<h3 align=center style=\"border: 2px solid black\">%1</h3>")
                   .arg(esc(tr("PAYMENT PENDING \u2014 NOT A RECEIPT")));
    }

    out += QStringLiteral("<table width=100%>");
    out += row(pending ? tr("Reference") : tr("Receipt no."), number(intent, context.terminal));
    out += row(tr("Date"), when(pending ? intent.createdAt : intent.updatedAt));
    out += row(tr("Terminal"), context.terminal);
    if (intent.saleNumber.isEmpty())
        out += row(tr("Sale"), intent.orderId);
    // Who took the payment (the person signed in; none on a till without staff).
    const QString cashier = !intent.staff.isEmpty() ? intent.staff
        : context.earlierParts.isEmpty()            ? QString()
                                                    : context.earlierParts.constLast().staff;
    if (!cashier.isEmpty())
        out += row(tr("Cashier"), cashier);
    out += QStringLiteral("</table><hr>");
    qint64 total = intent.amount.minorUnits();
    for (const Intent &part : context.earlierParts)
        total += part.amount.minorUnits();
    const QString currency = intent.amount.currency();
    const SalePricing &pricing = cart.pricing();
    out += linesHtml(cart, currency);
    out += QStringLiteral("<table width=100%>");
    // The steps from the lines to the total, when the cart is the sale (a payment stored before
    // sales had lines has none).
    if (pricing.total == total)
        out += sumsHtml(pricing, cart.taxMode(), currency);
    out += row(tr("Total"), Money(total, currency).toDisplayString(), true);
    // Each tender of a split sale, oldest first; then this one.
    for (const Intent &part : context.earlierParts) {
        out += row(part.isCash() ? tr("Cash") : cardLabel(part.cardBrand, part.cardLast4), part.amount.toDisplayString());
        if (!part.isCash() && !part.authorizationCode.isEmpty())
            out += row(tr("Authorization code"), part.authorizationCode);
    }
    if (!context.earlierParts.isEmpty())
        out += row(pending ? tr("Waiting") : intent.isCash() ? tr("Cash")
                                                             : cardLabel(intent.cardBrand, intent.cardLast4),
            intent.amount.toDisplayString());

    if (intent.isCash()) {
        if (context.earlierParts.isEmpty())
            out += row(tr("Tender"), tr("Cash"));
        if (context.cashTendered && context.cashTendered->currency() == intent.amount.currency()) {
            out += row(tr("Tendered"), context.cashTendered->toDisplayString());
            out += row(tr("Change"), Money(context.cashTendered->minorUnits() - intent.amount.minorUnits(), intent.amount.currency()).toDisplayString());
        }
        out += QStringLiteral("</table>");
    } else {
        if (context.earlierParts.isEmpty())
            out += row(tr("Tender"), cardLabel(intent.cardBrand, intent.cardLast4));
        if (!pending && !intent.authorizationCode.isEmpty())
            out += row(tr("Authorization code"), intent.authorizationCode);
        out += QStringLiteral("</table>");
        if (pending) {
            out += QStringLiteral("<p>%1</p>").arg(esc(tr("The card payment has not been confirmed yet. The till sends it by itself and never charges twice; "
                                                          "the receipt is printed once it is paid.")));
        } else {
            out += QStringLiteral("<h3 align=center>%1</h3>").arg(esc(tr("APPROVED")));
        }
    }
    // The tax of the sale's lines, when the cart is the sale (a receipt of a payment stored
    // before sales had lines shows none).
    if (pricing.total == total)
        out += taxTable(pricing, intent.amount.currency());
    if (!pending) {
        // The sale's number as Code 128: the refund lookup takes it from a scanner.
        if (!intent.isRefund() && !intent.saleNumber.isEmpty())
            out += barcodeHtml(intent.saleNumber);
        out += QStringLiteral("<p align=center>%1</p>").arg(esc(tr("Thank you!")));
    }
    return out;
}

QString receiptHtml(const Intent &intent, const CartModel &cart, const QString &terminal)
{
    Q_ASSERT(intent.state == IntentState::Succeeded);
    return Receipt::html(intent, cart, ReceiptContext{terminal, {}, {}, {}});
}

bool saveReceiptPdf(const QString &html, const QString &path, QString *error)
{
    QPdfWriter writer(path);
    writer.setPageSize(QPageSize(QSizeF(80, 200), QPageSize::Millimeter));   // a receipt roll
    writer.setResolution(300);
    writer.setTitle(Receipt::tr("Receipt"));
    QTextDocument doc;
    doc.setHtml(html);
    doc.setPageSize(writer.pageLayout().paintRectPixels(writer.resolution()).size());
    doc.print(&writer);
    if (!QFileInfo::exists(path) || QFileInfo(path).size() == 0) {
        *error = Receipt::tr("The receipt could not be written to %1.").arg(path);
        return false;
    }
    return true;
}

}   // namespace OncePay::Ui
