// The shift's Z report as a table: intents of a shift (payments and refunds, card and cash, every
// state) against its totals, the drawer's expected cash and the sales per hour; and the report's
// JSON read back as it was written.
#include "sale.h"
#include "shiftreport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace OncePay;

namespace {

// 2026-12-02T00:00:00Z: the hours below are of that day, in UTC.
constexpr qint64 kDay = 1796169600000;

qint64 at(const QString &hhmm)
{
    const QStringList parts = hhmm.split(QLatin1Char(':'));
    return kDay + (parts.at(0).toLongLong() * 60 + parts.at(1).toLongLong()) * 60'000;
}

// "payment card succeeded 1999 10:05 [USD]" or "refund cash succeeded 500 11:00".
Intent intent(const QString &spec)
{
    static qint64 nextId = 100;
    const QStringList f = spec.split(QLatin1Char(' '));
    Intent i;
    i.id = ++nextId;
    i.key = QStringLiteral("key-%1").arg(i.id);
    i.kind = intentKindFromName(f.at(0)).value();
    i.tender = tenderFromName(f.at(1)).value();
    i.state = intentStateFromName(f.at(2)).value();
    i.amount = Money(f.at(3).toLongLong(), f.size() > 5 ? f.at(5) : QStringLiteral("CNY"));
    i.createdAt = at(f.at(4));
    i.orderId = QStringLiteral("ord-%1").arg(i.id);
    return i;
}

// Lines of a table (the build has no implicit conversion from char strings).
QStringList specs(std::initializer_list<const char *> lines)
{
    QStringList out;
    for (const char *l : lines)
        out << QString::fromUtf8(l);
    return out;
}

QList<Intent> intents(const QStringList &specs)
{
    QList<Intent> out;
    for (const QString &s : specs)
        out.append(intent(s));
    return out;
}

QString t(const ShiftReport::Totals &totals)
{
    return QStringLiteral("%1/%2").arg(totals.count).arg(totals.amount);
}

// The totals on one line, the way the rows below read.
QString describe(const ShiftReport &r)
{
    return QStringLiteral("%1 sales card %2 cash %3 refunds card %4 cash %5 failed %6 declined %7 voided %8 attention %9"
                          " waiting %10+%11 expected %12 settled-since %13 other %14 net %15")
        .arg(r.currency, t(r.cardSales), t(r.cashSales), t(r.cardRefunds), t(r.cashRefunds), t(r.failedRefunds),
            t(r.declined), t(r.voided), t(r.needsAttention))
        .arg(t(r.waitingPayments), t(r.waitingRefunds))
        .arg(r.cashExpected())
        .arg(t(r.carriedOverSettled))
        .arg(r.otherCurrency)
        .arg(r.netTotal());
}

// "10:00 card 1/1999 cash 0/0 refunds 0/0|11:00 ...".
QString hours(const ShiftReport &r)
{
    QStringList out;
    for (const ShiftReport::Hour &h : r.perHour) {
        out << QStringLiteral("%1 card %2 cash %3 refunds %4")
                   .arg(QDateTime::fromMSecsSinceEpoch(h.start, QTimeZone::utc()).toString(QStringLiteral("HH:mm")),
                       t(h.card), t(h.cash), t(h.refunds));
    }
    return out.join(QLatin1Char('|'));
}

ShiftReport compute(const QStringList &own, const QStringList &carried = {}, qint64 openingFloat = 0,
    const QString &currency = {})
{
    ShiftReport::Input in;
    in.intents = intents(own);
    in.carriedOver = intents(carried);
    in.openingFloat = openingFloat;
    in.currency = currency;
    in.zone = QTimeZone::utc();
    in.generatedAt = at(QStringLiteral("23:00"));
    return ShiftReport::compute(in);
}

}   // namespace

class TestShiftReport final : public QObject
{
    Q_OBJECT

private slots:
    void totals_data();
    void totals();
    void waitingIsListedOldestFirst();
    void cashDifference();
    void jsonReadsBackAsWritten();
    void tillRefundsAndHowCarriedOverEnded();
    void taxPerRateDiscountsAndALinePerCashier();
    void walletSalesByBrand();
    void cancelledWalletIsNoDecline();
    void returnsTakeTheirTaxOff();
    void refundsTheTillOwesNeedAPerson();
};

