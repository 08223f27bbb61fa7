// The gateway dies at every step of a payment (ONCEPAY_FAULT_KILL_AT, or a real SIGKILL from
// here while the acquirer holds the request). A restarted gateway on the same database
// resumes: a retry with the same key after the claim lease answers the final state, and
// the acquirer's ledger shows exactly one charge.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "testdatabase.h"

#include <QtTest>

using namespace GatewayApi;

class TestCrash final : public QObject
{
    Q_OBJECT

private slots:
    void killedAtStep_data();
    void killedAtStep();
    void killedWhileAtAcquirer_data();
    void killedWhileAtAcquirer();
    void processingResolvedAfterRestart();
    void refundKilledAtStep_data();
    void refundKilledAtStep();
    void faultInjectionNeedsDemo();
    void takeoverMeetsRefusingAcquirer_data();
    void takeoverMeetsRefusingAcquirer();
    void forgottenKeyNeedsReview_data();
    void forgottenKeyNeedsReview();

private:
    void verifyResumes(GatewayProcess &gateway, const QString &key, const QByteArray &body,
        int finalStatus, int succeeded, int declined);
};

static const QStringList kArgs{QStringLiteral("--claim-lease"), QStringLiteral("1s"),
    QStringLiteral("--recovery-interval"), QStringLiteral("500ms")};

namespace {
struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// `oncepay-gateway review ...` on the gateway's database, as an operator runs it beside it.
Run review(GatewayProcess &gateway, const QStringList &args)
{
    QProcess p;
    p.start(GatewayProcess::binaryPath(),
        QStringList{QStringLiteral("review"), QStringLiteral("--db"), gateway.database().dbArg()} + args);
    Run r;
    if (!p.waitForFinished(30000) || p.exitStatus() != QProcess::NormalExit)
        return r;
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}
}   // namespace

static QString paymentStatus(const HttpReply &r)
{
    const QJsonObject o = r.status == 402 ? r.object().value(QStringLiteral("payment")).toObject() : r.object();
    return o.value(QStringLiteral("status")).toString();
}

