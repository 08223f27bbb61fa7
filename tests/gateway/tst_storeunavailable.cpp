// Fail closed: while another connection holds the gateway's database locked (SQLite or PostgreSQL),
// writes execute nothing and, since a locked store cannot be read either, answer 500
// outcome-unknown after the busy timeout (API.md promise 7: the gateway cannot know whether an
// earlier request left a record that recovery will still send to the acquirer, so never 503);
// after the lock is gone the same key executes exactly once. A record left at acquirer_called
// by a gateway that died is the case that makes 503 a lie (unreadableAfterTheCall). /healthz is not ready while the store is
// locked, or (SQLite) while the disk holding it is full: a real small file system filled up.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "testdatabase.h"

#include <QProcess>
#include <QtTest>

using namespace GatewayApi;

class TestStoreUnavailable final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void failsClosed_data();
    void failsClosed();
    void unreadableAfterTheCall_data();
    void unreadableAfterTheCall();
    void notReadyWhileTheStoreIsLocked();
    void notReadyBelowTheFreeSpaceFloor();
    void notReadyWhileTheDiskIsFull();

private:
    GatewayProcess m_gateway;
    HttpClient m_client;
};

void TestStoreUnavailable::initTestCase()
{
    QVERIFY2(m_gateway.start({QStringLiteral("--store-busy-timeout"), QStringLiteral("200ms")}),
        m_gateway.failureMessage().constData());
    m_client.setBaseUrl(m_gateway.baseUrl());
}

void TestStoreUnavailable::cleanup()
{
    QVERIFY2(m_gateway.isRunning(), m_gateway.failureMessage().constData());
}

void TestStoreUnavailable::failsClosed_data()
{
    QTest::addColumn<bool>("isRefund");
    QTest::addColumn<QString>("method");
    QTest::newRow("payment") << false << QStringLiteral("tok_visa");
    QTest::newRow("declined payment") << false << QStringLiteral("tok_chargeDeclined");
    QTest::newRow("refund") << true << QStringLiteral("tok_visa");
}

void TestStoreUnavailable::failsClosed()
{
    QFETCH(bool, isRefund);
    QFETCH(QString, method);

    QString paymentId;
    if (isRefund) {
        const HttpReply p = pay(m_client, uniqueKey(QStringLiteral("base")), paymentBody(1000));
        ONCEPAY_VERIFY_STATUS(p, 201);
        paymentId = p.object().value(QStringLiteral("id")).toString();
    }
    const QString key = uniqueKey(QStringLiteral("locked"));
    const QByteArray body = isRefund ? QByteArray(R"({"amount":400})") : paymentBody(1234, method);
    const QString path = isRefund ? QStringLiteral("/v1/payments/%1/refunds").arg(paymentId)
                                  : QStringLiteral("/v1/payments");
    {
        StoreLock lock(m_gateway.database());
        QVERIFY2(lock.ok(), qPrintable(lock.error()));
        for (int attempt = 0; attempt < 2; ++attempt) {
            const HttpReply r = m_client.post(path, body, keyHeader(key));
            ONCEPAY_VERIFY_PROBLEM(r, 500, QStringLiteral("outcome-unknown"));
            QCOMPARE(r.header("Retry-After"), QByteArray("1"));
        }
        // Nothing executed without idempotency protection: the bank saw nothing.
        if (!isRefund) {
            const Charges charges = acquirerCharges(m_client, key);
            QVERIFY2(charges.ok, charges.raw.constData());
            QCOMPARE(charges.rows.size(), 0);
        }
        QVERIFY2(lock.release(), qPrintable(lock.error()));
    }
    // Not recorded: the same key now executes, once.
    const int expected = method == QStringLiteral("tok_chargeDeclined") ? 402 : 201;
    const HttpReply done = m_client.post(path, body, keyHeader(key));
    ONCEPAY_VERIFY_STATUS(done, expected);
    QVERIFY(!done.replayed());
    const HttpReply again = m_client.post(path, body, keyHeader(key));
    ONCEPAY_VERIFY_STATUS(again, expected);
    QVERIFY(again.replayed());
    QCOMPARE(again.body, done.body);
    if (isRefund) {
        const QJsonObject p = m_client.get(QStringLiteral("/v1/payments/") + paymentId).object();
        QCOMPARE(p.value(QStringLiteral("amount_refunded")).toInteger(), 400);
    } else {
        const Charges charges = acquirerCharges(m_client, key);
        QCOMPARE(charges.succeeded, expected == 201 ? 1 : 0);
        QCOMPARE(charges.rows.size(), 1);
    }
}

void TestStoreUnavailable::unreadableAfterTheCall_data()
{
    QTest::addColumn<bool>("isRefund");
    QTest::newRow("payment") << false;
    QTest::newRow("refund") << true;
}

