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
    void categoriesInChinese();
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

// Issue 36, confusion 7: in Chinese a category's tab shows its Chinese name (the catalog's
// category_zh), and still holds that category's products; one without a Chinese name keeps its own.
void TestProductGrid::categoriesInChinese()
{
    Product tea;
    tea.code = QStringLiteral("TEA");
    tea.nameEn = QStringLiteral("Tea");
    tea.nameZh = QStringLiteral("茶");
    tea.price = Money(450, QStringLiteral("CNY"));
    tea.category = QStringLiteral("Drinks");
    tea.categoryZh = QStringLiteral("饮料");
    Product salt = tea;
    salt.code = QStringLiteral("SALT");
    salt.nameEn = QStringLiteral("Salt");
    salt.nameZh = QStringLiteral("盐");
    salt.category = QStringLiteral("Groceries");
    salt.categoryZh.clear();
    Catalog catalog;
    catalog.setProducts({tea, salt}, QStringLiteral("CNY"));
    ProductGrid grid;
    grid.setCatalog(&catalog, Language::SimplifiedChinese);
    grid.show();
    auto *tabs = grid.findChild<QTabWidget *>();
    QVERIFY(tabs);
    QCOMPARE(tabs->count(), 2);
    QCOMPARE(tabs->tabText(0), QStringLiteral("饮料"));
    QCOMPARE(tabs->tabText(1), QStringLiteral("Groceries"));
    QPushButton *button = nullptr;
    QTRY_VERIFY((button = tabs->widget(0)->findChild<QPushButton *>()) != nullptr);
    QVERIFY(button->text().startsWith(QStringLiteral("茶\n")));
    grid.setCatalog(&catalog, Language::English);
    QCOMPARE(tabs->tabText(0), QStringLiteral("Drinks"));
}

QTEST_MAIN(TestProductGrid)
#include "tst_productgrid.moc"
