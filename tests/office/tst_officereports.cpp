// OFFICE.md, "What the office gives back", the reports (docs/office.md, "Reports"): events of the
// demo's two tills (two VAT rates, card, cash and wallet, a failed tender, a cancelled sale, a
// refund and a failed one, a sale-wide discount, a shift whose totals agree and one that does
// not), days in Asia/Shanghai; every group_by's rows and totals to the minor unit, the shifts,
// the gaps, a till token refused, bad parameters 400, and `oncepay-ctl office report`. Runs on
// PostgreSQL too (tst_officereports_pg).
#include "gatewayprocess.h"
#include "officeapi.h"
#include "testdatabase.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

using namespace OfficeApi;
using namespace Qt::StringLiterals;

namespace {

QJsonObject line(const QString &code, const QString &category, qint64 quantity, qint64 unitPrice, qint64 amount, int vat,
    qint64 discount = 0)
{
    QJsonObject l{{u"code"_s, code}, {u"name"_s, code == u"T1"_s ? u"Green tea"_s : u"Bread"_s}, {u"category"_s, category},
        {u"quantity"_s, quantity}, {u"unit_price"_s, unitPrice}, {u"amount"_s, amount}, {u"vat"_s, vat}};
    if (discount)
        l.insert(u"discount"_s, discount);
    return l;
}

QJsonObject tender(const QString &kind, qint64 amount, const QString &state)
{
    return {{u"kind"_s, kind}, {u"amount"_s, amount}, {u"state"_s, state}, {u"key"_s, QStringLiteral("k-%1-%2").arg(kind).arg(amount)}};
}

QJsonObject sale(const QString &state, const QString &staff, const QJsonArray &lines, const QJsonArray &tenders,
    qint64 discounts, qint64 tax, qint64 total, const QJsonArray &handedBack = {})
{
    return {{u"number"_s, u"1-0001"_s}, {u"state"_s, state}, {u"currency"_s, u"CNY"_s}, {u"staff"_s, staff}, {u"lines"_s, lines},
        {u"tenders"_s, tenders}, {u"handed_back"_s, handedBack}, {u"totals"_s, QJsonObject{{u"subtotal"_s, total + discounts}, {u"discounts"_s, discounts}, {u"tax"_s, tax}, {u"total"_s, total}}}};
}

QJsonObject refund(const QString &state, const QString &tenderKind, qint64 amount, const QJsonArray &lines,
    const QString &key = u"r-1"_s)
{
    return {{u"key"_s, key}, {u"state"_s, state}, {u"currency"_s, u"CNY"_s}, {u"tender"_s, tenderKind}, {u"amount"_s, amount},
        {u"staff"_s, u"Li Wei"_s}, {u"lines"_s, lines}};
}

QJsonObject shift(qint64 sales, qint64 gross, qint64 refunds)
{
    return {{u"number"_s, 1}, {u"currency"_s, u"CNY"_s}, {u"staff"_s, u"Li Wei"_s},
        {u"totals"_s, QJsonObject{{u"sales"_s, sales}, {u"gross"_s, gross}, {u"refunds"_s, refunds}, {u"net"_s, gross - refunds}}}};
}

QByteArray batch(const QString &till, const QList<QPair<QString, QJsonObject>> &events, const QStringList &at)
{
    QJsonArray out;
    for (qsizetype i = 0; i < events.size(); ++i)
        out.append(QJsonObject{{u"seq"_s, i + 1}, {u"kind"_s, events[i].first}, {u"at"_s, at[i]}, {u"data"_s, events[i].second}});
    return QJsonDocument(QJsonObject{{u"till"_s, till}, {u"events"_s, out}}).toJson(QJsonDocument::Compact);
}

// "key sales/gross/discounts/tax/refunds/net", a row a line, then "= ..." for the totals.
QString figures(const QJsonObject &o)
{
    QStringList f;
    for (const QString &name : {u"sales"_s, u"gross"_s, u"discounts"_s, u"tax"_s, u"refunds"_s, u"net"_s})
        f.append(QString::number(o.value(name).toInteger()));
    return f.join(QLatin1Char('/'));
}

QStringList rowsOf(const QJsonObject &report)
{
    QStringList out;
    const QJsonArray rows = report.value(u"rows"_s).toArray();
    for (const QJsonValue &r : rows) {
        const QJsonValue key = r.toObject().value(u"key"_s);
        out.append((key.isDouble() ? QString::number(key.toInteger()) : key.toString()) + QLatin1Char(' ') + figures(r.toObject()));
    }
    out.append(QStringLiteral("= ") + figures(report.value(u"totals"_s).toObject()));
    return out;
}

// 2025-03-10 in Asia/Shanghai (UTC+8) is 2025-03-09T16:00Z to 2025-03-10T16:00Z.
const QString kDay = QStringLiteral("2025-03-10");
const QString kTotals = QStringLiteral("= 3/3370/230/342/500/2870");

}   // namespace

