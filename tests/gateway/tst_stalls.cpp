// Exactly once through stalls (API.md promises 7 and 8), on the backend the run selects
// (ONCEPAY_TEST_BACKEND). A gateway instance is really stopped (SIGSTOP, raised by itself at
// a step through ONCEPAY_FAULT_PAUSE_AT) past its claim lease while a second instance on the
// same database takes the payment over; or the store is locked from a second connection
// while a step wants to write. Every answer is then one the stored record agrees with:
// never 201 for a payment that is not stored, never 503 once the acquirer may have charged,
// and the acquirer's ledger shows one charge.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "testdatabase.h"

#include <QtTest>

#include <csignal>

using namespace GatewayApi;

class TestStalls final : public QObject
{
    Q_OBJECT

private slots:
    void pausedPastLease_data();
    void pausedPastLease();
    void pausedBeforeTheCall_data();
    void pausedBeforeTheCall();
    void storeLockedAtStep_data();
    void storeLockedAtStep();
    void storeLockedPastClientPatience();
    void slowBankWhileStoreLocked();
    void refusedWhileStoreLocked_data();
    void refusedWhileStoreLocked();
    void storeLockedBeforeCallingAgain();

private:
    static double metric(HttpClient &client, const QString &name, const QStringList &labels = {});
};

namespace {
const QStringList kShortLease{QStringLiteral("--claim-lease"), QStringLiteral("1s"),
    QStringLiteral("--recovery-interval"), QStringLiteral("200ms"),
    QStringLiteral("--store-busy-timeout"), QStringLiteral("200ms")};

QMap<QString, QString> pauseAt(const QString &step)
{
    return {{QStringLiteral("ONCEPAY_FAULT_PAUSE_AT"), step}};
}

const char *steps[] = {"after_claim", "after_mark_called", "after_acquirer", "after_settle"};
}   // namespace

double TestStalls::metric(HttpClient &client, const QString &name, const QStringList &labels)
{
    return metricSum(parseMetrics(client.get(QStringLiteral("/metrics")).body), name, labels);
}

void TestStalls::pausedPastLease_data()
{
    QTest::addColumn<QString>("step");
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("expected");
    for (const char *step : steps) {
        QTest::addRow("%s approved", step) << QString::fromLatin1(step) << QStringLiteral("tok_visa") << 201;
        QTest::addRow("%s declined", step) << QString::fromLatin1(step) << QStringLiteral("tok_chargeDeclined") << 402;
    }
}

void TestStalls::pausedPastLease()
{
    QFETCH(QString, step);
    QFETCH(QString, method);
    QFETCH(int, expected);

    // Two instances of one gateway: A stops itself at `step`, B goes on. A's own recovery runs
    // only at its start: a recovery transaction in flight when A stops would hold SQLite's write
    // lock for as long as A is frozen, and B could then truthfully answer only 503 (seen once
    // under ASan). The takeover is B's to make.
    GatewayProcess a;
    QVERIFY2(a.start(kShortLease + QStringList{QStringLiteral("--recovery-interval"), QStringLiteral("1h")}, pauseAt(step)),
        a.failureMessage().constData());
    GatewayProcess b;
    b.useDatabase(a.sharedDatabase());
    QVERIFY2(b.start(kShortLease), b.failureMessage().constData());
    HttpClient clientA(a.baseUrl());
    HttpClient clientB(b.baseUrl());

    const QString key = uniqueKey(QStringLiteral("stall"));
    const QByteArray body = paymentBody(4321, method);
    QNetworkReply *first = clientA.start({"POST", QStringLiteral("/v1/payments"), body, keyHeader(key)});
    QTRY_VERIFY2_WITH_TIMEOUT(a.isStopped(), "instance A did not stop at the step", 10000);

    // A is frozen past its lease: B (a retry, or B's own recovery) takes over and finishes.
    HttpReply second;
    ONCEPAY_TRY_UNTIL(second = pay(clientB, key, body), second.status != 409 && second.status != 202, 20000);
    QVERIFY2(second.status == expected, second.describe().constData());
    const QString paymentId = paymentOf(second).value(QStringLiteral("id")).toString();
    QVERIFY(!paymentId.isEmpty());

    // A thaws and finds itself fenced: it answers what is stored (or 409), never its own guess.
    QVERIFY(a.sendSignal(SIGCONT));
    const HttpReply thawed = clientA.collect(first);
    QVERIFY2(thawed.status == expected || thawed.status == 409, thawed.describe().constData());
    if (thawed.status == expected)
        QCOMPARE(paymentOf(thawed).value(QStringLiteral("id")).toString(), paymentId);
    else
        ONCEPAY_VERIFY_PROBLEM(thawed, 409, QStringLiteral("idempotency-key-in-use"));

    // Both instances agree with the answers given, and the bank charged once.
    for (HttpClient *c : {&clientA, &clientB}) {
        const HttpReply byId = c->get(QStringLiteral("/v1/payments/") + paymentId);
        ONCEPAY_VERIFY_STATUS(byId, 200);
        QCOMPARE(byId.object().value(QStringLiteral("status")).toString(),
            expected == 201 ? QStringLiteral("succeeded") : QStringLiteral("declined"));
        const HttpReply again = pay(*c, key, body);
        ONCEPAY_VERIFY_STATUS(again, expected);
        QCOMPARE(paymentOf(again).value(QStringLiteral("id")).toString(), paymentId);
    }
    const Charges charges = acquirerCharges(clientB, key);
    QVERIFY2(charges.ok, charges.raw.constData());
    QVERIFY2(charges.rows.size() == 1 && charges.succeeded == (expected == 201 ? 1 : 0), charges.raw.constData());
    QVERIFY2(a.isRunning() && b.isRunning(), (a.failureMessage() + b.failureMessage()).constData());
}

