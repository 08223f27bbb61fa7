// The words of the gateway's and the acquirer's identifiers (issue 37, item 2): every decline
// code has its words in one place, IntentText::declineReason, in both languages, and a test
// card's brand is labelled as the receipt labels the brand the acquirer names.
#include "intenttext.h"
#include "receipt.h"

#include <QScopeGuard>
#include <QTest>
#include <QTranslator>

using namespace OncePay;
using namespace OncePay::Ui;

class TestIntentText final : public QObject
{
    Q_OBJECT

private slots:
    void everyDeclineCodeHasWords_data();
    void everyDeclineCodeHasWords();
    void aTestCardIsLabelledAsItsBrand_data();
    void aTestCardIsLabelledAsItsBrand();
};

void TestIntentText::everyDeclineCodeHasWords_data()
{
    QTest::addColumn<QString>("code");
    // The codes the gateway answers (API.md) and the simulated acquirer gives: cards, wallets
    // (issue 26) and refunds.
    for (const char *code : {"card_declined", "insufficient_funds", "processing_error", "code_expired", "wallet_timeout",
             "cancelled", "wallet_declined", "refund_declined", "charge_not_found", "amount_exceeds_charge"})
        QTest::newRow(code) << QString::fromLatin1(code);
}

void TestIntentText::everyDeclineCodeHasWords()
{
    QFETCH(QString, code);
    const QString english = IntentText::declineReason(code);
    QVERIFY2(english != code && english.contains(QLatin1Char(' ')), qPrintable(english));

    QTranslator chinese;
    QVERIFY2(chinese.load(QStringLiteral("oncepay_zh_CN"), QStringLiteral(ONCEPAY_QM_DIR)), ONCEPAY_QM_DIR);
    QVERIFY(QCoreApplication::installTranslator(&chinese));
    const auto uninstall = qScopeGuard([&chinese] {
        QCoreApplication::removeTranslator(&chinese);
    });
    const QString translated = IntentText::declineReason(code);
    QVERIFY2(translated != english, qPrintable(english));
}

void TestIntentText::aTestCardIsLabelledAsItsBrand_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("brand");
    QTest::newRow("visa") << "tok_visa"
                          << "visa";
    QTest::newRow("mastercard") << "tok_mastercard"
                                << "mastercard";
    QTest::newRow("unionpay") << "tok_unionpay"
                              << "unionpay";
    QTest::newRow("amex") << "tok_amex"
                          << "amex";
    QTest::newRow("jcb") << "tok_jcb"
                         << "jcb";
}

void TestIntentText::aTestCardIsLabelledAsItsBrand()
{
    QFETCH(QString, token);
    QFETCH(QString, brand);
    QCOMPARE(IntentText::cardBrand(token), Receipt::cardLabel(brand, {}));
    // Never the raw identifier: a label a customer recognises.
    QVERIFY(IntentText::cardBrand(token) != brand);
}

QTEST_GUILESS_MAIN(TestIntentText)
#include "tst_intenttext.moc"
