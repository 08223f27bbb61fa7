#pragma once
// Screenshots for people (issue 36), shared by the GUI suites that take them: with
// ONCEPAY_SCREENSHOT_DIR set, the whole screen is saved (run under Xvfb at 1024x768 with
// -platform xcb and a window manager), in ONCEPAY_SCREENSHOT_LANGUAGE (en, zh_CN). A suite that
// includes this defines ONCEPAY_QM_DIR, where the till's compiled translations are.
#include <QCoreApplication>
#include <QGuiApplication>
#include <QPixmap>
#include <QScreen>
#include <QTranslator>

inline QString screenshotLanguage()
{
    return qEnvironmentVariable("ONCEPAY_SCREENSHOT_LANGUAGE", QStringLiteral("en"));
}

inline void installScreenshotLanguage()
{
    static QTranslator translator;
    if (screenshotLanguage() != QLatin1String("en")
        && translator.load(QStringLiteral("oncepay_") + screenshotLanguage(), QStringLiteral(ONCEPAY_QM_DIR)))
        QCoreApplication::installTranslator(&translator);
}

// A name or word as the screen shows it in the language of the run (English under ctest).
inline QString T(const char *context, const char *text)
{
    return QCoreApplication::translate(context, text);
}

inline bool english()
{
    return screenshotLanguage() == QLatin1String("en");
}

inline void saveScreen(const QString &name)
{
    const QString dir = qEnvironmentVariable("ONCEPAY_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QCoreApplication::processEvents();
    if (QScreen *screen = QGuiApplication::primaryScreen())
        screen->grabWindow(0).save(QStringLiteral("%1/%2-%3.png").arg(dir, name, screenshotLanguage()));
}
