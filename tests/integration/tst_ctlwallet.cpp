// Wallet payments through oncepay-ctl against a real gateway (issue 26): `pay --method
// wallet:CODE` with the exit codes of a card, `sale --tender wallet/CODE`, and `cancel KEY`,
// which gives up a payment waiting for the customer's confirmation once: the bank's own ledger
// shows nothing kept.
#include "chaosctl.h"
#include "gatewayapi.h"
#include "gatewayprocess.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace GatewayApi;
using namespace Chaos;

namespace {

// A product of the demo catalog: ¥4.50.
const QString kTea = QStringLiteral("6901234500011");

// A new payment code of the brand's prefix whose last digit decides the outcome (API.md).
QString code(const char *prefix, int outcome)
{
    static int serial = 0;
    return QString::fromLatin1(prefix) + QStringLiteral("%1").arg(QCoreApplication::applicationPid() % 100000, 5, 10, QLatin1Char('0'))
        + QStringLiteral("%1").arg(++serial, 10, 10, QLatin1Char('0')) + QString::number(outcome);
}

}   // namespace

class TestCtlWallet final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void payExitCodes_data();
    void payExitCodes();
    void cancelGivesUpOnce();
    void cancelRefusals();
    void saleWithAWalletTender();
    void badCodes_data();
    void badCodes();

private:
    std::unique_ptr<Ctl> run(const QStringList &command);

    QTemporaryDir m_dir;
    GatewayProcess m_gateway;
    QString m_journal;
};

void TestCtlWallet::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(QFile::exists(qEnvironmentVariable("ONCEPAY_CTL_BIN")), "ONCEPAY_CTL_BIN is not set or does not exist");
    QVERIFY2(m_gateway.start({QStringLiteral("--recovery-interval"), QStringLiteral("300ms")}), m_gateway.failureMessage().constData());
    m_journal = m_dir.filePath(QStringLiteral("till.db"));
}

