// The receipt document without a window: a card receipt names the shop, the card's brand and
// last four, the acquirer's authorization code and "APPROVED" under a stable receipt number; a
// cash receipt shows what was tendered and the change; a sale still waiting gets a slip that says
// it is not a receipt; a declined sale gets nothing. The PDF is named after the receipt number.
#include "cartmodel.h"
#include "receipt.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QTranslator>

using namespace OncePay;
using namespace OncePay::Ui;

Q_DECLARE_METATYPE(OncePay::IntentState)

class TestReceipt final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cardReceipt();
    void cashReceiptShowsTenderedAndChange();
    void pendingSaleGetsASlip_data();
    void pendingSaleGetsASlip();
    void noReceiptWithoutPayment_data();
    void noReceiptWithoutPayment();
    void numberIsStableAndNamesTheFile();
    void cardLabel_data();
    void cardLabel();
    void pdfIsWritten();
    void discountsAddUpOnPaper();
    void taxAddedIsAStep();
    void weighedLineAndCashier();
    void chineseReceiptCallsTheTotalHeji();

private:
    Intent cardIntent(IntentState state) const;
    ReceiptContext context() const;

    CartModel m_cart;
};

void TestReceipt::init()
{
    m_cart.clear();
    m_cart.setTaxMode(TaxMode::Inclusive);
    m_cart.add(Product{QStringLiteral("6901234500011"), QStringLiteral("Jasmine tea"), QStringLiteral("茉莉花茶"),
        Money(450, QStringLiteral("CNY"))});
    m_cart.add(Product{QStringLiteral("6901234500028"), QStringLiteral("Pineapple bun"), QStringLiteral("菠萝包"),
        Money(800, QStringLiteral("CNY"))});
}

Intent TestReceipt::cardIntent(IntentState state) const
{
    Intent i;
    i.id = 42;
    i.key = QStringLiteral("pay-6a1f");
    i.orderId = QStringLiteral("S-20261202-0042");
    i.amount = Money(1250, QStringLiteral("CNY"));
    i.paymentMethod = QStringLiteral("tok_visa");
    i.state = state;
    i.createdAt = 1'796'200'000'000;
    i.updatedAt = 1'796'200'003'000;
    if (state == IntentState::Succeeded) {
        i.paymentId = QStringLiteral("pay_abc");
        i.cardBrand = QStringLiteral("visa");
        i.cardLast4 = QStringLiteral("4242");
        i.authorizationCode = QStringLiteral("A1B2C3");
    }
    return i;
}

ReceiptContext TestReceipt::context() const
{
    return {QStringLiteral("till-7"), QStringLiteral("Corner Tea House"), QStringLiteral("8 Fuzhou Road, Shanghai"), {}};
}

void TestReceipt::cardReceipt()
{
    const Intent paid = cardIntent(IntentState::Succeeded);
    QCOMPARE(Receipt::kindFor(paid), Receipt::Kind::Receipt);
    const QString html = Receipt::html(paid, m_cart, context());
    for (const QString &expected : {QStringLiteral("Corner Tea House"), QStringLiteral("8 Fuzhou Road, Shanghai"),
             QStringLiteral("till-7-000042"), QStringLiteral("S-20261202-0042"),
             QStringLiteral("Jasmine tea"), QStringLiteral("Pineapple bun"),
             QStringLiteral("¥12.50"), QStringLiteral("Visa \u00B7\u00B74242"),
             QStringLiteral("A1B2C3"), QStringLiteral("APPROVED"),
             QDateTime::fromMSecsSinceEpoch(paid.updatedAt).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))})
        QVERIFY2(html.contains(expected), qPrintable(expected + QStringLiteral(" missing in ") + html));
    QVERIFY(!html.contains(QStringLiteral("PENDING")));
    QVERIFY(!html.contains(QStringLiteral("tok_visa")));   // the token is not for people
}

void TestReceipt::cashReceiptShowsTenderedAndChange()
{
    Intent cash = cardIntent(IntentState::Succeeded);
    cash.tender = Tender::Cash;
    cash.paymentMethod.clear();
    cash.cardBrand.clear();
    cash.cardLast4.clear();
    cash.authorizationCode.clear();
    ReceiptContext c = context();
    c.cashTendered = Money(2000, QStringLiteral("CNY"));
    const QString html = Receipt::html(cash, m_cart, c);
    QVERIFY2(html.contains(QStringLiteral("Cash")), qPrintable(html));
    QVERIFY(html.contains(QStringLiteral("Tendered")));
    QVERIFY(html.contains(QStringLiteral("¥20.00")));
    QVERIFY(html.contains(QStringLiteral("Change")));
    QVERIFY(html.contains(QStringLiteral("¥7.50")));
    QVERIFY(!html.contains(QStringLiteral("APPROVED")));
    QVERIFY(!html.contains(QStringLiteral("Authorization")));
    // Without the tendered amount (a cash sale read back later) there is no made-up change.
    c.cashTendered.reset();
    const QString plain = Receipt::html(cash, m_cart, c);
    QVERIFY(plain.contains(QStringLiteral("Cash")));
    QVERIFY(!plain.contains(QStringLiteral("Change")));
}

