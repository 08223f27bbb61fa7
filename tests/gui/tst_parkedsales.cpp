// The sale on hold (issue 36) on the real window, by keys: F5 parks the sale on screen (its lines,
// quantities and discounts) and the next customer is served; F5 on an empty cart lists the parked
// sales and Enter puts the selected one back exactly as it was. A scan while the list is open is
// kept for the cart, never a recall; a sale with a part paid is not parked; a deletion is asked
// first and kept as a staff action; a parked sale outlives a restart and is named in the Z report.
#include "demotill.h"
#include "mainwindow.h"
#include "parkedsales.h"
#include "parkedsalesdialog.h"
#include "shiftbook.h"
#include "shiftreportdocument.h"
#include "shifttotalsmodel.h"
#include "tillsession.h"

#include "timedkeys.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

using namespace OncePay;
using namespace OncePay::Ui;

class TestParkedSales final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void f5ParksTheListShowsItEnterRecalls();
    void scanWhileTheListIsOpenIsKeptForTheCart();
    void recallWithItemsOnScreenParksThemFirst();
    void saleWithAPartPaidIsNotParked();
    void deleteIsAskedThenKeptAsAStaffAction();
    void parkedSaleOutlivesARestartAndIsInTheZReport();

private:
    template <typename W = QWidget>
    W *named(QWidget *root, const QString &name) { return DemoTill::named<W>(root, name); }
    QLineEdit *search() { return named<QLineEdit>(m_till.window.get(), QStringLiteral("Product code or name")); }
    void addItem(const QString &code);
    // F5 (or Shift+F5) from the scan field, then the list it opens.
    ParkedSalesDialog *openList(Qt::KeyboardModifiers modifiers = Qt::NoModifier);
    void parkCart();
    struct Line
    {
        QString code;
        int quantity;
        Discount discount;
        friend bool operator==(const Line &a, const Line &b)
        {
            return a.code == b.code && a.quantity == b.quantity && a.discount == b.discount;
        }
    };
    QList<Line> cartLines();

    DemoTill m_till;
};

void TestParkedSales::initTestCase()
{
    DemoTill::isolateSettings();
}

void TestParkedSales::init()
{
    QString error;
    QVERIFY2(m_till.start(DemoTill::Options{true, 16, QSize(1024, 768), true}, &error), qPrintable(error));
}

void TestParkedSales::cleanup()
{
    m_till.stop();
}

void TestParkedSales::addItem(const QString &code)
{
    QLineEdit *field = search();
    QVERIFY(field);
    QTRY_VERIFY(field->isEnabled());
    field->setFocus();
    QTest::keyClicks(field, code);
    QTest::keyClick(field, Qt::Key_Return);
}

ParkedSalesDialog *TestParkedSales::openList(Qt::KeyboardModifiers modifiers)
{
    QTest::keyClick(search(), Qt::Key_F5, modifiers);
    ParkedSalesDialog *dialog = nullptr;
    if (!QTest::qWaitFor([&dialog] {
            return (dialog = qobject_cast<ParkedSalesDialog *>(QApplication::activeModalWidget())) != nullptr;
        },
            5000))
        return nullptr;
    return dialog;
}

void TestParkedSales::parkCart()
{
    ParkedSales *parked = m_till.window->parkedSales();
    QSignalSpy spy(parked, &ParkedSales::parked);
    // The keys are the window's again (a question that had them is gone).
    QTRY_COMPARE(QApplication::activeWindow(), static_cast<QWidget *>(m_till.window.get()));
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(search()));
    QTest::keyClick(search(), Qt::Key_F5);
    QVERIFY(spy.wait(5000));
    QTRY_VERIFY(m_till.window->viewModel()->cart()->isEmpty());
}

QList<TestParkedSales::Line> TestParkedSales::cartLines()
{
    QList<Line> out;
    for (const SaleItem &i : m_till.window->viewModel()->cart()->items())
        out.append({i.product.code, i.quantity, i.discount});
    return out;
}

