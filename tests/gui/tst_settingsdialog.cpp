// The till's settings: the gateway field takes one address or several separated by commas,
// refuses anything else with a message, and QSettings keeps the list while a till set up with
// a single gateway/url still finds it.
#include "screenshotrun.h"
#include "settingsdialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QStandardPaths>
#include <QScreen>
#include <QTranslator>
#include <QtTest>

using namespace OncePay::Ui;

class TestSettingsDialog final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void savedSingleUrlIsStillRead();
    void listIsSavedAndRead();
    void settingsAreTheOwnersAlone();
    void gatewayField_data();
    void gatewayField();
    void shopNameAndAddressAreOnTheShopTab();
    void cashDifferenceLimitIsSetOnTheShopTab();

private:
    static QLineEdit *gatewayField(SettingsDialog &dialog);
};

void TestSettingsDialog::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("OncePayTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_settingsdialog"));
    installScreenshotLanguage();
}

void TestSettingsDialog::init()
{
    QSettings().clear();
}

static QWidget *namedWidget(QWidget *root, const QString &name)
{
    for (QWidget *w : root->findChildren<QWidget *>()) {
        if (w->accessibleName() == name)
            return w;
    }
    return nullptr;
}

QLineEdit *TestSettingsDialog::gatewayField(SettingsDialog &dialog)
{
    for (QLineEdit *e : dialog.findChildren<QLineEdit *>()) {
        if (e->accessibleName() == QLatin1String("Gateway address"))
            return e;
    }
    return nullptr;
}

void TestSettingsDialog::savedSingleUrlIsStillRead()
{
    QSettings().setValue(QStringLiteral("gateway/url"), QStringLiteral("http://192.0.2.10:8080"));
    QCOMPARE(TillSettings::load().gatewayUrls, QList<QUrl>{QUrl(QStringLiteral("http://192.0.2.10:8080"))});
    QSettings().setValue(QStringLiteral("gateway/url"), QString());
    QVERIFY(TillSettings::load().gatewayUrls.isEmpty());   // the demo
}

void TestSettingsDialog::listIsSavedAndRead()
{
    TillSettings t;
    t.gatewayUrls = {QUrl(QStringLiteral("http://192.0.2.10:8080")), QUrl(QStringLiteral("https://192.0.2.11"))};
    t.save();
    QCOMPARE(TillSettings::load().gatewayUrls, t.gatewayUrls);
    // A till of an earlier version reads the first.
    QCOMPARE(QSettings().value(QStringLiteral("gateway/url")).toString(), QStringLiteral("http://192.0.2.10:8080"));
    t.gatewayUrls.clear();
    t.save();
    QVERIFY(TillSettings::load().gatewayUrls.isEmpty());
}

// Issue 35: the settings hold the till's token; another account on the shop PC must not read
// them. Saved 0600 in a 0700 folder, and a file an older till left 0644 is narrowed when read.
void TestSettingsDialog::settingsAreTheOwnersAlone()
{
    TillSettings t;
    t.token = QStringLiteral("sk_live_secret");
    t.save();
    const QString path = QSettings().fileName();
    const auto ownerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
    const auto others = QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther
        | QFileDevice::WriteOther | QFileDevice::ExeOther;
    QCOMPARE(QFile::permissions(path) & (ownerOnly | others), ownerOnly);
    QCOMPARE(QFile::permissions(QFileInfo(path).absolutePath()) & others, QFileDevice::Permissions());
    t.token = QStringLiteral("sk_live_other");
    t.save();   // written again through a new file: still the owner's alone
    QCOMPARE(QFile::permissions(path) & others, QFileDevice::Permissions());

    QVERIFY(QFile::setPermissions(path, ownerOnly | QFileDevice::ReadGroup | QFileDevice::ReadOther));
    QCOMPARE(TillSettings::load().token, QStringLiteral("sk_live_other"));
    QCOMPARE(QFile::permissions(path) & others, QFileDevice::Permissions());
}

void TestSettingsDialog::gatewayField_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("count");   // -1: refused with a message
    QTest::newRow("empty: demo") << QString() << 0;
    QTest::newRow("one") << QStringLiteral("http://192.0.2.10:8080") << 1;
    QTest::newRow("two") << QStringLiteral("http://192.0.2.10:8080, http://192.0.2.11:8080") << 2;
    QTest::newRow("empty entry") << QStringLiteral("http://192.0.2.10:8080,,http://192.0.2.11:8080") << -1;
    QTest::newRow("no scheme") << QStringLiteral("192.0.2.10:8080") << -1;
    QTest::newRow("words") << QStringLiteral("http://192.0.2.10:8080, the backup one") << -1;
}