void TestReceipt::pendingSaleGetsASlip_data()
{
    QTest::addColumn<IntentState>("state");
    QTest::newRow("queued offline") << IntentState::Queued;
    QTest::newRow("sending") << IntentState::Sending;
    QTest::newRow("bank processing") << IntentState::Processing;
    QTest::newRow("answer lost") << IntentState::Unknown;
}

void TestReceipt::pendingSaleGetsASlip()
{
    QFETCH(IntentState, state);
    const Intent waiting = cardIntent(state);
    QCOMPARE(Receipt::kindFor(waiting), Receipt::Kind::PendingSlip);
    const QString html = Receipt::html(waiting, m_cart, context());
    QVERIFY2(html.contains(QStringLiteral("PAYMENT PENDING \u2014 NOT A RECEIPT")), qPrintable(html));
    QVERIFY(html.contains(QStringLiteral("¥12.50")));
    QVERIFY(html.contains(QStringLiteral("till-7-000042")));
    QVERIFY(!html.contains(QStringLiteral("APPROVED")));
    QVERIFY(!html.contains(QStringLiteral("Receipt no.")));
    QCOMPARE(Receipt::fileName(waiting, QStringLiteral("till-7")), QStringLiteral("till-7-000042-pending.pdf"));
}

void TestReceipt::noReceiptWithoutPayment_data()
{
    QTest::addColumn<IntentState>("state");
    QTest::newRow("declined") << IntentState::Declined;
    QTest::newRow("needs attention") << IntentState::NeedsAttention;
}

void TestReceipt::noReceiptWithoutPayment()
{
    QFETCH(IntentState, state);
    Intent i = cardIntent(state);
    i.cardBrand = QStringLiteral("visa");   // a declined card is known, and still no receipt
    i.cardLast4 = QStringLiteral("0002");
    QCOMPARE(Receipt::kindFor(i), Receipt::Kind::None);
    QVERIFY(Receipt::html(i, m_cart, context()).isEmpty());
}

void TestReceipt::numberIsStableAndNamesTheFile()
{
    const Intent paid = cardIntent(IntentState::Succeeded);
    QCOMPARE(Receipt::number(paid, QStringLiteral("till-7")), QStringLiteral("till-7-000042"));
    Intent later = paid;
    later.updatedAt += 3'600'000;   // printed again an hour later: the same number
    QCOMPARE(Receipt::number(later, QStringLiteral("till-7")), Receipt::number(paid, QStringLiteral("till-7")));
    QCOMPARE(Receipt::fileName(paid, QStringLiteral("till-7")), QStringLiteral("till-7-000042.pdf"));
    // A terminal name that is no file name still gives one.
    QCOMPARE(Receipt::fileName(paid, QStringLiteral("front/desk 2")), QStringLiteral("front_desk_2-000042.pdf"));
}

void TestReceipt::cardLabel_data()
{
    QTest::addColumn<QString>("brand");
    QTest::addColumn<QString>("last4");
    QTest::addColumn<QString>("label");
    QTest::newRow("visa") << QStringLiteral("visa") << QStringLiteral("4242") << QStringLiteral("Visa \u00B7\u00B74242");
    QTest::newRow("mastercard") << QStringLiteral("mastercard") << QStringLiteral("4444")
                                << QStringLiteral("Mastercard \u00B7\u00B74444");
    QTest::newRow("unionpay") << QStringLiteral("unionpay") << QStringLiteral("0005")
                              << QStringLiteral("UnionPay \u00B7\u00B70005");
    QTest::newRow("other brand") << QStringLiteral("discover") << QStringLiteral("1117")
                                 << QStringLiteral("Discover \u00B7\u00B71117");
    QTest::newRow("not told") << QString() << QString() << QStringLiteral("Card");
}

void TestReceipt::cardLabel()
{
    QFETCH(QString, brand);
    QFETCH(QString, last4);
    QFETCH(QString, label);
    QCOMPARE(Receipt::cardLabel(brand, last4), label);
}

void TestReceipt::pdfIsWritten()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Intent paid = cardIntent(IntentState::Succeeded);
    const QString path = dir.filePath(Receipt::fileName(paid, QStringLiteral("till-7")));
    QString error;
    QVERIFY2(saveReceiptPdf(Receipt::html(paid, m_cart, context()), path, &error), qPrintable(error));
    QVERIFY(QFileInfo(path).size() > 0);
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.read(5) == "%PDF-");
}

