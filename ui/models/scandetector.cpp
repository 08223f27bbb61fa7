#include "scandetector.h"

#include <QKeyEvent>

namespace OncePay::Ui {

ScanDetector::ScanDetector(int longestTyped)
    : m_longestTyped(longestTyped)
{
}

void ScanDetector::reset()
{
    m_line.clear();
    m_burst.clear();
    m_lastMs = 0;
}

bool ScanDetector::continuesBurst(const QKeyEvent &event) const
{
    const quint64 at = event.timestamp();
    return !m_burst.isEmpty() && at != 0 && at >= m_lastMs && at - m_lastMs <= kMaxGapMs;
}

ScanDetector::Verdict ScanDetector::press(const QKeyEvent &event)
{
    const quint64 at = event.timestamp();
    const bool inBurst = at != 0 && m_lastMs != 0 && at >= m_lastMs && at - m_lastMs <= kMaxGapMs;
    const int key = event.key();
    if (key == Qt::Key_Return || key == Qt::Key_Enter) {
        const bool fast = inBurst && m_burst.size() >= kMinLength;
        const bool tooLong = m_longestTyped > 0 && m_line.size() > m_longestTyped;
        const Verdict verdict = fast || tooLong ? Verdict::Scanned : Verdict::Typed;
        m_code = fast ? m_burst : m_line;
        reset();
        return verdict;
    }
    // Shift and the like come with a scanner's capital letters: they neither add nor break.
    if (key >= Qt::Key_Shift && key <= Qt::Key_ScrollLock)
        return Verdict::None;
    const QString text = event.text();
    const bool character = !text.isEmpty() && text.at(0).isPrint()
        && !(event.modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier));
    if (!character) {
        // Backspace, arrows, a shortcut: a person's keys, never a scanner's.
        if (key == Qt::Key_Backspace)
            m_line.chop(1);
        m_burst.clear();
        m_lastMs = 0;
        return Verdict::None;
    }
    m_line += text;
    if (at == 0) {
        m_burst.clear();
        m_lastMs = 0;
        return Verdict::None;
    }
    m_burst = inBurst ? m_burst + text : text;
    m_lastMs = at;
    return Verdict::None;
}

}   // namespace OncePay::Ui
