// The Close shift screen's models without a window: the totals table and the reconciliation rows
// (sound item models, the cashier's words, colours by what to do), and the printable report
// (its HTML, file name and PDF).
#include "shiftfindingsmodel.h"
#include "shiftreportdocument.h"
#include "shifttotalsmodel.h"

#include <QAbstractItemModelTester>
#include <QFont>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Ui;

namespace {

ShiftReport report()
{
    ShiftReport r;
    r.number = 4;
    r.currency = QStringLiteral("CNY");
    r.cardSales = {3, 15000};
    r.cashSales = {2, 3000};
    r.cardRefunds = {1, 1000};
    r.cashRefunds = {1, 500};
    r.waitingPayments = {1, 1234};
    r.declined = {1, 700};
    r.cancelledWallet = {2, 2000};
    r.openingFloat = 10000;
    r.countedCash = 12400;
    return r;
}

ShiftFinding finding(ShiftFinding::Subject subject, Tender tender, const char *key, ShiftFinding::Action action)
{
    ShiftFinding f;
    f.subject = subject;
    f.tender = tender;
    f.key = QString::fromLatin1(key);
    f.orderId = QStringLiteral("o-") + f.key;
    f.action = action;
    f.localState = IntentState::Succeeded;
    f.localAmount = Money(1000, QStringLiteral("CNY"));
    return f;
}

}   // namespace

class TestShiftModels final : public QObject
{
    Q_OBJECT

private slots:
    void totals();
    void findings();
    void document();
};

void TestShiftModels::totals()
{
    ShiftTotalsModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setReport(report());
    using L = ShiftTotalsModel::Line;
    auto text = [&](L line, ShiftTotalsModel::Column c) {
        return m.index(int(line), int(c)).data().toString();
    };
    QCOMPARE(m.rowCount(), int(L::LineCount));
    QCOMPARE(text(L::CardSales, ShiftTotalsModel::Column::Label), QStringLiteral("Card sales"));
    QCOMPARE(text(L::CardSales, ShiftTotalsModel::Column::Count), QStringLiteral("3"));
    QCOMPARE(text(L::CardSales, ShiftTotalsModel::Column::Amount), QStringLiteral("¥150.00"));
    QCOMPARE(text(L::WaitingPayments, ShiftTotalsModel::Column::Amount), QStringLiteral("¥12.34"));
    QCOMPARE(text(L::Net, ShiftTotalsModel::Column::Amount), QStringLiteral("¥165.00"));
    QVERIFY(text(L::Net, ShiftTotalsModel::Column::Count).isEmpty());
    // Issue 36: a cancelled wallet payment is no declined card.
    QCOMPARE(text(L::Declined, ShiftTotalsModel::Column::Count), QStringLiteral("1"));
    QCOMPARE(text(L::CancelledWallet, ShiftTotalsModel::Column::Count), QStringLiteral("2"));
    QCOMPARE(text(L::CancelledWallet, ShiftTotalsModel::Column::Amount), QStringLiteral("¥20.00"));
    QVERIFY(m.index(int(L::Net), 0).data(Qt::FontRole).value<QFont>().bold());
    QVERIFY(!m.index(int(L::CashSales), 0).data(Qt::FontRole).isValid());
}