void TestShiftReport::totals_data()
{
    QTest::addColumn<QStringList>("own");
    QTest::addColumn<QStringList>("carried");
    QTest::addColumn<qint64>("openingFloat");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QString>("perHour");

    QTest::newRow("empty shift") << QStringList() << QStringList() << qint64(0)
                                 << QStringLiteral("CNY sales card 0/0 cash 0/0 refunds card 0/0 cash 0/0 failed 0/0 declined 0/0 voided 0/0 attention 0/0"
                                                   " waiting 0/0+0/0 expected 0 settled-since 0/0 other 0 net 0")
                                 << QStringLiteral("");
    QTest::newRow("sales by tender, an empty hour between")
        << specs({"payment card succeeded 1999 10:05", "payment cash succeeded 500 10:40",
               "payment card succeeded 1000 12:59"})
        << QStringList() << qint64(0)
        << QStringLiteral("CNY sales card 2/2999 cash 1/500 refunds card 0/0 cash 0/0 failed 0/0 declined 0/0 voided 0/0 attention 0/0"
                          " waiting 0/0+0/0 expected 500 settled-since 0/0 other 0 net 3499")
        << QStringLiteral("10:00 card 1/1999 cash 1/500 refunds 0/0|11:00 card 0/0 cash 0/0 refunds 0/0|12:00 card 1/1000 cash 0/0 refunds 0/0");
    QTest::newRow("refunds by tender, cash expected with a float")
        << specs({"payment cash succeeded 5000 09:00", "payment card succeeded 3000 09:10",
               "refund cash succeeded 1200 09:30", "refund card succeeded 3000 10:15"})
        << QStringList() << qint64(20000)
        << QStringLiteral("CNY sales card 1/3000 cash 1/5000 refunds card 1/3000 cash 1/1200 failed 0/0 declined 0/0 voided 0/0 attention 0/0"
                          " waiting 0/0+0/0 expected 23800 settled-since 0/0 other 0 net 3800")
        << QStringLiteral("09:00 card 1/3000 cash 1/5000 refunds 1/1200|10:00 card 0/0 cash 0/0 refunds 1/3000");
    QTest::newRow("declines, voids and refusals are in no sale")
        << specs({"payment card declined 700 14:00", "payment card voided 300 14:01", "refund card voided 100 14:02",
               "payment card needs_attention 900 14:03", "refund card declined 400 14:04",
               "payment card succeeded 100 14:05"})
        << QStringList() << qint64(0)
        << QStringLiteral("CNY sales card 1/100 cash 0/0 refunds card 0/0 cash 0/0 failed 1/400 declined 1/700 voided 2/400 attention 1/900"
                          " waiting 0/0+0/0 expected 0 settled-since 0/0 other 0 net 100")
        << QStringLiteral("14:00 card 1/100 cash 0/0 refunds 0/0");
    QTest::newRow("waiting, and what an earlier close left waiting")
        << specs({"payment card queued 999 16:00", "payment card unknown 111 16:10", "refund card processing 50 16:20",
               "payment card succeeded 222 16:30"})
        << specs({"payment card succeeded 4000 08:00", "payment card declined 10 08:01", "payment card sending 20 08:02"})
        << qint64(0)
        << QStringLiteral("CNY sales card 1/222 cash 0/0 refunds card 0/0 cash 0/0 failed 0/0 declined 0/0 voided 0/0 attention 0/0"
                          " waiting 3/1130+1/50 expected 0 settled-since 1/4000 other 0 net 222")
        << QStringLiteral("16:00 card 1/222 cash 0/0 refunds 0/0");
    QTest::newRow("another currency is counted apart")
        << specs({"payment card succeeded 100 10:00", "payment cash succeeded 200 10:00",
               "payment card succeeded 5 11:00 USD"})
        << QStringList() << qint64(0)
        << QStringLiteral("CNY sales card 1/100 cash 1/200 refunds card 0/0 cash 0/0 failed 0/0 declined 0/0 voided 0/0 attention 0/0"
                          " waiting 0/0+0/0 expected 200 settled-since 0/0 other 1 net 300")
        << QStringLiteral("10:00 card 1/100 cash 1/200 refunds 0/0");
}

