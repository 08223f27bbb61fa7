#include "tillsettings.h"

#include "privatefiles.h"

#include <QFile>
#include <QFileInfo>
#include <QSettings>

namespace OncePay::Ui {

namespace {
// The settings hold the till's gateway token: owner only, as the journal and the staff list are
// (issue 35). QSettings writes through QSaveFile, which keeps an existing file's permissions, so
// narrowing the file once keeps it narrow; a file an older till wrote 0644 is narrowed when read.
void keepPrivate(QSettings &s)
{
    s.sync();
    const QString path = s.fileName();
    if (!QFileInfo::exists(path))
        return;
    QString error;   // a folder or file of another account stays as it is: nothing to add here
    PrivateFiles::makeFolder(QFileInfo(path).absolutePath(), true, &error);
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
}
}   // namespace

QList<EmbeddedLayout> TillSettings::embeddedLayouts() const
{
    QList<EmbeddedLayout> out;
    for (const QString &text : barcodeLayouts) {
        if (const std::optional<EmbeddedLayout> layout = EmbeddedLayout::parse(text))
            out.append(*layout);
    }
    return out;
}

TillSettings TillSettings::load()
{
    QSettings s;
    keepPrivate(s);
    TillSettings t;
    // "gateway/urls" since the till knows several; a till set up before keeps its "gateway/url".
    QStringList urls = s.value(QStringLiteral("gateway/urls")).toStringList();
    if (urls.isEmpty())
        urls = QStringList{s.value(QStringLiteral("gateway/url")).toString()};
    for (const QString &u : std::as_const(urls)) {
        if (!u.trimmed().isEmpty())
            t.gatewayUrls.append(QUrl(u.trimmed()));
    }
    t.token = s.value(QStringLiteral("gateway/token"), t.token).toString();
    t.terminal = s.value(QStringLiteral("till/terminal"), t.terminal).toString();
    t.limits.maxSingleAmount = s.value(QStringLiteral("offline/maxSingleMinor"), t.limits.maxSingleAmount).toLongLong();
    t.limits.maxTotalAmount = s.value(QStringLiteral("offline/maxTotalMinor"), t.limits.maxTotalAmount).toLongLong();
    t.limits.maxAgeMs = s.value(QStringLiteral("offline/maxAgeMs"), t.limits.maxAgeMs).toLongLong();
    t.language = s.value(QStringLiteral("ui/language")).toString();
    t.unconfirmedAfterSeconds = qBound(5, s.value(QStringLiteral("till/unconfirmedAfterSeconds"), t.unconfirmedAfterSeconds).toInt(), 600);
    t.shopName = s.value(QStringLiteral("shop/name"), t.shopName).toString();
    t.shopAddress = s.value(QStringLiteral("shop/address"), t.shopAddress).toString();
    t.catalogUrl = s.value(QStringLiteral("shop/catalogUrl")).toString();
    t.officeUrl = s.value(QStringLiteral("office/url")).toString();
    t.officeToken = s.value(QStringLiteral("office/token")).toString();
    t.openPriceLimit = qBound(qint64(1), s.value(QStringLiteral("till/openPriceLimit"), t.openPriceLimit).toLongLong(), qint64(100000000));
    t.barcodeLayouts = s.value(QStringLiteral("till/barcodeLayouts"), t.barcodeLayouts).toStringList();
    t.discountLimitPercent = qBound(0, s.value(QStringLiteral("staff/discountLimitPercent"), t.discountLimitPercent).toInt(), 100);
    t.refundLimit = qBound(qint64(0), s.value(QStringLiteral("staff/refundLimit"), t.refundLimit).toLongLong(), qint64(100000000));
    t.cashDifferenceLimit = qBound(qint64(0), s.value(QStringLiteral("staff/cashDifferenceLimit"), t.cashDifferenceLimit).toLongLong(), qint64(100000000));
    t.idleLockMinutes = qBound(0, s.value(QStringLiteral("staff/idleLockMinutes"), t.idleLockMinutes).toInt(), 240);
    t.printerUri = s.value(QStringLiteral("devices/printer")).toString();
    t.paperWidthMm = s.value(QStringLiteral("devices/paperWidthMm"), t.paperWidthMm).toInt() == 58 ? 58 : 80;
    t.autoPrint = s.value(QStringLiteral("devices/autoPrint"), t.autoPrint).toBool();
    t.drawerUri = s.value(QStringLiteral("devices/drawer")).toString();
    t.customerDisplayScreen = qBound(-1, s.value(QStringLiteral("devices/customerDisplayScreen"), t.customerDisplayScreen).toInt(), 16);
    t.customerDisplayLanguage = s.value(QStringLiteral("devices/customerDisplayLanguage"), t.customerDisplayLanguage).toString();
    return t;
}

QString TillSettings::defaultShopName()
{
    return tr("OncePay Demo Shop");
}

QString TillSettings::defaultShopAddress()
{
    return tr("1 Example Road, Huangpu District, Shanghai");
}

void TillSettings::save() const
{
    QSettings s;
    QStringList urls;
    for (const QUrl &u : gatewayUrls)
        urls.append(u.toString());
    s.setValue(QStringLiteral("gateway/urls"), urls);
    s.setValue(QStringLiteral("gateway/url"), urls.value(0));   // what a till of an earlier version reads
    s.setValue(QStringLiteral("gateway/token"), token);
    s.setValue(QStringLiteral("till/terminal"), terminal);
    s.setValue(QStringLiteral("offline/maxSingleMinor"), limits.maxSingleAmount);
    s.setValue(QStringLiteral("offline/maxTotalMinor"), limits.maxTotalAmount);
    s.setValue(QStringLiteral("offline/maxAgeMs"), limits.maxAgeMs);
    s.setValue(QStringLiteral("ui/language"), language);
    s.setValue(QStringLiteral("till/unconfirmedAfterSeconds"), unconfirmedAfterSeconds);
    s.setValue(QStringLiteral("shop/name"), shopName);
    s.setValue(QStringLiteral("shop/address"), shopAddress);
    s.setValue(QStringLiteral("shop/catalogUrl"), catalogUrl);
    s.setValue(QStringLiteral("office/url"), officeUrl);
    s.setValue(QStringLiteral("office/token"), officeToken);
    s.setValue(QStringLiteral("till/openPriceLimit"), openPriceLimit);
    s.setValue(QStringLiteral("till/barcodeLayouts"), barcodeLayouts);
    s.setValue(QStringLiteral("staff/discountLimitPercent"), discountLimitPercent);
    s.setValue(QStringLiteral("staff/refundLimit"), refundLimit);
    s.setValue(QStringLiteral("staff/cashDifferenceLimit"), cashDifferenceLimit);
    s.setValue(QStringLiteral("staff/idleLockMinutes"), idleLockMinutes);
    s.setValue(QStringLiteral("devices/printer"), printerUri);
    s.setValue(QStringLiteral("devices/paperWidthMm"), paperWidthMm);
    s.setValue(QStringLiteral("devices/autoPrint"), autoPrint);
    s.setValue(QStringLiteral("devices/drawer"), drawerUri);
    s.setValue(QStringLiteral("devices/customerDisplayScreen"), customerDisplayScreen);
    s.setValue(QStringLiteral("devices/customerDisplayLanguage"), customerDisplayLanguage);
    keepPrivate(s);
}

}   // namespace OncePay::Ui
