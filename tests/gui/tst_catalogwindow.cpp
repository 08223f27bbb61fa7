// The shop's own catalog on the till's real window (issue 23), offscreen, against its embedded
// demo gateway, driven by keys as a scanner and a cashier drive it: a catalog imported from CSV
// sells by barcode; a scale's label adds a weighed line; a misread barcode is said to be one
// and adds nothing; an open-price product asks for its price, within the limit; a price change
// never reaches a line already in the cart; the receipt shows the tax per rate and carries the
// sale number as Code 128, which reads back.
#include "code128.h"
#include "demobackend.h"
#include "demotill.h"
#include "simulatednetwork.h"
#include "mainwindow.h"
#include "receipt.h"
#include "tillcatalog.h"

#include <QAction>
#include <QImage>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace OncePay;
using namespace OncePay::Ui;

class TestCatalogWindow final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void importedCatalogSellsByBarcodeAndLabel();
    void misreadBarcodeAddsNothing();
    void openPriceIsTypedWithinTheLimit();
    void priceChangeNeverReachesTheCart();
    void receiptShowsTaxAndTheSaleNumberAsABarcode();
    void discountsOnALineAndOnTheSale();
    void gridByTouchAndMouseKeepsTheScanField();
    void productsEditorAddsEditsAndRetires();

private:
    template <typename W = QWidget>
    static W *named(QWidget *root, const QString &accessibleName) { return DemoTill::named<W>(root, accessibleName); }
    void importCsv(const QByteArray &csv);
    void scan(const QString &code);
    QString scanMessage() const;
    // Answers the one-line question the window asks (price, discount) by keys.
    void answer(const QString &accessibleName, const QString &text);
    // A key as the cashier presses it: to whatever has the keyboard.
    void press(Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier);

    DemoTill m_till;
    QTemporaryDir m_files;
};

namespace {

const QByteArray kShop = "code,barcode,name,name_zh,price,vat,category,unit,quick_key,open_price\n"
                         "T1,6901234500011,Green tea,绿茶,12.50,13,Drinks,each,1,\n"
                         "00123,,Cherries,樱桃,60.00,9,Fruit,kg,2,\n"
                         "W1,,Gift wrapping,礼品包装,,6,Service,each,,yes\n";

}   // namespace

void TestCatalogWindow::initTestCase()
{
    DemoTill::isolateSettings();
    QVERIFY(m_files.isValid());
}

void TestCatalogWindow::init()
{
    QString error;
    QVERIFY2(m_till.start(DemoTill::Options{true, 16, QSize(1024, 768), true}, &error), qPrintable(error));
}

void TestCatalogWindow::cleanup()
{
    m_till.stop();
}

void TestCatalogWindow::importCsv(const QByteArray &csv)
{
    static int n = 0;
    const QString path = m_files.filePath(QStringLiteral("catalog-%1.csv").arg(++n));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(csv);
    f.close();
    QSignalSpy changed(m_till.catalog.get(), &TillCatalog::catalogChanged);
    bool done = false;
    bool ok = false;
    QString message;
    QObject context;
    m_till.catalog->importFile(path, &context, [&](bool o, const QString &m) {
        done = true;
        ok = o;
        message = m;
    });
    QTRY_VERIFY(done);
    QVERIFY2(ok, qPrintable(message));
    QTRY_VERIFY(changed.size() >= 1);
    QVERIFY(m_till.catalog->isShopCatalog());
}

void TestCatalogWindow::scan(const QString &code)
{
    auto *search = named<QLineEdit>(m_till.window.get(), QStringLiteral("Product code or name"));
    QVERIFY(search);
    QTRY_VERIFY(search->hasFocus());   // the scan field keeps the keyboard
    QTest::keyClicks(search, code);
    QTest::keyClick(search, Qt::Key_Return);
}

QString TestCatalogWindow::scanMessage() const
{
    auto *label = named<QLabel>(m_till.window.get(), QStringLiteral("Scan message"));
    return label && label->isVisible() ? label->text() : QString();
}

