// A gateway database written by an earlier schema is migrated in place on start.
// v1 (the lease on the response record, no lease generation; SQLite only, PostgreSQL support
// began with v2): finished payments still replay, and a claim that was in flight when the old
// gateway stopped is taken over and resumed by asking the acquirer, never charged twice.
// v2 (no card, no authorization code, refunds without steps or lease; SQLite and PostgreSQL),
// with a v1 acquirer ledger (no authorization code, no refunds): old payments read card and
// code as null, new ones carry them; an old refund reads as settled and still bounds new ones.
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
    void v2DatabaseIsMigrated();
    void v5LedgerKeepsItsWalletCodes();
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
}   // namespace

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
    // The acquirer answered the resumed claim: its card and code are on it now.
    const QJsonObject resumedPayment = resumed.object();
    QCOMPARE(resumedPayment.value(QStringLiteral("card")).toObject().value(QStringLiteral("last4")).toString(),
        QStringLiteral("4242"));
    QCOMPARE(resumedPayment.value(QStringLiteral("authorization_code")).toString().size(), 6);
    // The payment settled under v1 has none in its row (its recorded answer keeps what it said).
    const HttpReply old = client.get(QStringLiteral("/v1/payments?idempotency_key=") + doneKey);
    ONCEPAY_VERIFY_STATUS(old, 200);
    QVERIFY2(old.object().value(QStringLiteral("card")).isNull(), old.body.constData());
    QVERIFY2(old.object().value(QStringLiteral("authorization_code")).isNull(), old.body.constData());
}

void TestUpgrade::v2DatabaseIsMigrated()
{
    GatewayProcess gateway;
    QVERIFY2(gateway.start(), gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    const QString oldKey = uniqueKey(QStringLiteral("v2-old"));
    const HttpReply old = pay(client, oldKey, paymentBody(2345));
    ONCEPAY_VERIFY_STATUS(old, 201);
    const QString oldId = old.object().value(QStringLiteral("id")).toString();
    const QString oldRefundKey = uniqueKey(QStringLiteral("v2-refund"));
    ONCEPAY_VERIFY_STATUS(client.post(QStringLiteral("/v1/payments/%1/refunds").arg(oldId), "{\"amount\":345}",
                              keyHeader(oldRefundKey)),
        201);
    QVERIFY(gateway.terminate());

    // The gateway's tables as v2 left them: no card columns, refunds without steps, no review
    // marks (v5), version 2.
    {
        QString error;
        QVERIFY2(gateway.database().connect(QStringLiteral("v2"), &error), qPrintable(error));
        QSqlDatabase db = QSqlDatabase::database(QStringLiteral("v2"));
        QSqlQuery q(db);
        const bool pg = gateway.database().isPostgres();
        for (const char *sql : {"ALTER TABLE payments DROP COLUMN card_brand",
                 "ALTER TABLE payments DROP COLUMN card_last4",
                 "ALTER TABLE payments DROP COLUMN authorization_code",
                 "ALTER TABLE payments DROP COLUMN amount_refund_pending",
                 "DROP INDEX refunds_by_payment", "DROP INDEX refunds_processing",
                 "ALTER TABLE refunds DROP COLUMN terminal_id", "ALTER TABLE refunds DROP COLUMN currency",
                 "ALTER TABLE refunds DROP COLUMN step", "ALTER TABLE refunds DROP COLUMN failure_code",
                 "ALTER TABLE refunds DROP COLUMN updated_at",
                 "ALTER TABLE refunds DROP COLUMN lease_generation",
                 "ALTER TABLE refunds DROP COLUMN lease_boot",
                 "ALTER TABLE refunds DROP COLUMN lease_expires_at",
                 "ALTER TABLE payments DROP COLUMN needs_review",
                 "ALTER TABLE refunds DROP COLUMN needs_review",
                 "DROP INDEX idempotency_records_waiting", "ALTER TABLE payments DROP COLUMN cancel_reason"})
            QVERIFY2(q.exec(QString::fromLatin1(sql)), qPrintable(q.lastError().text()));
        QVERIFY2(q.exec(pg ? QStringLiteral("UPDATE oncepay_schema SET version = 2") : QStringLiteral("PRAGMA user_version=2")),
            qPrintable(q.lastError().text()));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("v2"));
    // The acquirer's ledger as v1 left it: no authorization code.
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("ledger-v1"));
        db.setDatabaseName(gateway.database().acquirerDbPath());
        QVERIFY(db.open());
        QSqlQuery q(db);
        for (const char *sql : {"DROP TABLE wallet_codes", "DROP TABLE reversals", "DROP INDEX charges_waiting",
                 "DROP INDEX charges_by_token", "ALTER TABLE charges DROP COLUMN confirm_at"})
            QVERIFY2(q.exec(QString::fromLatin1(sql)), qPrintable(q.lastError().text()));
        QVERIFY2(q.exec(QStringLiteral("ALTER TABLE charges DROP COLUMN auth_code")), qPrintable(q.lastError().text()));
        QVERIFY2(q.exec(QStringLiteral("DROP TABLE refunds")), qPrintable(q.lastError().text()));
        QVERIFY2(q.exec(QStringLiteral("PRAGMA user_version=1")), qPrintable(q.lastError().text()));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("ledger-v1"));

    QVERIFY2(gateway.start(), gateway.failureMessage().constData());
    client.setBaseUrl(gateway.baseUrl());
    // An old row reads null: nothing is made up for it.
    const HttpReply byId = client.get(QStringLiteral("/v1/payments/") + oldId);
    ONCEPAY_VERIFY_STATUS(byId, 200);
    QCOMPARE(byId.object().value(QStringLiteral("status")).toString(), QStringLiteral("partially_refunded"));
    QCOMPARE(byId.object().value(QStringLiteral("amount_refunded")).toInteger(), 345);
    QVERIFY2(byId.object().value(QStringLiteral("card")).isNull(), byId.body.constData());
    QVERIFY2(byId.object().value(QStringLiteral("authorization_code")).isNull(), byId.body.constData());
    QCOMPARE(byId.object().value(QStringLiteral("needs_review")), QJsonValue(false));
    // Its recorded answer still replays byte for byte.
    const HttpReply replay = pay(client, oldKey, paymentBody(2345));
    ONCEPAY_VERIFY_STATUS(replay, 201);
    QVERIFY(replay.replayed());
    QCOMPARE(replay.body, old.body);
    // The old ledger row has no code either; a new payment carries both, stored on both sides.
    const Charges oldCharge = acquirerCharges(client, oldKey);
    QVERIFY2(oldCharge.ok && oldCharge.rows.size() == 1, oldCharge.raw.constData());
    QVERIFY(oldCharge.rows.first().toObject().value(QStringLiteral("authorization_code")).isNull());
    const QString newKey = uniqueKey(QStringLiteral("v2-new"));
    const HttpReply fresh = pay(client, newKey, paymentBody(3456, QStringLiteral("tok_mastercard")));
    ONCEPAY_VERIFY_STATUS(fresh, 201);
    const QJsonObject card = fresh.object().value(QStringLiteral("card")).toObject();
    QCOMPARE(card.value(QStringLiteral("brand")).toString(), QStringLiteral("mastercard"));
    QCOMPARE(card.value(QStringLiteral("last4")).toString(), QStringLiteral("4444"));
    const QString code = fresh.object().value(QStringLiteral("authorization_code")).toString();
    QCOMPARE(code.size(), 6);
    const Charges newCharge = acquirerCharges(client, newKey);
    QVERIFY2(newCharge.ok && newCharge.rows.size() == 1, newCharge.raw.constData());
    QCOMPARE(newCharge.rows.first().toObject().value(QStringLiteral("authorization_code")).toString(), code);
    const HttpReply newById = client.get(QString::fromUtf8(fresh.header("Location")));
    QCOMPARE(newById.object().value(QStringLiteral("authorization_code")).toString(), code);

    // The refund made before reads as settled, and what it refunded still bounds the next one.
    const HttpReply oldRefund = client.get(QStringLiteral("/v1/refunds?idempotency_key=") + oldRefundKey);
    ONCEPAY_VERIFY_STATUS(oldRefund, 200);
    QCOMPARE(oldRefund.object().value(QStringLiteral("status")).toString(), QStringLiteral("succeeded"));
    QCOMPARE(oldRefund.object().value(QStringLiteral("currency")).toString(), QStringLiteral("CNY"));
    const QString refunds = QStringLiteral("/v1/payments/%1/refunds").arg(oldId);
    ONCEPAY_VERIFY_PROBLEM(client.post(refunds, "{\"amount\":2001}", keyHeader(uniqueKey(QStringLiteral("v2-over")))),
        400, QStringLiteral("validation-failed"));
    ONCEPAY_VERIFY_STATUS(client.post(refunds, "{\"amount\":2000}", keyHeader(uniqueKey(QStringLiteral("v2-rest")))), 201);
    QCOMPARE(client.get(QStringLiteral("/v1/payments/") + oldId).object().value(QStringLiteral("status")).toString(),
        QStringLiteral("refunded"));
}

