#include "receipt.h"

#include <QDateTime>
#include <QFileInfo>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>

namespace OncePay::Ui {

QString receiptHtml(const Intent &intent, const CartModel &cart, const QString &terminal)
{
    Q_ASSERT(intent.state == IntentState::Succeeded);
    QString rows;
    for (int r = 0; r < cart.rowCount(); ++r) {
        auto cell = [&](CartModel::Column c) { return cart.data(cart.index(r, int(c))).toString().toHtmlEscaped(); };
        rows += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td></tr>")
                    .arg(cell(CartModel::Column::Name), cell(CartModel::Column::Quantity), cell(CartModel::Column::LineTotal));
    }
    const QString method = intent.isCash() ? QObject::tr("Cash") : QObject::tr("Card (%1)").arg(intent.paymentMethod);
    return QStringLiteral(
               "<h2 align=center>OncePay</h2><p align=center>%1<br>%2</p>"
               "<table width=100%>%3</table><hr>"
               "<p><b>%4 %5</b><br>%6<br>%7<br>%8</p>")
        .arg(QObject::tr("Sale %1").arg(intent.orderId).toHtmlEscaped(),
             QDateTime::fromMSecsSinceEpoch(intent.updatedAt).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
             rows, QObject::tr("Total").toHtmlEscaped(), intent.amount.toDisplayString().toHtmlEscaped(),
             method.toHtmlEscaped(),
             intent.isCash() ? QString() : QObject::tr("Payment %1").arg(intent.paymentId).toHtmlEscaped(),
             QObject::tr("Terminal %1").arg(terminal).toHtmlEscaped());
}

bool saveReceiptPdf(const QString &html, const QString &path, QString *error)
{
    QPdfWriter writer(path);
    writer.setPageSize(QPageSize(QSizeF(80, 200), QPageSize::Millimeter));   // a receipt roll
    writer.setResolution(300);
    writer.setTitle(QObject::tr("Receipt"));
    QTextDocument doc;
    doc.setHtml(html);
    doc.setPageSize(writer.pageLayout().paintRectPixels(writer.resolution()).size());
    doc.print(&writer);
    if (!QFileInfo::exists(path) || QFileInfo(path).size() == 0) {
        *error = QObject::tr("The receipt could not be written to %1.").arg(path);
        return false;
    }
    return true;
}

} // namespace OncePay::Ui