namespace {

// The receipt as a reader sees it: its rows, the cells of each joined by " | ".
QStringList readRows(const QString &html)
{
    QStringList rows;
    static const QRegularExpression tr(QStringLiteral("<tr>(.*?)</tr>"));
    static const QRegularExpression cell(QStringLiteral("<td[^>]*>(.*?)</td>"));
    for (auto r = tr.globalMatch(html); r.hasNext();) {
        const QString inner = r.next().captured(1);
        QStringList cells;
        for (auto c = cell.globalMatch(inner); c.hasNext();) {
            QTextDocument d;
            d.setHtml(c.next().captured(1));
            cells << d.toPlainText().trimmed();
        }
        rows << cells.join(QStringLiteral(" | "));
    }
    return rows;
}

// "−¥4.80" -> -480, "¥12.50" -> 1250.
qint64 minorOf(const QString &text)
{
    QString t = text;
    const bool negative = t.startsWith(QChar(0x2212));
    t.remove(QChar(0x2212)).remove(QStringLiteral("¥"));
    const auto m = Money::parse(t, QStringLiteral("CNY"));
    return m ? (negative ? -m->minorUnits() : m->minorUnits()) : std::numeric_limits<qint64>::min();
}

}   // namespace

// Issue 36, confusion 6: the lines at their full price, each line's discount under it, then the
// sale's discount, and the rows add up to the total that was paid; a negative amount is written
// "−¥4.80" and never "¥-4.80". Before, the line totals were discounted already and a "Discount
// ¥-4.80" row under them seemed to take the discounts off twice.
void TestReceipt::discountsAddUpOnPaper()
{
    m_cart.setLineDiscount(0, Discount{Discount::Kind::Percent, 1000});   // tea 4.50: -0.45
    m_cart.setSaleDiscount(Discount{Discount::Kind::Amount, 100});   // -1.00 over both lines
    const qint64 total = m_cart.total().minorUnits();
    QCOMPARE(total, qint64(450 - 45 + 800 - 100));
    Intent paid = cardIntent(IntentState::Succeeded);
    paid.amount = Money(total, QStringLiteral("CNY"));
    const QString html = Receipt::html(paid, m_cart, context());
    QVERIFY2(!html.contains(QStringLiteral("¥-")), qPrintable(html));
    const QStringList rows = readRows(html);
    // The items at their full price, the tea's own discount under it.
    QVERIFY2(rows.contains(QStringLiteral("Jasmine tea | ¥4.50")), qPrintable(rows.join(QLatin1Char('\n'))));
    QVERIFY(rows.contains(QStringLiteral("Discount 10% | \u2212¥0.45")));
    QVERIFY(rows.contains(QStringLiteral("Pineapple bun | ¥8.00")));
    QVERIFY(rows.contains(QStringLiteral("Subtotal | ¥12.05")));
    QVERIFY(rows.contains(QStringLiteral("Discount on the sale | \u2212¥1.00")));
    QVERIFY(rows.contains(QStringLiteral("Total | ¥11.05")));
    // Every amount from the first item down to the subtotal adds up to it; the subtotal and the
    // rows under it to the total.
    const qsizetype first = rows.indexOf(QStringLiteral("Jasmine tea | ¥4.50"));
    const qsizetype subtotal = rows.indexOf(QStringLiteral("Subtotal | ¥12.05"));
    const qsizetype totalRow = rows.indexOf(QStringLiteral("Total | ¥11.05"));
    QVERIFY(first >= 0 && first < subtotal && subtotal < totalRow);
    qint64 lines = 0;
    for (qsizetype i = first; i < subtotal; ++i)
        lines += minorOf(rows.at(i).section(QStringLiteral(" | "), -1));
    QCOMPARE(lines, qint64(1205));
    qint64 sums = 0;
    for (qsizetype i = subtotal; i < totalRow; ++i)
        sums += minorOf(rows.at(i).section(QStringLiteral(" | "), -1));
    QCOMPARE(sums, total);
    // The screen's lines say the sale's share too: its price less what the name says is its total.
    const QString teaName = m_cart.data(m_cart.index(0, int(CartModel::Column::Name))).toString();
    QVERIFY2(teaName.contains(QStringLiteral("\u2212¥0.45")) && teaName.contains(QStringLiteral("\u2212¥0.33 off the sale")), qPrintable(teaName));
    const QString bunName = m_cart.data(m_cart.index(1, int(CartModel::Column::Name))).toString();
    QVERIFY2(bunName.contains(QStringLiteral("\u2212¥0.67 off the sale")), qPrintable(bunName));
    QCOMPARE(m_cart.data(m_cart.index(0, int(CartModel::Column::LineTotal))).toString(), QStringLiteral("¥3.72"));
    QCOMPARE(m_cart.data(m_cart.index(1, int(CartModel::Column::LineTotal))).toString(), QStringLiteral("¥7.33"));
}