void TestCatalogWindow::importedCatalogSellsByBarcodeAndLabel()
{
    importCsv(kShop);
    CartModel *cart = m_till.window->viewModel()->cart();
    scan(QStringLiteral("6901234500011"));
    scan(QStringLiteral("6901234500011"));
    QCOMPARE(cart->rowCount(), 1);
    QCOMPARE(cart->quantity(0), 2);
    // The scale's label: item 00123, 456 g, at 60.00/kg = 27.36.
    scan(QStringLiteral("2100123004560"));
    QCOMPARE(cart->rowCount(), 2);
    QVERIFY(cart->hasFixedQuantity(1));
    QCOMPARE(cart->data(cart->index(1, int(CartModel::Column::Quantity))).toString(), QStringLiteral("0.456 kg"));
    QCOMPARE(cart->total().minorUnits(), qint64(2 * 1250 + 2736));
    // Tax once per rate on its total, half up.
    const SalePricing &p = cart->pricing();
    QCOMPARE(p.bands.size(), 2);
    QCOMPARE(p.bands.at(0).tax, qint64(288));   // 25.00 at 13 %: 2.876
    QCOMPARE(p.bands.at(1).tax, qint64(226));   // 27.36 at 9 %: 2.259
    // The demo's products are gone with the shop's own catalog.
    scan(QStringLiteral("6901234500097"));
    QCOMPARE(cart->rowCount(), 2);
    QVERIFY(scanMessage().contains(QStringLiteral("6901234500097")));
}

void TestCatalogWindow::misreadBarcodeAddsNothing()
{
    CartModel *cart = m_till.window->viewModel()->cart();
    scan(QStringLiteral("6901234500012"));   // the tea's barcode with its last digit misread
    QCOMPARE(cart->rowCount(), 0);
    const QString misread = scanMessage();
    scan(QStringLiteral("12345"));   // no such product, and no check digit to be wrong
    QString unknown = scanMessage();
    QVERIFY(!misread.isEmpty() && !unknown.isEmpty());
    QVERIFY2(misread != unknown.replace(QStringLiteral("12345"), QStringLiteral("6901234500012")), qPrintable(misread));
    // The scan field is empty again and keeps the keyboard: the next scan is whole.
    auto *search = named<QLineEdit>(m_till.window.get(), QStringLiteral("Product code or name"));
    QVERIFY(search->text().isEmpty());
    scan(QStringLiteral("6901234500011"));
    QCOMPARE(cart->rowCount(), 1);
}

void TestCatalogWindow::openPriceIsTypedWithinTheLimit()
{
    importCsv(kShop);
    CartModel *cart = m_till.window->viewModel()->cart();
    auto typePrice = [&](const QString &price) {
        scan(QStringLiteral("W1"));
        QInputDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = qobject_cast<QInputDialog *>(QApplication::activeModalWidget())) != nullptr);
        QCOMPARE(dialog->accessibleName(), QStringLiteral("Price to type"));
        auto *field = dialog->findChild<QLineEdit *>();
        QVERIFY(field);
        QTRY_VERIFY(field->hasFocus());   // the price is typed at once, no click first
        QTest::keyClicks(field, price);
        QTest::keyClick(field, Qt::Key_Return);
        QTRY_VERIFY(!QApplication::activeModalWidget());
    };
    typePrice(QStringLiteral("5000"));   // above the limit (1,000.00 by default)
    QCOMPARE(cart->rowCount(), 0);
    QVERIFY(!scanMessage().isEmpty());
    typePrice(QStringLiteral("0"));
    QCOMPARE(cart->rowCount(), 0);
    typePrice(QStringLiteral("12.50"));
    QCOMPARE(cart->rowCount(), 1);
    QCOMPARE(cart->total().minorUnits(), qint64(1250));
    // Esc drops it.
    scan(QStringLiteral("W1"));
    QTRY_VERIFY(QApplication::activeModalWidget());
    QTest::keyClick(QApplication::activeModalWidget()->findChild<QLineEdit *>(), Qt::Key_Escape);
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QCOMPARE(cart->rowCount(), 1);
}

