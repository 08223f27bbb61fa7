// A sale is paid exactly once whatever its tenders (issue 21), through oncepay-ctl against a real
// gateway: the answer of a card part is lost (a fault proxy, `oncepay-ctl proxy`, losing every
// response), the customer pays cash instead (`pay-another-way`), and once the network is back the
// card turns out charged: the till refunds it by itself, once. The bank's own ledgers say so: one
// charge and one refund for that card part. Then split tenders, declines, cancels, and bad usage.
#include "chaosctl.h"
#include "gatewayapi.h"
#include "gatewayprocess.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace GatewayApi;
using namespace Chaos;

namespace {

// A product of the demo catalog: ¥4.50.
const QString kTea = QStringLiteral("6901234500011");

QJsonObject tenderOf(const QJsonObject &sale, int n)
{
    return sale.value(QStringLiteral("tenders")).toArray().at(n).toObject();
}

}   // namespace

class TestCtlSale final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cardLostCustomerPaysCashTillRefundsCard();
    void splitTenders_data();
    void splitTenders();
    void cancelGivesEverythingBack();
    void badUsage_data();
    void badUsage();
    void sellsFromTheImportedCatalog();

private:
    std::unique_ptr<Ctl> run(const QUrl &gateway, const QStringList &command);
    QTemporaryDir m_dir;
    GatewayProcess m_gateway;
    QString m_journal;
    int m_runs = 0;
};

void TestCtlSale::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(QFile::exists(qEnvironmentVariable("ONCEPAY_CTL_BIN")), "ONCEPAY_CTL_BIN is not set or does not exist");
    QVERIFY2(m_gateway.start(), m_gateway.failureMessage().constData());
    m_journal = m_dir.filePath(QStringLiteral("till.db"));
}