// Issue 35: a gateway dies after recording acquirer_called; the client retries the key while the
// store cannot be read. A record that recovery will send to the acquirer exists, so the answer
// may not be "503, nothing will happen": 500 outcome-unknown, and once the store is back the key
// ends with the money moved once. Answered 503 before the fix.
void TestStoreUnavailable::unreadableAfterTheCall()
{
    QFETCH(bool, isRefund);
    const QString step = isRefund ? QStringLiteral("refund_after_mark_called") : QStringLiteral("after_mark_called");
    const QStringList args{QStringLiteral("--store-busy-timeout"), QStringLiteral("200ms"), QStringLiteral("--claim-lease"),
        QStringLiteral("3s"), QStringLiteral("--recovery-interval"), QStringLiteral("200ms")};
    GatewayProcess gateway;
    QVERIFY2(gateway.start(args, {{QStringLiteral("ONCEPAY_FAULT_KILL_AT"), step}}), gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    KeyedMove move(isRefund, QStringLiteral("unreadable"), 1500, 600);
    const QByteArray unprepared = move.prepare(client);
    QVERIFY2(unprepared.isEmpty(), unprepared.constData());
    QCOMPARE(move.send(client).status, 0);   // died with acquirer_called recorded
    QVERIFY2(gateway.waitForExit(10000), "the gateway did not die at the step");
    QVERIFY2(gateway.restart(args), gateway.failureMessage().constData());
    client.setBaseUrl(gateway.baseUrl());
    {
        StoreLock lock(gateway.database());
        QVERIFY2(lock.ok(), qPrintable(lock.error()));
        const HttpReply r = move.send(client);
        ONCEPAY_VERIFY_PROBLEM(r, 500, QStringLiteral("outcome-unknown"));
        QVERIFY(!r.replayed());
        QVERIFY2(lock.release(), qPrintable(lock.error()));
    }
    HttpReply settled;
    ONCEPAY_TRY_UNTIL(settled = move.send(client), settled.status != 409 && settled.status != 202 && settled.status != 500, 30000);
    QVERIFY2(settled.status == 201, (settled.describe() + gateway.failureMessage()).constData());
    const QByteArray notOnce = move.onceAtAcquirer(client);
    QVERIFY2(notOnce.isEmpty(), notOnce.constData());
}

// Issue 11: /healthz is readiness: 503 while the store does not answer (here: locked by another
// connection), 200 again once it does; /livez says only that the process answers.
void TestStoreUnavailable::notReadyWhileTheStoreIsLocked()
{
    ONCEPAY_VERIFY_STATUS(m_client.get(QStringLiteral("/healthz")), 200);
    {
        StoreLock lock(m_gateway.database());
        QVERIFY2(lock.ok(), qPrintable(lock.error()));
        ONCEPAY_VERIFY_PROBLEM(m_client.get(QStringLiteral("/healthz")), 503, QStringLiteral("store-unavailable"));
        ONCEPAY_VERIFY_STATUS(m_client.get(QStringLiteral("/livez")), 200);
        QVERIFY2(lock.release(), qPrintable(lock.error()));
    }
    ONCEPAY_VERIFY_STATUS(m_client.get(QStringLiteral("/healthz")), 200);
}

// --store-min-free: a floor no disk here reaches makes the gateway not ready from the start.
void TestStoreUnavailable::notReadyBelowTheFreeSpaceFloor()
{
    if (TestDatabase::postgresRequested())
        QSKIP("the free-space floor is for a SQLite store (PostgreSQL's disk is its server's)");
    GatewayProcess gateway;
    QVERIFY2(gateway.start({QStringLiteral("--store-min-free"), QStringLiteral("1000000T")}),
        gateway.failureMessage().constData());
    HttpClient client;
    client.setBaseUrl(gateway.baseUrl());
    const HttpReply r = client.get(QStringLiteral("/healthz"));
    ONCEPAY_VERIFY_PROBLEM(r, 503, QStringLiteral("store-unavailable"));
    QVERIFY2(r.object().value(QStringLiteral("detail")).toString().contains(QLatin1String("free")), r.body.constData());
    ONCEPAY_VERIFY_STATUS(client.get(QStringLiteral("/livez")), 200);
}

namespace {
// A 4 MiB tmpfs mounted for the test (needs root, as CI runs), unmounted when done.
class SmallDisk
{
public:
    SmallDisk()
    {
        if (!m_dir.isValid())
            return;
        QProcess mount;
        mount.start(QStringLiteral("mount"), {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"), QStringLiteral("size=4m"), QStringLiteral("oncepay-test"), m_dir.path()});
        m_mounted = mount.waitForFinished(10000) && mount.exitStatus() == QProcess::NormalExit && mount.exitCode() == 0;
        m_error = QString::fromLocal8Bit(mount.readAllStandardError()).trimmed();
    }
    ~SmallDisk()
    {
        if (!m_mounted)
            return;
        QProcess umount;
        umount.start(QStringLiteral("umount"), {QStringLiteral("-l"), m_dir.path()});
        umount.waitForFinished(10000);
    }
    bool mounted() const { return m_mounted; }
    QString error() const { return m_error; }
    QString path(const QString &name) const { return m_dir.filePath(name); }
    // Writes `name` until the disk refuses more; the bytes written.
    qint64 fill(const QString &name) const
    {
        QFile f(path(name));
        if (!f.open(QIODevice::WriteOnly))
            return 0;
        const QByteArray block(64 * 1024, 'x');
        qint64 total = 0;
        for (;;) {
            const qint64 n = f.write(block);
            if (n <= 0 || !f.flush())
                break;
            total += n;
        }
        return total;
    }

private:
    QTemporaryDir m_dir;
    bool m_mounted = false;
    QString m_error;
};
}   // namespace

// A store on a disk that fills up: reads still work, so only the free-space check can say the
// gateway is not ready. Payments fail closed meanwhile (nothing reaches the bank), and once space
// is freed the gateway is ready again and the same key pays, once.
void TestStoreUnavailable::notReadyWhileTheDiskIsFull()
{
    if (TestDatabase::postgresRequested())
        QSKIP("the disk check is for a SQLite store (PostgreSQL's disk is its server's)");
    SmallDisk disk;
    if (!disk.mounted())
        QSKIP(qPrintable(QStringLiteral("cannot mount a small tmpfs (root is needed): %1").arg(disk.error())));
    GatewayProcess gateway;
    QVERIFY2(gateway.start({QStringLiteral("--db"), disk.path(QStringLiteral("gateway.db")),
                 QStringLiteral("--acquirer-db"), gateway.dataDir() + QStringLiteral("/acquirer.db"),
                 QStringLiteral("--store-min-free"), QStringLiteral("256K")}),
        gateway.failureMessage().constData());
    HttpClient client;
    client.setBaseUrl(gateway.baseUrl());
    const HttpReply before = pay(client, uniqueKey(QStringLiteral("before")), paymentBody(1000));
    ONCEPAY_VERIFY_STATUS(before, 201);
    const QString paidId = before.object().value(QStringLiteral("id")).toString();
    ONCEPAY_VERIFY_STATUS(client.get(QStringLiteral("/healthz")), 200);

    QVERIFY2(disk.fill(QStringLiteral("filler")) > 0, "nothing could be written to the small disk");
    const HttpReply full = client.get(QStringLiteral("/healthz"));
    ONCEPAY_VERIFY_PROBLEM(full, 503, QStringLiteral("store-unavailable"));
    QVERIFY2(full.object().value(QStringLiteral("detail")).toString().contains(QLatin1String("free")), full.body.constData());
    ONCEPAY_VERIFY_STATUS(client.get(QStringLiteral("/livez")), 200);

    // Paying on the full disk fails closed: not recorded, so nothing was sent to the bank. The
    // new key is refused even where its claim would still fit (SQLite's WAL may have room): the
    // outcome must have room too.
    const QString key = uniqueKey(QStringLiteral("full"));
    const HttpReply refused = pay(client, key, paymentBody(2500));
    ONCEPAY_VERIFY_PROBLEM(refused, 503, QStringLiteral("store-unavailable"));
    const Charges none = acquirerCharges(client, key);
    QVERIFY2(none.ok, none.raw.constData());
    QCOMPARE(none.rows.size(), 0);
    // So is a refund with a new key; the payment already recorded still answers.
    const QString refundKey = uniqueKey(QStringLiteral("full-refund"));
    ONCEPAY_VERIFY_PROBLEM(refund(client, paidId, refundKey, 100), 503, QStringLiteral("store-unavailable"));
    ONCEPAY_VERIFY_STATUS(client.get(QStringLiteral("/v1/payments/") + paidId), 200);

    QVERIFY(QFile::remove(disk.path(QStringLiteral("filler"))));
    ONCEPAY_VERIFY_STATUS(client.get(QStringLiteral("/healthz")), 200);
    ONCEPAY_VERIFY_STATUS(pay(client, key, paymentBody(2500)), 201);
    const Charges once = acquirerCharges(client, key);
    QCOMPARE(once.succeeded, 1);
    ONCEPAY_VERIFY_STATUS(refund(client, paidId, refundKey, 100), 201);
    QVERIFY2(gateway.terminate(), "the gateway did not stop on SIGTERM");
}

QTEST_GUILESS_MAIN(TestStoreUnavailable)
#include "tst_storeunavailable.moc"