void TestParkedSales::f5ParksTheListShowsItEnterRecalls()
{
    CheckoutViewModel *vm = m_till.window->viewModel();
    addItem(QStringLiteral("6901234500011"));
    addItem(QStringLiteral("6901234500011"));
    addItem(QStringLiteral("6901234500059"));
    // 10 % off the whole sale, typed as the cashier types it (Shift+F4).
    QTest::keyClick(search(), Qt::Key_F4, Qt::ShiftModifier);
    QLineEdit *discount = nullptr;
    QTRY_VERIFY((discount = qobject_cast<QLineEdit *>(QApplication::focusWidget())) != nullptr && discount != search());
    QTest::keyClicks(discount, QStringLiteral("10%"));
    QTest::keyClick(discount, Qt::Key_Return);
    QTRY_COMPARE(vm->cart()->saleDiscount(), (Discount{Discount::Kind::Percent, 1000}));
    const QList<Line> before = cartLines();
    QCOMPARE(before.size(), 2);
    QCOMPARE(before.at(0).quantity, 2);
    const Money total = vm->cart()->total();

    parkCart();
    QLabel *banner = named<QLabel>(m_till.window.get(), QStringLiteral("Payment state"));
    QVERIFY2(banner->text().contains(QStringLiteral("P1")), qPrintable(banner->text()));
    QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(search()));

    // The next customer is served and pays; the sale on screen is then over.
    addItem(QStringLiteral("6901234500097"));
    QTRY_COMPARE(vm->cart()->rowCount(), 1);
    QTest::keyClick(search(), Qt::Key_F12);
    QTRY_COMPARE_WITH_TIMEOUT(vm->phase(), CheckoutViewModel::Phase::Paid, 15000);

    // F5 with nothing to park: the list, with the parked sale's number, items and total.
    ParkedSalesDialog *dialog = openList();
    QVERIFY(dialog);
    auto *table = named<QTableView>(dialog, QStringLiteral("Parked sales list"));
    QVERIFY(table);
    QTRY_COMPARE(table->model()->rowCount(), 1);
    QCOMPARE(table->model()->index(0, int(ParkedSales::Column::Number)).data().toString(), QStringLiteral("P1"));
    QCOMPARE(table->model()->index(0, int(ParkedSales::Column::Total)).data().toString(), total.toDisplayString());
    QVERIFY(table->model()->index(0, int(ParkedSales::Column::ParkedAt)).data().toString().size() >= 4);
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(table));
    DemoTill::saveScreenshot(dialog, QStringLiteral("parked-sales-list"));

    // Enter puts it back exactly as it was: lines, quantities, discounts, total.
    QPointer<ParkedSalesDialog> guard(dialog);
    QTest::keyClick(table, Qt::Key_Return);
    QTRY_VERIFY(!guard || !guard->isVisible());
    QTRY_COMPARE(cartLines(), before);
    QCOMPARE(vm->cart()->saleDiscount(), (Discount{Discount::Kind::Percent, 1000}));
    QCOMPARE(vm->cart()->total(), total);
    QVERIFY(vm->canPay());
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(search()));
    // Recalled once: the list is empty now.
    QTRY_COMPARE(m_till.window->parkedSales()->rowCount(), 0);
    // And it pays as any sale.
    QTest::keyClick(search(), Qt::Key_F12);
    QTRY_COMPARE_WITH_TIMEOUT(vm->phase(), CheckoutViewModel::Phase::Paid, 15000);
}

