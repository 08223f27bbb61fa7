// The till on a 1024x768 screen (issue 36, blocker 1): nothing a message says changes the window's
// size. A receipt printer that cannot be reached ("Printer: 1 waiting — The printer at tcp://…
// cannot be reached"), then the longest words every label of the status bar, a passing message
// and the scan field can show, in English and in Chinese: the window stays 1024 px wide and the
// Total shows its whole amount. An elided message is whole in its tooltip, a click away, and the
// scanner's next code still reaches the scan field.
#include "checkoutviewmodel.h"
#include "demotill.h"
#include "elidedlabel.h"
#include "mainwindow.h"
#include "printqueue.h"
#include "tillsettings.h"
#include "tillstatusbar.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QStatusBar>
#include <QTcpServer>
#include <QToolTip>
#include <QTranslator>
#include <QtTest>

using namespace OncePay;
using namespace OncePay::Ui;

class TestWindowFits final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void longMessagesNeverWidenTheWindow_data();
    void longMessagesNeverWidenTheWindow();

private:
    // The scan field: the one line edit that has the keyboard when the till waits for a scan.
    static QLineEdit *scanField(MainWindow *window);
    static void scan(MainWindow *window, const QString &code);
    // The window's width and the Total's whole amount, once the layout has followed the words.
    static void checkFits(MainWindow *window, const QString &what);
};

void TestWindowFits::initTestCase()
{
    DemoTill::isolateSettings();
}

QLineEdit *TestWindowFits::scanField(MainWindow *window)
{
    QLineEdit *field = nullptr;
    const bool focused = QTest::qWaitFor([&] {
        field = qobject_cast<QLineEdit *>(QApplication::focusWidget());
        return field && field->window() == window && field->isEnabled();
    });
    return focused ? field : nullptr;
}

void TestWindowFits::scan(MainWindow *window, const QString &code)
{
    QLineEdit *field = scanField(window);
    QVERIFY(field);
    QTest::keyClicks(field, code);
    QTest::keyClick(field, Qt::Key_Return);
}

void TestWindowFits::checkFits(MainWindow *window, const QString &what)
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QVERIFY2(window->width() <= 1024, qPrintable(QStringLiteral("%1: the window is %2 px wide").arg(what).arg(window->width())));
    QVERIFY2(window->minimumSizeHint().width() <= 1024,
        qPrintable(QStringLiteral("%1: the window needs %2 px").arg(what).arg(window->minimumSizeHint().width())));
    // The Total: the label that shows the cart's total, its whole text inside it and the window.
    const QString amount = window->viewModel()->cart()->total().toDisplayString();
    QLabel *total = nullptr;
    for (QLabel *label : window->centralWidget()->findChildren<QLabel *>()) {
        if (label->text() == amount && label->font().pointSize() > window->font().pointSize())
            total = label;
    }
    QVERIFY2(total, qPrintable(amount));
    QVERIFY2(total->fontMetrics().horizontalAdvance(total->text()) <= total->contentsRect().width(),
        qPrintable(QStringLiteral("%1: the Total %2 needs %3 px, has %4").arg(what, amount).arg(total->fontMetrics().horizontalAdvance(total->text())).arg(total->contentsRect().width())));
    QVERIFY2(total->mapTo(window, QPoint(total->width(), 0)).x() <= window->width(), qPrintable(what));
}

void TestWindowFits::longMessagesNeverWidenTheWindow_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("English") << QStringLiteral("en");
    QTest::newRow("Chinese") << QStringLiteral("zh_CN");
}