void TestShiftReport::totals()
{
    QFETCH(QStringList, own);
    QFETCH(QStringList, carried);
    QFETCH(qint64, openingFloat);
    QFETCH(QString, expected);
    QFETCH(QString, perHour);
    const ShiftReport r = compute(own, carried, openingFloat);
    QCOMPARE(describe(r), expected);
    QCOMPARE(hours(r), perHour);
    QCOMPARE(r.hasWaiting(), r.waitingPayments.count + r.waitingRefunds.count > 0);
    QCOMPARE(r.waiting.size(), qsizetype(r.waitingPayments.count + r.waitingRefunds.count));
}

void TestShiftReport::waitingIsListedOldestFirst()
{
    const ShiftReport r = compute(specs({"payment card queued 1 12:00", "refund card unknown 2 11:00"}),
        specs({"payment card processing 3 07:00"}));
    QCOMPARE(r.waiting.size(), 3);
    QCOMPARE(r.waiting.at(0).amount.minorUnits(), qint64(3));
    QVERIFY(r.waiting.at(0).carriedOver);
    QCOMPARE(r.waiting.at(1).kind, IntentKind::Refund);
    QCOMPARE(r.waiting.at(1).state, IntentState::Unknown);
    QVERIFY(!r.waiting.at(2).carriedOver);
}

void TestShiftReport::cashDifference()
{
    ShiftReport::Input in;
    in.intents = intents(specs({"payment cash succeeded 1000 10:00", "refund cash succeeded 300 10:30"}));
    in.openingFloat = 5000;
    in.zone = QTimeZone::utc();
    ShiftReport r = ShiftReport::compute(in);
    QCOMPARE(r.cashExpected(), qint64(5700));
    QVERIFY(!r.cashDifference());
    in.countedCash = 5650;
    r = ShiftReport::compute(in);
    QCOMPARE(*r.cashDifference(), qint64(-50));   // 0.50 missing
    in.countedCash = 5700;
    QCOMPARE(*ShiftReport::compute(in).cashDifference(), qint64(0));
}

void TestShiftReport::jsonReadsBackAsWritten()
{
    ShiftReport::Input in;
    in.number = 7;
    in.openedAt = at(QStringLiteral("08:00"));
    in.firstIntentId = 41;
    in.lastIntentId = 99;
    in.intents = intents(specs({"payment card succeeded 1999 08:05", "payment cash succeeded 500 09:40",
        "refund cash succeeded 200 09:50", "payment card queued 300 10:00", "payment card voided 10 10:01"}));
    in.carriedOver = intents(specs({"payment card unknown 70 07:00"}));
    in.openingFloat = 10000;
    in.countedCash = 10250;
    in.generatedAt = at(QStringLiteral("18:00"));
    in.zone = QTimeZone::utc();
    ShiftReport r = ShiftReport::compute(in);
    r.closedAt = at(QStringLiteral("18:01"));
    const QJsonObject json = r.toJson();
    QCOMPARE(json.value(QStringLiteral("cash_drawer")).toObject().value(QStringLiteral("expected")).toInteger(), qint64(10300));
    QCOMPARE(json.value(QStringLiteral("cash_drawer")).toObject().value(QStringLiteral("difference")).toInteger(), qint64(-50));
    QCOMPARE(json.value(QStringLiteral("closed_at")).toString(), QStringLiteral("2026-12-02T18:01:00.000Z"));
    const auto back = ShiftReport::fromJson(json);
    QVERIFY(back);
    QCOMPARE(describe(*back), describe(r));
    QCOMPARE(hours(*back), hours(r));
    QCOMPARE(back->waiting.size(), 2);
    QCOMPARE(QJsonDocument(back->toJson()).toJson(), QJsonDocument(json).toJson());
    QVERIFY(!ShiftReport::fromJson(QJsonObject{{QStringLiteral("shift"), QStringLiteral("seven")}}));
}

