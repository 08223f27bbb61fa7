#include "settingsdialog.h"

#include "printerlink.h"
#include "receiptraster.h"

#include <QGuiApplication>
#include <QScreen>

#include "barcode.h"

#include <QCheckBox>
#include <QTabWidget>
#include <QVBoxLayout>

#include "gatewayclient.h"
#include "money.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>

namespace OncePay::Ui {

SettingsDialog::SettingsDialog(const TillSettings &settings, const QString &currency, QWidget *parent)
    : QDialog(parent)
    , m_initial(settings)
    , m_currency(currency)
{
    setWindowTitle(tr("Till settings"));
    auto *outer = new QVBoxLayout(this);
    auto *tabs = new QTabWidget(this);
    outer->addWidget(tabs);
    auto *tillPage = new QWidget(tabs);
    auto *form = new QFormLayout(tillPage);
    tabs->addTab(tillPage, tr("Till"));
    QStringList urls;
    for (const QUrl &u : settings.gatewayUrls)
        urls.append(u.toString());
    m_gateway = new QLineEdit(urls.join(QStringLiteral(", ")), this);
    m_gateway->setPlaceholderText(tr("empty: the built-in demo gateway"));
    m_gateway->setToolTip(tr("One gateway address, or several separated by commas. When one cannot be reached, the till uses the next; a payment is never charged twice."));
    m_gateway->setAccessibleName(tr("Gateway address"));
    m_token = new QLineEdit(settings.token, this);
    m_token->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    m_token->setAccessibleName(tr("Till token"));
    m_terminal = new QLineEdit(settings.terminal, this);
    m_terminal->setAccessibleName(tr("Terminal name"));
    const int unit = qMax(1, int(Money(1, currency).toDecimalString() == QLatin1String("1") ? 1 : 100));
    auto money = [this, unit](qint64 minor, const QString &name) {
        auto *box = new QSpinBox(this);
        box->setRange(0, 1'000'000);
        box->setValue(int(minor / unit));
        box->setSuffix(QLatin1Char(' ') + m_currency);
        box->setSpecialValueText(tr("no limit"));
        box->setAccessibleName(name);
        return box;
    };
    m_maxSingle = money(settings.limits.maxSingleAmount, tr("Largest offline card payment"));
    m_maxTotal = money(settings.limits.maxTotalAmount, tr("Most that may wait offline"));
    m_maxAgeHours = new QSpinBox(this);
    m_maxAgeHours->setRange(0, 24 * 30);
    m_maxAgeHours->setValue(int(settings.limits.maxAgeMs / 3'600'000));
    m_maxAgeHours->setSuffix(tr(" h"));
    m_maxAgeHours->setSpecialValueText(tr("no limit"));
    m_maxAgeHours->setAccessibleName(tr("Longest a payment may wait offline"));
    m_unconfirmedAfter = new QSpinBox(this);
    m_unconfirmedAfter->setRange(5, 600);
    m_unconfirmedAfter->setValue(settings.unconfirmedAfterSeconds);
    m_unconfirmedAfter->setSuffix(tr(" s"));
    m_unconfirmedAfter->setAccessibleName(tr("Longest the cashier waits for the bank's answer"));
    m_unconfirmedAfter->setToolTip(tr("After this, a card payment with no answer yet is confirmed by the till on its own and the next customer may be served."));
    m_language = new QComboBox(this);
    m_language->setAccessibleName(tr("Language"));
    m_language->addItem(tr("System language"), QString());
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));
    m_language->setCurrentIndex(qMax(0, m_language->findData(settings.language)));
    m_shopName = new QLineEdit(settings.shopName, this);
    m_shopName->setAccessibleName(tr("Shop name"));
    m_shopAddress = new QLineEdit(settings.shopAddress, this);
    m_shopAddress->setAccessibleName(tr("Shop address"));
    m_shopAddress->setToolTip(tr("Printed under the shop's name on every receipt."));

    form->addRow(tr("&Gateway:"), m_gateway);
    form->addRow(tr("&Token:"), m_token);
    form->addRow(tr("Te&rminal:"), m_terminal);
    form->addRow(tr("Largest &offline card payment:"), m_maxSingle);
    form->addRow(tr("Most waiting &offline in total:"), m_maxTotal);
    form->addRow(tr("Longest &wait offline:"), m_maxAgeHours);
    form->addRow(tr("Wait for the &bank's answer:"), m_unconfirmedAfter);
    form->addRow(tr("&Language:"), m_language);
    form->addRow(new QLabel(tr("The gateway, token and language apply when the till starts again; the limits and the shop at once."), this));

    auto *shopPage = new QWidget(tabs);
    auto *shop = new QFormLayout(shopPage);
    tabs->addTab(shopPage, tr("Shop"));
    // The shop's name and address are the shop's, printed on every receipt (issue 36, confusion 8).
    shop->addRow(tr("S&hop name:"), m_shopName);
    shop->addRow(tr("Shop addr&ess:"), m_shopAddress);
    m_catalogUrl = new QLineEdit(settings.catalogUrl, this);
    m_catalogUrl->setPlaceholderText(tr("empty: the catalog imported on this till"));
    m_catalogUrl->setAccessibleName(tr("Catalog URL"));
    m_catalogUrl->setToolTip(tr("Fetched at start and every five minutes; kept, so the till sells offline."));
    m_pricesExcludeVat = new QCheckBox(tr("Prices exclude VAT (it is added at the end)"), this);
    m_pricesExcludeVat->setAccessibleName(tr("Prices exclude VAT"));
    m_openPriceLimit = money(settings.openPriceLimit, tr("Highest typed price"));
    m_openPriceLimit->setSpecialValueText(QString());
    m_openPriceLimit->setMinimum(1);
    m_barcodeLayouts = new QLineEdit(settings.barcodeLayouts.join(QStringLiteral("; ")), this);
    m_barcodeLayouts->setAccessibleName(tr("Scale label layouts"));
    m_barcodeLayouts->setToolTip(tr("13 places: 2 and T the prefix and type, I the item code, V the price in fen or the weight "
                                    "in grams, P a price check digit, C the check digit; several separated by \";\"."));
    m_discountLimit = new QSpinBox(this);
    m_discountLimit->setRange(0, 100);
    m_discountLimit->setSuffix(QStringLiteral(" %"));
    m_discountLimit->setValue(settings.discountLimitPercent);
    m_discountLimit->setAccessibleName(tr("Largest discount without a manager"));
    m_refundLimit = money(settings.refundLimit, tr("Largest refund or void without a manager"));
    m_refundLimit->setSpecialValueText(QString());
    // Issue 36: closing a shift with the cash further off than this needs a manager; to the cent.
    m_cashDifferenceLimit = new QDoubleSpinBox(this);
    m_cashDifferenceLimit->setDecimals(unit == 100 ? 2 : 0);
    m_cashDifferenceLimit->setRange(0, 1'000'000);
    m_cashDifferenceLimit->setValue(double(settings.cashDifferenceLimit) / unit);
    m_cashDifferenceLimit->setSuffix(QLatin1Char(' ') + m_currency);
    m_cashDifferenceLimit->setSpecialValueText(tr("any difference"));
    m_cashDifferenceLimit->setAccessibleName(tr("Largest cash difference at the close without a manager"));
    m_cashDifferenceLimit->setToolTip(tr("A shift whose counted cash is further than this from what the drawer should hold, "
                                         "short or over, closes only with a manager's PIN."));
    m_idleLock = new QSpinBox(this);
    m_idleLock->setRange(0, 240);
    m_idleLock->setValue(settings.idleLockMinutes);
    m_idleLock->setSuffix(tr(" min"));
    m_idleLock->setSpecialValueText(tr("never"));
    m_idleLock->setAccessibleName(tr("Lock after idle time"));
    shop->addRow(tr("&Catalog URL:"), m_catalogUrl);
    m_office = new QLineEdit(settings.officeUrl, this);
    m_office->setPlaceholderText(tr("empty: no office"));
    m_office->setAccessibleName(tr("Office address"));
    m_office->setToolTip(tr("The shop's office, where this till sends its sales, refunds, cash and Z reports, each once. They wait on the till while it cannot be reached."));
    m_officeToken = new QLineEdit(settings.officeToken, this);
    m_officeToken->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    m_officeToken->setAccessibleName(tr("Office token"));
    shop->addRow(tr("O&ffice:"), m_office);
    shop->addRow(tr("Office to&ken:"), m_officeToken);
    shop->addRow(QString(), m_pricesExcludeVat);
    shop->addRow(tr("Highest &typed price:"), m_openPriceLimit);
    shop->addRow(tr("Scale &labels:"), m_barcodeLayouts);
    shop->addRow(tr("Largest &discount without a manager:"), m_discountLimit);
    shop->addRow(tr("Largest &refund or void without a manager:"), m_refundLimit);
    shop->addRow(tr("Largest cash difference at the close without a &manager:"), m_cashDifferenceLimit);
    shop->addRow(tr("Lock after &idle:"), m_idleLock);
    shop->addRow(new QLabel(tr("The limits apply once a manager is added (oncepay-ctl staff add); cash refunds always need one."), this));

    // The counter's devices (issue 24).
    auto *devicesPage = new QWidget(tabs);
    auto *devices = new QFormLayout(devicesPage);
    tabs->addTab(devicesPage, tr("Devices"));
    m_printer = new QLineEdit(settings.printerUri, this);
    m_printer->setPlaceholderText(tr("tcp://192.0.2.20:9100, file:///dev/usb/lp0 or cups://QUEUE"));
    m_printer->setAccessibleName(tr("Receipt printer"));
    m_paperWidth = new QComboBox(this);
    m_paperWidth->addItem(tr("80 mm"), 80);
    m_paperWidth->addItem(tr("58 mm"), 58);
    m_paperWidth->setCurrentIndex(settings.paperWidthMm == 58 ? 1 : 0);
    m_paperWidth->setAccessibleName(tr("Paper width"));
    m_autoPrint = new QCheckBox(tr("Print the receipt when a sale is paid"), this);
    m_autoPrint->setChecked(settings.autoPrint);
    m_drawer = new QLineEdit(settings.drawerUri, this);
    m_drawer->setPlaceholderText(tr("empty: the printer opens the drawer"));
    m_drawer->setAccessibleName(tr("Cash drawer device"));
    auto *testPage = new QPushButton(tr("Print &test page"), this);
    testPage->setAccessibleName(tr("Print a test page on the receipt printer"));
    m_testResult = new QLabel(this);
    m_testResult->setWordWrap(true);
    m_customerScreen = new QComboBox(this);
    m_customerScreen->addItem(tr("None"), -1);
    const QList<QScreen *> screens = QGuiApplication::screens();
    for (int i = 0; i < screens.size(); ++i)
        m_customerScreen->addItem(tr("Screen %1 (%2)").arg(i).arg(screens.at(i)->name()), i);
    if (settings.customerDisplayScreen >= screens.size())
        m_customerScreen->addItem(tr("Screen %1 (not connected)").arg(settings.customerDisplayScreen), settings.customerDisplayScreen);
    m_customerScreen->setCurrentIndex(qMax(0, m_customerScreen->findData(settings.customerDisplayScreen)));
    m_customerScreen->setAccessibleName(tr("Customer display screen"));
    m_customerLanguage = new QComboBox(this);
    m_customerLanguage->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_customerLanguage->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));
    m_customerLanguage->setCurrentIndex(settings.customerDisplayLanguage.startsWith(QLatin1String("zh")) ? 1 : 0);
    m_customerLanguage->setAccessibleName(tr("Customer display language"));
    devices->addRow(tr("Receipt &printer:"), m_printer);
    devices->addRow(tr("Paper w&idth:"), m_paperWidth);
    devices->addRow(QString(), m_autoPrint);
    devices->addRow(tr("Cash dra&wer:"), m_drawer);
    devices->addRow(testPage, m_testResult);
    devices->addRow(tr("C&ustomer display:"), m_customerScreen);
    devices->addRow(tr("Customer display &language:"), m_customerLanguage);
    connect(testPage, &QPushButton::clicked, this, [this] {
        QString error;
        const auto uri = PrinterUri::parse(m_printer->text(), &error);
        if (!uri) {
            m_testResult->setText(error);
            return;
        }
        m_testResult->setText(tr("Printing…"));
        m_testLink = PrinterLink::make(*uri);
        m_testLink->setTimeoutMs(5000);
        const int paper = m_paperWidth->currentData().toInt();
        const QByteArray job = ReceiptRaster::job(ReceiptRaster::testPageHtml(m_shopName->text(), uri->toString(), paper), paper);
        m_testLink->send(job, tr("Test page"), this, {}, [this](const PrinterLink::Result &result) {
            m_testResult->setText(result.kind == PrinterLink::Result::Kind::Printed ? tr("The test page was printed.") : result.reason);
        });
    });
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        QString invalid;
        if (!m_gateway->text().trimmed().isEmpty() && !GatewayClient::parseBaseUrls(m_gateway->text(), &invalid)) {
            QMessageBox::warning(this, windowTitle(),
                tr("\"%1\" is not a gateway address. Enter an address such as http://192.0.2.10:8080, "
                   "several separated by commas, or leave the field empty for the demo.")
                    .arg(invalid));
            return;
        }
        if (m_shopName->text().trimmed().isEmpty()) {
            QMessageBox::warning(this, windowTitle(), tr("Receipts need the shop's name."));
            return;
        }
        if (m_token->text().trimmed().isEmpty()) {
            QMessageBox::warning(this, windowTitle(), tr("The till needs a token."));
            return;
        }
        const QString url = m_catalogUrl->text().trimmed();
        if (!url.isEmpty() && !QUrl(url, QUrl::StrictMode).isValid()) {
            QMessageBox::warning(this, windowTitle(), tr("\"%1\" is not a catalog URL such as https://shop.example/catalog.csv.").arg(url));
            return;
        }
        const QString office = m_office->text().trimmed();
        const QUrl officeUrl(office, QUrl::StrictMode);
        if (!office.isEmpty() && (!officeUrl.isValid() || officeUrl.host().isEmpty() || (officeUrl.scheme() != QLatin1String("http") && officeUrl.scheme() != QLatin1String("https")))) {
            QMessageBox::warning(this, windowTitle(), tr("\"%1\" is not an office address such as http://192.0.2.20:8090.").arg(office));
            return;
        }
        if (!office.isEmpty() && m_officeToken->text().trimmed().isEmpty()) {
            QMessageBox::warning(this, windowTitle(), tr("The office needs the till's token."));
            return;
        }
        for (QLineEdit *device : {m_printer, m_drawer}) {
            QString error;
            if (!device->text().trimmed().isEmpty() && !PrinterUri::parse(device->text(), &error)) {
                QMessageBox::warning(this, windowTitle(), error);
                return;
            }
        }
        for (const QString &layout : m_barcodeLayouts->text().split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
            if (!EmbeddedLayout::parse(layout)) {
                QMessageBox::warning(this, windowTitle(),
                    tr("\"%1\" is not a scale label layout: 13 places such as 2T IIIII VVVVV C.").arg(layout.trimmed()));
                return;
            }
        }
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    outer->addWidget(buttons);
}

