#include "sqlitegatewaystore.h"

#include <QAtomicInt>
#include <QJsonDocument>
#include <QSqlQuery>

namespace OncePay::Gateway {

namespace {

QAtomicInt g_connectionCounter;

void migrate(SqlTx &tx, int from)
{
    if (from < 1) {
        // Response records live as long as the retention; payments keep their key forever.
        tx.exec(QStringLiteral(
            "CREATE TABLE idempotency_records ("
            " merchant TEXT NOT NULL, idem_key TEXT NOT NULL, fingerprint BLOB NOT NULL,"
            " state TEXT NOT NULL CHECK (state IN ('in_progress','completed')),"
            " lease_expires_at INTEGER NOT NULL DEFAULT 0, resource_id TEXT,"
            " response_status INTEGER, response_body BLOB, response_location TEXT, response_type TEXT,"
            " created_at INTEGER NOT NULL, expires_at INTEGER,"
            " PRIMARY KEY (merchant, idem_key)) WITHOUT ROWID"));
        tx.exec(QStringLiteral("CREATE INDEX idempotency_records_expiry ON idempotency_records (expires_at)"
                               " WHERE state = 'completed'"));
        tx.exec(QStringLiteral(
            "CREATE TABLE payments ("
            " seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,"
            " merchant TEXT NOT NULL, terminal_id TEXT NOT NULL, idem_key TEXT NOT NULL,"
            " fingerprint BLOB NOT NULL, amount INTEGER NOT NULL, currency TEXT NOT NULL,"
            " order_id TEXT NOT NULL, payment_method TEXT NOT NULL, description TEXT, metadata TEXT,"
            " status TEXT NOT NULL, step TEXT NOT NULL, decline_code TEXT,"
            " amount_refunded INTEGER NOT NULL DEFAULT 0,"
            " created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,"
            " UNIQUE (merchant, idem_key))"));
        tx.exec(QStringLiteral("CREATE INDEX payments_by_merchant ON payments (merchant, seq)"));
        tx.exec(QStringLiteral("CREATE INDEX payments_processing ON payments (status) WHERE status = 'processing'"));
        tx.exec(QStringLiteral(
            "CREATE TABLE refunds ("
            " id TEXT PRIMARY KEY, payment_id TEXT NOT NULL REFERENCES payments (id),"
            " merchant TEXT NOT NULL, idem_key TEXT NOT NULL, fingerprint BLOB NOT NULL,"
            " amount INTEGER NOT NULL, reason TEXT, status TEXT NOT NULL, created_at INTEGER NOT NULL,"
            " UNIQUE (merchant, idem_key))"));
    }
}

const QString kPaymentColumns = QStringLiteral(
    "seq, id, merchant, terminal_id, idem_key, fingerprint, amount, currency, order_id, payment_method,"
    " description, metadata, status, step, decline_code, amount_refunded, created_at, updated_at");

Payment readPayment(const QSqlQuery &q, int base = 0)
{
    Payment p;
    p.seq = q.value(base + 0).toLongLong();
    p.id = q.value(base + 1).toString();
    p.merchant = q.value(base + 2).toString();
    p.terminalId = q.value(base + 3).toString();
    p.idempotencyKey = q.value(base + 4).toString();
    p.fingerprint = q.value(base + 5).toByteArray();
    p.amount = q.value(base + 6).toLongLong();
    p.currency = q.value(base + 7).toString();
    p.orderId = q.value(base + 8).toString();
    p.paymentMethod = q.value(base + 9).toString();
    p.description = q.value(base + 10).toString();
    p.metadataJson = q.value(base + 11).toByteArray();
    p.status = q.value(base + 12).toString();
    p.step = q.value(base + 13).toString();
    p.declineCode = q.value(base + 14).toString();
    p.amountRefunded = q.value(base + 15).toLongLong();
    p.createdAt = q.value(base + 16).toLongLong();
    p.updatedAt = q.value(base + 17).toLongLong();
    return p;
}

Payment paymentWhere(SqlTx &tx, const QString &where, const QVariantList &binds)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM payments WHERE %2").arg(kPaymentColumns, where), binds);
    Payment p = q.next() ? readPayment(q) : Payment{};
    q.finish();
    return p;
}

QVariant nullable(const QString &s)
{
    return s.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(s);
}

QVariant nullable(const QByteArray &b)
{
    return b.isEmpty() ? QVariant(QMetaType(QMetaType::QByteArray)) : QVariant(b);
}

struct Record
{
    bool exists = false;
    QByteArray fingerprint;
    QString state;
    qint64 leaseExpiresAt = 0;
    QString resourceId;
    StoredResponse response;
    qint64 expiresAt = 0;
};

Record readRecord(SqlTx &tx, const QString &merchant, const QString &key)
{
    QSqlQuery &q = tx.exec(QStringLiteral(
        "SELECT fingerprint, state, lease_expires_at, resource_id, response_status, response_body,"
        " response_location, response_type, expires_at FROM idempotency_records WHERE merchant = ? AND idem_key = ?"),
        {merchant, key});
    Record r;
    if (q.next()) {
        r.exists = true;
        r.fingerprint = q.value(0).toByteArray();
        r.state = q.value(1).toString();
        r.leaseExpiresAt = q.value(2).toLongLong();
        r.resourceId = q.value(3).toString();
        r.response.status = q.value(4).toInt();
        r.response.body = q.value(5).toByteArray();
        r.response.location = q.value(6).toByteArray();
        r.response.contentType = q.value(7).toByteArray();
        r.expiresAt = q.value(8).toLongLong();
    }
    q.finish();
    return r;
}

// Atomic claim: the primary key decides who owns (merchant, key); never check-then-insert.
bool insertClaim(SqlTx &tx, const QString &merchant, const QString &key, const QByteArray &fingerprint,
                 const QString &resourceId, qint64 now, qint64 leaseMs)
{
    return tx.numRowsAffected(QStringLiteral(
        "INSERT INTO idempotency_records (merchant, idem_key, fingerprint, state, lease_expires_at,"
        " resource_id, created_at) VALUES (?, ?, ?, 'in_progress', ?, ?, ?)"
        " ON CONFLICT (merchant, idem_key) DO NOTHING"),
        {merchant, key, fingerprint, now + leaseMs, resourceId, now}) == 1;
}

void deleteRecord(SqlTx &tx, const QString &merchant, const QString &key)
{
    tx.exec(QStringLiteral("DELETE FROM idempotency_records WHERE merchant = ? AND idem_key = ?"), {merchant, key});
}

void completeRecord(SqlTx &tx, const QString &merchant, const QString &key, const StoredResponse &r,
                    qint64 expiresAt, bool onlyInProgress = false)
{
    tx.exec(QStringLiteral(
        "UPDATE idempotency_records SET state = 'completed', lease_expires_at = 0, response_status = ?,"
        " response_body = ?, response_location = ?, response_type = ?, expires_at = ?"
        " WHERE merchant = ? AND idem_key = ? AND (? = 0 OR state = 'in_progress')"),
        {r.status, r.body, nullable(r.location), nullable(r.contentType), expiresAt, merchant, key,
         onlyInProgress ? 1 : 0});
}

ClaimOutcome claim(SqlTx &tx, const PaymentClaim &c)
{
    ClaimOutcome out;
    if (insertClaim(tx, c.merchant, c.key, c.fingerprint, c.draft.id, c.now, c.leaseMs)) {
        const Payment &p = c.draft;
        const bool inserted = tx.numRowsAffected(QStringLiteral(
            "INSERT INTO payments (id, merchant, terminal_id, idem_key, fingerprint, amount, currency,"
            " order_id, payment_method, description, metadata, status, step, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (merchant, idem_key) DO NOTHING"),
            {p.id, p.merchant, p.terminalId, p.idempotencyKey, p.fingerprint, p.amount, p.currency,
             p.orderId, p.paymentMethod, nullable(p.description), nullable(p.metadataJson), p.status,
             p.step, p.createdAt, p.updatedAt}) == 1;
        if (inserted) {
            out.kind = ClaimOutcome::Kind::Claimed;
            out.payment = p;
            return out;
        }
        // The response record had expired, but the payment keeps its key forever.
        const Payment existing = paymentWhere(tx, QStringLiteral("merchant = ? AND idem_key = ?"), {c.merchant, c.key});
        deleteRecord(tx, c.merchant, c.key);
        out.kind = existing.fingerprint == c.fingerprint ? ClaimOutcome::Kind::ReplayCurrent
                                                         : ClaimOutcome::Kind::Mismatch;
        out.payment = existing;
        return out;
    }

    const Record r = readRecord(tx, c.merchant, c.key);
    if (r.fingerprint != c.fingerprint) {
        out.kind = ClaimOutcome::Kind::Mismatch;
        return out;
    }
    if (r.state == QLatin1String("completed")) {
        if (r.response.status == 202) {
            out.kind = ClaimOutcome::Kind::ReplayCurrent;
            out.payment = paymentWhere(tx, QStringLiteral("id = ?"), {r.resourceId});
        } else {
            out.kind = ClaimOutcome::Kind::Replay;
            out.response = r.response;
            out.responseExpiresAt = r.expiresAt;
        }
        return out;
    }
    if (r.leaseExpiresAt > c.now) {
        out.kind = ClaimOutcome::Kind::InProgress;
        return out;
    }
    // The owner died (its lease ran out): take over, conditionally, so only one request does.
    const bool took = tx.numRowsAffected(QStringLiteral(
        "UPDATE idempotency_records SET lease_expires_at = ? WHERE merchant = ? AND idem_key = ?"
        " AND state = 'in_progress' AND lease_expires_at = ?"),
        {c.now + c.leaseMs, c.merchant, c.key, r.leaseExpiresAt}) == 1;
    out.payment = paymentWhere(tx, QStringLiteral("id = ?"), {r.resourceId});
    out.kind = (took && out.payment.isValid()) ? ClaimOutcome::Kind::Resume : ClaimOutcome::Kind::InProgress;
    return out;
}

RefundOutcome refund(SqlTx &tx, const RefundRequest &rq)
{
    RefundOutcome out;
    if (!insertClaim(tx, rq.merchant, rq.key, rq.fingerprint, rq.draft.id, rq.now, 0)) {
        const Record r = readRecord(tx, rq.merchant, rq.key);
        if (r.fingerprint != rq.fingerprint)
            out.kind = RefundOutcome::Kind::Mismatch;
        else if (r.state == QLatin1String("completed"))
            out = {RefundOutcome::Kind::Replay, r.response, {}};
        else
            out.kind = RefundOutcome::Kind::InProgress;
        return out;
    }
    // From here on everything happens in this one transaction; an early answer gives the key back.
    auto giveBack = [&](RefundOutcome::Kind kind, const QString &message) {
        deleteRecord(tx, rq.merchant, rq.key);
        out.kind = kind;
        out.message = message;
        return out;
    };
    QSqlQuery &old = tx.exec(QStringLiteral(
        "SELECT r.id, r.payment_id, r.amount, r.reason, r.status, r.created_at, r.fingerprint"
        " FROM refunds r WHERE r.merchant = ? AND r.idem_key = ?"), {rq.merchant, rq.key});
    if (old.next()) {
        // The record expired but the refund keeps its key: answer from the refund row.
        Refund existing{old.value(0).toString(), old.value(1).toString(), old.value(2).toLongLong(),
                        old.value(3).toString(), old.value(4).toString(), old.value(5).toLongLong()};
        const bool same = old.value(6).toByteArray() == rq.fingerprint;
        old.finish();
        deleteRecord(tx, rq.merchant, rq.key);
        if (!same) {
            out.kind = RefundOutcome::Kind::Mismatch;
            return out;
        }
        out.kind = RefundOutcome::Kind::Replay;
        out.response = {201, QJsonDocument(existing.toJson()).toJson(QJsonDocument::Compact), {},
                        QByteArrayLiteral("application/json")};
        return out;
    }
    old.finish();

    const Payment p = paymentWhere(tx, QStringLiteral("merchant = ? AND id = ?"), {rq.merchant, rq.draft.paymentId});
    if (!p.isValid())
        return giveBack(RefundOutcome::Kind::PaymentNotFound, {});
    if (p.status != Status::succeeded && p.status != Status::partiallyRefunded)
        return giveBack(RefundOutcome::Kind::NotRefundable,
                        QStringLiteral("A payment with status %1 cannot be refunded.").arg(p.status));
    const qint64 remaining = p.amount - p.amountRefunded;
    if (rq.draft.amount > remaining)
        return giveBack(RefundOutcome::Kind::NotRefundable,
                        QStringLiteral("Only %1 of the payment remains to be refunded.").arg(remaining));

    const Refund &r = rq.draft;
    tx.exec(QStringLiteral(
        "INSERT INTO refunds (id, payment_id, merchant, idem_key, fingerprint, amount, reason, status, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {r.id, r.paymentId, rq.merchant, rq.key, rq.fingerprint, r.amount, nullable(r.reason), r.status, r.createdAt});
    const qint64 refunded = p.amountRefunded + r.amount;
    tx.exec(QStringLiteral("UPDATE payments SET amount_refunded = ?, status = ?, updated_at = ? WHERE id = ?"),
            {refunded, refunded == p.amount ? Status::refunded : Status::partiallyRefunded, rq.now, p.id});
    out.kind = RefundOutcome::Kind::Created;
    out.response = {201, QJsonDocument(r.toJson()).toJson(QJsonDocument::Compact), {},
                    QByteArrayLiteral("application/json")};
    completeRecord(tx, rq.merchant, rq.key, out.response, rq.now + rq.retentionMs);
    return out;
}

} // namespace

SqliteGatewayStore::SqliteGatewayStore(Options options)
    : m_options(std::move(options))
{
}

SqliteGatewayStore::~SqliteGatewayStore()
{
    close();
}

bool SqliteGatewayStore::open(QString *error)
{
    SqlBatchWorker::Options o;
    o.path = m_options.path;
    o.connectionName = QStringLiteral("oncepay-gateway-%1").arg(g_connectionCounter.fetchAndAddRelaxed(1));
    o.schemaVersion = schemaVersion;
    o.migrate = migrate;
    o.busyTimeoutMs = m_options.busyTimeoutMs;
    o.checkpointIntervalMs = 200;
    m_worker = std::make_unique<SqlBatchWorker>(o);
    if (!m_worker->start(error)) {
        m_worker.reset();
        return false;
    }
    return true;
}

void SqliteGatewayStore::close()
{
    if (m_worker)
        m_worker->stop();
    m_worker.reset();
}

GatewayStore::Stats SqliteGatewayStore::stats() const
{
    return m_worker ? Stats{m_worker->batchesCommitted(), m_worker->unitsCommitted()} : Stats{};
}

void SqliteGatewayStore::claimPayment(const PaymentClaim &c, QObject *context, Reply<ClaimOutcome> reply)
{
    m_worker->transact<ClaimOutcome>(context, [c](SqlTx &tx) { return claim(tx, c); }, std::move(reply));
}

void SqliteGatewayStore::markAcquirerCalled(const QString &paymentId, qint64 now, QObject *context, Reply<bool> reply)
{
    m_worker->transact<bool>(context, [paymentId, now](SqlTx &tx) {
        return tx.numRowsAffected(QStringLiteral(
            "UPDATE payments SET step = ?, updated_at = ? WHERE id = ? AND step = ?"),
            {Step::acquirerCalled, now, paymentId, Step::claimed}) == 1;
    }, std::move(reply));
}

void SqliteGatewayStore::settlePayment(const Settlement &s, QObject *context, Reply<bool> reply)
{
    m_worker->transact<bool>(context, [s](SqlTx &tx) {
        const bool final = s.status != Status::processing;
        const int changed = tx.numRowsAffected(QStringLiteral(
            "UPDATE payments SET status = ?, decline_code = ?, step = ?, updated_at = ?"
            " WHERE id = ? AND status = 'processing'"),
            {s.status, nullable(s.declineCode), final ? Step::settled : Step::acquirerCalled, s.now, s.paymentId});
        if (changed != 1)
            return false;
        // Recovery keeps a recorded 202: its replay is answered from the payment's current state.
        completeRecord(tx, s.merchant, s.key, s.response, s.now + s.retentionMs, s.recovery);
        return true;
    }, std::move(reply));
}

void SqliteGatewayStore::releaseClaim(const QString &merchant, const QString &key, const QString &paymentId,
                                      QObject *context, Reply<bool> reply)
{
    m_worker->transact<bool>(context, [merchant, key, paymentId](SqlTx &tx) {
        tx.exec(QStringLiteral("DELETE FROM payments WHERE id = ? AND step != ?"), {paymentId, Step::settled});
        tx.exec(QStringLiteral("DELETE FROM idempotency_records WHERE merchant = ? AND idem_key = ?"
                               " AND state = 'in_progress'"), {merchant, key});
        return true;
    }, std::move(reply));
}

void SqliteGatewayStore::findPayment(const QString &merchant, const QString &id, QObject *context, Reply<Payment> reply)
{
    m_worker->transact<Payment>(context, [merchant, id](SqlTx &tx) {
        return paymentWhere(tx, QStringLiteral("merchant = ? AND id = ?"), {merchant, id});
    }, std::move(reply));
}

void SqliteGatewayStore::findPaymentByKey(const QString &merchant, const QString &key, QObject *context,
                                          Reply<Payment> reply)
{
    m_worker->transact<Payment>(context, [merchant, key](SqlTx &tx) {
        return paymentWhere(tx, QStringLiteral("merchant = ? AND idem_key = ?"), {merchant, key});
    }, std::move(reply));
}

void SqliteGatewayStore::listPayments(const ListQuery &lq, QObject *context, Reply<QList<Payment>> reply)
{
    m_worker->transact<QList<Payment>>(context, [lq](SqlTx &tx) {
        QSqlQuery &q = tx.exec(QStringLiteral(
            "SELECT %1 FROM payments WHERE merchant = ? AND seq > ? AND (IFNULL(?, '') = '' OR terminal_id = ?)"
            " AND created_at > ? ORDER BY seq LIMIT ?").arg(kPaymentColumns),
            {lq.merchant, lq.afterSeq, lq.terminalId, lq.terminalId, lq.createdAfter, lq.limit});
        QList<Payment> out;
        while (q.next())
            out.append(readPayment(q));
        q.finish();
        return out;
    }, std::move(reply));
}

void SqliteGatewayStore::createRefund(const RefundRequest &request, QObject *context, Reply<RefundOutcome> reply)
{
    m_worker->transact<RefundOutcome>(context, [request](SqlTx &tx) { return refund(tx, request); },
                                      std::move(reply));
}

void SqliteGatewayStore::takeRecoveryWork(qint64 now, qint64 leaseMs, int limit, QObject *context,
                                          Reply<QList<RecoveryItem>> reply)
{
    m_worker->transact<QList<RecoveryItem>>(context, [now, leaseMs, limit](SqlTx &tx) {
        QSqlQuery &q = tx.exec(QStringLiteral(
            "SELECT r.state, r.lease_expires_at, %1 FROM payments p"
            " LEFT JOIN idempotency_records r ON r.merchant = p.merchant AND r.idem_key = p.idem_key"
            " WHERE p.status = 'processing' AND (r.state IS NULL OR r.state = 'completed' OR r.lease_expires_at <= ?)"
            " ORDER BY p.seq LIMIT ?").arg(QString(kPaymentColumns).replace(QStringLiteral(", "), QStringLiteral(", p."))
                                              .prepend(QStringLiteral("p."))),
            {now, limit});
        struct Row { RecoveryItem item; qint64 lease; bool inProgress; };
        QList<Row> rows;
        while (q.next()) {
            const bool inProgress = q.value(0).toString() == QLatin1String("in_progress");
            rows.append({RecoveryItem{readPayment(q, 2), !inProgress}, q.value(1).toLongLong(), inProgress});
        }
        q.finish();
        QList<RecoveryItem> out;
        for (const Row &row : rows) {
            if (row.inProgress && tx.numRowsAffected(QStringLiteral(
                    "UPDATE idempotency_records SET lease_expires_at = ? WHERE merchant = ? AND idem_key = ?"
                    " AND state = 'in_progress' AND lease_expires_at = ?"),
                    {now + leaseMs, row.item.payment.merchant, row.item.payment.idempotencyKey, row.lease}) != 1)
                continue;
            out.append(row.item);
        }
        return out;
    }, std::move(reply));
}

void SqliteGatewayStore::sweepExpiredRecords(qint64 now, int limit, QObject *context, Reply<int> reply)
{
    m_worker->transact<int>(context, [now, limit](SqlTx &tx) {
        return tx.numRowsAffected(QStringLiteral(
            "DELETE FROM idempotency_records WHERE (merchant, idem_key) IN (SELECT merchant, idem_key"
            " FROM idempotency_records WHERE state = 'completed' AND expires_at < ? LIMIT ?)"),
            {now, limit});
    }, std::move(reply));
}

} // namespace OncePay::Gateway