void TestCatalogWindow::priceChangeNeverReachesTheCart()
{
    importCsv(kShop);
    CartModel *cart = m_till.window->viewModel()->cart();
    scan(QStringLiteral("T1"));
    QCOMPARE(cart->total().minorUnits(), qint64(1250));
    QByteArray dearer = kShop;
    dearer.replace("Green tea,绿茶,12.50", "Green tea,绿茶,13.00");
    importCsv(dearer);
    QCOMPARE(cart->total().minorUnits(), qint64(1250));   // the line keeps its price
    scan(QStringLiteral("T1"));   // a new scan sells at the new one, on a line of its own
    QCOMPARE(cart->rowCount(), 2);
    QCOMPARE(cart->total().minorUnits(), qint64(1250 + 1300));
}

void TestCatalogWindow::receiptShowsTaxAndTheSaleNumberAsABarcode()
{
    importCsv(kShop);
    scan(QStringLiteral("6901234500011"));
    scan(QStringLiteral("2100123004560"));
    QTest::keyClick(m_till.window.get(), Qt::Key_F10);
    QPushButton *exact = named<QPushButton>(m_till.window.get(), QStringLiteral("Exact amount"));
    QVERIFY(exact);
    QTRY_VERIFY(exact->isVisible());
    QTest::mouseClick(exact, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(m_till.window->viewModel()->phase(), CheckoutViewModel::Phase::Paid, 10000);
    const Intent paid = *m_till.window->viewModel()->intent();
    const QString html = Receipt::html(paid, *m_till.window->viewModel()->cart(), ReceiptContext{QStringLiteral("till-1"), {}, {}, {}});
    QVERIFY2(html.contains(QStringLiteral("13%")) && html.contains(QStringLiteral("9%")), qPrintable(html.left(2000)));
    QVERIFY(html.contains(QStringLiteral("data:image/png;base64,")));
    // The barcode reads back as the sale number: one row of the image, dark = a bar.
    const QImage image = Receipt::barcodeImage(paid.saleNumber, 2, 10);
    QByteArray modules;
    for (int x = 20; x + 20 < image.width(); x += 2)
        modules.append(qGray(image.pixel(x, 5)) < 128 ? '1' : '0');
    while (modules.endsWith('0'))
        modules.chop(1);
    QCOMPARE(Code128::decode(modules).value_or(QString()), paid.saleNumber);
}

void TestCatalogWindow::press(Qt::Key key, Qt::KeyboardModifiers modifiers)
{
    QTRY_VERIFY(QApplication::focusWidget());
    QTest::keyClick(QApplication::focusWidget(), key, modifiers);
}

void TestCatalogWindow::answer(const QString &accessibleName, const QString &text)
{
    QInputDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = qobject_cast<QInputDialog *>(QApplication::activeModalWidget())) != nullptr);
    QCOMPARE(dialog->accessibleName(), accessibleName);
    auto *field = dialog->findChild<QLineEdit *>();
    QVERIFY(field);
    QTRY_VERIFY(field->hasFocus());
    QTest::keyClicks(field, text);
    QTest::keyClick(field, Qt::Key_Return);
    QTRY_VERIFY(!QApplication::activeModalWidget());
}

