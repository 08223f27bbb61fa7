#pragma once

#include "barcode.h"
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

    // Where the shop's catalog is fetched from (empty: imported on the till); --catalog-url wins.
    QString catalogUrl;
    // The shop's office (issue 38): where the till's records are sent, and the till's token there
    // (kept, like the gateway's, in this owner-only file). Empty: no office. --office wins.
    QString officeUrl;
    QString officeToken;
    // The most a cashier may type for an open-price product (minor units).
    qint64 openPriceLimit = 1000'00;
    // How the shop's scales print weighed goods' labels (EmbeddedLayout), tried in turn.
    QStringList barcodeLayouts{QStringLiteral("2T IIIII VVVVV C")};
    QList<EmbeddedLayout> embeddedLayouts() const;
    // Staff (once a manager exists): what a cashier may not do alone. A discount of more than
    // this percent of what it is on; a card refund above this amount (minor units; a cash
    // refund always needs one); and the idle minutes after which the till locks (0: never).
    int discountLimitPercent = 10;
    qint64 refundLimit = 200'00;
    // Issue 36: a shift closed with the counted cash further than this from what the drawer should
    // hold (minor units, either way; 0: any difference) needs a manager's PIN.
    qint64 cashDifferenceLimit = 1'00;
    int idleLockMinutes = 5;

    // The counter's devices (issue 24). The receipt printer (PrinterUri: tcp://HOST:PORT,
    // file:///dev/usb/lp0, cups://QUEUE; empty: none, receipts through the system's print dialog),
    // its paper (58 or 80 mm), whether a paid sale's receipt prints by itself; the drawer's own
    // device when it is not on the printer (empty: the printer kicks it); the customer display's
    // screen (-1: none) and its language ("en", "zh_CN"), apart from the cashier's.
    QString printerUri;
    int paperWidthMm = 80;
    bool autoPrint = true;
    QString drawerUri;
    int customerDisplayScreen = -1;
    QString customerDisplayLanguage = QStringLiteral("zh_CN");

    static QString defaultShopName();
    static QString defaultShopAddress();

    static TillSettings load();
    void save() const;
};

}   // namespace OncePay::Ui