void TestWindowFits::longMessagesNeverWidenTheWindow()
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
    QVERIFY2(till.start(DemoTill::Options{true, 16, QSize(1024, 768), true}, &error), qPrintable(error));
    MainWindow *window = till.window.get();
    QCOMPARE(window->width(), 1024);

    // A receipt printer nobody answers at, and a paid sale whose receipt waits for it.
    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost));
    const QString uri = QStringLiteral("tcp://127.0.0.1:%1").arg(closed.serverPort());
    closed.close();
    TillSettings settings;
    settings.printerUri = uri;
    settings.autoPrint = true;
    till.printQueue->setRetryMs(50);
    till.devices->apply(settings);
    scan(window, QStringLiteral("6901234500011"));   // tea, 4.50
    scan(window, QStringLiteral("6901234500097"));   // rice, 49.90
    QTRY_COMPARE(window->viewModel()->cart()->total().minorUnits(), qint64(5440));
    QTest::keyClick(scanField(window), Qt::Key_F10);
    QPushButton *exact = nullptr;
    QTRY_VERIFY((exact = DemoTill::named<QPushButton>(window, QCoreApplication::translate("OncePay::Ui::CashPanel", "Exact amount"))) && exact->isVisible());
    QTest::mouseClick(exact, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(window->viewModel()->phase(), CheckoutViewModel::Phase::Paid, 10000);
    ElidedLabel *printer = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT([&] {
        for (ElidedLabel *label : window->statusBar()->findChildren<ElidedLabel *>()) {
            if (label->isVisible() && label->text().contains(uri))
                printer = label;
        }
        return printer != nullptr;
    }(),
        15000);
    checkFits(window, QStringLiteral("the printer cannot be reached"));
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(printer->isElided() || printer->fontMetrics().horizontalAdvance(printer->text()) <= printer->width(),
        qPrintable(printer->text()));

    // Its whole text is a click away, in a tooltip that leaves the keyboard where it was: the
    // next scan still reaches the scan field while it is open.
    QTest::mouseClick(printer, Qt::LeftButton);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(printer->text().toHtmlEscaped()), qPrintable(QToolTip::text()));
    scan(window, QStringLiteral("6901234500011"));   // paid: the next customer's sale
    QTRY_COMPARE(window->viewModel()->cart()->rowCount(), 1);
    checkFits(window, QStringLiteral("the next sale"));
    if (QTest::currentTestFailed())
        return;

    // A code longer than any word fits (a QR code that is no product): its message is cut, not
    // the window.
    scan(window, QString(160, QLatin1Char('7')));
    QTRY_VERIFY(window->viewModel()->cart()->rowCount() == 1);
    checkFits(window, QStringLiteral("a 160-digit code"));
    if (QTest::currentTestFailed())
        return;

    // Cash short of the total: the part payment offered, with its amount; then what a scanner
    // typed into the cash field, which is no amount.
    QTest::keyClick(scanField(window), Qt::Key_F10);
    auto *cash = DemoTill::named<QLineEdit>(window, QCoreApplication::translate("OncePay::Ui::CashPanel", "Cash received"));
    QVERIFY(cash);
    QTRY_VERIFY(cash->hasFocus());
    cash->selectAll();
    QTest::keyClicks(cash, QStringLiteral("4"));
    QTest::keyClick(cash, Qt::Key_Return);
    QPushButton *part = nullptr;
    QTRY_VERIFY((part = DemoTill::named<QPushButton>(window, QCoreApplication::translate("OncePay::Ui::CashPanel", "Take as part payment"))) && part->isVisible());
    checkFits(window, QStringLiteral("a part payment offered"));
    if (QTest::currentTestFailed())
        return;
    cash->selectAll();
    QTest::keyClicks(cash, QString(160, QLatin1Char('7')) + QStringLiteral("x"));
    QTest::keyClick(cash, Qt::Key_Return);
    checkFits(window, QStringLiteral("a 160-digit amount"));
    if (QTest::currentTestFailed())
        return;
    QTest::keyClick(cash, Qt::Key_Escape);

    // The longest words anything could put in the status bar: the printer's message eight times,
    // in every label, and as a passing message.
    QStringList repeated;
    for (int i = 0; i < 8; ++i)
        repeated << printer->text();
    const QString longest = repeated.join(QStringLiteral(" · "));
    window->statusBar()->showMessage(longest);
    QCOMPARE(window->tillStatusBar()->messageLabel()->text(), longest);
    checkFits(window, QStringLiteral("a passing message"));
    if (QTest::currentTestFailed())
        return;
    for (QLabel *label : window->statusBar()->findChildren<QLabel *>()) {
        label->setText(longest);
        label->show();
        checkFits(window, QStringLiteral("the longest words in the label \"%1\"").arg(label->accessibleName()));
        if (QTest::currentTestFailed())
            return;
    }
    DemoTill::saveScreenshot(window, QStringLiteral("windowfits-%1.png").arg(language));
}

QTEST_MAIN(TestWindowFits)
#include "tst_windowfits.moc"