void TestCatalogWindow::discountsOnALineAndOnTheSale()
{
    importCsv(kShop);
    CartModel *cart = m_till.window->viewModel()->cart();
    scan(QStringLiteral("T1"));
    scan(QStringLiteral("T1"));   // 25.00 at 13 %
    scan(QStringLiteral("2100123004560"));   // 27.36 at 9 %
    // F4 with no line chosen: said, nothing asked.
    auto *view = named<QTableView>(m_till.window.get(), QStringLiteral("Cart"));
    QVERIFY(view);
    view->clearSelection();
    view->setCurrentIndex({});
    press(Qt::Key_F4);
    QVERIFY(!QApplication::activeModalWidget());
    QVERIFY(!scanMessage().isEmpty());
    // The tea line, 10 % off: 2.50.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(cart->index(0, 0)).center());
    press(Qt::Key_F4);
    answer(QStringLiteral("Line discount to type"), QStringLiteral("10%"));
    QCOMPARE(cart->pricing().lineDiscounts, qint64(250));
    QCOMPARE(cart->total().minorUnits(), qint64(2250 + 2736));
    // Not a discount: said, nothing changes.
    press(Qt::Key_F4, Qt::ShiftModifier);
    answer(QStringLiteral("Sale discount to type"), QStringLiteral("half"));
    QCOMPARE(cart->total().minorUnits(), qint64(2250 + 2736));
    // 1.00 off the sale, spread: 22.50 / 49.86 of it on the tea (0.45), the rest on the cherries.
    press(Qt::Key_F4, Qt::ShiftModifier);
    answer(QStringLiteral("Sale discount to type"), QStringLiteral("1.00"));
    QCOMPARE(cart->total().minorUnits(), qint64(2250 + 2736 - 100));
    QCOMPARE(cart->pricing().lines.at(0).saleDiscount, qint64(45));
    QCOMPARE(cart->pricing().lines.at(1).saleDiscount, qint64(55));
    // The sale in the journal keeps the discounted amounts; once a card part is on its way the
    // amount is bound to its key: a discount is refused in words.
    m_till.backend->network()->setSettings({NetSim::Mode::BlackHole});
    QLineEdit *cardAmount = named<QLineEdit>(m_till.window.get(), QStringLiteral("Amount on this card"));
    QVERIFY(cardAmount);
    QTest::mouseClick(cardAmount, Qt::LeftButton);
    QTest::keyClicks(cardAmount, QStringLiteral("10.00"));
    press(Qt::Key_F12);
    QTRY_VERIFY(!m_till.window->viewModel()->canEditCart());
    press(Qt::Key_F4, Qt::ShiftModifier);
    QVERIFY(!QApplication::activeModalWidget());
    QVERIFY(!scanMessage().isEmpty());
    QCOMPARE(cart->total().minorUnits(), qint64(2250 + 2736 - 100));
    QTRY_VERIFY(m_till.window->viewModel()->intent().has_value());
    QCOMPARE(m_till.window->viewModel()->intent()->amount.minorUnits(), qint64(1000));   // the card part
    m_till.backend->network()->setSettings({NetSim::Mode::Online});
}

void TestCatalogWindow::gridByTouchAndMouseKeepsTheScanField()
{
    importCsv(kShop);
    CartModel *cart = m_till.window->viewModel()->cart();
    auto *tabs = named<QTabWidget>(m_till.window.get(), QStringLiteral("Product grid"));
    QVERIFY(tabs);
    QTRY_VERIFY(tabs->isVisible());
    // Quick keys first, then the categories in catalog order.
    QStringList titles;
    for (int i = 0; i < tabs->count(); ++i)
        titles << tabs->tabText(i);
    QCOMPARE(titles, QStringList({QStringLiteral("Quick keys"), QStringLiteral("Drinks"), QStringLiteral("Fruit"), QStringLiteral("Service")}));
    auto *tea = named<QPushButton>(tabs->currentWidget(), QStringLiteral("Green tea"));
    QVERIFY(tea);
    QVERIFY(tea->height() >= 48);
    // A finger on the button.
    const std::unique_ptr<QPointingDevice> screen(QTest::createTouchDevice());   // ours to delete
    QTest::touchEvent(tea->window(), screen.get()).press(0, tea->mapTo(tea->window(), tea->rect().center()));
    QTest::touchEvent(tea->window(), screen.get()).release(0, tea->mapTo(tea->window(), tea->rect().center()));
    QTRY_COMPARE(cart->rowCount(), 1);
    // The mouse, and the scan field still has the keyboard: a scan right after lands.
    QTest::mouseClick(tea, Qt::LeftButton);
    QCOMPARE(cart->quantity(0), 2);
    scan(QStringLiteral("6901234500011"));
    QCOMPARE(cart->quantity(0), 3);
    // Goods sold by the kg from the grid: the weight is typed.
    auto *cherries = named<QPushButton>(tabs->currentWidget(), QStringLiteral("Cherries"));
    QVERIFY(cherries);
    QTest::mouseClick(cherries, Qt::LeftButton);
    answer(QStringLiteral("Weight to type"), QStringLiteral("0.5"));
    QCOMPARE(cart->rowCount(), 2);
    QCOMPARE(cart->total().minorUnits(), qint64(3 * 1250 + 3000));
    // A category's page.
    tabs->setCurrentIndex(3);
    auto *wrap = named<QPushButton>(tabs->currentWidget(), QStringLiteral("Gift wrapping"));
    QVERIFY(wrap);
    QTest::mouseClick(wrap, Qt::LeftButton);
    answer(QStringLiteral("Price to type"), QStringLiteral("3"));
    QCOMPARE(cart->rowCount(), 3);
    QCOMPARE(cart->total().minorUnits(), qint64(3 * 1250 + 3000 + 300));
}