void TestUpgrade::v5LedgerKeepsItsWalletCodes()
{
    // A v5 acquirer ledger knew a code as used only by its charge's row; v6 remembers every code
    // shown in a table of its own, filled from those rows when it migrates: a code paid before
    // the upgrade is still expired after it (issue 35).
    GatewayProcess gateway;
    QVERIFY2(gateway.start(), gateway.failureMessage().constData());
    HttpClient client(gateway.baseUrl());
    const QString code = walletCode("15", 0);
    ONCEPAY_VERIFY_STATUS(pay(client, uniqueKey(QStringLiteral("v5-paid")), walletBody(code)), 201);
    QVERIFY(gateway.terminate());
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("ledger-v5"));
        db.setDatabaseName(gateway.database().acquirerDbPath());
        QVERIFY(db.open());
        QSqlQuery q(db);
        for (const char *sql : {"DROP TABLE wallet_codes", "PRAGMA user_version=5"})
            QVERIFY2(q.exec(QString::fromLatin1(sql)), qPrintable(q.lastError().text()));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("ledger-v5"));

    QVERIFY2(gateway.start(), gateway.failureMessage().constData());
    client.setBaseUrl(gateway.baseUrl());
    const HttpReply again = pay(client, uniqueKey(QStringLiteral("v5-again")), walletBody(code));
    ONCEPAY_VERIFY_PROBLEM(again, 402, QStringLiteral("card-declined"));
    QCOMPARE(paymentOf(again).value(QStringLiteral("decline_code")).toString(), QStringLiteral("code_expired"));
}

QTEST_GUILESS_MAIN(TestUpgrade)
#include "tst_upgrade.moc"