void TestParkedSales::scanWhileTheListIsOpenIsKeptForTheCart()
{
    addItem(QStringLiteral("6901234500011"));
    parkCart();
    ParkedSalesDialog *dialog = openList();
    QVERIFY(dialog);
    auto *table = named<QTableView>(dialog, QStringLiteral("Parked sales list"));
    QTRY_COMPARE(table->model()->rowCount(), 1);
    // A scanner's burst and its Enter: no recall, nothing lost.
    TimedKeys::scan(QApplication::focusWidget(), QStringLiteral("6901234500097"), 1'000'000);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->scannedCodes(), QStringList{QStringLiteral("6901234500097")});
    QVERIFY(m_till.window->viewModel()->cart()->isEmpty());
    QCOMPARE(table->model()->rowCount(), 1);
    // Closed: the scan is the sale's, and the parked sale stays parked.
    QPointer<ParkedSalesDialog> guard(dialog);
    QTest::keyClick(table, Qt::Key_Escape);
    QTRY_VERIFY(!guard || !guard->isVisible());
    QTRY_COMPARE(m_till.window->viewModel()->cart()->rowCount(), 1);
    QCOMPARE(m_till.window->viewModel()->cart()->items().at(0).product.code, QStringLiteral("6901234500097"));
    QCOMPARE(m_till.window->parkedSales()->rowCount(), 1);
}

void TestParkedSales::recallWithItemsOnScreenParksThemFirst()
{
    addItem(QStringLiteral("6901234500011"));
    parkCart();
    addItem(QStringLiteral("6901234500059"));
    // Shift+F5 lists them whatever the cart holds; Enter swaps: the cart on screen is parked.
    ParkedSalesDialog *dialog = openList(Qt::ShiftModifier);
    QVERIFY(dialog);
    auto *table = named<QTableView>(dialog, QStringLiteral("Parked sales list"));
    QTRY_COMPARE(table->model()->rowCount(), 1);
    QVERIFY(named<QLabel>(dialog, QStringLiteral("The sale on screen"))->isVisible());
    QPointer<ParkedSalesDialog> guard(dialog);
    QTest::keyClick(table, Qt::Key_Return);
    QTRY_VERIFY(!guard || !guard->isVisible());
    QTRY_COMPARE(cartLines(), (QList<Line>{{QStringLiteral("6901234500011"), 1, {}}}));
    QTRY_COMPARE(m_till.window->parkedSales()->rowCount(), 1);
    QCOMPARE(m_till.window->parkedSales()->sales().at(0).number, QStringLiteral("P2"));
    QCOMPARE(m_till.window->parkedSales()->sales().at(0).parkedCart().items.at(0).product.code, QStringLiteral("6901234500059"));
}

void TestParkedSales::saleWithAPartPaidIsNotParked()
{
    CheckoutViewModel *vm = m_till.window->viewModel();
    addItem(QStringLiteral("Rice"));
    QTest::keyClick(search(), Qt::Key_F10);
    auto *amount = named<QLineEdit>(m_till.window.get(), QStringLiteral("Cash received"));
    QVERIFY(amount);
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(amount));
    QTest::keyClicks(amount, QStringLiteral("10"));
    QTest::keyClick(amount, Qt::Key_Return);
    QTest::keyClick(amount, Qt::Key_P, Qt::AltModifier);
    QTRY_COMPARE(vm->paid().minorUnits(), qint64(1000));
    QSignalSpy refused(m_till.window->parkedSales(), &ParkedSales::refused);
    QTest::keyClick(m_till.window.get(), Qt::Key_F5);
    QTRY_COMPARE(refused.count(), 1);
    QCOMPARE(refused.first().first().value<TillError>().kind(), TillError::Kind::ParkPartlyPaid);
    QLabel *said = named<QLabel>(m_till.window.get(), QStringLiteral("Scan message"));
    QVERIFY(said->isVisible() && said->text().contains(vm->paid().toDisplayString()));
    QCOMPARE(vm->cart()->rowCount(), 1);   // still on screen, nothing parked
    QVERIFY(!QApplication::activeModalWidget());
}