// Issue 21: the card parts the till refunded by itself are listed with how their refund ended
// (charged late and refunded, a cancelled sale's part refunded, or a refund refused: a person
// looks); the payments an earlier shift closed while they waited are listed with how they ended.
void TestShiftReport::tillRefundsAndHowCarriedOverEnded()
{
    QList<Intent> own = intents(specs({"payment card succeeded 990 10:00",   // the given-up part, charged late
        "refund card succeeded 990 10:05",   // the till's refund of it
        "payment card succeeded 500 11:00",   // a cancelled sale's part
        "refund card succeeded 500 11:01",
        "payment card succeeded 700 12:00",
        "refund card declined 700 12:01",   // the till's refund refused
        "refund card queued 300 13:00",   // a cashier's refund: not the till's own
        "refund cash succeeded 200 13:05"}));   // cash handed back: counted as cash
    own[1].key = autoRefundKey(own[0].key);
    own[1].reason = chargedLateReason();
    own[1].saleNumber = QStringLiteral("1-000007");
    own[3].key = autoRefundKey(own[2].key);
    own[3].reason = saleCancelledReason();
    own[5].key = autoRefundKey(own[4].key);
    own[5].reason = chargedLateReason();
    own[7].key = autoRefundKey(QStringLiteral("cash-part"));
    own[7].reason = saleCancelledReason();
    ShiftReport::Input in;
    in.intents = own;
    in.carriedOver = intents(specs({"payment card succeeded 70 07:00", "payment card declined 80 06:00",
        "payment card unknown 90 05:00"}));
    in.zone = QTimeZone::utc();
    const ShiftReport r = ShiftReport::compute(in);

    QCOMPARE(r.refundsByTill.size(), 3);
    QCOMPARE(r.refundsByTill.at(0).state, IntentState::Succeeded);
    QVERIFY(ShiftReport::isChargedLate(r.refundsByTill.at(0)));
    QCOMPARE(r.refundsByTill.at(0).saleLabel(), QStringLiteral("1-000007"));
    QVERIFY(!ShiftReport::isChargedLate(r.refundsByTill.at(1)));
    QCOMPARE(r.refundsByTill.at(2).state, IntentState::Declined);
    // They are refunds like any other in the totals.
    QCOMPARE(t(r.cardRefunds), QStringLiteral("2/1490"));
    QCOMPARE(t(r.failedRefunds), QStringLiteral("1/700"));

    // Ended since the last close: oldest first, each with its state; the one still unknown waits.
    QCOMPARE(r.carriedOverEnded.size(), 2);
    QCOMPARE(r.carriedOverEnded.at(0).state, IntentState::Declined);
    QCOMPARE(r.carriedOverEnded.at(1).state, IntentState::Succeeded);
    QCOMPARE(t(r.carriedOverSettled), QStringLiteral("1/70"));
    QCOMPARE(r.waiting.size(), 2);   // the cashier's refund and the unknown payment

    const auto back = ShiftReport::fromJson(r.toJson());
    QVERIFY(back);
    QCOMPARE(back->refundsByTill.size(), 3);
    QCOMPARE(back->refundsByTill.at(0).reason, chargedLateReason());
    QCOMPARE(back->refundsByTill.at(0).saleNumber, QStringLiteral("1-000007"));
    QCOMPARE(back->carriedOverEnded.size(), 2);
    QCOMPARE(back->carriedOverEnded.at(1).state, IntentState::Succeeded);
    QCOMPARE(QJsonDocument(back->toJson()).toJson(), QJsonDocument(r.toJson()).toJson());
}