std::unique_ptr<Ctl> TestCtlWallet::run(const QStringList &command)
{
    auto ctl = std::make_unique<Ctl>(ctlArgs(m_journal, m_gateway.baseUrl(), command));
    ctl->start();
    if (!ctl->waitFinished(90'000))
        ctl->kill9();
    return ctl;
}

void TestCtlWallet::payExitCodes_data()
{
    QTest::addColumn<QString>("walletCode");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QString>("brand");
    QTest::newRow("approved, wechat") << code("13", 0) << 0 << QStringLiteral("succeeded") << QStringLiteral("wechat");
    QTest::newRow("approved, alipay") << code("28", 6) << 0 << QStringLiteral("succeeded") << QStringLiteral("alipay");
    QTest::newRow("insufficient funds") << code("11", 3) << 3 << QStringLiteral("declined") << QStringLiteral("wechat");
    QTest::newRow("code expired") << code("26", 4) << 3 << QStringLiteral("declined") << QStringLiteral("alipay");
}

void TestCtlWallet::payExitCodes()
{
    QFETCH(QString, walletCode);
    QFETCH(int, exitCode);
    QFETCH(QString, state);
    QFETCH(QString, brand);
    const auto pay = run({QStringLiteral("pay"), QStringLiteral("--amount"), QStringLiteral("12.50"), QStringLiteral("--order"),
        QStringLiteral("w-") + walletCode.right(6), QStringLiteral("--method"), QStringLiteral("wallet:") + walletCode});
    QVERIFY2(pay->exitCode() == exitCode, pay->describe().constData());
    const QJsonObject o = pay->json();
    QCOMPARE(o.value(QStringLiteral("state")).toString(), state);
    QCOMPARE(o.value(QStringLiteral("payment_method")).toString(), QStringLiteral("wallet"));
    QCOMPARE(o.value(QStringLiteral("wallet")).toObject().value(QStringLiteral("brand")).toString(), brand);
    QVERIFY(o.value(QStringLiteral("card")).isNull());
    // The customer's code is theirs: never printed.
    QVERIFY2(!pay->out().contains(walletCode.toLatin1()), pay->out().constData());
}

void TestCtlWallet::cancelGivesUpOnce()
{
    HttpClient bank(m_gateway.baseUrl());
    bank.setToken(kTill1);
    // The customer never confirms on the phone: the payment waits (exit 4), the cashier gives up.
    const auto pay = run({QStringLiteral("pay"), QStringLiteral("--amount"), QStringLiteral("30.00"), QStringLiteral("--order"),
        QStringLiteral("w-never"), QStringLiteral("--method"), QStringLiteral("wallet:") + code("27", 2), QStringLiteral("--no-wait")});
    QVERIFY2(pay->exitCode() == 4, pay->describe().constData());
    const QString key = pay->json().value(QStringLiteral("key")).toString();
    QVERIFY(!key.isEmpty());

    const auto cancel = run({QStringLiteral("cancel"), key});
    QVERIFY2(cancel->exitCode() == 0, cancel->describe().constData());
    QCOMPARE(cancel->json().value(QStringLiteral("state")).toString(), QStringLiteral("declined"));
    QCOMPARE(cancel->json().value(QStringLiteral("decline_code")).toString(), QStringLiteral("cancelled"));
    // Asked again: the same, nothing more happens.
    const auto again = run({QStringLiteral("cancel"), key});
    QVERIFY2(again->exitCode() == 0, again->describe().constData());
    QCOMPARE(again->json().value(QStringLiteral("decline_code")).toString(), QStringLiteral("cancelled"));
    const Charges ledger = acquirerCharges(bank, key);
    QVERIFY2(ledger.ok && ledger.rows.isEmpty(), ledger.raw.constData());
}

void TestCtlWallet::cancelRefusals()
{
    // Already paid by the phone: refund it instead (1, one line on stderr).
    const auto paid = run({QStringLiteral("pay"), QStringLiteral("--amount"), QStringLiteral("8.00"), QStringLiteral("--order"),
        QStringLiteral("w-paid"), QStringLiteral("--method"), QStringLiteral("wallet:") + code("14", 0)});
    QVERIFY2(paid->exitCode() == 0, paid->describe().constData());
    const QString paidKey = paid->json().value(QStringLiteral("key")).toString();
    const auto late = run({QStringLiteral("cancel"), paidKey});
    QVERIFY2(late->exitCode() == 1 && late->err().contains("refund") && late->err().trimmed().count('\n') == 0,
        late->describe().constData());
    // A card payment is not a wallet's.
    const auto card = run({QStringLiteral("pay"), QStringLiteral("--amount"), QStringLiteral("8.00"), QStringLiteral("--order"),
        QStringLiteral("w-card")});
    QVERIFY2(card->exitCode() == 0, card->describe().constData());
    const auto notWallet = run({QStringLiteral("cancel"), card->json().value(QStringLiteral("key")).toString()});
    QVERIFY2(notWallet->exitCode() == 1 && notWallet->err().contains("wallet"), notWallet->describe().constData());
    // No such key, and no key at all.
    const auto unknown = run({QStringLiteral("cancel"), QStringLiteral("no-such-key")});
    QVERIFY2(unknown->exitCode() == 1, unknown->describe().constData());
    const auto none = run({QStringLiteral("cancel")});
    QVERIFY2(none->exitCode() == 2, none->describe().constData());
}

void TestCtlWallet::saleWithAWalletTender()
{
    const QString walletCode = code("25", 0);
    const auto sale = run({QStringLiteral("sale"), QStringLiteral("--item"), kTea + QStringLiteral(":2"), QStringLiteral("--tender"),
        QStringLiteral("wallet/") + walletCode});
    QVERIFY2(sale->exitCode() == 0, sale->describe().constData());
    const QJsonObject paid = sale->json();
    QCOMPARE(paid.value(QStringLiteral("state")).toString(), QStringLiteral("paid"));
    const QJsonObject tender = paid.value(QStringLiteral("tenders")).toArray().at(0).toObject();
    QCOMPARE(tender.value(QStringLiteral("kind")).toString(), QStringLiteral("wallet"));
    QCOMPARE(tender.value(QStringLiteral("brand")).toString(), QStringLiteral("alipay"));
    QCOMPARE(tender.value(QStringLiteral("amount")).toInteger(), qint64(900));
    QVERIFY(!sale->out().contains(walletCode.toLatin1()));
    const auto sales = run({QStringLiteral("sales"), QStringLiteral("--json")});
    QVERIFY2(sales->exitCode() == 0, sales->describe().constData());
    QVERIFY2(sales->out().contains("\"kind\":\"wallet\""), sales->out().constData());
}

void TestCtlWallet::badCodes_data()
{
    QTest::addColumn<QStringList>("command");
    QTest::newRow("pay, 17 digits") << QStringList{QStringLiteral("pay"), QStringLiteral("--amount"), QStringLiteral("1.00"),
        QStringLiteral("--order"), QStringLiteral("w-bad"), QStringLiteral("--method"), QStringLiteral("wallet:13456789012345678")};
    QTest::newRow("pay, prefix 20") << QStringList{QStringLiteral("pay"), QStringLiteral("--amount"), QStringLiteral("1.00"),
        QStringLiteral("--order"), QStringLiteral("w-bad"), QStringLiteral("--method"), QStringLiteral("wallet:204567890123456780")};
    QTest::newRow("sale, letters") << QStringList{QStringLiteral("sale"), QStringLiteral("--item"), kTea, QStringLiteral("--tender"),
        QStringLiteral("wallet/13456789012345678x")};
}

void TestCtlWallet::badCodes()
{
    QFETCH(QStringList, command);
    const auto ctl = run(command);
    QVERIFY2(ctl->exitCode() == 2 && ctl->err().contains("payment code") && ctl->err().trimmed().count('\n') == 0,
        ctl->describe().constData());
}

QTEST_GUILESS_MAIN(TestCtlWallet)
#include "tst_ctlwallet.moc"