class TestOfficeReports final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void sales_data();
    void sales();
    void dayBoundariesInTheOfficesZone();
    void oneTill();
    void shifts();
    void gaps();
    void ownerOfOneStore();
    void tillTokenIsRefused_data();
    void tillTokenIsRefused();
    void badParameters_data();
    void badParameters();
    void ctlReport();
    void ctlBadUsage_data();
    void ctlBadUsage();

private:
    struct CtlRun
    {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };
    // oncepay-ctl --office URL --office-token TOKEN office report ARGS
    CtlRun ctl(const char *token, const QStringList &args);
    QJsonObject report(const QString &query);

    GatewayProcess m_office{GatewayProcess::Program::Office};
};

void TestOfficeReports::initTestCase()
{
    QVERIFY2(m_office.start({QStringLiteral("--time-zone"), QStringLiteral("Asia/Shanghai")}), m_office.failureMessage().constData());
    HttpClient till1(m_office.baseUrl(), kTill1);
    // Till 1: 10:15 a paid sale, tea x2 at 13 % and bread with its own discount at 9 %, by card;
    // 11:30 tea, the card failed, paid cash; a cancelled sale whose 3.00 in cash the till handed
    // back (its own refund event: the report counts neither, the Z report both); a cash refund of
    // the tea and a card refund that failed; its shift, whose totals agree.
    const QByteArray one = batch(QStringLiteral("1"),
        {{u"sale"_s, sale(u"paid"_s, u"Li Wei"_s, {line(u"T1"_s, u"drinks"_s, 2, 500, 1000, 1300), line(u"B1"_s, u"bakery"_s, 1, 800, 700, 900, 100)}, {tender(u"card"_s, 1700, u"succeeded"_s)}, 100, 173, 1700)},
            {u"sale"_s, sale(u"paid"_s, u"Li Wei"_s, {line(u"T1"_s, u"drinks"_s, 1, 500, 500, 1300)}, {tender(u"card"_s, 500, u"failed"_s), tender(u"cash"_s, 500, u"succeeded"_s)}, 0, 58, 500)},
            {u"sale"_s, sale(u"cancelled"_s, u"Li Wei"_s, {line(u"T1"_s, u"drinks"_s, 1, 500, 500, 1300)}, {tender(u"wallet"_s, 500, u"failed"_s), tender(u"cash"_s, 300, u"succeeded"_s)}, 0, 58, 500, {QJsonObject{{u"kind"_s, u"cash"_s}, {u"amount"_s, 300}, {u"state"_s, u"succeeded"_s}, {u"key"_s, u"hb-1"_s}}})},
            {u"refund"_s, refund(u"succeeded"_s, u"cash"_s, 300, {}, u"hb-1"_s)},
            {u"refund"_s, refund(u"succeeded"_s, u"cash"_s, 500, {line(u"T1"_s, u"drinks"_s, 1, 500, 500, 1300)})},
            {u"refund"_s, refund(u"failed"_s, u"card"_s, 300, {})}, {u"shift"_s, shift(2, 2500, 800)}},
        {u"2025-03-10T02:15:00Z"_s, u"2025-03-10T03:30:00Z"_s, u"2025-03-10T04:00:00Z"_s, u"2025-03-10T04:00:30Z"_s, u"2025-03-10T05:00:00Z"_s,
            u"2025-03-10T05:10:00Z"_s, u"2025-03-10T06:00:00Z"_s});
    ONCEPAY_VERIFY_BATCH(postEvents(till1, one), 7, 0, 7);
    // Till 2: 23:59 tea and bread with 10 % off the whole sale (130), by wallet; 00:01 the next
    // day bread for cash; its shift, whose Z report says 2000 where its events make 1970.
    HttpClient till2(m_office.baseUrl(), kTill2);
    const QByteArray two = batch(QStringLiteral("2"),
        {{u"sale"_s, sale(u"paid"_s, u"Wang Fang"_s, {line(u"T1"_s, u"drinks"_s, 1, 500, 450, 1300), line(u"B1"_s, u"bakery"_s, 1, 800, 720, 900)}, {tender(u"wallet"_s, 1170, u"succeeded"_s)}, 130, 111, 1170)},
            {u"sale"_s, sale(u"paid"_s, u"Wang Fang"_s, {line(u"B1"_s, u"bakery"_s, 1, 800, 800, 900)}, {tender(u"cash"_s, 800, u"succeeded"_s)}, 0, 66, 800)},
            {u"shift"_s, shift(2, 2000, 0)}},
        {u"2025-03-10T15:59:00Z"_s, u"2025-03-10T16:01:00Z"_s, u"2025-03-10T16:05:00Z"_s});
    ONCEPAY_VERIFY_BATCH(postEvents(till2, two), 3, 0, 3);
}