// Issue 23: the shift's sales' tax per rate (each sale's as its receipt shows it, summed), their
// discounts, and a line per person by the intents they stored; all read back from the JSON.
void TestShiftReport::taxPerRateDiscountsAndALinePerCashier()
{
    ShiftReport::Input in;
    in.zone = QTimeZone::utc();
    in.intents = intents(specs({"payment card succeeded 950 08:05", "payment cash succeeded 5990 09:40",
        "refund cash succeeded 500 09:50", "payment card declined 300 10:00", "payment cash succeeded 100 10:10"}));
    in.intents[0].staff = QStringLiteral("Wang Wei");
    in.intents[1].staff = QStringLiteral("Wang Wei");
    in.intents[2].staff = QStringLiteral("Li Na");
    in.intents[3].staff = QStringLiteral("Li Na");   // declined: in no one's takings
    // Two paid sales: 4.50 + 5.00 at 13 % (tax once on 9.50: 1.09); 10.00 at 13 % and 49.90 at
    // 9 % with 1.00 off the rice.
    auto line = [](qint64 amount, int vat, qint64 discount = 0) {
        QJsonObject o{{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("unit_price"), amount + discount},
            {QStringLiteral("quantity"), 1}, {QStringLiteral("total"), amount + discount}, {QStringLiteral("vat"), vat},
            {QStringLiteral("amount"), amount}};
        if (discount > 0)
            o.insert(QStringLiteral("discount"), discount);
        return o;
    };
    Sale a;
    a.total = Money(950, QStringLiteral("CNY"));
    a.lines = QJsonArray{line(450, 1300), line(500, 1300)};
    Sale b;
    b.total = Money(5890, QStringLiteral("CNY"));
    b.lines = QJsonArray{line(1000, 1300), line(4890, 900, 100)};
    in.paidSales = {a, b};
    const ShiftReport r = ShiftReport::compute(in);
    QCOMPARE(r.taxBands.size(), 2);
    // 13 %: 950 -> 109, 1000 -> 115; 9 %: 4890 -> 404 (403.76).
    QCOMPARE(r.taxBands.at(0), (TaxBand{1300, 1950 - 224, 224, 1950}));
    QCOMPARE(r.taxBands.at(1), (TaxBand{900, 4890 - 404, 404, 4890}));
    QCOMPARE(t(r.discounts), QStringLiteral("1/100"));
    QCOMPARE(r.perStaff.size(), 3);   // "", Li Na, Wang Wei
    QCOMPARE(r.perStaff.at(0).staff, QString());
    QCOMPARE(t(r.perStaff.at(0).sales), QStringLiteral("1/100"));
    QCOMPARE(r.perStaff.at(1).staff, QStringLiteral("Li Na"));
    QCOMPARE(t(r.perStaff.at(1).sales), QStringLiteral("0/0"));
    QCOMPARE(t(r.perStaff.at(1).refunds), QStringLiteral("1/500"));
    QCOMPARE(r.perStaff.at(2).staff, QStringLiteral("Wang Wei"));
    QCOMPARE(t(r.perStaff.at(2).sales), QStringLiteral("2/6940"));
    const auto back = ShiftReport::fromJson(r.toJson());
    QVERIFY(back);
    QCOMPARE(back->taxBands, r.taxBands);
    QCOMPARE(t(back->discounts), t(r.discounts));
    QCOMPARE(back->perStaff.size(), 3);
    QCOMPARE(QJsonDocument(back->toJson()).toJson(), QJsonDocument(r.toJson()).toJson());
}

// Issue 23: the tax of the items that came back comes off their rates (below zero when more came
// back than was sold); a refund as an amount is listed apart; only refunds that succeeded count.
void TestShiftReport::returnsTakeTheirTaxOff()
{
    ShiftReport::Input in;
    in.zone = QTimeZone::utc();
    in.intents = intents(specs({"payment cash succeeded 1000 08:05", "refund cash succeeded 1000 08:30",
        "refund card succeeded 300 08:40", "refund card declined 500 08:50", "refund cash succeeded 200 09:00"}));
    Sale sale;
    sale.total = Money(1000, QStringLiteral("CNY"));
    sale.lines = QJsonArray{QJsonObject{{QStringLiteral("unit_price"), 1000}, {QStringLiteral("quantity"), 1},
        {QStringLiteral("vat"), 1300}, {QStringLiteral("amount"), 1000}}};
    in.paidSales = {sale};
    in.returns.insert(in.intents.at(1).key, {TaxBand{1300, 885, 115, 1000}});   // the item back
    in.returns.insert(in.intents.at(2).key, {});   // an amount
    in.returns.insert(in.intents.at(3).key, {TaxBand{600, 472, 28, 500}});   // declined
    in.returns.insert(in.intents.at(4).key, {TaxBand{900, 183, 17, 200}});   // an earlier shift's sale
    const ShiftReport r = ShiftReport::compute(in);
    QCOMPARE(r.taxBands.size(), 2);
    QCOMPARE(r.taxBands.at(0), (TaxBand{1300, 0, 0, 0}));
    QCOMPARE(r.taxBands.at(1), (TaxBand{900, -183, -17, -200}));
    QCOMPARE(t(r.refundsNotByItem), QStringLiteral("1/300"));
    const auto back = ShiftReport::fromJson(r.toJson());
    QVERIFY(back);
    QCOMPARE(back->taxBands, r.taxBands);
    QCOMPARE(t(back->refundsNotByItem), QStringLiteral("1/300"));
}

