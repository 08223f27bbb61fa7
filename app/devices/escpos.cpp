#include "escpos.h"

#include <QCoreApplication>

namespace OncePay::EscPos {

namespace {

constexpr char ESC = 0x1B;
constexpr char GS = 0x1D;
constexpr char DLE = 0x10;
constexpr char EOT = 0x04;

// Every status byte has bit 1 and bit 4 set and bits 0 and 7 clear.
bool isStatusByte(char c)
{
    const auto b = static_cast<unsigned char>(c);
    return (b & 0x93) == 0x12;
}

}   // namespace

bool Raster::dot(int x, int y) const
{
    if (x < 0 || y < 0 || x >= width || y >= height)
        return false;
    const auto byte = static_cast<unsigned char>(bits.at(y * bytesPerRow() + x / 8));
    return (byte & (0x80 >> (x % 8))) != 0;
}

int dotsForPaper(int paperMm)
{
    return paperMm == 58 ? kDots58 : kDots80;
}

QByteArray initialize()
{
    return QByteArray{} + ESC + '@';
}

QByteArray raster(const Raster &image, int sliceRows)
{
    QByteArray out;
    if (!image.isValid())
        return out;
    const int rowBytes = image.bytesPerRow();
    sliceRows = qBound(1, sliceRows, 0xFFFF);
    out.reserve(image.bits.size() + (image.height / sliceRows + 1) * 8);
    for (int top = 0; top < image.height; top += sliceRows) {
        const int rows = qMin(sliceRows, image.height - top);
        out += GS;
        out += 'v';
        out += '0';
        out += char(0);   // normal density
        out += char(rowBytes & 0xFF);
        out += char((rowBytes >> 8) & 0xFF);
        out += char(rows & 0xFF);
        out += char((rows >> 8) & 0xFF);
        out += image.bits.mid(top * rowBytes, rows * rowBytes);
    }
    return out;
}

QByteArray feedAndCut()
{
    return QByteArray{} + GS + 'V' + char(66) + char(3);   // feed 3 motion units, then a partial cut
}

QByteArray drawerPulse()
{
    return QByteArray{} + ESC + 'p' + char(0) + char(25) + '\xFA';   // 50 ms on, 500 ms off
}

QByteArray realTimeDrawerPulse()
{
    constexpr char DC4 = 0x14;
    return QByteArray{} + DLE + DC4 + char(1) + char(0) + char(1);   // pin 2, 100 ms on, 100 ms off
}

QByteArray statusQueries()
{
    return QByteArray{} + DLE + EOT + char(1) + DLE + EOT + char(2) + DLE + EOT + char(4);
}

QByteArray document(const QList<Raster> &images, bool pulseDrawer)
{
    QByteArray out = initialize();
    if (pulseDrawer)
        out += drawerPulse();
    for (const Raster &image : images)
        out += raster(image);
    out += feedAndCut();
    return out;
}

QByteArray drawerOnly()
{
    return initialize() + drawerPulse();
}

QString Status::problem() const
{
    // The most useful word first: paper is what a cashier can fix.
    if (paperOut)
        return QCoreApplication::translate("OncePay::EscPos", "out of paper");
    if (coverOpen)
        return QCoreApplication::translate("OncePay::EscPos", "cover open");
    if (offline)
        return QCoreApplication::translate("OncePay::EscPos", "offline");
    if (error)
        return QCoreApplication::translate("OncePay::EscPos", "printer error");
    return {};
}

std::optional<Status> parseStatus(const QByteArray &answers)
{
    if (answers.size() != kStatusAnswerBytes || !isStatusByte(answers.at(0)) || !isStatusByte(answers.at(1))
        || !isStatusByte(answers.at(2)))
        return std::nullopt;
    const auto printer = static_cast<unsigned char>(answers.at(0));
    const auto offline = static_cast<unsigned char>(answers.at(1));
    const auto paper = static_cast<unsigned char>(answers.at(2));
    Status s;
    s.offline = (printer & 0x08) != 0;
    s.coverOpen = (offline & 0x04) != 0;
    s.paperOut = (offline & 0x20) != 0 || (paper & 0x60) != 0;
    s.error = (offline & 0x40) != 0;
    s.paperNearEnd = (paper & 0x0C) != 0;
    return s;
}

}   // namespace OncePay::EscPos