QJsonObject TestOfficeReports::report(const QString &query)
{
    HttpClient owner(m_office.baseUrl(), kOwner);
    const HttpReply r = owner.get(query);
    if (r.status != 200)
        qWarning() << r.describe();
    return r.status == 200 ? r.object() : QJsonObject();
}

void TestOfficeReports::sales_data()
{
    QTest::addColumn<QString>("groupBy");
    QTest::addColumn<QStringList>("rows");
    QTest::newRow("day") << u"day"_s << QStringList{u"2025-03-10 3/3370/230/342/500/2870"_s, kTotals};
    QTest::newRow("hour") << u"hour"_s
                          << QStringList{u"10 1/1700/100/173/0/1700"_s, u"11 1/500/0/58/0/500"_s, u"13 0/0/0/0/500/-500"_s, u"23 1/1170/130/111/0/1170"_s, kTotals};
    QTest::newRow("till") << u"till"_s << QStringList{u"1 2/2200/100/231/500/1700"_s, u"2 1/1170/130/111/0/1170"_s, kTotals};
    QTest::newRow("staff") << u"staff"_s << QStringList{u"Li Wei 2/2200/100/231/500/1700"_s, u"Wang Fang 1/1170/130/111/0/1170"_s, kTotals};
    // Per line: a line's own discount and its share of the sale's; each rate's tax from its lines.
    QTest::newRow("product") << u"product"_s << QStringList{u"B1 2/1420/180/117/0/1420"_s, u"T1 3/1950/50/225/500/1450"_s, kTotals};
    QTest::newRow("category") << u"category"_s << QStringList{u"bakery 2/1420/180/117/0/1420"_s, u"drinks 3/1950/50/225/500/1450"_s, kTotals};
    QTest::newRow("vat") << u"vat"_s << QStringList{u"900 2/1420/180/117/0/1420"_s, u"1300 3/1950/50/225/500/1450"_s, kTotals};
    // Only a succeeded tender took money: the failed card of the second sale counts nothing.
    QTest::newRow("tender") << u"tender"_s << QStringList{u"card 1/1700/100/173/0/1700"_s, u"cash 1/500/0/58/500/0"_s, u"wallet 1/1170/130/111/0/1170"_s, kTotals};
}

