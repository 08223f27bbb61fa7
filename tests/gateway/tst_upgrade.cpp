// A gateway database written by the previous schema (v1: the lease on the response record, no
// lease generation) is migrated in place on start: finished payments still replay, and a claim
// that was in flight when the old gateway stopped is taken over and resumed by asking the
// acquirer, never charged twice. SQLite only: PostgreSQL support began with v2.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "testdatabase.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QtTest>

using namespace GatewayApi;

class TestUpgrade final : public QObject
{
    Q_OBJECT

private slots:
    void v1DatabaseIsMigrated();
};

namespace {
// The v1 schema exactly as gateways before the fenced leases created it.
const char *const kV1Schema[] = {
    "CREATE TABLE idempotency_records ( merchant TEXT NOT NULL, idem_key TEXT NOT NULL, fingerprint BLOB NOT NULL,"
    " state TEXT NOT NULL CHECK (state IN ('in_progress','completed')), lease_expires_at INTEGER NOT NULL DEFAULT 0,"
    " resource_id TEXT, response_status INTEGER, response_body BLOB, response_location TEXT, response_type TEXT,"
    " created_at INTEGER NOT NULL, expires_at INTEGER, PRIMARY KEY (merchant, idem_key)) WITHOUT ROWID",
    "CREATE TABLE payments ( seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,"
    " merchant TEXT NOT NULL, terminal_id TEXT NOT NULL, idem_key TEXT NOT NULL, fingerprint BLOB NOT NULL,"
    " amount INTEGER NOT NULL, currency TEXT NOT NULL, order_id TEXT NOT NULL, payment_method TEXT NOT NULL,"
    " description TEXT, metadata TEXT, status TEXT NOT NULL, step TEXT NOT NULL, decline_code TEXT,"
    " amount_refunded INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,"
    " UNIQUE (merchant, idem_key))",
    "CREATE TABLE refunds ( id TEXT PRIMARY KEY, payment_id TEXT NOT NULL REFERENCES payments (id),"
    " merchant TEXT NOT NULL, idem_key TEXT NOT NULL, fingerprint BLOB NOT NULL, amount INTEGER NOT NULL,"
    " reason TEXT, status TEXT NOT NULL, created_at INTEGER NOT NULL, UNIQUE (merchant, idem_key))",
    "PRAGMA user_version=1",
};
} // namespace

void TestUpgrade::v1DatabaseIsMigrated()
{
    if (TestDatabase::postgresRequested())
        QSKIP("the v1 schema existed on SQLite only");
    GatewayProcess gateway;
    const QString inFlightKey = uniqueKey(QStringLiteral("v1-inflight"));
    const QByteArray body = paymentBody(1234);

    // First run on the current schema, only to learn the fingerprint of `body` and make a
    // finished payment; then the file is rewritten as the v1 gateway would have left it.
    QVERIFY2(gateway.start(), gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    const QString doneKey = uniqueKey(QStringLiteral("v1-done"));
    const HttpReply done = pay(client, doneKey, body);
    ONCEPAY_VERIFY_STATUS(done, 201);
    QVERIFY(gateway.terminate());

    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v1"));
        db.setDatabaseName(gateway.dbPath());
        QVERIFY(db.open());
        QSqlQuery q(db);
        // Keep the rows, go back to the v1 table layout: copy, drop, recreate, copy back.
        for (const char *sql : {"CREATE TEMP TABLE r AS SELECT * FROM idempotency_records",
                                "CREATE TEMP TABLE p AS SELECT seq, id, merchant, terminal_id, idem_key, fingerprint,"
                                " amount, currency, order_id, payment_method, description, metadata, status, step,"
                                " decline_code, amount_refunded, created_at, updated_at FROM payments",
                                "DROP TABLE refunds", "DROP TABLE payments", "DROP TABLE idempotency_records"})
            QVERIFY2(q.exec(QString::fromLatin1(sql)), qPrintable(q.lastError().text()));
        for (const char *sql : kV1Schema)
            QVERIFY2(q.exec(QString::fromLatin1(sql)), qPrintable(q.lastError().text()));
        QVERIFY2(q.exec(QStringLiteral("INSERT INTO idempotency_records SELECT * FROM r")), qPrintable(q.lastError().text()));
        QVERIFY2(q.exec(QStringLiteral("INSERT INTO payments SELECT * FROM p")), qPrintable(q.lastError().text()));
        // A claim the old gateway held when it stopped: recorded as called, never settled.
        QVERIFY(q.prepare(QStringLiteral(
            "INSERT INTO idempotency_records (merchant, idem_key, fingerprint, state, lease_expires_at, resource_id, created_at)"
            " SELECT merchant, ?, fingerprint, 'in_progress', 1, 'pay_v1inflight', created_at FROM payments WHERE idem_key = ?")));
        q.addBindValue(inFlightKey);
        q.addBindValue(doneKey);
        QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
        QVERIFY(q.prepare(QStringLiteral(
            "INSERT INTO payments (id, merchant, terminal_id, idem_key, fingerprint, amount, currency, order_id,"
            " payment_method, status, step, created_at, updated_at)"
            " SELECT 'pay_v1inflight', merchant, terminal_id, ?, fingerprint, amount, currency, order_id,"
            " payment_method, 'processing', 'acquirer_called', created_at, updated_at FROM payments WHERE idem_key = ?")));
        q.addBindValue(inFlightKey);
        q.addBindValue(doneKey);
        QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("v1"));

    QVERIFY2(gateway.start({QStringLiteral("--recovery-interval"), QStringLiteral("200ms")}),
             gateway.failureMessage().constData());
    client.setBaseUrl(gateway.baseUrl());
    const HttpReply replay = pay(client, doneKey, body);
    ONCEPAY_VERIFY_STATUS(replay, 201);
    QVERIFY(replay.replayed());
    QCOMPARE(replay.object().value(QStringLiteral("id")), done.object().value(QStringLiteral("id")));

    // The v1 claim is resumed: the acquirer never saw its key, so it is charged once with it.
    HttpReply resumed;
    ONCEPAY_TRY_UNTIL(resumed = pay(client, inFlightKey, body), resumed.status != 409 && resumed.status != 202, 20000);
    ONCEPAY_VERIFY_STATUS(resumed, 201);
    QCOMPARE(resumed.object().value(QStringLiteral("id")).toString(), QStringLiteral("pay_v1inflight"));
    const Charges charges = acquirerCharges(client, inFlightKey);
    QVERIFY2(charges.ok && charges.rows.size() == 1 && charges.succeeded == 1, charges.raw.constData());
}

QTEST_GUILESS_MAIN(TestUpgrade)
#include "tst_upgrade.moc"