// Issue 26: wallet payments are among the card sales, and named by brand (the gateway's, or the
// code's before it answered); a declined one is in no sale; a stored report keeps them.
void TestShiftReport::walletSalesByBrand()
{
    QList<Intent> list = intents(specs({"payment card succeeded 1000 10:00", "payment card succeeded 2000 10:05",
        "payment card succeeded 3000 10:10", "payment card succeeded 400 10:15", "payment card declined 500 10:20"}));
    list[1].paymentMethod = QStringLiteral("wallet:134567890123456780");
    list[1].cardBrand = QStringLiteral("wechat");
    list[2].paymentMethod = QStringLiteral("wallet:284567890123456785");   // no brand from the gateway yet
    list[3].paymentMethod = QStringLiteral("wallet:104567890123456786");
    list[3].cardBrand = QStringLiteral("wechat");
    list[4].paymentMethod = QStringLiteral("wallet:264567890123456784");
    ShiftReport::Input in;
    in.number = 3;
    in.openedAt = at(QStringLiteral("09:00"));
    in.intents = list;
    in.zone = QTimeZone::utc();
    const ShiftReport r = ShiftReport::compute(in);
    QCOMPARE(t(r.cardSales), QStringLiteral("4/6400"));
    QCOMPARE(t(r.wechatSales), QStringLiteral("2/2400"));
    QCOMPARE(t(r.alipaySales), QStringLiteral("1/3000"));
    QCOMPARE(t(r.declined), QStringLiteral("1/500"));
    const auto back = ShiftReport::fromJson(r.toJson());
    QVERIFY(back);
    QCOMPARE(t(back->wechatSales), QStringLiteral("2/2400"));
    QCOMPARE(t(back->alipaySales), QStringLiteral("1/3000"));
    // A report stored before wallets existed reads none.
    QJsonObject old = r.toJson();
    QJsonObject sales = old.value(QStringLiteral("sales")).toObject();
    sales.remove(QStringLiteral("wallet"));
    old.insert(QStringLiteral("sales"), sales);
    const auto before = ShiftReport::fromJson(old);
    QVERIFY(before);
    QCOMPARE(t(before->wechatSales), QStringLiteral("0/0"));
    QCOMPARE(t(before->cardSales), QStringLiteral("4/6400"));
}

// Issue 36, confusion 12: a wallet payment the cashier cancelled, or the customer never confirmed,
// was counted as a declined card. It counts among the wallets not taken; a card the bank declined
// and a wallet the wallet declined stay declines; a stored report keeps the count, and one stored
// before reads none.
void TestShiftReport::cancelledWalletIsNoDecline()
{
    QList<Intent> list = intents(specs({"payment card declined 1200 10:00", "payment card declined 800 10:05",
        "payment card declined 500 10:10", "payment card declined 300 10:15", "payment card succeeded 1000 10:20"}));
    list[0].paymentMethod = QStringLiteral("wallet:134567890123456780");   // cancelled at the till
    list[0].declineCode = QStringLiteral("cancelled");
    list[1].paymentMethod = QStringLiteral("wallet:284567890123456785");   // not confirmed in time
    list[1].declineCode = QStringLiteral("wallet_timeout");
    list[2].paymentMethod = QStringLiteral("wallet:104567890123456786");   // the wallet said no
    list[2].declineCode = QStringLiteral("wallet_declined");
    list[3].paymentMethod = QStringLiteral("tok_visa");
    list[3].declineCode = QStringLiteral("card_declined");
    ShiftReport::Input in;
    in.intents = list;
    in.zone = QTimeZone::utc();
    const ShiftReport r = ShiftReport::compute(in);
    QCOMPARE(t(r.cancelledWallet), QStringLiteral("2/2000"));
    QCOMPARE(t(r.declined), QStringLiteral("2/800"));
    QCOMPARE(t(r.cardSales), QStringLiteral("1/1000"));
    QCOMPARE(r.netTotal(), 1000);
    const auto back = ShiftReport::fromJson(r.toJson());
    QVERIFY(back);
    QCOMPARE(t(back->cancelledWallet), QStringLiteral("2/2000"));
    QCOMPARE(t(back->declined), QStringLiteral("2/800"));
    QJsonObject old = r.toJson();
    old.remove(QStringLiteral("cancelled"));
    const auto before = ShiftReport::fromJson(old);
    QVERIFY(before);
    QCOMPARE(t(before->cancelledWallet), QStringLiteral("0/0"));
}

