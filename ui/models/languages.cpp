#include "languages.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QLoggingCategory>
#include <QSettings>
#include <QTranslator>

namespace OncePay::Ui {

namespace {

Q_LOGGING_CATEGORY(lcI18n, "oncepay.ui.i18n", QtInfoMsg)

const QString kEnglish = QStringLiteral("en");
const QString kChinese = QStringLiteral("zh_CN");
const QString kSettingsKey = QStringLiteral("ui/language");

QString shippedLanguageOf(const QLocale &locale)
{
    if (locale.language() == QLocale::English)
        return kEnglish;
    // Traditional Chinese readers are not served by the Simplified translation.
    if (locale.language() == QLocale::Chinese && locale.script() != QLocale::TraditionalHanScript)
        return kChinese;
    return {};
}

bool installTranslator(QCoreApplication &app, const QString &fileName, const QString &directory)
{
    auto *translator = new QTranslator(&app);
    if (translator->load(fileName, directory) && QCoreApplication::installTranslator(translator))
        return true;
    qCWarning(lcI18n) << "cannot load the translation" << fileName << "from" << directory;
    delete translator;
    return false;
}

}   // namespace

QStringList availableLanguages()
{
    return {kEnglish, kChinese};
}

QString requestedLanguage(const QStringList &arguments)
{
    // Read before the real parser exists, so that its own help text is already translated.
    // The other options are the real parser's business: unknown ones are ignored here.
    QCommandLineParser early;
    const QCommandLineOption option(QStringLiteral("language"), QString(), QStringLiteral("LANG"));
    early.addOption(option);
    early.parse(arguments);

    QSettings settings;
    if (early.isSet(option)) {
        QString value = early.value(option);
        if (value == QLatin1String("system"))
            value.clear();
        if (value.isEmpty() || availableLanguages().contains(value)) {
            settings.setValue(kSettingsKey, value);
            return value;
        }
        qCWarning(lcI18n).noquote() << "unknown --language" << value << "(the till ships"
                                    << availableLanguages().join(QStringLiteral(", ")) + QLatin1Char(')');
    }
    return settings.value(kSettingsKey).toString();
}

QString resolveLanguage(const QString &language)
{
    if (availableLanguages().contains(language))
        return language;
    for (const QString &name : QLocale::system().uiLanguages()) {
        QString shipped = shippedLanguageOf(QLocale(name));
        if (!shipped.isEmpty())
            return shipped;
    }
    return kEnglish;
}

QString installTranslators(QCoreApplication &app, const QString &language)
{
    QString resolved = resolveLanguage(language);
    // English is the source language: its file holds only the plural forms.
    installTranslator(app, QStringLiteral("oncepay_") + resolved, QStringLiteral(":/i18n"));
    if (resolved != kEnglish)
        installTranslator(app, QStringLiteral("qtbase_") + resolved, QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    // Qt's own formatting (dates in views, numbers in spin boxes) follows the chosen language.
    if (shippedLanguageOf(QLocale::system()) != resolved)
        QLocale::setDefault(QLocale(resolved));
    return resolved;
}

Language languageFromCode(const QString &code)
{
    return code.startsWith(QLatin1String("zh")) ? Language::SimplifiedChinese : Language::English;
}

}   // namespace OncePay::Ui
