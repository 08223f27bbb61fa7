#pragma once

#include <QApplication>
#include <QKeyEvent>
#include <QTest>
#include <QtTest/qtestspontaneevent.h>

// Keys with the times a window system gives them (QInputEvent::timestamp(), in ms), which
// QTest::keyClicks leaves at 0: what tells a barcode scanner (a keyboard that types a whole code
// in one burst, then Enter) from a person to ui/models' ScanDetector. Sent to the widget that
// has the keyboard, as QTest sends its keys (the shortcut override first, then the key).
//
//     quint64 t = 1'000'000;
//     t = TimedKeys::scan(field, QStringLiteral("6901234500011"), t);    // 8 ms a key
//     t = TimedKeys::byHand(field, QStringLiteral("1357"), t + 2'000);   // 250 ms a key
namespace TimedKeys {

inline void send(QWidget *widget, QEvent::Type type, int key, const QString &text, quint64 at)
{
    if (type == QEvent::KeyPress && qt_sendShortcutOverrideEvent(widget, at, key, Qt::NoModifier, text))
        return;
    QKeyEvent event(type, key, Qt::NoModifier, text);
    event.setTimestamp(at);
    QSpontaneKeyEvent::setSpontaneous(&event);
    qApp->notify(widget, &event);
}

// Types `text`, then Enter, one key every `gapMs` from `startMs`; the time of the Enter.
inline quint64 type(QWidget *widget, const QString &text, quint64 startMs, quint64 gapMs)
{
    quint64 at = startMs;
    for (const QChar c : text) {
        const int key = c.isDigit() ? Qt::Key_0 + c.digitValue() : c.toUpper().unicode();
        send(widget, QEvent::KeyPress, key, QString(c), at);
        send(widget, QEvent::KeyRelease, key, QString(c), at + 1);
        at += gapMs;
    }
    send(widget, QEvent::KeyPress, Qt::Key_Return, QStringLiteral("\r"), at);
    send(widget, QEvent::KeyRelease, Qt::Key_Return, QStringLiteral("\r"), at + 1);
    return at;
}

// A scanner: 8 ms a key.
inline quint64 scan(QWidget *widget, const QString &code, quint64 startMs)
{
    return type(widget, code, startMs, 8);
}

// A person at a keypad: 250 ms a key.
inline quint64 byHand(QWidget *widget, const QString &text, quint64 startMs)
{
    return type(widget, text, startMs, 250);
}

}   // namespace TimedKeys