void TestShiftModels::findings()
{
    ShiftFindingsModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    using S = ShiftFinding::Subject;
    using A = ShiftFinding::Action;
    ShiftFinding cardRefund = finding(S::Refund, Tender::Card, "r1", A::None);
    cardRefund.gatewayStatus = QStringLiteral("succeeded");
    cardRefund.gatewayAmount = Money(1000, QStringLiteral("CNY"));
    ShiftFinding cash = finding(S::Payment, Tender::Cash, "c1", A::None);
    cash.kind = ShiftFinding::Kind::OnlyLocal;
    ShiftFinding lost = finding(S::Payment, Tender::Card, "p1", A::Investigate);
    lost.kind = ShiftFinding::Kind::OnlyLocal;
    ShiftFinding waiting = finding(S::Payment, Tender::Card, "p2", A::Sync);
    waiting.localState = IntentState::Queued;
    waiting.kind = ShiftFinding::Kind::OnlyLocal;
    m.setFindings({lost, waiting, cardRefund, cash});
    using C = ShiftFindingsModel::Column;
    auto text = [&](int row, C c) {
        return m.index(row, int(c)).data().toString();
    };
    QCOMPARE(m.rowCount(), 4);
    QCOMPARE(text(2, C::What), QStringLiteral("Card refund, sale o-r1"));
    QCOMPARE(text(2, C::Till), QStringLiteral("Refunded, ¥10.00"));
    QCOMPARE(text(2, C::Server), QStringLiteral("Refunded, ¥10.00"));
    QCOMPARE(text(3, C::Server), QStringLiteral("not sent (cash)"));
    QCOMPARE(text(0, C::Server), QStringLiteral("not on the server"));
    QCOMPARE(text(0, C::Finding), QStringLiteral("only on the till"));
    QCOMPARE(text(1, C::Finding), QStringLiteral("not at the server yet"));
    QCOMPARE(text(3, C::Finding), QStringLiteral("cash, in the drawer"));
    QVERIFY(text(0, C::ToDo).startsWith(QStringLiteral("Call support")));
    QCOMPARE(text(1, C::Till), QStringLiteral("Waiting for connection, ¥10.00"));
    QCOMPARE(m.index(0, 0).data(ShiftFindingsModel::KeyRole).toString(), QStringLiteral("p1"));
    QVERIFY(m.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("p1")));
    QCOMPARE(m.index(0, 3).data(Qt::BackgroundRole).value<QColor>(), ShiftFindingsModel::actionColor(A::Investigate));
    QCOMPARE(m.index(1, 3).data(Qt::BackgroundRole).value<QColor>(), ShiftFindingsModel::actionColor(A::Sync));
    QVERIFY(!m.index(2, 3).data(Qt::BackgroundRole).isValid());
    QCOMPARE(m.count(A::Investigate), 1);
    QCOMPARE(m.count(A::Sync), 1);
    QCOMPARE(m.count(A::None), 2);
}

void TestShiftModels::document()
{
    ShiftReport r = report();
    r.closedAt = 1796169600000;
    ShiftFinding lost = finding(ShiftFinding::Subject::Payment, Tender::Card, "p1", ShiftFinding::Action::Investigate);
    lost.kind = ShiftFinding::Kind::OnlyLocal;
    const ShiftFinding fine = finding(ShiftFinding::Subject::Payment, Tender::Cash, "c1", ShiftFinding::Action::None);
    ShiftReportDocument::Context c;
    c.shopName = QStringLiteral("Corner <Shop>");
    c.terminal = QStringLiteral("till/1");
    c.reconciled = true;
    c.waitingLines = {QStringLiteral("Sale o9: ¥12.34")};
    const QString html = ShiftReportDocument::html(r, {lost, fine}, c);
    QVERIFY(html.contains(QStringLiteral("Z report: shift 4 closed")));
    QVERIFY(html.contains(QStringLiteral("Corner &lt;Shop&gt;")));   // escaped
    QVERIFY(html.contains(QStringLiteral("¥150.00")));
    QVERIFY(html.contains(QStringLiteral("expected ¥125.00")));   // 100 + 30 − 5
    QVERIFY(html.contains(QStringLiteral("Counted ¥124.00: ¥1.00 missing.")));
    QVERIFY(html.contains(QStringLiteral("Sale o9: ¥12.34")));
    QVERIFY(html.contains(QStringLiteral("1 of 2 rows need nothing.")));
    QVERIFY(html.contains(QStringLiteral("o-p1")) && !html.contains(QStringLiteral("o-c1")));   // only rows to act on
    QVERIFY(html.contains(ShiftReportDocument::chartResource()));
    QCOMPARE(ShiftReportDocument::fileName(r, c.terminal), QStringLiteral("z-report-till_1-shift-4.pdf"));
    QImage chart(200, 100, QImage::Format_RGB32);
    chart.fill(Qt::blue);
    const QByteArray pdf = ShiftReportDocument::pdf(html, chart);
    QVERIFY(pdf.startsWith("%PDF"));
    QVERIFY(pdf.size() > 1000);

    // Issue 25 item 11: nothing to act on prints no table, not an empty header; the till's own
    // refunds and how carried-over payments ended are printed when there are some.
    c.tillRefundLines = {QStringLiteral("Sale 1-000007: ¥9.90 charged late, refunded automatically")};
    c.endedLines = {QStringLiteral("Sale 1-000002: ¥4.20, Paid")};
    const QString calm = ShiftReportDocument::html(r, {fine}, c);
    QVERIFY(calm.contains(QStringLiteral("1 of 1 rows need nothing.")));
    QVERIFY(!calm.contains(QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\"")));
    QVERIFY(!calm.contains(QStringLiteral("What to do")));
    QVERIFY(calm.contains(QStringLiteral("charged late, refunded automatically")));
    QVERIFY(calm.contains(QStringLiteral("Sale 1-000002: ¥4.20, Paid")));
}

QTEST_MAIN(TestShiftModels)
#include "tst_shiftmodels.moc"