void TestOfficeReports::sales()
{
    QFETCH(QString, groupBy);
    QFETCH(QStringList, rows);
    const QJsonObject r = report(QStringLiteral("/v1/reports/sales?from=%1&to=%1&group_by=%2").arg(kDay, groupBy));
    QCOMPARE(rowsOf(r), rows);
    QCOMPARE(r.value(u"currency"_s).toString(), QStringLiteral("CNY"));
}

void TestOfficeReports::dayBoundariesInTheOfficesZone()
{
    // 15:59Z is 23:59 on the 10th in Shanghai, 16:01Z 00:01 on the 11th.
    QCOMPARE(rowsOf(report(QStringLiteral("/v1/reports/sales?from=2025-03-10&to=2025-03-11&group_by=day"))),
        (QStringList{u"2025-03-10 3/3370/230/342/500/2870"_s, u"2025-03-11 1/800/0/66/0/800"_s, u"= 4/4170/230/408/500/3670"_s}));
    QCOMPARE(rowsOf(report(QStringLiteral("/v1/reports/sales?from=2025-03-11&to=2025-03-11&group_by=till"))),
        (QStringList{u"2 1/800/0/66/0/800"_s, u"= 1/800/0/66/0/800"_s}));
    QCOMPARE(rowsOf(report(QStringLiteral("/v1/reports/sales?from=2025-03-09&to=2025-03-09&group_by=day"))), QStringList{u"= 0/0/0/0/0/0"_s});
}

void TestOfficeReports::oneTill()
{
    QCOMPARE(rowsOf(report(QStringLiteral("/v1/reports/sales?from=%1&to=%1&till=2&store=1&group_by=vat").arg(kDay))),
        (QStringList{u"900 1/720/80/59/0/720"_s, u"1300 1/450/50/52/0/450"_s, u"= 1/1170/130/111/0/1170"_s}));
}

void TestOfficeReports::shifts()
{
    const QJsonArray all = report(QStringLiteral("/v1/reports/shifts?from=2025-03-10&to=2025-03-11")).value(u"shifts"_s).toArray();
    QCOMPARE(all.size(), 2);
    const QJsonObject one = all[0].toObject();
    QCOMPARE(one.value(u"till"_s).toString(), QStringLiteral("1"));
    QCOMPARE(figures(one.value(u"events"_s).toObject()), QStringLiteral("2/2500/0/0/800/1700"));
    QCOMPARE(one.value(u"totals"_s).toObject().value(u"gross"_s).toInteger(), 2500);
    QCOMPARE(one.value(u"agrees"_s).toBool(), true);
    const QJsonObject two = all[1].toObject();
    QCOMPARE(two.value(u"till"_s).toString(), QStringLiteral("2"));
    QCOMPARE(figures(two.value(u"events"_s).toObject()), QStringLiteral("2/1970/0/0/0/1970"));
    QCOMPARE(two.value(u"totals"_s).toObject().value(u"gross"_s).toInteger(), 2000);
    QCOMPARE(two.value(u"agrees"_s).toBool(), false);
    // Till 2's shift closed on the 11th in Shanghai.
    QCOMPARE(report(QStringLiteral("/v1/reports/shifts?from=%1&to=%1").arg(kDay)).value(u"shifts"_s).toArray().size(), 1);
}

