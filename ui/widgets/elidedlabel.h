#pragma once

#include <QLabel>

namespace OncePay::Ui {

// A one-line label for words of any length (the connection, a printer's problem, a passing
// message): whatever it says never changes the window's size (issue 36: a long printer message
// made the till wider than its 1024 px screen, and the Total read "¥4" for ¥40.00). It asks for
// at most `preferredChars` average characters and makes do with `minimumChars`, shows what fits
// with "…", and keeps the whole text a click away: its tooltip, and a click shows it in a
// tooltip, which never takes the keyboard (a scanner's keys still reach the scan field while it
// is open) and goes when the mouse leaves the label. text(), as a screen reader reads it, is
// always the whole text.
class ElidedLabel final : public QLabel
{
    Q_OBJECT

public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    void setPreferredChars(int chars);
    void setMinimumChars(int chars);
    bool isElided() const;
    QString shownText() const;   // what is painted: the text elided to the label's width
    void showWholeText();   // what a click does

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    int charsWide(int chars) const;
    int textWidth() const;   // the width available for the text

    int m_preferredChars = 40;
    int m_minimumChars = 6;
};

}   // namespace OncePay::Ui