void TestParkedSales::deleteIsAskedThenKeptAsAStaffAction()
{
    addItem(QStringLiteral("6901234500011"));
    parkCart();
    ParkedSalesDialog *dialog = openList();
    QVERIFY(dialog);
    auto *table = named<QTableView>(dialog, QStringLiteral("Parked sales list"));
    QTRY_COMPARE(table->model()->rowCount(), 1);
    QTest::keyClick(table, Qt::Key_Delete);
    QLabel *question = named<QLabel>(dialog, QStringLiteral("Delete question"));
    QTRY_VERIFY(question->isVisible());
    QVERIFY(question->text().contains(QStringLiteral("P1")));
    // Enter (a scanner's, or a bump) answers nothing: still parked, still asked.
    QTest::keyClick(table, Qt::Key_Return);
    QVERIFY(dialog->isVisible());
    QVERIFY(question->isVisible());
    QCOMPARE(table->model()->rowCount(), 1);
    // Esc keeps it; Del, Del deletes it.
    QTest::keyClick(table, Qt::Key_Escape);
    QTRY_VERIFY(!question->isVisible());
    QVERIFY(dialog->isVisible());
    QTest::keyClick(table, Qt::Key_Delete);
    QTRY_VERIFY(question->isVisible());
    QTest::keyClick(table, Qt::Key_Delete);
    QTRY_COMPARE(table->model()->rowCount(), 0);
    bool done = false;
    QList<IntentJournal::StaffAction> actions;
    m_till.session->journal()->staffActions(this, [&](bool, const TillError &, const QList<IntentJournal::StaffAction> &a) {
        actions = a;
        done = true;
    });
    QTRY_VERIFY(done);
    QVERIFY(std::any_of(actions.cbegin(), actions.cend(), [](const IntentJournal::StaffAction &a) {
        return a.action == QLatin1String("delete_parked") && a.subject == QLatin1String("P1");
    }));
    QTest::keyClick(table, Qt::Key_Escape);
}

void TestParkedSales::parkedSaleOutlivesARestartAndIsInTheZReport()
{
    addItem(QStringLiteral("6901234500011"));
    addItem(QStringLiteral("6901234500011"));
    const Money total = m_till.window->viewModel()->cart()->total();
    parkCart();
    QString error;
    QVERIFY2(m_till.restart(&error), qPrintable(error));
    ParkedSales *parked = m_till.window->parkedSales();
    parked->refresh();
    QTRY_COMPARE(parked->rowCount(), 1);
    QCOMPARE(parked->sales().at(0).total, total);

    // Left parked at the close: the Z report names it (number, time, items, total).
    ShiftBook shifts(m_till.session->journal());
    bool done = false;
    ShiftBook::Snapshot snapshot;
    shifts.current(this, [&](bool ok, const TillError &, const ShiftBook::Snapshot &s) {
        QVERIFY(ok);
        snapshot = s;
        done = true;
    });
    QTRY_VERIFY(done);
    const ShiftReport report = ShiftReport::compute(snapshot.reportInput(QStringLiteral("CNY"), std::nullopt));
    QCOMPARE(report.parked.size(), 1);
    const QString html = ShiftReportDocument::html(report, {}, {});
    QVERIFY2(html.contains(ShiftReportDocument::parkedLine(report.parked.at(0)).toHtmlEscaped()), qPrintable(html));
    QVERIFY(ShiftReportDocument::parkedLine(report.parked.at(0)).contains(QStringLiteral("P1")));
    ShiftTotalsModel totals;
    totals.setReport(report);
    const int row = int(ShiftTotalsModel::Line::ParkedSales);
    QCOMPARE(totals.index(row, int(ShiftTotalsModel::Column::Count)).data().toInt(), 1);
    QCOMPARE(totals.index(row, int(ShiftTotalsModel::Column::Amount)).data().toString(), total.toDisplayString());
}

QTEST_MAIN(TestParkedSales)
#include "tst_parkedsales.moc"