TillSettings SettingsDialog::settings() const
{
    TillSettings t = m_initial;
    const int unit = Money(1, m_currency).toDecimalString() == QLatin1String("1") ? 1 : 100;
    t.gatewayUrls = GatewayClient::parseBaseUrls(m_gateway->text()).value_or(QList<QUrl>{});
    t.token = m_token->text().trimmed();
    t.terminal = m_terminal->text().trimmed();
    t.limits.maxSingleAmount = qint64(m_maxSingle->value()) * unit;
    t.limits.maxTotalAmount = qint64(m_maxTotal->value()) * unit;
    t.limits.maxAgeMs = qint64(m_maxAgeHours->value()) * 3'600'000;
    t.unconfirmedAfterSeconds = m_unconfirmedAfter->value();
    t.language = m_language->currentData().toString();
    t.shopName = m_shopName->text().trimmed();
    t.shopAddress = m_shopAddress->text().trimmed();
    t.catalogUrl = m_catalogUrl->text().trimmed();
    t.officeUrl = m_office->text().trimmed();
    t.officeToken = m_officeToken->text().trimmed();
    t.openPriceLimit = qint64(m_openPriceLimit->value()) * unit;
    t.barcodeLayouts.clear();
    for (const QString &layout : m_barcodeLayouts->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
        t.barcodeLayouts << layout.trimmed();
    t.discountLimitPercent = m_discountLimit->value();
    t.refundLimit = qint64(m_refundLimit->value()) * unit;
    t.cashDifferenceLimit = qRound64(m_cashDifferenceLimit->value() * unit);
    t.idleLockMinutes = m_idleLock->value();
    t.printerUri = m_printer->text().trimmed();
    t.paperWidthMm = m_paperWidth->currentData().toInt();
    t.autoPrint = m_autoPrint->isChecked();
    t.drawerUri = m_drawer->text().trimmed();
    t.customerDisplayScreen = m_customerScreen->currentData().toInt();
    t.customerDisplayLanguage = m_customerLanguage->currentData().toString();
    return t;
}

void SettingsDialog::setTaxMode(TaxMode mode)
{
    m_pricesExcludeVat->setChecked(mode == TaxMode::Exclusive);
}

TaxMode SettingsDialog::taxMode() const
{
    return m_pricesExcludeVat->isChecked() ? TaxMode::Exclusive : TaxMode::Inclusive;
}

}   // namespace OncePay::Ui