void TestStalls::pausedBeforeTheCall_data()
{
    QTest::addColumn<bool>("isRefund");
    QTest::newRow("payment") << false;
    QTest::newRow("refund") << true;
}

// Promise 8 (issue 35): A stops after recording acquirer_called, before its call leaves. B takes
// over after the lease, finds nothing at the bank and calls. The bank forgets keys at once
// (--acquirer-key-memory 1ms), so when A thaws, a call from A would move the money a second
// time: A checks its lease on the monotonic clock before calling, finds it over, and answers
// from the store. Two charges (two refunds) before the fix.
void TestStalls::pausedBeforeTheCall()
{
    QFETCH(bool, isRefund);
    const QStringList forgetful = kShortLease + QStringList{QStringLiteral("--acquirer-key-memory"), QStringLiteral("1ms")};
    GatewayProcess a;
    QVERIFY2(a.start(forgetful + QStringList{QStringLiteral("--recovery-interval"), QStringLiteral("1h")},
                 pauseAt(isRefund ? QStringLiteral("refund_after_mark_called") : QStringLiteral("after_mark_called"))),
        a.failureMessage().constData());
    GatewayProcess b;
    b.useDatabase(a.sharedDatabase());
    QVERIFY2(b.start(forgetful), b.failureMessage().constData());
    HttpClient clientA(a.baseUrl());
    HttpClient clientB(b.baseUrl());

    KeyedMove move(isRefund, QStringLiteral("paused-call"), 1500, 600);
    const QByteArray unprepared = move.prepare(clientB);
    QVERIFY2(unprepared.isEmpty(), unprepared.constData());
    QNetworkReply *first = clientA.start(move.request());
    QTRY_VERIFY2_WITH_TIMEOUT(a.isStopped(), "instance A did not stop before its call", 10000);

    HttpReply second;
    ONCEPAY_TRY_UNTIL(second = move.send(clientB), second.status != 409 && second.status != 202 && second.status != 500, 20000);
    QVERIFY2(second.status == 201, second.describe().constData());
    QCOMPARE(move.rowsAtAcquirer(clientB), 1);

    QVERIFY(a.sendSignal(SIGCONT));
    const HttpReply thawed = clientA.collect(first);
    QVERIFY2(thawed.status == 201 || thawed.status == 409, thawed.describe().constData());
    if (thawed.status == 201) {
        QVERIFY(thawed.replayed());   // B's stored answer, not one A made up
        QCOMPARE(thawed.object().value(QStringLiteral("id")), second.object().value(QStringLiteral("id")));
    }
    // A has answered: a call it made would be in the ledger by now.
    const QByteArray notOnce = move.onceAtAcquirer(clientB);
    QVERIFY2(notOnce.isEmpty(), notOnce.constData());
    QVERIFY2(a.isRunning() && b.isRunning(), (a.failureMessage() + b.failureMessage()).constData());
}