void TestSettingsDialog::gatewayField()
{
    QFETCH(QString, text);
    QFETCH(int, count);
    SettingsDialog dialog(TillSettings{}, QStringLiteral("CNY"));
    QLineEdit *field = gatewayField(dialog);
    QVERIFY(field);
    field->setText(text);
    // A refusal is a modal message box: read it and close it from inside its own event loop.
    QString message;
    QTimer::singleShot(0, &dialog, [&message] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
            message = box->text();
            box->accept();
        }
    });
    dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Save)->click();
    if (count < 0) {
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY2(message.contains(QLatin1String("not a gateway address")), qPrintable(message));
        return;
    }
    QVERIFY2(message.isEmpty(), qPrintable(message));
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(int(dialog.settings().gatewayUrls.size()), count);
}

// Issue 36, confusion 8: the shop's name and address are the shop's, on the "Shop" tab beside its
// other rules, not among the till's gateway and token. Reached by keys: Ctrl+Tab to the Shop tab,
// then each field's own Alt key, which no other field of that tab takes.
void TestSettingsDialog::shopNameAndAddressAreOnTheShopTab()
{
    TillSettings settings;
    settings.shopName = QStringLiteral("Corner Shop");
    settings.shopAddress = QStringLiteral("8 Fuzhou Road");
    SettingsDialog dialog(settings, QStringLiteral("CNY"));
    dialog.show();
    QApplication::setActiveWindow(&dialog);
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    auto *tabs = dialog.findChild<QTabWidget *>();
    QVERIFY(tabs);
    QCOMPARE(tabs->currentIndex(), 0);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab, Qt::ControlModifier);
    QTRY_COMPARE(tabs->tabText(tabs->currentIndex()), QCoreApplication::translate("OncePay::Ui::SettingsDialog", "Shop"));
    auto *name = qobject_cast<QLineEdit *>(namedWidget(&dialog, T("OncePay::Ui::SettingsDialog", "Shop name")));
    auto *address = qobject_cast<QLineEdit *>(namedWidget(&dialog, T("OncePay::Ui::SettingsDialog", "Shop address")));
    QVERIFY(name && address);
    QVERIFY(name->isVisible());
    QVERIFY(address->isVisible());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_H, Qt::AltModifier);
    QTRY_COMPARE(QApplication::focusWidget(), name);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_E, Qt::AltModifier);
    QTRY_COMPARE(QApplication::focusWidget(), address);
    QCOMPARE(dialog.settings().shopAddress, settings.shopAddress);
    dialog.move(0, 0);
    saveScreen(QStringLiteral("settings-shop-tab"));
}

// Issue 36, confusion 14: the cash difference a cashier may close a shift with, to the cent, on the
// Shop tab beside the other limits (Alt+M); ¥1.00 until set, 0 reads "any difference"; kept.
void TestSettingsDialog::cashDifferenceLimitIsSetOnTheShopTab()
{
    QCOMPARE(TillSettings::load().cashDifferenceLimit, qint64(100));
    SettingsDialog dialog(TillSettings::load(), QStringLiteral("CNY"));
    dialog.show();
    QApplication::setActiveWindow(&dialog);
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab, Qt::ControlModifier);
    auto *limit = qobject_cast<QDoubleSpinBox *>(namedWidget(&dialog, QStringLiteral("Largest cash difference at the close without a manager")));
    QVERIFY(limit);
    QTRY_VERIFY(limit->isVisible());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_M, Qt::AltModifier);
    QTRY_VERIFY(limit->hasFocus());
    QTest::keyClick(limit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(limit, QStringLiteral("0.50"));
    QCOMPARE(dialog.settings().cashDifferenceLimit, qint64(50));
    dialog.settings().save();
    QCOMPARE(TillSettings::load().cashDifferenceLimit, qint64(50));
    limit->setValue(0);
    QCOMPARE(limit->text(), QStringLiteral("any difference"));
    QCOMPARE(dialog.settings().cashDifferenceLimit, qint64(0));
}

QTEST_MAIN(TestSettingsDialog)
#include "tst_settingsdialog.moc"
