#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace OncePay::EscPos {

// A one-bit image as a thermal printer takes it: `width` dots a row (a multiple of 8), rows top
// down, 8 dots a byte with the leftmost in the highest bit, 1 = black (burnt).
struct Raster
{
    int width = 0;
    int height = 0;
    QByteArray bits;   // (width / 8) * height bytes

    int bytesPerRow() const { return width / 8; }
    bool isValid() const { return width > 0 && width % 8 == 0 && height > 0 && bits.size() == bytesPerRow() * height; }
    bool dot(int x, int y) const;
};

// Dots across the paper at 203 dpi (8 dots a mm): the printable width of a 58 mm and of an
// 80 mm roll.
constexpr int kDots58 = 384;
constexpr int kDots80 = 576;
int dotsForPaper(int paperMm);   // 58 -> 384, anything else -> 576

// The commands the till sends (Epson's ESC/POS, the de facto standard of receipt printers).
QByteArray initialize();   // ESC @
// GS v 0: the image in slices of at most `sliceRows` rows (a printer's buffer is small).
QByteArray raster(const Raster &image, int sliceRows = 128);
QByteArray feedAndCut();   // GS V 66 n: feed to the cutter and cut (partial cut)
QByteArray drawerPulse();   // ESC p 0 t1 t2: the pulse of the drawer on connector pin 2
// DLE DC4 1 0 t: the same pulse in real time. A printer stopped for its paper or its cover (not
// in error) still obeys it at once, where ESC p would wait in its buffer and open the drawer
// when the paper is back, for nobody (Epson's ESC/POS reference, DLE DC4 fn = 1).
QByteArray realTimeDrawerPulse();
// DLE EOT 1 (printer), DLE EOT 2 (offline cause), DLE EOT 4 (roll paper): three one-byte answers.
QByteArray statusQueries();
constexpr int kStatusAnswerBytes = 3;

// A receipt: initialise, the images, cut (and the drawer's pulse first, so it opens while
// the paper prints).
QByteArray document(const QList<Raster> &images, bool pulseDrawer);
// A drawer pulse alone.
QByteArray drawerOnly();

// What the three status answers say.
struct Status
{
    bool offline = false;
    bool coverOpen = false;
    bool paperOut = false;
    bool paperNearEnd = false;
    bool error = false;   // an error the printer names no cause for (cutter, head temperature)

    bool ready() const { return !offline && !coverOpen && !paperOut && !error; }
    // Stopped, but not in error (out of paper, cover open): it still pulses the drawer in real time.
    bool takesRealTimePulse() const { return !error; }
    // "paper out", "cover open"... in the cashier's words (translated); empty when ready.
    QString problem() const;
};
// The answers to statusQueries(), in order; nullopt when they are not ESC/POS status bytes.
std::optional<Status> parseStatus(const QByteArray &answers);

}   // namespace OncePay::EscPos
