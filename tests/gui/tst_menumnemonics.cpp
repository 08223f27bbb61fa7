// The window's menus (issue 36, confusion 17): in one menu no two items share a mnemonic, in
// English and in Chinese. With two, the letter only moves the highlight between them and opens
// neither ("s" in the Sale menu reached "Discount on the sale" before Settings; "r" three items).
// Every menu of the menu bar, the demo's included, and every submenu, walked from
// menuBar()->actions().
#include "demotill.h"
#include "mainwindow.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QScopeGuard>
#include <QTranslator>
#include <QtTest>

using namespace OncePay;
using namespace OncePay::Ui;

class TestMenuMnemonics final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void noTwoItemsOfAMenuShareAMnemonic_data();
    void noTwoItemsOfAMenuShareAMnemonic();

private:
    // The clashes among `actions` (one menu's items, or the menu bar's menus), then those of each
    // submenu; `path` names the menu ("Sale", "Simulation > Network").
    static void collectClashes(const QList<QAction *> &actions, const QString &path, QStringList *clashes, int *menus);
};

void TestMenuMnemonics::initTestCase()
{
    DemoTill::isolateSettings();
}

void TestMenuMnemonics::collectClashes(const QList<QAction *> &actions, const QString &path, QStringList *clashes, int *menus)
{
    ++*menus;
    QMap<QString, QStringList> byKey;
    for (QAction *a : actions) {
        if (a->isSeparator() || !a->isVisible())
            continue;
        const QKeySequence mnemonic = QKeySequence::mnemonic(a->text());
        if (!mnemonic.isEmpty())
            byKey[mnemonic.toString()] << a->text();
        if (QMenu *sub = a->menu())
            collectClashes(sub->actions(), path.isEmpty() ? a->text() : path + QStringLiteral(" > ") + a->text(), clashes, menus);
    }
    for (auto it = byKey.cbegin(); it != byKey.cend(); ++it) {
        if (it.value().size() > 1) {
            *clashes << QStringLiteral("%1: %2 for %3")
                            .arg(path.isEmpty() ? QStringLiteral("the menu bar") : path, it.key(), it.value().join(QStringLiteral(", ")));
        }
    }
}

void TestMenuMnemonics::noTwoItemsOfAMenuShareAMnemonic_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("English") << QStringLiteral("en");
    QTest::newRow("Chinese") << QStringLiteral("zh_CN");
}

void TestMenuMnemonics::noTwoItemsOfAMenuShareAMnemonic()
{
    QFETCH(QString, language);
    // The till's own words in the language under test, installed before the window is built.
    QTranslator translator;
    if (language != QLatin1String("en")) {
        QVERIFY(translator.load(QStringLiteral("oncepay_") + language, QStringLiteral(ONCEPAY_QM_DIR)));
        QVERIFY(QCoreApplication::installTranslator(&translator));
    }
    const auto uninstall = qScopeGuard([&translator] {
        QCoreApplication::removeTranslator(&translator);
    });
    DemoTill till;
    QString error;
    QVERIFY2(till.start(DemoTill::Options{true, 16, QSize(1024, 768), false}, &error), qPrintable(error));
    MainWindow *window = till.window.get();
    const QList<QAction *> bar = window->menuBar()->actions();
    QVERIFY(bar.size() >= 2);   // Sale and View, and the demo's
    if (language != QLatin1String("en")) {
        // Translated indeed: the Sale menu's own title is no longer English.
        QVERIFY2(bar.first()->text() != QLatin1String("&Sale"), qPrintable(bar.first()->text()));
    }
    QStringList clashes;
    int menus = 0;
    collectClashes(bar, {}, &clashes, &menus);
    QVERIFY2(menus >= 5, qPrintable(QString::number(menus)));   // the bar, Sale, View, Simulation (Network, Bank), Demo
    QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QStringLiteral("\n"))));
    // The Sale menu as the cashier sees it, opened (in $ONCEPAY_SCREENSHOT_DIR, when set).
    QMenu *sale = bar.first()->menu();
    QVERIFY(sale);
    sale->popup(window->mapToGlobal(QPoint(0, window->menuBar()->height())));
    QTRY_VERIFY(sale->isVisible());
    if (const QString dir = qEnvironmentVariable("ONCEPAY_SCREENSHOT_DIR"); !dir.isEmpty()) {
        QPixmap shot = window->grab();
        QPainter painter(&shot);
        painter.drawPixmap(sale->geometry().topLeft() - window->geometry().topLeft(), sale->grab());
        painter.end();
        QVERIFY(shot.save(dir + QStringLiteral("/sale-menu-%1.png").arg(language)));
    }
    sale->hide();
}

QTEST_MAIN(TestMenuMnemonics)
#include "tst_menumnemonics.moc"
