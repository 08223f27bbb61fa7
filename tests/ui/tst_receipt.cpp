// The receipt document without a window: a card receipt names the shop, the card's brand and
// last four, the acquirer's authorization code and "APPROVED" under a stable receipt number; a
// cash receipt shows what was tendered and the change; a sale still waiting gets a slip that says
// it is not a receipt; a declined sale gets nothing. The PDF is named after the receipt number.
#include "cartmodel.h"
#include "receipt.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

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

private:
    Intent cardIntent(IntentState state) const;
    ReceiptContext context() const;

    CartModel m_cart;
};

void TestReceipt::init()
{
    m_cart.clear();
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

QTEST_MAIN(TestReceipt)
#include "tst_receipt.moc"