void TestOfficeReports::gaps()
{
    // Both tills last spoke in 2025: more than a day ago. Till 2 then sends seq 9 where 4 is next.
    HttpClient till2(m_office.baseUrl(), kTill2);
    QCOMPARE(postEvents(till2, eventsBody(QStringLiteral("2"), 9, 1)).status, 409);
    QJsonArray tills;
    QTRY_VERIFY_WITH_TIMEOUT((tills = report(QStringLiteral("/v1/reports/gaps")).value(u"tills"_s).toArray()).size() == 2
            && !tills[1].toObject().value(u"refused"_s).isNull(),
        10000);
    const QJsonObject one = tills[0].toObject();
    QCOMPARE(one.value(u"till"_s).toString(), QStringLiteral("1"));
    QCOMPARE(one.value(u"stale"_s).toBool(), true);
    QCOMPARE(one.value(u"last_seq"_s).toInteger(), 7);
    QCOMPARE(one.value(u"last_at"_s).toString(), QStringLiteral("2025-03-10T06:00:00Z"));
    QVERIFY(one.value(u"refused"_s).isNull());
    const QJsonObject refused = tills[1].toObject().value(u"refused"_s).toObject();
    QCOMPARE(refused.value(u"problem"_s).toString(), QStringLiteral("seq-gap"));
    QCOMPARE(refused.value(u"seq"_s).toInteger(), 9);
    QCOMPARE(refused.value(u"expected_seq"_s).toInteger(), 4);
}

void TestOfficeReports::ownerOfOneStore()
{
    QProcess add;
    add.start(GatewayProcess::binaryPath(GatewayProcess::Program::Office),
        {u"owner"_s, u"add"_s, u"--db"_s, m_office.database().dbArg(), u"--store"_s, u"2"_s});
    QVERIFY(add.waitForFinished(30000));
    QCOMPARE(add.exitCode(), 0);
    HttpClient owner2(m_office.baseUrl(), add.readAllStandardOutput().trimmed());
    // Store 1's sales are not this owner's: its report of the day is empty, naming store 1 is 403.
    const HttpReply own = owner2.get(QStringLiteral("/v1/reports/sales?from=%1&to=%1&group_by=till").arg(kDay));
    QCOMPARE(own.status, 200);
    QCOMPARE(rowsOf(own.object()), QStringList{u"= 0/0/0/0/0/0"_s});
    QCOMPARE(owner2.get(QStringLiteral("/v1/reports/sales?from=%1&to=%1&group_by=till&store=1").arg(kDay)).status, 403);
    QCOMPARE(owner2.get(QStringLiteral("/v1/reports/gaps?store=1")).status, 403);
    QCOMPARE(owner2.get(QStringLiteral("/v1/reports/shifts?from=%1&to=%1").arg(kDay)).object().value(u"shifts"_s).toArray().size(), 0);
}

void TestOfficeReports::tillTokenIsRefused_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("sales") << QStringLiteral("/v1/reports/sales?from=2025-03-10&to=2025-03-10&group_by=day");
    QTest::newRow("shifts") << QStringLiteral("/v1/reports/shifts?from=2025-03-10&to=2025-03-10");
    QTest::newRow("gaps") << QStringLiteral("/v1/reports/gaps");
}

void TestOfficeReports::tillTokenIsRefused()
{
    QFETCH(QString, path);
    HttpClient till1(m_office.baseUrl(), kTill1);
    const HttpReply r = till1.get(path);
    QCOMPARE(r.status, 403);
    QCOMPARE(r.header("content-type"), QByteArray("application/problem+json"));
}

