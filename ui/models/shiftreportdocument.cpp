#include "shiftreportdocument.h"

#include "shifttotalsmodel.h"

#include <QBuffer>
#include <QDateTime>
#include <QPageSize>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QTextDocument>
#include <QUrl>

namespace OncePay::Ui {

namespace {

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

QString when(qint64 ms)
{
    return ms > 0 ? QLocale().toString(QDateTime::fromMSecsSinceEpoch(ms), QLocale::ShortFormat) : QStringLiteral("–");
}

}   // namespace

QString ShiftReportDocument::owedLine(const ShiftReport::Waiting &w)
{
    return tr("Sale %1: %2 owed to the customer. %3")
        .arg(w.saleLabel(), w.amount.toDisplayString(), ShiftReport::owedAdvice(w.amount, w.paymentKey));
}

QString ShiftReportDocument::parkedLine(const ShiftReport::Parked &p)
{
    return p.parkedBy.isEmpty()
        ? tr("%1, parked %2: %n item(s), %3", nullptr, p.itemCount).arg(p.number, when(p.parkedAt), p.total.toDisplayString())
        : tr("%1, parked %2 by %3: %n item(s), %4", nullptr, p.itemCount).arg(p.number, when(p.parkedAt), p.parkedBy, p.total.toDisplayString());
}

QString ShiftReportDocument::html(const ShiftReport &r, const QList<ShiftFinding> &findings, const Context &c)
{
    ShiftTotalsModel totals;
    totals.setReport(r);
    QString h = QStringLiteral("<html><body style=\"font-family: sans-serif;\">");
    h += QStringLiteral("<h2>%1</h2>").arg(esc(r.closedAt > 0 ? tr("Z report: shift %1 closed").arg(r.number) : tr("Shift %1 (open): report so far").arg(r.number)));
    h += QStringLiteral("<p>%1<br>%2<br>%3</p>")
             .arg(esc(c.shopName), esc(tr("Terminal %1").arg(c.terminal)),
                 esc(tr("Opened %1, %2 %3").arg(when(r.openedAt), r.closedAt > 0 ? tr("closed") : tr("printed"), when(r.closedAt > 0 ? r.closedAt : r.generatedAt))));
    h += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\" width=\"100%\">");
    h += QStringLiteral("<tr><th align=\"left\">%1</th><th align=\"right\">%2</th><th align=\"right\">%3</th></tr>")
             .arg(esc(tr("Totals")), esc(tr("Count")), esc(tr("Amount")));
    for (int row = 0; row < totals.rowCount(); ++row) {
        h += QStringLiteral("<tr><td>%1</td><td align=\"right\">%2</td><td align=\"right\">%3</td></tr>")
                 .arg(esc(totals.index(row, 0).data().toString()), esc(totals.index(row, 1).data().toString()),
                     esc(totals.index(row, 2).data().toString()));
    }
    h += QStringLiteral("</table>");
    QString drawer = tr("Cash drawer: float %1 + cash sales %2 − cash refunds %3 = expected %4.")
                         .arg(r.money(r.openingFloat).toDisplayString(), r.money(r.cashSales.amount).toDisplayString(),
                             r.money(r.cashRefunds.amount).toDisplayString(), r.money(r.cashExpected()).toDisplayString());
    if (r.countedCash) {
        const qint64 d = *r.cashDifference();
        const QString difference = d == 0 ? tr("the drawer is right")
            : d < 0                       ? tr("%1 missing").arg(r.money(-d).toDisplayString())
                                          : tr("%1 too much").arg(r.money(d).toDisplayString());
        drawer += QLatin1Char(' ') + tr("Counted %1: %2.").arg(r.money(*r.countedCash).toDisplayString(), difference);
    }
    h += QStringLiteral("<p><b>%1</b></p>").arg(esc(drawer));
    // Issue 35: the customer's money in the shop's hands, right after the drawer (also in the
    // report of a past shift: it is kept with it).
    if (r.owesRefunds()) {
        h += QStringLiteral("<p style=\"color: #b00020;\"><b>%1</b></p><ul>")
                 .arg(esc(tr("Refunds the till owes and could not make (the customer paid twice):")));
        for (const ShiftReport::Waiting &w : r.refundsOwed)
            h += QStringLiteral("<li>%1</li>").arg(esc(owedLine(w)));
        h += QStringLiteral("</ul>");
    }
    // Issue 23: the tax of the shift's sales per rate, their discounts, and a line per cashier.
    if (!r.taxBands.isEmpty()) {
        h += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\" width=\"100%\">");
        h += QStringLiteral("<tr><th align=\"left\">%1</th><th align=\"right\">%2</th><th align=\"right\">%3</th>"
                            "<th align=\"right\">%4</th></tr>")
                 .arg(esc(tr("VAT")), esc(tr("Net")), esc(tr("Tax")), esc(tr("Gross")));
        for (const TaxBand &b : r.taxBands) {
            h += QStringLiteral("<tr><td>%1</td><td align=\"right\">%2</td><td align=\"right\">%3</td><td align=\"right\">%4</td></tr>")
                     .arg(esc(vatRateText(b.vatBasisPoints)), esc(r.money(b.net).toDisplayString()),
                         esc(r.money(b.tax).toDisplayString()), esc(r.money(b.gross).toDisplayString()));
        }
        h += QStringLiteral("</table>");
    }
    if (r.refundsNotByItem.count > 0) {
        h += QStringLiteral("<p>%1</p>").arg(esc(tr("Refunded as an amount, not by items: %n refund(s), %1 in all; their tax is not taken off the rates above.", nullptr, r.refundsNotByItem.count).arg(r.money(r.refundsNotByItem.amount).toDisplayString())));
    }
    if (r.discounts.count > 0) {
        h += QStringLiteral("<p>%1</p>").arg(esc(tr("Discounts: %n sale(s), %1 in all.", nullptr, r.discounts.count).arg(r.money(r.discounts.amount).toDisplayString())));
    }
    const bool staffed = std::any_of(r.perStaff.cbegin(), r.perStaff.cend(), [](const ShiftReport::StaffLine &l) {
        return !l.staff.isEmpty();
    });
    if (staffed) {
        h += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\" width=\"100%\">");
        h += QStringLiteral("<tr><th align=\"left\">%1</th><th align=\"right\">%2</th><th align=\"right\">%3</th></tr>")
                 .arg(esc(tr("Cashier")), esc(tr("Takings")), esc(tr("Refunds")));
        for (const ShiftReport::StaffLine &l : r.perStaff) {
            h += QStringLiteral("<tr><td>%1</td><td align=\"right\">%2 (%3)</td><td align=\"right\">%4 (%5)</td></tr>")
                     .arg(esc(l.staff.isEmpty() ? tr("(no one signed in)") : l.staff), esc(r.money(l.sales.amount).toDisplayString()))
                     .arg(l.sales.count)
                     .arg(esc(r.money(l.refunds.amount).toDisplayString()))
                     .arg(l.refunds.count);
        }
        h += QStringLiteral("</table>");
    }
    // Issue 36: the sales on hold, each by its number and time: no money, but a customer's items.
    if (!r.parked.isEmpty()) {
        const ShiftReport::Totals parked = r.parkedTotals();
        h += QStringLiteral("<p>%1</p><ul>")
                 .arg(esc(tr("Sales left parked (nothing paid): %n, %1 in all.", nullptr, parked.count).arg(r.money(parked.amount).toDisplayString())));
        for (const ShiftReport::Parked &p : r.parked)
            h += QStringLiteral("<li>%1</li>").arg(esc(parkedLine(p)));
        h += QStringLiteral("</ul>");
    }
    if (!c.waitingLines.isEmpty()) {
        h += QStringLiteral("<p>%1</p><ul>").arg(esc(tr("Still waiting for the server:")));
        for (const QString &l : c.waitingLines)
            h += QStringLiteral("<li>%1</li>").arg(esc(l));
        h += QStringLiteral("</ul>");
    }
    if (!c.tillRefundLines.isEmpty()) {
        h += QStringLiteral("<p>%1</p><ul>").arg(esc(tr("Refunded by the till by itself:")));
        for (const QString &l : c.tillRefundLines)
            h += QStringLiteral("<li>%1</li>").arg(esc(l));
        h += QStringLiteral("</ul>");
    }
    if (!c.endedLines.isEmpty()) {
        h += QStringLiteral("<p>%1</p><ul>").arg(esc(tr("Waiting at the last close, and how they ended:")));
        for (const QString &l : c.endedLines)
            h += QStringLiteral("<li>%1</li>").arg(esc(l));
        h += QStringLiteral("</ul>");
    }
    h += QStringLiteral("<p>%1</p><img src=\"%2\" width=\"600\">").arg(esc(tr("Sales per hour")), chartResource());
    h += QStringLiteral("<h3>%1</h3>").arg(esc(tr("Reconciliation with the server and the bank")));
    const auto needing = std::count_if(findings.cbegin(), findings.cend(), [](const ShiftFinding &f) {
        return f.needsAction();
    });
    if (!c.reconciled)
        h += QStringLiteral("<p>%1</p>").arg(esc(tr("Not checked: the server could not be asked.")));
    else
        h += QStringLiteral("<p>%1</p>").arg(esc(tr("%1 of %2 rows need nothing.").arg(findings.size() - needing).arg(findings.size())));
    if (c.reconciled && needing > 0) {
        // Only the rows that need something; no table at all (not an empty header) when none does.
        h += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\"><tr><th>%1</th><th>%2</th>"
                            "<th>%3</th><th>%4</th></tr>")
                 .arg(esc(tr("Sale")), esc(tr("Finding")), esc(tr("Bank")), esc(tr("What to do")));
        for (const ShiftFinding &f : findings) {
            if (!f.needsAction())
                continue;   // the rows that agree are counted above: a printout of 10,000 lines helps nobody
            h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td></tr>")
                     .arg(esc(f.saleNumber.isEmpty() ? f.orderId : f.saleNumber), esc(f.findingText()), esc(f.bankText()), esc(f.advice()));
        }
        h += QStringLiteral("</table>");
    }
    h += QStringLiteral("</body></html>");
    return h;
}

QString ShiftReportDocument::fileName(const ShiftReport &report, const QString &terminal)
{
    QString safe = terminal;
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9_-]"));
    safe.replace(unsafe, QStringLiteral("_"));
    return QStringLiteral("z-report-%1-shift-%2.pdf").arg(safe.isEmpty() ? QStringLiteral("till") : safe).arg(report.number);
}

QByteArray ShiftReportDocument::pdf(const QString &html, const QImage &chart)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setResolution(150);
        writer.setTitle(tr("Z report"));
        QTextDocument doc;
        doc.addResource(QTextDocument::ImageResource, QUrl(chartResource()), chart);
        doc.setHtml(html);
        doc.setPageSize(writer.pageLayout().paintRectPixels(writer.resolution()).size());
        doc.print(&writer);
    }
    return bytes;
}

}   // namespace OncePay::Ui