void TestCatalogWindow::productsEditorAddsEditsAndRetires()
{
    importCsv(kShop);
    // Sale > Products… (no staff on this till: no manager asked).
    QAction *products = nullptr;
    for (QAction *a : m_till.window->findChildren<QAction *>()) {
        if (a->text() == QStringLiteral("Pr&oducts…"))
            products = a;
    }
    QVERIFY(products);
    products->trigger();
    QDialog *editor = nullptr;
    QTRY_VERIFY((editor = qobject_cast<QDialog *>(QApplication::activeModalWidget())) != nullptr);
    QCOMPARE(editor->accessibleName(), QStringLiteral("Products editor"));
    auto *view = named<QTableView>(editor, QStringLiteral("Products"));
    QTRY_COMPARE(view->model()->rowCount(), 3);
    // Search narrows the list; the tea's row is chosen and edited: a new price.
    QTest::keyClicks(named<QLineEdit>(editor, QStringLiteral("Search products")), QStringLiteral("green"));
    QCOMPARE(view->model()->rowCount(), 1);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(view->model()->index(0, 0)).center());
    QTest::mouseClick(editor->findChildren<QPushButton *>().at(1), Qt::LeftButton);   // Edit…
    QDialog *form = nullptr;
    QTRY_VERIFY((form = qobject_cast<QDialog *>(QApplication::activeModalWidget())) && form->accessibleName() == QStringLiteral("Product form"));
    auto *price = named<QLineEdit>(form, QStringLiteral("Price"));
    QTRY_VERIFY(price->hasFocus());
    price->selectAll();
    QTest::keyClicks(price, QStringLiteral("12,80"));   // a comma: refused in words, nothing saved
    QTest::keyClick(price, Qt::Key_Return);
    QTRY_VERIFY(!named<QLabel>(form, QStringLiteral("Product form message"))->text().isEmpty());
    QVERIFY(form->isVisible());
    price->selectAll();
    QTest::keyClicks(price, QStringLiteral("12.80"));
    QTest::keyClick(price, Qt::Key_Return);
    QTRY_COMPARE(m_till.catalog->catalog().byCode(QStringLiteral("T1"))->price.minorUnits(), 1280);
    // Retire it: no longer sold, still listed.
    QTRY_COMPARE(QApplication::activeModalWidget(), editor);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(view->model()->index(0, 0)).center());
    QTest::mouseClick(editor->findChildren<QPushButton *>().at(2), Qt::LeftButton);   // Retire
    QTRY_VERIFY(!m_till.catalog->catalog().byCode(QStringLiteral("T1")));
    QTRY_COMPARE(view->model()->rowCount(), 1);
    editor->accept();
    scan(QStringLiteral("6901234500011"));
    QCOMPARE(m_till.window->viewModel()->cart()->rowCount(), 0);
}

QTEST_MAIN(TestCatalogWindow)
#include "tst_catalogwindow.moc"