void TestOfficeReports::badParameters_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("field");
    const QString sales = QStringLiteral("/v1/reports/sales?");
    QTest::newRow("no from") << sales + u"to=2025-03-10&group_by=day"_s
                             << u"from"_s;
    QTest::newRow("from not a day") << sales + u"from=2025-3-10&to=2025-03-10&group_by=day"_s
                                    << u"from"_s;
    QTest::newRow("to no such day") << sales + u"from=2025-03-10&to=2025-02-30&group_by=day"_s
                                    << u"to"_s;
    QTest::newRow("to before from") << sales + u"from=2025-03-10&to=2025-03-09&group_by=day"_s
                                    << u"to"_s;
    QTest::newRow("no group_by") << sales + u"from=2025-03-10&to=2025-03-10"_s
                                 << u"group_by"_s;
    QTest::newRow("group_by week") << sales + u"from=2025-03-10&to=2025-03-10&group_by=week"_s
                                   << u"group_by"_s;
    QTest::newRow("empty till") << sales + u"from=2025-03-10&to=2025-03-10&group_by=day&till="_s
                                << u"till"_s;
    QTest::newRow("unknown") << sales + u"from=2025-03-10&to=2025-03-10&group-by=day&group_by=day"_s
                             << u"group-by"_s;
    QTest::newRow("shifts without to") << QStringLiteral("/v1/reports/shifts?from=2025-03-10") << u"to"_s;
}

void TestOfficeReports::badParameters()
{
    QFETCH(QString, path);
    QFETCH(QString, field);
    HttpClient owner(m_office.baseUrl(), kOwner);
    const HttpReply r = owner.get(path);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.header("content-type"), QByteArray("application/problem+json"));
    QCOMPARE(r.object().value(u"errors"_s).toArray().at(0).toObject().value(u"field"_s).toString(), field);
}

TestOfficeReports::CtlRun TestOfficeReports::ctl(const char *token, const QStringList &args)
{
    QProcess p;
    p.start(qEnvironmentVariable("ONCEPAY_CTL_BIN"),
        QStringList{u"--office"_s, m_office.baseUrl().toString(), u"--office-token"_s, QString::fromLatin1(token), u"office"_s, u"report"_s} + args);
    CtlRun run;
    if (p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit)
        run.exitCode = p.exitCode();
    run.out = p.readAllStandardOutput();
    run.err = p.readAllStandardError();
    return run;
}

void TestOfficeReports::ctlReport()
{
    const QStringList days{u"--from"_s, kDay, u"--to"_s, kDay, u"--group-by"_s, u"vat"_s};
    const CtlRun json = ctl(kOwner, days + QStringList{u"--json"_s});
    QVERIFY2(json.exitCode == 0, json.err.constData());
    QCOMPARE(rowsOf(QJsonDocument::fromJson(json.out).object()),
        (QStringList{u"900 2/1420/180/117/0/1420"_s, u"1300 3/1950/50/225/500/1450"_s, kTotals}));
    const CtlRun csv = ctl(kOwner, days + QStringList{u"--csv"_s});
    QVERIFY2(csv.exitCode == 0, csv.err.constData());
    QCOMPARE(csv.out,
        QByteArray("key,sales,gross,discounts,tax,refunds,net\n900,2,1420,180,117,0,1420\n1300,3,1950,50,225,500,1450\n"
                   "total,3,3370,230,342,500,2870\n"));
}

void TestOfficeReports::ctlBadUsage_data()
{
    QTest::addColumn<QByteArray>("token");
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::newRow("group-by week") << QByteArray(kOwner) << QStringList{u"--from"_s, kDay, u"--to"_s, kDay, u"--group-by"_s, u"week"_s} << 2;
    QTest::newRow("no from") << QByteArray(kOwner) << QStringList{u"--to"_s, kDay} << 2;
    QTest::newRow("json and csv") << QByteArray(kOwner) << QStringList{u"--from"_s, kDay, u"--to"_s, kDay, u"--json"_s, u"--csv"_s} << 2;
    QTest::newRow("a till's token") << QByteArray(kTill1) << QStringList{u"--from"_s, kDay, u"--to"_s, kDay} << 1;
}

void TestOfficeReports::ctlBadUsage()
{
    QFETCH(QByteArray, token);
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    const CtlRun run = ctl(token.constData(), args);
    QCOMPARE(run.exitCode, exitCode);
    QCOMPARE(run.err.count('\n'), 1);
    QVERIFY(run.out.isEmpty());
}

QTEST_GUILESS_MAIN(TestOfficeReports)
#include "tst_officereports.moc"
