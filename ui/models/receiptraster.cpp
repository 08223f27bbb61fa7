#include "receiptraster.h"

#include "receipt.h"

#include <QAbstractTextDocumentLayout>
#include <QDateTime>
#include <QLocale>
#include <QPainter>
#include <QTextDocument>

namespace OncePay::Ui {

EscPos::Raster ReceiptRaster::rasterize(const QString &html, int dots)
{
    QTextDocument doc;
    QFont font = doc.defaultFont();
    // 203 dpi: 24 dots is the height of a printer's own font A, readable at arm's length.
    font.setPixelSize(dots <= EscPos::kDots58 ? 20 : 24);
    doc.setDefaultFont(font);
    doc.setDocumentMargin(4);
    doc.setHtml(html);
    doc.setTextWidth(dots);
    const int height = qMax(1, int(std::ceil(doc.size().height())));
    QImage image(dots, height, QImage::Format_RGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing, false);
        painter.setRenderHint(QPainter::TextAntialiasing, true);
        QAbstractTextDocumentLayout::PaintContext context;
        context.palette.setColor(QPalette::Text, Qt::black);
        doc.documentLayout()->draw(&painter, context);
    }
    return fromImage(image);
}

EscPos::Raster ReceiptRaster::fromImage(const QImage &source)
{
    const QImage image = source.convertToFormat(QImage::Format_RGB32);
    EscPos::Raster r;
    r.width = (image.width() + 7) / 8 * 8;
    r.height = image.height();
    r.bits = QByteArray(r.bytesPerRow() * r.height, '\0');
    for (int y = 0; y < image.height(); ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
        char *out = r.bits.data() + y * r.bytesPerRow();
        for (int x = 0; x < image.width(); ++x) {
            if (qGray(line[x]) < 150)   // a little below middle grey: anti-aliased text stays bold enough
                out[x / 8] = char(out[x / 8] | (0x80 >> (x % 8)));
        }
    }
    return r;
}

QByteArray ReceiptRaster::job(const QString &html, int paperMm, bool pulseDrawer)
{
    return EscPos::document({rasterize(html, EscPos::dotsForPaper(paperMm))}, pulseDrawer);
}

QImage ReceiptRaster::toImage(const EscPos::Raster &raster)
{
    QImage image(raster.width, raster.height, QImage::Format_Mono);
    image.setColorTable({qRgb(255, 255, 255), qRgb(0, 0, 0)});
    for (int y = 0; y < raster.height; ++y)
        std::memcpy(image.scanLine(y), raster.bits.constData() + y * raster.bytesPerRow(), size_t(raster.bytesPerRow()));
    return image;
}

QString ReceiptRaster::testPageHtml(const QString &shopName, const QString &printer, int paperMm)
{
    const auto esc = [](const QString &s) {
        return s.toHtmlEscaped();
    };
    QString out = QStringLiteral("<h2 align=center>%1</h2>").arg(esc(shopName));
    out += QStringLiteral("<h3 align=center>%1</h3>").arg(esc(tr("Printer test page")));
    out += QStringLiteral("<p>%1<br>%2<br>%3</p>")
               .arg(esc(tr("Printer: %1").arg(printer)), esc(tr("Paper: %1 mm").arg(paperMm)),
                   esc(QLocale().toString(QDateTime::currentDateTime(), QLocale::ShortFormat)));
    // Both scripts whatever the till's language: a printer that prints this prints every receipt.
    out += QStringLiteral("<p>English: The quick brown fox jumps over the lazy dog. 0123456789<br>"
                          "中文：谢谢惠顾，欢迎再次光临！ ¥12.50</p>");
    out += Receipt::barcodeHtml(QStringLiteral("TEST-0001"));
    out += QStringLiteral("<p align=center>%1</p>").arg(esc(tr("If this page is whole and cut, the printer is ready.")));
    return out;
}

}   // namespace OncePay::Ui
