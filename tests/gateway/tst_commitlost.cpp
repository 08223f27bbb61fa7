// API.md promise 10 on PostgreSQL: a COMMIT whose answer is lost (the connection drops after
// the server got it) counts as "may have been written". A proxy between the gateway and the
// server (PgCommitCutter) forwards the COMMIT that records acquirer_called, swallows the
// server's answer and cuts the connection: the step is stored, so the client must not be told
// "503, nothing happened"; it gets 500 outcome-unknown, and the key ends with one charge
// (refund). The same for a cancel's claim. SQLite commits inside the gateway's own process: it
// has no answer on a wire to lose (its own COMMIT that may have committed: tst_commitfull).
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "pgcommitcutter.h"
#include "testdatabase.h"

#include <QtTest>

using namespace GatewayApi;

class TestCommitLost final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void stepCommitAnswerLost_data();
    void stepCommitAnswerLost();
    void cancelCommitAnswerLost();

private:
    // Starts `gateway` on its PostgreSQL database through `cutter`; empty when it runs.
    static QByteArray startBehindCutter(GatewayProcess &gateway, PgCommitCutter &cutter);
};

void TestCommitLost::init()
{
    // SQLite's COMMIT has no answer on a wire to lose (its failures that may have committed are
    // tst_commitfull's); PgCommitCutter speaks PostgreSQL's protocol.
    if (!TestDatabase::postgresRequested())
        QSKIP("PostgreSQL only: the COMMIT's answer is cut on the wire (runs as tst_commitlost_pg)");
}

QByteArray TestCommitLost::startBehindCutter(GatewayProcess &gateway, PgCommitCutter &cutter)
{
    const TestDatabase &db = gateway.database();
    if (!db.ok())
        return db.error().toUtf8();
    const QUrl direct(db.dbArg());
    if (!cutter.listen(direct.host(), quint16(direct.port(5432))))
        return "the cutter cannot listen";
    QUrl proxied = direct;
    proxied.setHost(QStringLiteral("127.0.0.1"));
    proxied.setPort(cutter.port());
    // The proxy reads the protocol: no TLS between the gateway and the server.
    const QMap<QString, QString> env{{QStringLiteral("PGSSLMODE"), QStringLiteral("disable")},
        {QStringLiteral("PGGSSENCMODE"), QStringLiteral("disable")}};
    if (!gateway.start({QStringLiteral("--db"), proxied.toString(), QStringLiteral("--claim-lease"), QStringLiteral("2s"),
                           QStringLiteral("--recovery-interval"), QStringLiteral("200ms")},
            env))
        return gateway.failureMessage();
    return {};
}

void TestCommitLost::stepCommitAnswerLost_data()
{
    QTest::addColumn<bool>("isRefund");
    QTest::newRow("payment") << false;
    QTest::newRow("refund") << true;
}

void TestCommitLost::stepCommitAnswerLost()
{
    QFETCH(bool, isRefund);
    GatewayProcess gateway;
    PgCommitCutter cutter;
    const QByteArray notStarted = startBehindCutter(gateway, cutter);
    QVERIFY2(notStarted.isEmpty(), notStarted.constData());
    HttpClient client(gateway.baseUrl());

    KeyedMove move(isRefund, QStringLiteral("commitlost"), 1700, 700);
    const QByteArray unprepared = move.prepare(client);
    QVERIFY2(unprepared.isEmpty(), unprepared.constData());
    auto send = [&] {
        return move.send(client);
    };

    // The step "about to call the acquirer" binds its name; its transaction's COMMIT is cut.
    cutter.arm(QByteArrayLiteral("'acquirer_called'"));
    const HttpReply first = send();
    QCOMPARE(cutter.cuts(), 1);
    ONCEPAY_VERIFY_PROBLEM(first, 500, QStringLiteral("outcome-unknown"));
    QVERIFY(!first.replayed());

    // It was committed: whoever resumes it (a retry after the lease, or recovery) asks the
    // acquirer and calls it once.
    HttpReply settled;
    ONCEPAY_TRY_UNTIL(settled = send(), settled.status != 409 && settled.status != 202 && settled.status != 500, 30000);
    QVERIFY2(settled.status == 201, (settled.describe() + gateway.failureMessage()).constData());
    const QByteArray notOnce = move.onceAtAcquirer(client);
    QVERIFY2(notOnce.isEmpty(), notOnce.constData());
    QVERIFY2(gateway.isRunning(), gateway.failureMessage().constData());
}

// Issue 35: a cancel's claim (its key recorded, the payment's cancel reason written, in one
// transaction) whose COMMIT answer is lost was answered "503, nothing recorded", and the cancel
// had been committed: recovery reversed the payment at the bank. It is 500 outcome-unknown, and
// the same key then answers the cancel that happened.
void TestCommitLost::cancelCommitAnswerLost()
{
    GatewayProcess gateway;
    PgCommitCutter cutter;
    const QByteArray notStarted = startBehindCutter(gateway, cutter);
    QVERIFY2(notStarted.isEmpty(), notStarted.constData());
    HttpClient client(gateway.baseUrl());

    const QString paymentKey = uniqueKey(QStringLiteral("wallet-cut"));
    const HttpReply waiting = pay(client, paymentKey, walletBody(walletCode("10", 2)));   // never confirmed
    ONCEPAY_VERIFY_STATUS(waiting, 202);
    const QString path = QStringLiteral("/v1/payments/%1/cancel").arg(waiting.object().value(QStringLiteral("id")).toString());
    const QString cancelKey = uniqueKey(QStringLiteral("cancel-cut"));
    cutter.arm('\'' + cancelKey.toUtf8() + '\'');   // the claim's transaction reads the key's record first
    const HttpReply first = client.post(path, "{}", keyHeader(cancelKey));
    QCOMPARE(cutter.cuts(), 1);
    ONCEPAY_VERIFY_PROBLEM(first, 500, QStringLiteral("outcome-unknown"));

    HttpReply settled;
    ONCEPAY_TRY_UNTIL(settled = client.post(path, "{}", keyHeader(cancelKey)),
        settled.status != 409 && settled.status != 500, 30000);
    QVERIFY2(settled.status == 200, (settled.describe() + gateway.failureMessage()).constData());
    QCOMPARE(settled.object().value(QStringLiteral("status")).toString(), QStringLiteral("declined"));
    QCOMPARE(settled.object().value(QStringLiteral("decline_code")).toString(), QStringLiteral("cancelled"));
    const Charges charges = acquirerCharges(client, paymentKey);
    QVERIFY2(charges.ok && charges.succeeded == 0, charges.raw.constData());
    QVERIFY2(gateway.isRunning(), gateway.failureMessage().constData());
}

QTEST_GUILESS_MAIN(TestCommitLost)
#include "tst_commitlost.moc"