// Issue 35: a card part given up, the customer paid cash, the card charged after all and the
// till's own refund declined: the customer paid twice. The report lists what the till owes with
// what to do, carried over or not, until a refund of that card payment gives it back.
void TestShiftReport::refundsTheTillOwesNeedAPerson()
{
    QList<Intent> own = intents(specs({"payment card succeeded 450 10:00",   // given up, charged late
        "payment cash succeeded 450 10:01",   // what the customer paid instead
        "refund card declined 450 10:05",   // the till's refund of the card part: declined
        "payment card succeeded 300 11:00",   // another, whose till refund needed attention,
        "refund card needs_attention 300 11:01",
        "refund card succeeded 300 12:00",   // then a person refunded the card again
        "payment card succeeded 990 13:00",   // one the till refunded: owed nothing
        "refund card succeeded 990 13:01",
        "refund card declined 200 14:00"}));   // a cashier's refund declined: seen at the counter
    own[0].givenUpAt = own[0].createdAt;
    own[1].orderId = own[0].orderId;
    own[2].key = autoRefundKey(own[0].key);
    own[2].paymentKey = own[0].key;
    own[2].orderId = own[0].orderId;
    own[2].saleNumber = QStringLiteral("1-000003");
    own[4].key = autoRefundKey(own[3].key);
    own[4].paymentKey = own[5].paymentKey = own[3].key;
    own[7].key = autoRefundKey(own[6].key);
    own[7].paymentKey = own[6].key;
    own[8].paymentKey = own[1].key;
    ShiftReport::Input in;
    in.intents = own;
    in.carriedOver = intents(specs({"refund card declined 700 09:00"}));   // waiting at the last close, declined since
    in.carriedOver[0].key = autoRefundKey(QStringLiteral("pay-earlier"));
    in.carriedOver[0].paymentKey = QStringLiteral("pay-earlier");
    in.zone = QTimeZone::utc();
    const ShiftReport r = ShiftReport::compute(in);

    QVERIFY(r.owesRefunds());
    QCOMPARE(r.refundsOwed.size(), 2);
    // Counted where a person looks first, with the payments the gateway refused (none here: a
    // refund that needed attention is a failed refund, and was given back since).
    QCOMPARE(r.needsAttention, (ShiftReport::Totals{2, 450 + 700}));
    const ShiftReport::Waiting &owed = r.refundsOwed.at(0);
    QCOMPARE(owed.key, autoRefundKey(own[0].key));
    QCOMPARE(owed.paymentKey, own[0].key);
    QCOMPARE(owed.amount, Money(450, QStringLiteral("CNY")));
    QCOMPARE(owed.saleLabel(), QStringLiteral("1-000003"));
    QCOMPARE(owed.state, IntentState::Declined);
    QVERIFY(!owed.carriedOver);
    QVERIFY(r.refundsOwed.at(1).carriedOver);
    QCOMPARE(r.refundsOwed.at(1).paymentKey, QStringLiteral("pay-earlier"));
    const QString advice = ShiftReport::owedAdvice(owed.amount, owed.paymentKey);
    QVERIFY2(advice.contains(QStringLiteral("¥4.50")) && advice.contains(own[0].key), qPrintable(advice));

    // As oncepay-ctl prints it and the journal keeps it, and read back.
    const QJsonObject json = r.toJson().value(QStringLiteral("refunds_owed")).toObject();
    QCOMPARE(json.value(QStringLiteral("count")).toInt(), 2);
    QCOMPARE(json.value(QStringLiteral("amount")).toInteger(), qint64(450 + 700));
    const QJsonObject item = json.value(QStringLiteral("items")).toArray().at(0).toObject();
    QCOMPARE(item.value(QStringLiteral("payment_key")).toString(), own[0].key);
    QCOMPARE(item.value(QStringLiteral("to_do")).toString(), advice);
    const auto back = ShiftReport::fromJson(r.toJson());
    QVERIFY(back);
    QCOMPARE(back->refundsOwed.size(), 2);
    QCOMPARE(back->refundsOwed.at(0).paymentKey, own[0].key);
    QCOMPARE(QJsonDocument(back->toJson()).toJson(), QJsonDocument(r.toJson()).toJson());
    // A report kept before issue 35 owes nothing.
    QJsonObject older = r.toJson();
    older.remove(QStringLiteral("refunds_owed"));
    QVERIFY(!ShiftReport::fromJson(older)->owesRefunds());

    // Given back in part by a person: what is left is still owed.
    Intent part = intent(QStringLiteral("refund card succeeded 150 15:00"));
    part.paymentKey = own[0].key;
    in.intents.append(part);
    QCOMPARE(ShiftReport::compute(in).refundsOwed.at(0).amount, Money(300, QStringLiteral("CNY")));
}

QTEST_GUILESS_MAIN(TestShiftReport)
#include "tst_shiftreport.moc"
