#include "refundslip.h"

#include "pricing.h"

#include "intenttext.h"

#include <QDateTime>
#include <QRegularExpression>

namespace OncePay::Ui {

namespace {
QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

QString row(const QString &label, const QString &value, bool bold = false)
{
    const QString open = bold ? QStringLiteral("<b>") : QString();
    const QString close = bold ? QStringLiteral("</b>") : QString();
    return QStringLiteral("<tr><td>%1%2%3</td><td align=right>%1%4%3</td></tr>").arg(open, esc(label), close, esc(value));
}
}   // namespace

QString RefundSlip::html(const Intent &refund, const Intent &payment, const QList<SaleLine> &lines,
    const RefundItems &items, Language language, const ReceiptContext &context)
{
    const bool done = refund.state == IntentState::Succeeded;
    QString out = QStringLiteral("<h2 align=center>%1</h2>").arg(esc(context.shopName.isEmpty() ? QStringLiteral("OncePay") : context.shopName));
    if (!context.shopAddress.isEmpty())
        out += QStringLiteral("<p align=center>%1</p>").arg(esc(context.shopAddress).replace(QLatin1Char('\n'), QStringLiteral("<br>")));
    out += QStringLiteral("<h2 align=center style=\"border: 2px solid black\">%1</h2>").arg(esc(tr("REFUND")));
    if (!done && refund.state != IntentState::Declined && refund.state != IntentState::Voided
        && refund.state != IntentState::NeedsAttention) {
        out += QStringLiteral("<h3 align=center>%1</h3>").arg(esc(tr("PENDING \u2014 NOT GIVEN BACK YET")));
    }

    out += QStringLiteral("<table width=100%>");
    out += row(tr("Refund no."), Receipt::number(refund, context.terminal));
    out += row(tr("Date"), QDateTime::fromMSecsSinceEpoch(done ? refund.updatedAt : refund.createdAt).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
    out += row(tr("Terminal"), context.terminal);
    out += row(tr("Sale"), refund.saleLabel());
    out += row(tr("Receipt no. of the sale"), Receipt::number(payment, context.terminal));
    out += row(tr("Paid"), payment.amount.toDisplayString());
    out += QStringLiteral("</table>");

    // What goes back, per line, at the till's one rule (priceReturn): the same amounts as the
    // refund dialog asked for and the Z report's returns, after what earlier refunds gave back.
    QList<ItemsBack> given;
    QList<const SaleLine *> shown;
    for (const SaleLine &l : lines) {
        const int n = items.given.value(l.line);
        if (n <= 0)
            continue;
        given.append({l.linePaid(), l.quantity, l.vatBasisPoints, items.before.value(l.line), n});
        shown.append(&l);
    }
    const bool anyLine = !given.isEmpty();
    const SalePricing back = priceReturn(given);
    if (anyLine) {
        QString rows = QStringLiteral("<hr><table width=100%>");
        for (qsizetype i = 0; i < shown.size(); ++i) {
            rows += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td></tr>")
                        .arg(esc(shown.at(i)->name(language)), QString::number(given.at(i).count),
                            esc(Money(back.lines.at(i).finalAmount, refund.amount.currency()).toDisplayString()));
        }
        out += rows + QStringLiteral("</table>");
    }

    out += QStringLiteral("<hr><table width=100%>");
    out += row(tr("Refund"), refund.amount.toDisplayString(), true);
    out += row(tr("To"), refund.isCash() ? tr("Cash, from the drawer") : Receipt::cardLabel(payment.cardBrand, payment.cardLast4));
    if (!refund.reason.trimmed().isEmpty())
        out += row(tr("Reason"), refund.reason.trimmed());
    out += row(tr("State"), IntentText::stateOf(refund), true);
    out += QStringLiteral("</table>");
    // Refunded by items: the tax it gives back, per rate, once per rate on what goes back.
    if (anyLine && back.total == refund.amount.minorUnits()) {
        out += QStringLiteral("<table width=100%><tr><td>%1</td><td align=right>%2</td><td align=right>%3</td><td align=right>%4</td></tr>")
                   .arg(esc(Receipt::tr("VAT")), esc(Receipt::tr("Net")), esc(Receipt::tr("Tax")), esc(Receipt::tr("Gross")));
        for (const TaxBand &b : back.bands) {
            out += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td><td align=right>%4</td></tr>")
                       .arg(esc(vatRateText(b.vatBasisPoints)), esc(Money(b.net, refund.amount.currency()).toDisplayString()),
                           esc(Money(b.tax, refund.amount.currency()).toDisplayString()),
                           esc(Money(b.gross, refund.amount.currency()).toDisplayString()));
        }
        out += QStringLiteral("</table>");
    }

    QString note;
    switch (refund.state) {
    case IntentState::Succeeded:
        note = refund.isCash() ? tr("The amount above was given back in cash.")
                               : tr("The amount above goes back to the card. The bank may take a few days to show it.");
        break;
    case IntentState::Declined:
    case IntentState::NeedsAttention:
        note = tr("This refund was not made: nothing was given back.");
        break;
    case IntentState::Voided:
        note = tr("This refund was voided before it was sent: nothing was given back.");
        break;
    case IntentState::Queued:
    case IntentState::Sending:
    case IntentState::Processing:
    case IntentState::Unknown:
        note = tr("The refund is saved on the till and is sent by itself; it is never made twice. "
                  "Ask for the final slip once it is refunded.");
        break;
    }
    out += QStringLiteral("<p>%1</p>").arg(esc(note));
    return out;
}

QString RefundSlip::fileName(const Intent &refund, const QString &terminal)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]"));
    QString name = Receipt::number(refund, terminal).replace(unsafe, QStringLiteral("_")) + QStringLiteral("-refund");
    if (!isFinal(refund.state))
        name += QStringLiteral("-pending");
    return name + QStringLiteral(".pdf");
}

}   // namespace OncePay::Ui
