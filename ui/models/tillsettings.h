#pragma once

#include "intentpolicy.h"

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QUrl>

namespace OncePay::Ui {

// What a merchant sets once per till, kept in QSettings: the gateway and token (no gateway =
// the embedded demo; several = instances of one gateway, tried in turn), the terminal's name,
// the offline limits, the language, and the shop the receipts name.
struct TillSettings
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::Ui::TillSettings)

public:
    QList<QUrl> gatewayUrls;
    QString token = QStringLiteral("sk_test_demo_till1");
    QString terminal = QStringLiteral("till-1");
    OfflineLimits limits{500'00, 2000'00, 24 * 3600 * 1000LL};
    QString language;   // "", "en" or "zh_CN"
    // A card payment with no final answer after this long is handed to the queue ("not
    // confirmed yet"), so that the cashier may serve the next customer.
    int unconfirmedAfterSeconds = 30;
    // Printed at the top of every receipt. A till that never set them prints the demo shop's
    // (in the till's language).
    QString shopName = defaultShopName();
    QString shopAddress = defaultShopAddress();

    static QString defaultShopName();
    static QString defaultShopAddress();

    static TillSettings load();
    void save() const;
};

}   // namespace OncePay::Ui
