#pragma once

#include "escpos.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QImage>
#include <QString>

namespace OncePay::Ui {

// A receipt (or a refund slip, a shift report, a test page) as a thermal printer prints it: the
// HTML document laid out `dots` wide in the till's own fonts, then one bit a dot. Chinese and the
// Code 128 sale number print on any ESC/POS printer this way, fonts or not in the printer.
class ReceiptRaster final
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::Ui::ReceiptRaster)

public:
    static EscPos::Raster rasterize(const QString &html, int dots);
    // The ESC/POS job: initialise, [drawer pulse], the image in slices, cut.
    static QByteArray job(const QString &html, int paperMm, bool pulseDrawer = false);
    // Black on white, one pixel a dot (the preview, and the decoder's PNG).
    static QImage toImage(const EscPos::Raster &raster);
    static EscPos::Raster fromImage(const QImage &image);
    // What "Print test page" prints: the shop, the printer's address, the paper, Chinese text and
    // a barcode, so that one look says whether fonts, width and the cutter are right.
    static QString testPageHtml(const QString &shopName, const QString &printer, int paperMm);
};

}   // namespace OncePay::Ui
