#pragma once

#include "intentpolicy.h"

#include <QDialog>
#include <QList>
#include <QUrl>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace OncePay::Ui {

// What a merchant sets once per till, kept in QSettings: the gateway and token (no gateway =
// the embedded demo; several = instances of one gateway, tried in turn), the terminal's name,
// the offline limits, and the language.
struct TillSettings
{
    QList<QUrl> gatewayUrls;
    QString token = QStringLiteral("sk_test_demo_till1");
    QString terminal = QStringLiteral("till-1");
    OfflineLimits limits{500'00, 2000'00, 24 * 3600 * 1000LL};
    QString language;   // "", "en" or "zh_CN"

    static TillSettings load();
    void save() const;
};

class SettingsDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit SettingsDialog(const TillSettings &settings, const QString &currency, QWidget *parent = nullptr);
    TillSettings settings() const;

private:
    TillSettings m_initial;
    QString m_currency;
    QLineEdit *m_gateway = nullptr;
    QLineEdit *m_token = nullptr;
    QLineEdit *m_terminal = nullptr;
    QSpinBox *m_maxSingle = nullptr;
    QSpinBox *m_maxTotal = nullptr;
    QSpinBox *m_maxAgeHours = nullptr;
    QComboBox *m_language = nullptr;
};

} // namespace OncePay::Ui