void TestCrash::verifyResumes(GatewayProcess &gateway, const QString &key, const QByteArray &body,
    int finalStatus, int succeeded, int declined)
{
    QVERIFY2(gateway.restart(kArgs), gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    QVERIFY(setAcquirer(client, QStringLiteral("normal"), 0));

    // 409 while the dead owner's lease runs, 202 while the outcome is being resolved.
    HttpReply retry;
    ONCEPAY_TRY_UNTIL(retry = pay(client, key, body), retry.status != 409 && retry.status != 202, 30000);
    QVERIFY2(retry.status == finalStatus, (retry.describe() + "\n" + gateway.failureMessage()).constData());
    const QString expectedStatus = finalStatus == 201 ? QStringLiteral("succeeded")
        : finalStatus == 402                          ? QStringLiteral("declined")
                                                      : QString();
    if (!expectedStatus.isEmpty()) {
        QCOMPARE(paymentStatus(retry), expectedStatus);
        const HttpReply byKey = client.get(QStringLiteral("/v1/payments?idempotency_key=") + key);
        ONCEPAY_VERIFY_STATUS(byKey, 200);
        QCOMPARE(byKey.object().value(QStringLiteral("status")).toString(), expectedStatus);
        // Settled for good: the next retry is a replay of the same answer.
        const HttpReply again = pay(client, key, body);
        ONCEPAY_VERIFY_STATUS(again, finalStatus);
        QVERIFY(again.replayed());
        QCOMPARE(paymentStatus(again), expectedStatus);
    }
    const Charges charges = acquirerCharges(client, key);
    QVERIFY2(charges.ok, charges.raw.constData());
    QVERIFY2(charges.succeeded == succeeded && charges.declined == declined, charges.raw.constData());
    QVERIFY2(gateway.isRunning(), gateway.failureMessage().constData());
}

void TestCrash::killedAtStep_data()
{
    QTest::addColumn<QString>("step");
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("finalStatus");
    QTest::addColumn<int>("succeeded");
    QTest::addColumn<int>("declined");

    const char *steps[] = {"after_claim", "after_mark_called", "after_acquirer", "after_settle"};
    for (const char *step : steps) {
        const QString s = QString::fromLatin1(step);
        QTest::addRow("%s approved", step) << s << QStringLiteral("tok_visa") << 201 << 1 << 0;
        QTest::addRow("%s declined", step) << s << QStringLiteral("tok_chargeDeclined") << 402 << 0 << 1;
        QTest::addRow("%s answer lost", step) << s << QStringLiteral("tok_timeoutAfterCharge") << 201 << 1 << 0;
    }
    // The acquirer refuses before charging: nothing is charged, and 502 is not recorded.
    QTest::newRow("after_claim refused") << QStringLiteral("after_claim") << QStringLiteral("tok_errorBeforeCharge")
                                         << 502 << 0 << 0;
    // Taken over at acquirer_called: the dead holder's call may still arrive, so the record is
    // kept and recovery goes on asking. 500 outcome-unknown, never 502 (promise 10).
    QTest::newRow("after_mark_called refused") << QStringLiteral("after_mark_called")
                                               << QStringLiteral("tok_errorBeforeCharge") << 500 << 0 << 0;
}

void TestCrash::killedAtStep()
{
    QFETCH(QString, step);
    QFETCH(QString, method);
    QFETCH(int, finalStatus);
    QFETCH(int, succeeded);
    QFETCH(int, declined);

    GatewayProcess gateway;
    QVERIFY2(gateway.start(kArgs, {{QStringLiteral("ONCEPAY_FAULT_KILL_AT"), step}}),
        gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    const QString key = uniqueKey(step);
    const QByteArray body = paymentBody(2024, method);

    const HttpReply first = pay(client, key, body);
    QVERIFY2(first.status == 0, ("the client got an answer although the gateway was to die at " + step.toUtf8() + "\n" + first.describe()).constData());
    QVERIFY2(gateway.waitForExit(10000), "the gateway did not die at the fault step");
    QCOMPARE(gateway.exitStatus(), QProcess::CrashExit);

    verifyResumes(gateway, key, body, finalStatus, succeeded, declined);
}

void TestCrash::killedWhileAtAcquirer_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("finalStatus");
    QTest::addColumn<int>("succeeded");
    QTest::addColumn<int>("declined");
    QTest::newRow("approved") << QStringLiteral("tok_visa") << 201 << 1 << 0;
    QTest::newRow("declined") << QStringLiteral("tok_insufficientFunds") << 402 << 0 << 1;
    QTest::newRow("answer lost") << QStringLiteral("tok_timeoutAfterCharge") << 201 << 1 << 0;
}

void TestCrash::killedWhileAtAcquirer()
{
    QFETCH(QString, method);
    QFETCH(int, finalStatus);
    QFETCH(int, succeeded);
    QFETCH(int, declined);

    GatewayProcess gateway;
    QVERIFY2(gateway.start(kArgs), gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    QVERIFY(setAcquirer(client, QStringLiteral("normal"), 5000));
    const QString key = uniqueKey(QStringLiteral("kill9"));
    const QByteArray body = paymentBody(999, method);
    QNetworkReply *inFlight = client.start({"POST", QStringLiteral("/v1/payments"), body, keyHeader(key)});
    // Claimed and on its way to the bank: the payment exists, still processing.
    QTRY_COMPARE_WITH_TIMEOUT(
        client.get(QStringLiteral("/v1/payments?idempotency_key=") + key).object().value(QStringLiteral("status")).toString(),
        QStringLiteral("processing"), 10000);
    gateway.kill9();
    const HttpReply lost = client.collect(inFlight);
    QVERIFY2(lost.status == 0, lost.describe().constData());

    verifyResumes(gateway, key, body, finalStatus, succeeded, declined);
}

void TestCrash::processingResolvedAfterRestart()
{
    // A 202 was answered, then the gateway died before resolving it. The restarted gateway's
    // recovery resolves it by asking the acquirer, with no client retry at all.
    GatewayProcess gateway;
    QVERIFY2(gateway.start({QStringLiteral("--recovery-interval"), QStringLiteral("1h")}),
        gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    const QString key = uniqueKey(QStringLiteral("orphan"));
    const HttpReply accepted = pay(client, key, paymentBody(3100, QStringLiteral("tok_timeoutAfterCharge")));
    ONCEPAY_VERIFY_STATUS(accepted, 202);
    const QString location = QString::fromUtf8(accepted.header("Location"));
    // The recovery worker is an hour away: the payment is still processing when it dies.
    QCOMPARE(client.get(location).object().value(QStringLiteral("status")).toString(),
        QStringLiteral("processing"));
    gateway.kill9();

    QVERIFY2(gateway.restart(kArgs), gateway.failureMessage().constData());
    HttpClient after(gateway.baseUrl());
    QTRY_COMPARE_WITH_TIMEOUT(after.get(location).object().value(QStringLiteral("status")).toString(),
        QStringLiteral("succeeded"), 20000);
    const Charges charges = acquirerCharges(after, key);
    QVERIFY2(charges.ok, charges.raw.constData());
    QCOMPARE(charges.succeeded, 1);
    QCOMPARE(charges.rows.size(), 1);
}

void TestCrash::faultInjectionNeedsDemo()
{
    // A production gateway (no --demo) ignores the fault switch.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile tokens(dir.filePath(QStringLiteral("tokens.txt")));
    QVERIFY(tokens.open(QIODevice::WriteOnly));
    tokens.write("tok-prod-1 acme till-1\n");
    tokens.close();
    GatewayProcess gateway;
    gateway.setDemo(false);
    QVERIFY2(gateway.start({QStringLiteral("--tokens"), tokens.fileName()},
                 {{QStringLiteral("ONCEPAY_FAULT_KILL_AT"), QStringLiteral("after_claim")}}),
        gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl(), "tok-prod-1");
    ONCEPAY_VERIFY_STATUS(pay(client, uniqueKey(QStringLiteral("prod"))), 201);
    QVERIFY2(gateway.isRunning(), gateway.failureMessage().constData());
}

void TestCrash::refundKilledAtStep_data()
{
    QTest::addColumn<QString>("step");
    QTest::addColumn<QString>("mode");   // the acquirer's mode while the refund is first sent
    for (const char *step : {"refund_after_claim", "refund_after_mark_called", "refund_after_acquirer",
             "refund_after_settle"}) {
        QTest::addRow("%s", step) << QString::fromLatin1(step) << QStringLiteral("normal");
        QTest::addRow("%s answer lost", step) << QString::fromLatin1(step) << QStringLiteral("timeout_after_charge");
    }
}

// The gateway dies at each step of a refund; restarted on the same database, a retry with the
// same key ends in one refund at the acquirer, the payment's amounts follow, nothing twice.
void TestCrash::refundKilledAtStep()
{
    QFETCH(QString, step);
    QFETCH(QString, mode);
    GatewayProcess gateway;
    QVERIFY2(gateway.start(kArgs, {{QStringLiteral("ONCEPAY_FAULT_KILL_AT"), step}}),
        gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    const QString payKey = uniqueKey(QStringLiteral("charge"));
    const HttpReply paid = pay(client, payKey, paymentBody(3000));
    ONCEPAY_VERIFY_STATUS(paid, 201);
    const QString paymentId = paid.object().value(QStringLiteral("id")).toString();
    QVERIFY(setAcquirer(client, mode));
    const QString key = uniqueKey(step);
    const HttpReply first = refund(client, paymentId, key, 1200);
    QVERIFY2(first.status == 0, ("the client got an answer although the gateway was to die at " + step.toUtf8() + "\n" + first.describe()).constData());
    QVERIFY2(gateway.waitForExit(10000), "the gateway did not die at the fault step");
    QCOMPARE(gateway.exitStatus(), QProcess::CrashExit);

    QVERIFY2(gateway.restart(kArgs), gateway.failureMessage().constData());
    client.setBaseUrl(gateway.baseUrl());
    QVERIFY(setAcquirer(client, QStringLiteral("normal")));
    HttpReply retry;
    ONCEPAY_TRY_UNTIL(retry = refund(client, paymentId, key, 1200), retry.status != 409 && retry.status != 202, 30000);
    QVERIFY2(retry.status == 201, (retry.describe() + "\n" + gateway.failureMessage()).constData());
    QCOMPARE(retry.object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    const QJsonObject payment = client.get(QStringLiteral("/v1/payments/") + paymentId).object();
    QCOMPARE(payment.value(QStringLiteral("amount_refunded")).toInteger(), 1200);
    QCOMPARE(payment.value(QStringLiteral("status")).toString(), QStringLiteral("partially_refunded"));
    // Whatever was reserved and not used went back: the rest can still be refunded, and no more.
    ONCEPAY_VERIFY_PROBLEM(refund(client, paymentId, uniqueKey(QStringLiteral("over")), 1801), 400,
        QStringLiteral("validation-failed"));
    ONCEPAY_VERIFY_STATUS(refund(client, paymentId, uniqueKey(QStringLiteral("rest")), 1800), 201);
    const AcquirerRefunds bank = acquirerRefunds(client, payKey);
    QVERIFY2(bank.ok && bank.succeeded == 2 && bank.refunded == 3000 && bank.keys.count(key) == 1, bank.raw.constData());
    QVERIFY2(gateway.isRunning(), gateway.failureMessage().constData());
}

void TestCrash::takeoverMeetsRefusingAcquirer_data()
{
    QTest::addColumn<bool>("isRefund");
    QTest::newRow("payment") << false;
    QTest::newRow("refund") << true;
}

void TestCrash::takeoverMeetsRefusingAcquirer()
{
    // API.md promise 10. The holder dies after recording acquirer_called; a retry after the lease
    // takes over while the acquirer refuses. The record is kept (the dead holder's call could
    // still arrive) and recovery will call again: the client is told 500, never "502, nothing
    // will happen", and the key ends with one charge (refund) once the acquirer is back.
    QFETCH(bool, isRefund);
    GatewayProcess gateway;
    const QString step = isRefund ? QStringLiteral("refund_after_mark_called") : QStringLiteral("after_mark_called");
    QVERIFY2(gateway.start(kArgs, {{QStringLiteral("ONCEPAY_FAULT_KILL_AT"), step}}), gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    KeyedMove move(isRefund, QStringLiteral("takeover"), 2500, 1000);
    const QByteArray unprepared = move.prepare(client);
    QVERIFY2(unprepared.isEmpty(), unprepared.constData());
    auto send = [&] {
        return move.send(client);
    };
    const HttpReply first = send();
    QVERIFY2(first.status == 0, first.describe().constData());
    QVERIFY2(gateway.waitForExit(10000), "the gateway did not die at the fault step");

    QVERIFY2(gateway.restart(kArgs), gateway.failureMessage().constData());
    client.setBaseUrl(gateway.baseUrl());
    QVERIFY(setAcquirer(client, QStringLiteral("error_before_charge")));
    HttpReply refused;
    ONCEPAY_TRY_UNTIL(refused = send(), refused.status != 409 && refused.status != 202, 30000);
    ONCEPAY_VERIFY_PROBLEM(refused, 500, QStringLiteral("outcome-unknown"));
    QVERIFY(!refused.replayed());

    QVERIFY(setAcquirer(client, QStringLiteral("normal")));
    HttpReply settled;
    ONCEPAY_TRY_UNTIL(settled = send(), settled.status != 409 && settled.status != 202 && settled.status != 500, 30000);
    ONCEPAY_VERIFY_STATUS(settled, 201);
    const QByteArray notOnce = move.onceAtAcquirer(client);
    QVERIFY2(notOnce.isEmpty(), notOnce.constData());
}

void TestCrash::forgottenKeyNeedsReview_data()
{
    QTest::addColumn<bool>("isRefund");
    QTest::newRow("payment") << false;
    QTest::newRow("refund") << true;
}

void TestCrash::forgottenKeyNeedsReview()
{
    // API.md promise 11. The acquirer charged (refunded), the gateway died before recording it,
    // and by the time anyone resumes the acquirer has forgotten the key (here at once:
    // --acquirer-key-memory 1ms) and the record is older than the acquirer's key window. A call
    // with the same key would charge a second time: the record waits for a person instead,
    // processing with needs_review, and `oncepay-gateway review` settles it.
    QFETCH(bool, isRefund);
    const QStringList args = kArgs + QStringList{QStringLiteral("--acquirer-key-window"), QStringLiteral("1ms"), QStringLiteral("--acquirer-key-memory"), QStringLiteral("1ms")};
    GatewayProcess gateway;
    const QString step = isRefund ? QStringLiteral("refund_after_acquirer") : QStringLiteral("after_acquirer");
    QVERIFY2(gateway.start(args, {{QStringLiteral("ONCEPAY_FAULT_KILL_AT"), step}}), gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    KeyedMove move(isRefund, QStringLiteral("forgotten"), 2600, 1200);
    const QByteArray unprepared = move.prepare(client);
    QVERIFY2(unprepared.isEmpty(), unprepared.constData());
    auto send = [&] {
        return move.send(client);
    };
    QCOMPARE(send().status, 0);
    QVERIFY2(gateway.waitForExit(10000), "the gateway did not die at the fault step");
    QVERIFY2(gateway.restart(args), gateway.failureMessage().constData());
    client.setBaseUrl(gateway.baseUrl());

    // A retry (or recovery, whichever comes first) finds the key forgotten and the record past
    // the window: 202 processing with needs_review, and nothing more at the acquirer.
    HttpReply held;
    ONCEPAY_TRY_UNTIL(held = send(), held.status != 409, 30000);
    ONCEPAY_VERIFY_STATUS(held, 202);
    QCOMPARE(held.object().value(QStringLiteral("status")).toString(), QStringLiteral("processing"));
    QCOMPARE(held.object().value(QStringLiteral("needs_review")), QJsonValue(true));
    const QString id = held.object().value(QStringLiteral("id")).toString();
    auto atAcquirer = [&] {
        return move.rowsAtAcquirer(client);
    };
    QCOMPARE(atAcquirer(), qsizetype(1));
    const HttpReply again = send();
    ONCEPAY_VERIFY_STATUS(again, 202);
    QCOMPARE(again.object().value(QStringLiteral("needs_review")), QJsonValue(true));
    QCOMPARE(atAcquirer(), qsizetype(1));
    const QMap<QString, double> metrics = parseMetrics(client.get(QStringLiteral("/metrics")).body);
    QVERIFY(metricSum(metrics, QStringLiteral("oncepay_needs_review_total"),
                {isRefund ? QStringLiteral("kind=\"refund\"") : QStringLiteral("kind=\"payment\"")})
        >= 1);

    // The operator's list names it; a wrong outcome for its kind is refused; the right one settles it.
    const Run listed = review(gateway, {QStringLiteral("--json")});
    QVERIFY2(listed.exitCode == 0, listed.err.constData());
    const QJsonArray data = QJsonDocument::fromJson(listed.out).object().value(QStringLiteral("data")).toArray();
    QVERIFY2(data.size() == 1 && data.first().toObject().value(QStringLiteral("id")).toString() == id, listed.out.constData());
    QCOMPARE(data.first().toObject().value(QStringLiteral("merchant")).toString(), QStringLiteral("demo"));
    const Run wrong = review(gateway, {QStringLiteral("--resolve"), id, QStringLiteral("--outcome"), isRefund ? QStringLiteral("declined") : QStringLiteral("failed")});
    QVERIFY2(wrong.exitCode == 1, wrong.err.constData());
    const Run resolved = review(gateway, {QStringLiteral("--resolve"), id, QStringLiteral("--outcome"), QStringLiteral("succeeded"), QStringLiteral("--json")});
    QVERIFY2(resolved.exitCode == 0, resolved.err.constData());
    QCOMPARE(QJsonDocument::fromJson(resolved.out).object().value(QStringLiteral("status")).toString(),
        QStringLiteral("succeeded"));
    const Run twice = review(gateway, {QStringLiteral("--resolve"), id, QStringLiteral("--outcome"), QStringLiteral("succeeded")});
    QVERIFY2(twice.exitCode == 1, twice.err.constData());
    const Run unknown = review(gateway, {QStringLiteral("--resolve"), QStringLiteral("pay_nosuchthing"), QStringLiteral("--outcome"), QStringLiteral("succeeded")});
    QVERIFY2(unknown.exitCode == 1, unknown.err.constData());

    // The key now answers the settled state, and still never reaches the acquirer again.
    const HttpReply final = send();
    ONCEPAY_VERIFY_STATUS(final, 201);
    QCOMPARE(final.object().value(QStringLiteral("needs_review")), QJsonValue(false));
    QCOMPARE(final.object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    if (isRefund) {
        const QJsonObject payment = client.get(QStringLiteral("/v1/payments/") + move.paymentId()).object();
        QCOMPARE(payment.value(QStringLiteral("amount_refunded")).toInteger(), 1200);
    }
    QCOMPARE(atAcquirer(), qsizetype(1));
    const Run empty = review(gateway, {QStringLiteral("--json")});
    QVERIFY2(empty.exitCode == 0, empty.err.constData());
    QVERIFY2(QJsonDocument::fromJson(empty.out).object().value(QStringLiteral("data")).toArray().isEmpty(),
        empty.out.constData());
}

QTEST_GUILESS_MAIN(TestCrash)
#include "tst_crash.moc"
