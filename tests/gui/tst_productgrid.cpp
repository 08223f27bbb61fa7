// The product grid's labels are the shop's words, never Qt's mnemonics (issue 36, confusion 7): a
// category "Fruit & veg" showed as "Fruit _veg" (the & made V its Alt key), and a product "Salt &
// pepper" the same on its button.
#include "catalog.h"
#include "productgrid.h"

#include <QKeySequence>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QtTest>

using namespace OncePay;
using namespace OncePay::Ui;

class TestProductGrid final : public QObject
{
    Q_OBJECT

private slots:
    void ampersandsAreShownNotMnemonics();
};

void TestProductGrid::ampersandsAreShownNotMnemonics()
{
    Product salt;
    salt.code = QStringLiteral("SALT");
    salt.nameEn = QStringLiteral("Salt & pepper");
    salt.nameZh = QStringLiteral("盐和胡椒");
    salt.price = Money(350, QStringLiteral("CNY"));
    salt.category = QStringLiteral("Fruit & veg");
    Catalog catalog;
    catalog.setProducts({salt}, QStringLiteral("CNY"));
    ProductGrid grid;
    grid.setCatalog(&catalog, Language::English);
    grid.show();

    auto *tabs = grid.findChild<QTabWidget *>();
    QVERIFY(tabs);
    QCOMPARE(tabs->count(), 1);
    const QString tab = tabs->tabText(0);
    QVERIFY2(QKeySequence::mnemonic(tab).isEmpty(), qPrintable(tab));
    QCOMPARE(QString(tab).replace(QStringLiteral("&&"), QStringLiteral("&")), QStringLiteral("Fruit & veg"));

    QPushButton *button = nullptr;
    QTRY_VERIFY((button = grid.findChild<QPushButton *>()) != nullptr);
    QVERIFY2(QKeySequence::mnemonic(button->text()).isEmpty(), qPrintable(button->text()));
    QVERIFY(button->text().replace(QStringLiteral("&&"), QStringLiteral("&")).startsWith(QStringLiteral("Salt & pepper\n")));
    QSignalSpy chosen(&grid, &ProductGrid::productChosen);
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(chosen.count(), 1);
    QCOMPARE(chosen.first().first().toString(), QStringLiteral("SALT"));
}

QTEST_MAIN(TestProductGrid)
#include "tst_productgrid.moc"