// Prices without VAT: the tax added is a step of its own between the lines and the total.
void TestReceipt::taxAddedIsAStep()
{
    m_cart.clear();
    m_cart.setTaxMode(TaxMode::Exclusive);
    Product tea{QStringLiteral("T1"), QStringLiteral("Tea"), QString(), Money(1000, QStringLiteral("CNY"))};
    tea.vatBasisPoints = 1300;
    m_cart.add(tea);
    Intent paid = cardIntent(IntentState::Succeeded);
    paid.amount = m_cart.total();
    QCOMPARE(paid.amount.minorUnits(), qint64(1130));
    const QStringList rows = readRows(Receipt::html(paid, m_cart, context()));
    QVERIFY2(rows.contains(QStringLiteral("Tea | ¥10.00")), qPrintable(rows.join(QLatin1Char('\n'))));
    QVERIFY(rows.contains(QStringLiteral("Subtotal | ¥10.00")));
    QVERIFY(rows.contains(QStringLiteral("VAT added | ¥1.30")));
    QVERIFY(rows.contains(QStringLiteral("Total | ¥11.30")));
    m_cart.setTaxMode(TaxMode::Inclusive);
}

// Issue 36, confusion 9: the receipt names who took the payment, and a weighed line says what it
// weighed and what a kg costs; more than one of an item says how many at what price.
void TestReceipt::weighedLineAndCashier()
{
    SaleItem cherries;
    cherries.product = Product{QStringLiteral("C1"), QStringLiteral("Cherries"), QStringLiteral("樱桃"), Money(1280, QStringLiteral("CNY"))};
    cherries.product.unit = SaleUnit::Kilogram;
    cherries.grams = 532;
    m_cart.addItem(cherries);
    m_cart.add(m_cart.item(0).product);   // a second tea
    Intent paid = cardIntent(IntentState::Succeeded);
    paid.amount = m_cart.total();
    paid.staff = QStringLiteral("Li Na");
    QCOMPARE(paid.amount.minorUnits(), qint64(900 + 800 + 681));   // 0.532 kg x 12.80 = 6.8096
    const QStringList rows = readRows(Receipt::html(paid, m_cart, context()));
    QVERIFY2(rows.contains(QStringLiteral("Cashier | Li Na")), qPrintable(rows.join(QLatin1Char('\n'))));
    QVERIFY(rows.contains(QStringLiteral("Cherries")));
    QVERIFY(rows.contains(QStringLiteral("0.532 kg × ¥12.80/kg | ¥6.81")));
    QVERIFY(rows.contains(QStringLiteral("2 × ¥4.50 | ¥9.00")));
    // A till without staff names nobody.
    paid.staff.clear();
    QVERIFY(!Receipt::html(paid, m_cart, context()).contains(QStringLiteral("Cashier")));
}

// Issue 36, confusion 9: the Chinese receipt calls the grand total 合计, as the screen does;
// 小计 is the subtotal before the sale's discount.
void TestReceipt::chineseReceiptCallsTheTotalHeji()
{
    QTranslator translator;
    QVERIFY(translator.load(QStringLiteral("oncepay_zh_CN"), QStringLiteral(ONCEPAY_QM_DIR)));
    QVERIFY(QCoreApplication::installTranslator(&translator));
    const auto uninstall = qScopeGuard([&translator] {
        QCoreApplication::removeTranslator(&translator);
    });
    m_cart.setLanguage(Language::SimplifiedChinese);
    m_cart.setSaleDiscount(Discount{Discount::Kind::Amount, 50});
    Intent paid = cardIntent(IntentState::Succeeded);
    paid.amount = m_cart.total();
    paid.staff = QStringLiteral("李娜");
    const QStringList rows = readRows(Receipt::html(paid, m_cart, context()));
    m_cart.setLanguage(Language::English);
    QVERIFY2(rows.contains(QStringLiteral("合计 | ¥12.00")), qPrintable(rows.join(QLatin1Char('\n'))));
    QVERIFY(rows.contains(QStringLiteral("小计 | ¥12.50")));
    QVERIFY(rows.contains(QStringLiteral("收银员 | 李娜")));
    QVERIFY(rows.contains(QStringLiteral("茉莉花茶 | ¥4.50")));
    QVERIFY(rows.filter(QStringLiteral("\u2212¥0.50")).size() == 1);
}

QTEST_MAIN(TestReceipt)
#include "tst_receipt.moc"