void TestStalls::storeLockedAtStep_data()
{
    QTest::addColumn<QString>("step");
    QTest::addColumn<int>("firstStatus");
    // Locked before the call is recorded: nothing was executed, so 503 is the truth.
    QTest::newRow("after_claim") << QStringLiteral("after_claim") << 503;
    // Locked once the acquirer may have charged: the outcome is recorded when the lock goes.
    QTest::newRow("after_mark_called") << QStringLiteral("after_mark_called") << 201;
    QTest::newRow("after_acquirer") << QStringLiteral("after_acquirer") << 201;
    QTest::newRow("after_settle") << QStringLiteral("after_settle") << 201;
}

void TestStalls::storeLockedAtStep()
{
    QFETCH(QString, step);
    QFETCH(int, firstStatus);

    // A lease of 4 s keeps the client waiting up to 2 s (half the lease) for the outcome.
    GatewayProcess gateway;
    QVERIFY2(gateway.start(kShortLease + QStringList{QStringLiteral("--claim-lease"), QStringLiteral("4s")},
                 pauseAt(step)),
        gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    HttpClient observer(gateway.baseUrl());
    const QString key = uniqueKey(QStringLiteral("locked"));
    const QByteArray body = paymentBody(777);

    QNetworkReply *inFlight = client.start({"POST", QStringLiteral("/v1/payments"), body, keyHeader(key)});
    QTRY_VERIFY2_WITH_TIMEOUT(gateway.isStopped(), "the gateway did not stop at the step", 10000);
    StoreLock lock(gateway.database());
    QVERIFY2(lock.ok(), qPrintable(lock.error()));
    QVERIFY(gateway.sendSignal(SIGCONT));

    if (step == QLatin1String("after_mark_called") || step == QLatin1String("after_acquirer")) {
        // The settlement meets the lock, and is tried again, not given up with a 503.
        QTRY_VERIFY_WITH_TIMEOUT(metric(observer, QStringLiteral("oncepay_settle_retries_total")) >= 2, 10000);
        QVERIFY(lock.release());
    }
    const HttpReply first = client.collect(inFlight);
    QVERIFY(lock.release());
    QVERIFY2(first.status == firstStatus, first.describe().constData());
    if (firstStatus == 503) {
        ONCEPAY_VERIFY_PROBLEM(first, 503, QStringLiteral("store-unavailable"));
        const Charges none = acquirerCharges(observer, key);
        QVERIFY2(none.ok && none.rows.isEmpty(), none.raw.constData());
    }

    // The same key now answers the one payment (after the lease, for the abandoned claim).
    HttpReply retry;
    ONCEPAY_TRY_UNTIL(retry = pay(client, key, body), retry.status != 409, 20000);
    QVERIFY2(retry.status == 201, (retry.describe() + gateway.failureMessage()).constData());
    if (firstStatus == 201) {
        QVERIFY(retry.replayed());
        QCOMPARE(retry.object().value(QStringLiteral("id")), first.object().value(QStringLiteral("id")));
    }
    const Charges charges = acquirerCharges(observer, key);
    QVERIFY2(charges.ok && charges.rows.size() == 1 && charges.succeeded == 1, charges.raw.constData());
}

void TestStalls::storeLockedPastClientPatience()
{
    // The store stays locked longer than the client is kept waiting: 500 outcome-unknown
    // (not recorded), never 503; the outcome is recorded once the lock is gone.
    GatewayProcess gateway;
    QVERIFY2(gateway.start(kShortLease + QStringList{QStringLiteral("--claim-lease"), QStringLiteral("10s"), QStringLiteral("--acquirer-timeout"), QStringLiteral("1s")},
                 pauseAt(QStringLiteral("after_acquirer"))),
        gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    const QString key = uniqueKey(QStringLiteral("patience"));
    const QByteArray body = paymentBody(1500);
    QNetworkReply *inFlight = client.start({"POST", QStringLiteral("/v1/payments"), body, keyHeader(key)});
    QTRY_VERIFY2_WITH_TIMEOUT(gateway.isStopped(), "the gateway did not stop at the step", 10000);
    StoreLock lock(gateway.database());
    QVERIFY2(lock.ok(), qPrintable(lock.error()));
    QVERIFY(gateway.sendSignal(SIGCONT));

    const HttpReply first = client.collect(inFlight);
    ONCEPAY_VERIFY_PROBLEM(first, 500, QStringLiteral("outcome-unknown"));
    QVERIFY(!first.replayed());
    const Charges charged = acquirerCharges(client, key);
    QVERIFY2(charged.ok && charged.succeeded == 1, charged.raw.constData());
    QVERIFY(lock.release());

    HttpReply retry;
    ONCEPAY_TRY_UNTIL(retry = pay(client, key, body), retry.status != 409 && retry.status != 500, 20000);
    ONCEPAY_VERIFY_STATUS(retry, 201);
    const HttpReply byKey = client.get(QStringLiteral("/v1/payments?idempotency_key=") + key);
    QCOMPARE(byKey.object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    const Charges charges = acquirerCharges(client, key);
    QVERIFY2(charges.ok && charges.rows.size() == 1, charges.raw.constData());
}

void TestStalls::slowBankWhileStoreLocked()
{
    // The case as an operator saw it: the bank takes 1.5 s and another process holds
    // the store while it does. The client gets the payment, not "503 nothing was executed",
    // and the key replays at once rather than answering 409 for the rest of the lease.
    GatewayProcess gateway;
    QVERIFY2(gateway.start({QStringLiteral("--store-busy-timeout"), QStringLiteral("200ms")}),
        gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    HttpClient observer(gateway.baseUrl());
    QVERIFY(setAcquirer(observer, QStringLiteral("normal"), 1500));
    const QString key = uniqueKey(QStringLiteral("slowbank"));
    const QByteArray body = paymentBody(2500);
    const double sentBefore = metric(observer, QStringLiteral("oncepay_acquirer_calls_total"), {QStringLiteral("outcome=\"sent\"")});
    QNetworkReply *inFlight = client.start({"POST", QStringLiteral("/v1/payments"), body, keyHeader(key)});
    QTRY_VERIFY_WITH_TIMEOUT(metric(observer, QStringLiteral("oncepay_acquirer_calls_total"),
                                 {QStringLiteral("outcome=\"sent\"")})
            > sentBefore,
        10000);
    {
        StoreLock lock(gateway.database());
        QVERIFY2(lock.ok(), qPrintable(lock.error()));
        QTRY_VERIFY_WITH_TIMEOUT(metric(observer, QStringLiteral("oncepay_settle_retries_total")) >= 3, 15000);
    }
    const HttpReply first = client.collect(inFlight);
    ONCEPAY_VERIFY_STATUS(first, 201);
    const HttpReply again = pay(client, key, body);
    ONCEPAY_VERIFY_STATUS(again, 201);
    QVERIFY(again.replayed());
    QVERIFY(setAcquirer(observer, QStringLiteral("normal"), 0));
    const Charges charges = acquirerCharges(observer, key);
    QVERIFY2(charges.ok && charges.rows.size() == 1, charges.raw.constData());
}

void TestStalls::refusedWhileStoreLocked_data()
{
    QTest::addColumn<bool>("isRefund");
    QTest::newRow("payment") << false;
    QTest::newRow("refund") << true;
}

void TestStalls::refusedWhileStoreLocked()
{
    // API.md promise 10. The acquirer refuses the first call (slowly) and the store is locked
    // while the claim is given back: the record still says acquirer_called, and recovery would
    // call the acquirer again after the lease. The client must not read "502, nothing will
    // happen": it gets 500 outcome-unknown, and the key ends with one charge (or refund) once
    // the acquirer is back.
    QFETCH(bool, isRefund);
    GatewayProcess gateway;
    // The refusal comes after 1 s; the client is kept waiting up to the acquirer timeout (3 s)
    // while the claim is given back.
    QVERIFY2(gateway.start(kShortLease + QStringList{QStringLiteral("--claim-lease"), QStringLiteral("8s"), QStringLiteral("--acquirer-timeout"), QStringLiteral("3s")}),
        gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    HttpClient observer(gateway.baseUrl());
    KeyedMove move(isRefund, QStringLiteral("refused"), 1999, 1000);
    const QByteArray unprepared = move.prepare(client);
    QVERIFY2(unprepared.isEmpty(), unprepared.constData());
    const QString kind = isRefund ? QStringLiteral("kind=\"refund\"") : QStringLiteral("kind=\"charge\"");

    QVERIFY(setAcquirer(observer, QStringLiteral("error_before_charge"), 1000));
    const double before = metric(observer, QStringLiteral("oncepay_acquirer_calls_total"), {kind, QStringLiteral("outcome=\"sent\"")});
    QNetworkReply *inFlight = client.start(move.request());
    QTRY_VERIFY_WITH_TIMEOUT(metric(observer, QStringLiteral("oncepay_acquirer_calls_total"),
                                 {kind, QStringLiteral("outcome=\"sent\"")})
            > before,
        10000);
    StoreLock lock(gateway.database());
    QVERIFY2(lock.ok(), qPrintable(lock.error()));
    const HttpReply first = client.collect(inFlight);
    QVERIFY(lock.release());
    ONCEPAY_VERIFY_PROBLEM(first, 500, QStringLiteral("outcome-unknown"));

    // The acquirer is back: the same key ends with exactly one charge or refund, whether the
    // claim was given back after all (a fresh execution) or recovery called again.
    QVERIFY(setAcquirer(observer, QStringLiteral("normal"), 0));
    HttpReply retry;
    ONCEPAY_TRY_UNTIL(retry = move.send(client),
        retry.status != 409 && retry.status != 202 && retry.status != 500, 20000);
    ONCEPAY_VERIFY_STATUS(retry, 201);
    const QByteArray notOnce = move.onceAtAcquirer(observer);
    QVERIFY2(notOnce.isEmpty(), notOnce.constData());
}

void TestStalls::storeLockedBeforeCallingAgain()
{
    // API.md promise 10; what the simulator's seed 500 found. A recorded acquirer_called and
    // froze before calling; B takes the payment over, the acquirer does not know the key, and
    // B is about to call again when the store is locked: it cannot record its call. The record
    // still says acquirer_called, and the next holder (a retry, recovery) asks and calls again,
    // so money can still move: 500 outcome-unknown, never "503, nothing will happen".
    const QStringList quietRecovery{QStringLiteral("--recovery-interval"), QStringLiteral("1h")};
    GatewayProcess a;
    QVERIFY2(a.start(kShortLease + quietRecovery, pauseAt(QStringLiteral("after_mark_called"))),
        a.failureMessage().constData());
    GatewayProcess b;
    b.useDatabase(a.sharedDatabase());
    QVERIFY2(b.start(kShortLease + quietRecovery, pauseAt(QStringLiteral("before_call_again"))),
        b.failureMessage().constData());
    HttpClient clientA(a.baseUrl());
    HttpClient clientB(b.baseUrl());
    const QString key = uniqueKey(QStringLiteral("callagain"));
    const HttpRequest request{"POST", QStringLiteral("/v1/payments"), paymentBody(3141), keyHeader(key)};
    QNetworkReply *first = clientA.start(request);
    QTRY_VERIFY2_WITH_TIMEOUT(a.isStopped(), "instance A did not stop after recording its call", 10000);

    // B answers 409 while A's lease lasts, then takes over and stops before calling again.
    QNetworkReply *takeover = nullptr;
    QByteArray unexpected;
    const auto tookOver = [&] {
        if (b.isStopped())
            return true;
        if (takeover && takeover->isFinished()) {
            const HttpReply early = clientB.collect(takeover);
            takeover = nullptr;
            if (early.status != 409) {
                unexpected = early.describe();
                return true;
            }
        }
        if (!takeover)
            takeover = clientB.start(request);
        return false;
    };
    QTRY_VERIFY2_WITH_TIMEOUT(tookOver(), "instance B never took the payment over", 20000);
    QVERIFY2(unexpected.isEmpty(), unexpected.constData());
    QVERIFY(takeover);
    {
        StoreLock lock(b.database());
        QVERIFY2(lock.ok(), qPrintable(lock.error()));
        QVERIFY(b.sendSignal(SIGCONT));
        const HttpReply locked = clientB.collect(takeover);
        ONCEPAY_VERIFY_PROBLEM(locked, 500, QStringLiteral("outcome-unknown"));
        QVERIFY(lock.release());
    }
    const Charges none = acquirerCharges(clientB, key);
    QVERIFY2(none.ok && none.rows.isEmpty(), none.raw.constData());

    // The key, sent again, ends with one charge; A thaws fenced and agrees.
    HttpReply retry;
    ONCEPAY_TRY_UNTIL(retry = pay(clientB, key, request.body), retry.status != 409 && retry.status != 500, 20000);
    ONCEPAY_VERIFY_STATUS(retry, 201);
    QVERIFY(a.sendSignal(SIGCONT));
    const HttpReply thawed = clientA.collect(first);
    QVERIFY2(thawed.status == 201 || thawed.status == 409, thawed.describe().constData());
    const Charges charges = acquirerCharges(clientB, key);
    QVERIFY2(charges.ok && charges.rows.size() == 1 && charges.succeeded == 1, charges.raw.constData());
    QVERIFY2(a.isRunning() && b.isRunning(), (a.failureMessage() + b.failureMessage()).constData());
}

QTEST_GUILESS_MAIN(TestStalls)
#include "tst_stalls.moc"
