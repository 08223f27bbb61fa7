// oncepay-escpos-png STREAM OUT.png: what an ESC/POS byte stream (a file sink's content, the
// test printer's capture) puts on paper, as a PNG: each whole document's raster images one under
// the other, documents separated by a grey tear-off band. Parsed by the test printer's parser
// (testprinter.h), not by the till's encoder. Exit 0 written, 1 not (one line on stderr).
#include "testprinter.h"

#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>

#include <cstdio>

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    if (argc != 3) {
        std::fprintf(stderr, "usage: oncepay-escpos-png STREAM OUT.png\n");
        return 2;
    }
    QFile in(QString::fromLocal8Bit(argv[1]));
    if (!in.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "oncepay-escpos-png: %s: %s\n", argv[1], qPrintable(in.errorString()));
        return 1;
    }
    const auto log = OncePay::Test::PrintLog::parse(in.readAll());
    if (log.documents.isEmpty()) {
        std::fprintf(stderr, "oncepay-escpos-png: %s holds no whole document (%d partial)\n", argv[1], log.partial);
        return 1;
    }
    constexpr int kTear = 24;
    int width = 0;
    int height = 0;
    for (const auto &doc : log.documents) {
        width = qMax(width, doc.width());
        height += doc.height() + kTear;
    }
    QImage out(width, height, QImage::Format_RGB32);
    out.fill(Qt::white);
    int y = 0;
    for (const auto &doc : log.documents) {
        for (const auto &image : doc.images) {
            const int rowBytes = image.width / 8;
            for (int row = 0; row < image.height; ++row) {
                auto *line = reinterpret_cast<QRgb *>(out.scanLine(y + row));
                for (int x = 0; x < image.width; ++x) {
                    const auto byte = static_cast<unsigned char>(image.bits.at(row * rowBytes + x / 8));
                    if (byte & (0x80 >> (x % 8)))
                        line[x] = qRgb(0, 0, 0);
                }
            }
            y += image.height;
        }
        QPainter(&out).fillRect(0, y + kTear / 3, width, kTear / 3, QColor(200, 200, 200));
        y += kTear;
    }
    if (!out.save(QString::fromLocal8Bit(argv[2]))) {
        std::fprintf(stderr, "oncepay-escpos-png: cannot write %s\n", argv[2]);
        return 1;
    }
    std::printf("%d document(s), %d partial, %d drawer pulse(s): %dx%d dots\n", int(log.documents.size()), log.partial,
        log.pulses, width, height);
    return 0;
}
