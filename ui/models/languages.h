#pragma once

#include <QString>
#include <QStringList>

class QCoreApplication;

namespace OncePay::Ui {

// A language the till shows its words (and its products' names) in.
enum class Language {
    English,
    SimplifiedChinese
};
// "zh_CN" (or any zh) is Simplified Chinese; anything else English.
Language languageFromCode(const QString &code);

// The languages the till ships: English (the source language) and Simplified Chinese.
QStringList availableLanguages();

// The language asked for: `--language en|zh_CN` in `arguments`, which is then remembered in
// QSettings "ui/language", or else the remembered one. Empty means "follow the system".
QString requestedLanguage(const QStringList &arguments);

// `language` if the till ships it, else the first of the system's languages that it ships,
// else English.
QString resolveLanguage(const QString &language);

// Installs the till's translator and Qt's own (qtbase) for `language` as resolved above,
// owned by `app`; returns the language installed ("en" or "zh_CN").
QString installTranslators(QCoreApplication &app, const QString &language);

}   // namespace OncePay::Ui
