#include "receipt.h"

#include "code128.h"
#include "pricing.h"

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
    out += QStringLiteral("</table><hr><table width=100%>");
    for (int r = 0; r < cart.rowCount(); ++r) {
        auto cell = [&](CartModel::Column c) {
            return esc(cart.data(cart.index(r, int(c))).toString());
        };
        out += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td></tr>")
                   .arg(cell(CartModel::Column::Name), cell(CartModel::Column::Quantity), cell(CartModel::Column::LineTotal));
    }
    out += QStringLiteral("</table><hr><table width=100%>");
    qint64 total = intent.amount.minorUnits();
    for (const Intent &part : context.earlierParts)
        total += part.amount.minorUnits();
    const SalePricing &pricing = cart.pricing();
    const qint64 discounts = pricing.lineDiscounts + pricing.saleDiscount;
    if (discounts > 0)
        out += row(tr("Discount"), Money(-discounts, intent.amount.currency()).toDisplayString());
    out += row(tr("Total"), Money(total, intent.amount.currency()).toDisplayString(), true);
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