std::unique_ptr<Ctl> TestCtlSale::run(const QUrl &gateway, const QStringList &command)
{
    auto ctl = std::make_unique<Ctl>(ctlArgs(m_journal, gateway, command));
    ctl->start();
    if (!ctl->waitFinished(90'000))
        ctl->kill9();
    ++m_runs;
    return ctl;
}

void TestCtlSale::cardLostCustomerPaysCashTillRefundsCard()
{
    HttpClient bank(m_gateway.baseUrl());
    bank.setToken(kTill1);
    ProxyProcess proxy;
    QVERIFY(proxy.start(m_gateway.baseUrl(), QStringLiteral("lose_responses")));
    const quint16 port = quint16(proxy.url().port());

    // ¥9.00, by card: the request reaches the gateway (which charges), the answer never comes back.
    const auto sale = run(proxy.url(), {QStringLiteral("sale"), QStringLiteral("--item"), kTea + QStringLiteral(":2"), QStringLiteral("--tender"), QStringLiteral("card"), QStringLiteral("--no-wait")});
    QVERIFY2(sale->exitCode() == 4, sale->describe().constData());
    const QJsonObject paying = sale->json();
    QCOMPARE(paying.value(QStringLiteral("state")).toString(), QStringLiteral("paying"));
    QCOMPARE(paying.value(QStringLiteral("total")).toInteger(), qint64(900));
    const QString number = paying.value(QStringLiteral("sale")).toString();
    static const QRegularExpression saleNumberShape(QStringLiteral("^1-\\d{6}$"));
    QVERIFY2(saleNumberShape.match(number).hasMatch(), qPrintable(number));
    const QString cardKey = tenderOf(paying, 0).value(QStringLiteral("key")).toString();
    QVERIFY(!cardKey.isEmpty());
    QCOMPARE(tenderOf(paying, 0).value(QStringLiteral("state")).toString(), QStringLiteral("unknown"));
    // The bank has charged it: the till cannot know yet.
    QTRY_COMPARE_WITH_TIMEOUT(acquirerCharges(bank, cardKey).succeeded, 1, 10'000);

    // The customer will not wait: cash for the whole sale. The card part may have reached the bank,
    // so it is given up, not voided.
    const auto another = run(proxy.url(), {QStringLiteral("pay-another-way"), cardKey, QStringLiteral("--tender"), QStringLiteral("cash:10.00"), QStringLiteral("--no-wait")});
    QVERIFY2(another->exitCode() == 0, another->describe().constData());
    const QJsonObject paid = another->json();
    QCOMPARE(paid.value(QStringLiteral("state")).toString(), QStringLiteral("paid"));
    QCOMPARE(paid.value(QStringLiteral("sale")).toString(), number);
    QCOMPARE(paid.value(QStringLiteral("change")).toInteger(), qint64(100));
    QCOMPARE(tenderOf(paid, 0).value(QStringLiteral("state")).toString(), QStringLiteral("given_up"));
    QCOMPARE(tenderOf(paid, 1).value(QStringLiteral("kind")).toString(), QStringLiteral("cash"));
    QCOMPARE(tenderOf(paid, 1).value(QStringLiteral("amount")).toInteger(), qint64(900));
    // Giving it up twice is refused, in one line.
    const auto twice = run(proxy.url(), {QStringLiteral("pay-another-way"), cardKey, QStringLiteral("--tender"), QStringLiteral("cash")});
    QVERIFY2(twice->exitCode() == 1 && twice->err().trimmed().count('\n') == 0 && twice->err().contains("given up already"),
        twice->describe().constData());

    // The network is back: the till learns the card was charged and gives it back by itself.
    proxy.stop();
    QVERIFY(proxy.start(m_gateway.baseUrl(), QStringLiteral("online"), port));
    const auto sync = run(proxy.url(), {QStringLiteral("sync"), QStringLiteral("--wait"), QStringLiteral("30")});
    QVERIFY2(sync->exitCode() == 0, sync->describe().constData());
    // Again, and again after a restart: nothing more is refunded.
    QVERIFY2(run(proxy.url(), {QStringLiteral("sync"), QStringLiteral("--wait"), QStringLiteral("5")})->exitCode() == 0, "second sync");

    const auto sales = run(proxy.url(), {QStringLiteral("sales"), QStringLiteral("--json")});
    QVERIFY2(sales->exitCode() == 0, sales->describe().constData());
    QJsonObject after;
    const QJsonArray saleRows = QJsonDocument::fromJson(sales->out()).array();
    for (const QJsonValue &v : saleRows) {
        if (v.toObject().value(QStringLiteral("sale")).toString() == number)
            after = v.toObject();
    }
    QCOMPARE(after.value(QStringLiteral("state")).toString(), QStringLiteral("paid"));
    const QJsonObject card = tenderOf(after, 0);
    QCOMPARE(card.value(QStringLiteral("state")).toString(), QStringLiteral("succeeded"));
    QCOMPARE(card.value(QStringLiteral("given_up")).toBool(), true);
    QCOMPARE(card.value(QStringLiteral("refund_key")).toString(), QStringLiteral("auto-ref-") + cardKey);
    QCOMPARE(card.value(QStringLiteral("refund_state")).toString(), QStringLiteral("succeeded"));
    QCOMPARE(after.value(QStringLiteral("refunded_by_till")).toInteger(), qint64(900));

    // The bank's ledgers: one charge and one refund of it, nothing twice.
    const Charges charges = acquirerCharges(bank, cardKey);
    QVERIFY2(charges.ok && charges.rows.size() == 1 && charges.succeeded == 1, charges.raw.constData());
    const AcquirerRefunds refunds = acquirerRefunds(bank, cardKey);
    QVERIFY2(refunds.ok && refunds.rows.size() == 1 && refunds.succeeded == 1 && refunds.refunded == 900, refunds.raw.constData());
    // Card charged - card refunded + cash taken - cash handed back = the total.
    QCOMPARE(900 - refunds.refunded + 900 - after.value(QStringLiteral("cash_handed_back")).toInteger(), qint64(900));
}

// Sales of ¥4.50 (one tea) or ¥9.00 (two), their tenders, the exit code and what they end as.
void TestCtlSale::splitTenders_data()
{
    QTest::addColumn<int>("teas");
    QTest::addColumn<QStringList>("tenders");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QStringList>("tenderStates");

    QTest::newRow("cash part, card for the rest") << 2 << QStringList{QStringLiteral("cash:5.00"), QStringLiteral("card")} << 0
                                                  << QStringLiteral("paid") << QStringList{QStringLiteral("taken"), QStringLiteral("succeeded")};
    QTest::newRow("two cards") << 2 << QStringList{QStringLiteral("card:3.00"), QStringLiteral("card/tok_mastercard")} << 0
                               << QStringLiteral("paid") << QStringList{QStringLiteral("succeeded"), QStringLiteral("succeeded")};
    QTest::newRow("declined, then cash") << 1 << QStringList{QStringLiteral("card/tok_chargeDeclined"), QStringLiteral("cash")} << 0
                                         << QStringLiteral("paid") << QStringList{QStringLiteral("declined"), QStringLiteral("taken")};
    QTest::newRow("a part declined, not paid") << 1 << QStringList{QStringLiteral("card:1.00"), QStringLiteral("card/tok_chargeDeclined")}
                                               << 3 << QStringLiteral("paying")
                                               << QStringList{QStringLiteral("succeeded"), QStringLiteral("declined")};
    QTest::newRow("short cash, nothing else") << 1 << QStringList{QStringLiteral("cash:2.00")} << 4 << QStringLiteral("paying")
                                              << QStringList{QStringLiteral("taken")};
}

void TestCtlSale::splitTenders()
{
    QFETCH(int, teas);
    QFETCH(QStringList, tenders);
    QFETCH(int, exitCode);
    QFETCH(QString, state);
    QFETCH(QStringList, tenderStates);
    QStringList command{QStringLiteral("sale"), QStringLiteral("--item"), kTea + QStringLiteral(":%1").arg(teas)};
    for (const QString &t : tenders)
        command << QStringLiteral("--tender") << t;
    const auto sale = run(m_gateway.baseUrl(), command);
    QVERIFY2(sale->exitCode() == exitCode, sale->describe().constData());
    const QJsonObject o = sale->json();
    QCOMPARE(o.value(QStringLiteral("state")).toString(), state);
    QStringList states;
    const QJsonArray tenderRows = o.value(QStringLiteral("tenders")).toArray();
    for (const QJsonValue &t : tenderRows)
        states << t.toObject().value(QStringLiteral("state")).toString();
    QCOMPARE(states, tenderStates);
}

void TestCtlSale::cancelGivesEverythingBack()
{
    HttpClient bank(m_gateway.baseUrl());
    bank.setToken(kTill1);
    const auto sale = run(m_gateway.baseUrl(), {QStringLiteral("sale"), QStringLiteral("--item"), kTea + QStringLiteral(":2"), QStringLiteral("--tender"), QStringLiteral("cash:2.00"), QStringLiteral("--tender"), QStringLiteral("card:3.00")});
    QVERIFY2(sale->exitCode() == 4, sale->describe().constData());   // ¥4.00 still to pay
    const QString number = sale->json().value(QStringLiteral("sale")).toString();
    const QString cardKey = tenderOf(sale->json(), 1).value(QStringLiteral("key")).toString();
    const auto cancel = run(m_gateway.baseUrl(), {QStringLiteral("sale-cancel"), number});
    QVERIFY2(cancel->exitCode() == 0, cancel->describe().constData());
    const QJsonObject o = cancel->json();
    QCOMPARE(o.value(QStringLiteral("state")).toString(), QStringLiteral("cancelled"));
    QCOMPARE(o.value(QStringLiteral("cash_to_hand_back")).toInteger(), qint64(200));
    QCOMPARE(tenderOf(o, 0).value(QStringLiteral("state")).toString(), QStringLiteral("handed_back"));
    QCOMPARE(tenderOf(o, 1).value(QStringLiteral("refund_state")).toString(), QStringLiteral("succeeded"));
    const AcquirerRefunds refunds = acquirerRefunds(bank, cardKey);
    QVERIFY2(refunds.ok && refunds.succeeded == 1 && refunds.refunded == 300, refunds.raw.constData());
    // Cancelled once; a paid sale is refunded, never cancelled.
    const auto again = run(m_gateway.baseUrl(), {QStringLiteral("sale-cancel"), number});
    QVERIFY2(again->exitCode() == 1 && again->err().contains("cancelled already"), again->describe().constData());
    const auto paid = run(m_gateway.baseUrl(), {QStringLiteral("sale"), QStringLiteral("--item"), kTea, QStringLiteral("--tender"), QStringLiteral("cash")});
    QVERIFY2(paid->exitCode() == 0, paid->describe().constData());
    const auto refused = run(m_gateway.baseUrl(), {QStringLiteral("sale-cancel"), paid->json().value(QStringLiteral("sale")).toString()});
    QVERIFY2(refused->exitCode() == 1 && refused->err().contains("refund it instead"), refused->describe().constData());
}

void TestCtlSale::badUsage_data()
{
    QTest::addColumn<QStringList>("command");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("words");
    QTest::newRow("no item") << QStringList{QStringLiteral("sale"), QStringLiteral("--tender"), QStringLiteral("cash")} << 2 << "--item";
    QTest::newRow("unknown code") << QStringList{QStringLiteral("sale"), QStringLiteral("--item"), QStringLiteral("999"),
        QStringLiteral("--tender"), QStringLiteral("cash")}
                                  << 2 << "999";
    QTest::newRow("bad quantity") << QStringList{QStringLiteral("sale"), QStringLiteral("--item"), kTea + QStringLiteral(":-1"),
        QStringLiteral("--tender"), QStringLiteral("cash")}
                                  << 2 << "quantity";
    QTest::newRow("no tender") << QStringList{QStringLiteral("sale"), QStringLiteral("--item"), kTea} << 2 << "--tender";
    QTest::newRow("bad tender") << QStringList{QStringLiteral("sale"), QStringLiteral("--item"), kTea, QStringLiteral("--tender"),
        QStringLiteral("cheque")}
                                << 2 << "cheque";
    QTest::newRow("bad amount") << QStringList{QStringLiteral("sale"), QStringLiteral("--item"), kTea, QStringLiteral("--tender"),
        QStringLiteral("card:abc")}
                                << 2 << "abc";
    QTest::newRow("card over the total") << QStringList{QStringLiteral("sale"), QStringLiteral("--item"), kTea, QStringLiteral("--tender"),
        QStringLiteral("card:5.00")} << 1 << "At most";
    QTest::newRow("give up nothing") << QStringList{QStringLiteral("pay-another-way"), QStringLiteral("pay-nobody"),
        QStringLiteral("--tender"), QStringLiteral("cash")}
                                     << 1 << "pay-nobody";
    QTest::newRow("cancel no sale") << QStringList{QStringLiteral("sale-cancel"), QStringLiteral("9-999999")} << 1 << "9-999999";
}

void TestCtlSale::badUsage()
{
    QFETCH(QStringList, command);
    QFETCH(int, exitCode);
    QFETCH(QString, words);
    const auto r = run(m_gateway.baseUrl(), command);
    QVERIFY2(r->exitCode() == exitCode && r->err().trimmed().count('\n') == 0 && r->err().contains(words.toUtf8()),
        r->describe().constData());
}

// Issue 23: the shop's own catalog, imported from CSV, is what `sale` sells, with each line's VAT,
// a weighed-goods label and the tax per rate in the sale's JSON; a bad file changes nothing.
void TestCtlSale::sellsFromTheImportedCatalog()
{
    QTemporaryDir dir;
    const QString journal = dir.filePath(QStringLiteral("shop.db"));
    const QString csv = dir.filePath(QStringLiteral("catalog.csv"));
    QFile f(csv);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("name,code,price,vat,barcode,name_zh,category,unit,supplier\n"
            "Green tea,T1,12.50,13,6901234500011,绿茶,Drinks,each,ACME\n"
            "Cherries,00123,60.00,9,,樱桃,Fruit,kg,\n");
    f.close();
    auto ctl = [&](const QStringList &command) {
        auto c = std::make_unique<Ctl>(ctlArgs(journal, m_gateway.baseUrl(), command));
        c->start();
        if (!c->waitFinished(90'000))
            c->kill9();
        return c;
    };
    const auto imported = ctl({QStringLiteral("catalog"), QStringLiteral("import"), csv, QStringLiteral("--json")});
    QVERIFY2(imported->exitCode() == 0, imported->describe().constData());
    QCOMPARE(imported->json().value(QStringLiteral("added")).toInt(), 2);

    const auto shown = ctl({QStringLiteral("catalog"), QStringLiteral("show"), QStringLiteral("T1"), QStringLiteral("--json")});
    QVERIFY2(shown->exitCode() == 0, shown->describe().constData());
    QCOMPARE(shown->json().value(QStringLiteral("price")).toInteger(), qint64(1250));
    QCOMPARE(shown->json().value(QStringLiteral("vat")).toDouble(), 13.0);

    // A bad file: refused with its line and column, and the catalog stays as it was.
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("code,barcode,name,name_zh,price,vat,category,unit\nT1,,Tea,,\"12,50\",13,Drinks,each\n");
    f.close();
    const auto refused = ctl({QStringLiteral("catalog"), QStringLiteral("import"), csv});
    QVERIFY2(refused->exitCode() == 1 && refused->err().contains("Line 2, column price") && refused->err().count('\n') == 1,
        refused->describe().constData());
    QCOMPARE(ctl({QStringLiteral("catalog"), QStringLiteral("show"), QStringLiteral("T1"), QStringLiteral("--json")})
                 ->json()
                 .value(QStringLiteral("price"))
                 .toInteger(),
        qint64(1250));

    // Two teas by barcode (25.00 at 13 %) and a scale's label for item 00123: 456 g of cherries at
    // 60.00/kg = 27.36 at 9 %. The tax of each rate once on its total, half up.
    const auto sale = ctl({QStringLiteral("sale"), QStringLiteral("--item"), QStringLiteral("6901234500011:2"),
        QStringLiteral("--item"), QStringLiteral("2100123004560"), QStringLiteral("--tender"), QStringLiteral("cash")});
    QVERIFY2(sale->exitCode() == 0, sale->describe().constData());
    const QJsonObject o = sale->json();
    QCOMPARE(o.value(QStringLiteral("total")).toInteger(), qint64(2500 + 2736));
    const QJsonArray lines = o.value(QStringLiteral("lines")).toArray();
    QCOMPARE(lines.at(1).toObject().value(QStringLiteral("weight_g")).toInteger(), qint64(456));
    QCOMPARE(lines.at(1).toObject().value(QStringLiteral("amount")).toInteger(), qint64(2736));
    const QJsonArray tax = o.value(QStringLiteral("tax")).toArray();
    QCOMPARE(tax.size(), 2);
    QCOMPARE(tax.at(0).toObject().value(QStringLiteral("tax")).toInteger(), qint64(288));   // 2500 x 13/113 = 287.6
    QCOMPARE(tax.at(1).toObject().value(QStringLiteral("tax")).toInteger(), qint64(226));   // 2736 x 9/109 = 225.9

    // A misread barcode is said to be one.
    const auto misread = ctl({QStringLiteral("sale"), QStringLiteral("--item"), QStringLiteral("6901234500012"),
        QStringLiteral("--tender"), QStringLiteral("cash")});
    QVERIFY2(misread->exitCode() == 2 && misread->err().contains("check digit"), misread->describe().constData());
}

QTEST_GUILESS_MAIN(TestCtlSale)
#include "tst_ctlsale.moc"
