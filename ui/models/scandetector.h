#pragma once

#include <QString>

class QKeyEvent;

namespace OncePay::Ui {

// Tells a barcode scanner's keys from a person's (issue 36). A scanner is a keyboard that types
// a whole code in one burst, a few milliseconds a key, and ends it with Enter; a person types a
// PIN key by key, a tenth of a second or more apart. Fed the key presses a field receives, with
// their times (QInputEvent::timestamp(), the window system's milliseconds), it says at each
// Enter whether the line was scanned. A key without a time (0: made by a program, such as an
// on-screen keypad) is a person's. A line longer than `longestTyped` characters (a PIN field's
// 8) is a scan however it came, since no one types it there.
class ScanDetector final
{
public:
    static constexpr quint64 kMaxGapMs = 40;   // between two keys of one scan, and before its Enter
    static constexpr int kMinLength = 4;   // fewer keys that fast are a person's quick fingers

    enum class Verdict {
        None,   // not an Enter: the line goes on
        Typed,   // Enter ended a line a person typed (or an empty one)
        Scanned,   // Enter ended a scan: code() is what was scanned
    };

    explicit ScanDetector(int longestTyped = 0);

    Verdict press(const QKeyEvent &event);
    // The code of the scan the last Scanned verdict ended.
    QString code() const { return m_code; }
    // The last key pressed went on with a burst at a scanner's pace (its second key or later).
    bool inBurst() const { return m_burst.size() > 1; }
    // `event` (a key not fed yet: its shortcut override) comes at a scanner's pace after a key
    // of a burst.
    bool continuesBurst(const QKeyEvent &event) const;
    void reset();

private:
    int m_longestTyped;
    QString m_line;   // everything typed since the last Enter
    QString m_burst;   // the keys typed at a scanner's pace, the last one at m_lastMs
    quint64 m_lastMs = 0;
    QString m_code;
};

}   // namespace OncePay::Ui
