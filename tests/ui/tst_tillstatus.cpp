// The words of the till's status bar, payments panel and quit question (TillStatus), from plain
// facts: no window, no engine.
#include "tillstatus.h"

#include <QScopeGuard>
#include <QTest>
#include <QTranslator>

using namespace OncePay;
using namespace OncePay::Ui;
using C = SyncEngine::Connectivity;

class TestTillStatus final : public QObject
{
    Q_OBJECT

private slots:
    void connection_data();
    void connection();
    void queueAndTotals();
    void gateway();
    void officeWaiting();
};

void TestTillStatus::connection_data()
{
    QTest::addColumn<int>("connectivity");
    QTest::addColumn<bool>("paused");
    QTest::addColumn<qint64>("nextRetryInMs");
    QTest::addColumn<QString>("expected");
    QTest::newRow("online") << int(C::Online) << false << qint64(-1) << QStringLiteral("● Online");
    QTest::newRow("online ignores a retry time") << int(C::Online) << false << qint64(4000) << QStringLiteral("● Online");
    QTest::newRow("offline, nothing scheduled") << int(C::Offline) << false << qint64(-1) << QStringLiteral("○ Offline");
    QTest::newRow("offline, 2.1 s: rounded up") << int(C::Offline) << false << qint64(2100) << QStringLiteral("○ Offline (next try in 3 s)");
    QTest::newRow("offline, 1 s") << int(C::Offline) << false << qint64(1000) << QStringLiteral("○ Offline (next try in 1 s)");
    QTest::newRow("offline, due now: never 0 s") << int(C::Offline) << false << qint64(0) << QStringLiteral("○ Offline (trying now)");
    QTest::newRow("reconnecting") << int(C::Reconnecting) << false << qint64(-1) << QStringLiteral("◐ Reconnecting…");
    QTest::newRow("no answer") << int(C::NoAnswer) << false << qint64(500) << QStringLiteral("◌ No answer from the gateway (next try in 1 s)");
    QTest::newRow("paused wins over online") << int(C::Online) << true << qint64(-1)
                                             << QStringLiteral("⏸ Paused: the gateway refused this till's token");
}

void TestTillStatus::connection()
{
    QFETCH(int, connectivity);
    QFETCH(bool, paused);
    QFETCH(qint64, nextRetryInMs);
    QFETCH(QString, expected);
    TillStatus::Facts f;
    f.connectivity = C(connectivity);
    f.paused = paused;
    f.nextRetryInMs = nextRetryInMs;
    QCOMPARE(TillStatus::connection(f), expected);
}

void TestTillStatus::queueAndTotals()
{
    TillStatus::Facts f;
    QCOMPARE(TillStatus::queue(f), QStringLiteral("Waiting: 0 payment(s)"));
    QCOMPARE(TillStatus::panelSummary(f), QStringLiteral("0 payment(s) waiting"));
    f.waiting = 3;
    f.waitingTotals = {{QStringLiteral("USD"), 300}, {QStringLiteral("CNY"), 1250}};
    // Sorted by currency: the same text on every refresh, whatever the hash's order.
    const QString totals = TillStatus::totals(f.waitingTotals);
    QCOMPARE(totals, Money(1250, QStringLiteral("CNY")).toDisplayString() + QStringLiteral(", ") + Money(300, QStringLiteral("USD")).toDisplayString());
    QCOMPARE(TillStatus::queue(f), QStringLiteral("Waiting: 3 payment(s) · ") + totals);
    QCOMPARE(TillStatus::panelSummary(f), QStringLiteral("3 payment(s) waiting: ") + totals);
    f.waitingTotals.clear();   // refunds only: counted, no money taken
    QCOMPARE(TillStatus::queue(f), QStringLiteral("Waiting: 3 payment(s)"));
}

void TestTillStatus::gateway()
{
    TillStatus::Facts f;
    f.terminal = QStringLiteral("till-7");
    QCOMPARE(TillStatus::gateway(f), QStringLiteral("Demo gateway · terminal till-7"));
    f.gateway = QStringLiteral("https://pay.example:8443");
    QCOMPARE(TillStatus::gateway(f), QStringLiteral("https://pay.example:8443 · terminal till-7"));
    f.gatewayCount = 3;
    f.gatewayIndex = 1;
    QCOMPARE(TillStatus::gateway(f), QStringLiteral("https://pay.example:8443 (gateway 2 of 3) · terminal till-7"));
}

// Issue 38: "Office: 12 waiting"; nothing without an office or when all are sent; a warning after
// an hour waiting, or when the office refused them; in Chinese too.
void TestTillStatus::officeWaiting()
{
    const qint64 now = 1'800'000'000'000;
    OfficeSync::Status s;
    QCOMPARE(TillStatus::office(s, true, now), QString());
    s.waiting = 12;
    s.oldestWaitingAtMs = now - 5 * 60'000;
    QCOMPARE(TillStatus::office(s, false, now), QString());   // no office: nothing to say
    QCOMPARE(TillStatus::office(s, true, now), QStringLiteral("Office: 12 waiting"));
    QVERIFY(!TillStatus::officeIsLate(s, true, now));
    s.oldestWaitingAtMs = now - 2 * 3600'000 - 1;
    QVERIFY(TillStatus::officeIsLate(s, true, now));
    QCOMPARE(TillStatus::office(s, true, now), QStringLiteral("Office: 12 waiting · the oldest for 2 hour(s)"));
    s.offline = true;
    QVERIFY(TillStatus::office(s, true, now).endsWith(QStringLiteral(" · the office cannot be reached")));
    s = {};
    s.waiting = 3;
    s.stopped = true;
    s.problem = QStringLiteral("refused");
    QVERIFY(TillStatus::officeIsLate(s, true, now));
    QCOMPARE(TillStatus::office(s, true, now), QStringLiteral("Office: 3 waiting, sending stopped: refused"));

    QTranslator chinese;
    QVERIFY2(chinese.load(QStringLiteral("oncepay_zh_CN"), QStringLiteral(ONCEPAY_QM_DIR)), ONCEPAY_QM_DIR);
    QVERIFY(QCoreApplication::installTranslator(&chinese));
    const auto uninstall = qScopeGuard([&chinese] {
        QCoreApplication::removeTranslator(&chinese);
    });
    s = {};
    s.waiting = 12;
    s.oldestWaitingAtMs = now;
    QCOMPARE(TillStatus::office(s, true, now), QStringLiteral("门店后台：12 条待发送"));
}

QTEST_GUILESS_MAIN(TestTillStatus)
#include "tst_tillstatus.moc"
