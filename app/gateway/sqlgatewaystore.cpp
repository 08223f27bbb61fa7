#include "sqlgatewaystore.h"

#include "gatewayschema.h"
#include "paymentlog.h"
#include "paymentrows.h"

#include <QAtomicInt>
#include <QFile>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QUrl>

#include <ctime>

namespace OncePay::Gateway {

namespace {

QAtomicInt g_connectionCounter;

using Driver = SqlBatchWorker::Driver;

struct Record
{
    bool exists = false;
    QByteArray fingerprint;
    QString state;
    QString resourceId;
    StoredResponse response;
    qint64 expiresAt = 0;
};

Record readRecord(SqlTx &tx, const QString &merchant, const QString &key)
{
    QSqlQuery &q = tx.exec(QStringLiteral(
        "SELECT fingerprint, state, resource_id, response_status, response_body,"
        " response_location, response_type, expires_at FROM idempotency_records WHERE merchant = ? AND idem_key = ?"),
        {merchant, key});
    Record r;
    if (q.next()) {
        r.exists = true;
        r.fingerprint = q.value(0).toByteArray();
        r.state = q.value(1).toString();
        r.resourceId = q.value(2).toString();
        r.response.status = q.value(3).toInt();
        r.response.body = q.value(4).toByteArray();
        r.response.location = q.value(5).toByteArray();
        r.response.contentType = q.value(6).toByteArray();
        r.expiresAt = q.value(7).toLongLong();
    }
    q.finish();
    return r;
}

bool exists(SqlTx &tx, const QString &sql, const QVariantList &binds)
{
    QSqlQuery &q = tx.exec(sql, binds);
    const bool found = q.next();
    q.finish();
    return found;
}

// Promise 9: payments and refunds of a merchant share one key space, whatever the retention.
bool keyUsedByRefund(SqlTx &tx, const QString &merchant, const QString &key)
{
    return exists(tx, QStringLiteral("SELECT 1 FROM refunds WHERE merchant = ? AND idem_key = ?"), {merchant, key});
}

bool keyUsedByPayment(SqlTx &tx, const QString &merchant, const QString &key)
{
    return exists(tx, QStringLiteral("SELECT 1 FROM payments WHERE merchant = ? AND idem_key = ?"), {merchant, key});
}

// Atomic claim: the primary key decides who owns (merchant, key); never check-then-insert.
bool insertClaim(SqlTx &tx, const QString &merchant, const QString &key, const QByteArray &fingerprint,
                 const QString &resourceId, qint64 now)
{
    return tx.numRowsAffected(QStringLiteral(
        "INSERT INTO idempotency_records (merchant, idem_key, fingerprint, state, resource_id, created_at)"
        " VALUES (?, ?, ?, 'in_progress', ?, ?) ON CONFLICT (merchant, idem_key) DO NOTHING"),
        {merchant, key, fingerprint, resourceId, now}) == 1;
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

// The answer the stored record gives a request with `fingerprint`; with `takeOver`, an
// in-progress record whose lease has lapsed is taken over (the generation moves on).
ClaimOutcome answerFromRecord(SqlTx &tx, const Record &r, const QString &merchant, const QString &key,
                              const QByteArray &fingerprint, bool takeOver, qint64 leaseMs, bool postgres)
{
    ClaimOutcome out;
    if (!r.exists) {
        // The record expired (or was released): a payment keeps its key forever.
        const Payment existing = paymentWhere(tx, QStringLiteral("merchant = ? AND idem_key = ?"), {merchant, key});
        if (existing.isValid()) {
            out.kind = existing.fingerprint == fingerprint ? ClaimOutcome::Kind::ReplayCurrent
                                                           : ClaimOutcome::Kind::Mismatch;
            out.payment = existing;
        } else {
            out.kind = keyUsedByRefund(tx, merchant, key) ? ClaimOutcome::Kind::Mismatch : ClaimOutcome::Kind::Gone;
        }
        return out;
    }
    if (r.fingerprint != fingerprint) {
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
    out.kind = ClaimOutcome::Kind::InProgress;
    if (!takeOver)
        return out;
    const LeaseClock clock = leaseClock(tx, postgres);
    // Take over only a lapsed lease, and only from the generation read: of any number of
    // requests and recovery workers racing for it, one moves the generation on.
    const Payment p = paymentWhere(tx, QStringLiteral("id = ? AND NOT (lease_boot = ? AND lease_expires_at > ?)"),
                                   {r.resourceId, clock.boot, clock.now});
    if (!p.isValid() || p.status != PaymentStatus::Processing)
        return out;
    const bool took = tx.numRowsAffected(QStringLiteral(
        "UPDATE payments SET lease_generation = lease_generation + 1, lease_boot = ?, lease_expires_at = ?"
        " WHERE id = ? AND lease_generation = ?"),
        {clock.boot, clock.now + leaseMs, p.id, p.leaseGeneration}) == 1;
    if (took) {
        out.kind = ClaimOutcome::Kind::Resume;
        out.payment = p;
        out.payment.leaseGeneration = p.leaseGeneration + 1;
    }
    return out;
}

ClaimOutcome claim(SqlTx &tx, const PaymentClaim &c, bool postgres)
{
    ClaimOutcome out;
    const Payment &p = c.draft;
    if (insertClaim(tx, c.merchant, c.key, c.fingerprint, p.id, p.createdAt)) {
        if (keyUsedByRefund(tx, c.merchant, c.key)) {
            deleteRecord(tx, c.merchant, c.key);
            out.kind = ClaimOutcome::Kind::Mismatch;
            return out;
        }
        // The lease starts now, on the store's clock, not when the request was parsed.
        const LeaseClock clock = leaseClock(tx, postgres);
        const bool inserted = tx.numRowsAffected(QStringLiteral(
            "INSERT INTO payments (id, merchant, terminal_id, idem_key, fingerprint, amount, currency,"
            " order_id, payment_method, description, metadata, status, step, created_at, updated_at,"
            " lease_generation, lease_boot, lease_expires_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT (merchant, idem_key) DO NOTHING"),
            {p.id, p.merchant, p.terminalId, p.idempotencyKey, p.fingerprint, p.amount, p.currency,
             p.orderId, p.paymentMethod, nullable(p.description), nullable(p.metadataJson),
             paymentStatusName(p.status), paymentStepName(p.step), p.createdAt, p.updatedAt, clock.boot, clock.now + c.leaseMs}) == 1;
        if (inserted) {
            out.kind = ClaimOutcome::Kind::Claimed;
            out.payment = p;
            out.payment.leaseGeneration = 1;
            return out;
        }
        // The response record had expired, but the payment keeps its key forever.
        deleteRecord(tx, c.merchant, c.key);
        return answerFromRecord(tx, Record{}, c.merchant, c.key, c.fingerprint, false, 0, postgres);
    }
    return answerFromRecord(tx, readRecord(tx, c.merchant, c.key), c.merchant, c.key, c.fingerprint, true,
                            c.leaseMs, postgres);
}

RefundOutcome refund(SqlTx &tx, const RefundRequest &rq)
{
    RefundOutcome out;
    if (!insertClaim(tx, rq.merchant, rq.key, rq.fingerprint, rq.draft.id, rq.now)) {
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
    if (keyUsedByPayment(tx, rq.merchant, rq.key))
        return giveBack(RefundOutcome::Kind::Mismatch, {});
    QSqlQuery &old = tx.exec(QStringLiteral(
        "SELECT r.id, r.payment_id, r.amount, r.reason, r.status, r.created_at, r.fingerprint"
        " FROM refunds r WHERE r.merchant = ? AND r.idem_key = ?"), {rq.merchant, rq.key});
    if (old.next()) {
        // The record expired but the refund keeps its key: answer from the refund row.
        Refund existing{old.value(0).toString(), old.value(1).toString(), old.value(2).toLongLong(),
                        old.value(3).toString(), RefundStatus::Succeeded, old.value(5).toLongLong()};
        if (!refundStatusFromName(old.value(4).toString())) {
            // The row was written in the transaction that executed the refund: it exists only
            // as succeeded, whatever else the column says.
            qCWarning(lcPayments) << "refund" << existing.id << "has unknown status" << old.value(4).toString()
                                  << "in the store; answered as succeeded";
        }
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
    if (p.status != PaymentStatus::Succeeded && p.status != PaymentStatus::PartiallyRefunded)
        return giveBack(RefundOutcome::Kind::NotRefundable, QStringLiteral("A payment with status %1 cannot be refunded.")
                                                                .arg(paymentStatusName(p.status)));
    const Refund &r = rq.draft;
    // The bound is checked by the update itself: two refunds racing on two instances cannot
    // both pass a check made on a value read before the other's commit.
    const bool within = tx.numRowsAffected(QStringLiteral(
        "UPDATE payments SET amount_refunded = amount_refunded + ?,"
        " status = CASE WHEN amount_refunded + ? = amount THEN 'refunded' ELSE 'partially_refunded' END,"
        " updated_at = ? WHERE id = ? AND status IN ('succeeded', 'partially_refunded')"
        " AND amount_refunded + ? <= amount"),
        {r.amount, r.amount, rq.now, p.id, r.amount}) == 1;
    if (!within) {
        const Payment now = paymentWhere(tx, QStringLiteral("id = ?"), {p.id});
        return giveBack(RefundOutcome::Kind::NotRefundable,
                        QStringLiteral("Only %1 of the payment remains to be refunded.").arg(now.amount - now.amountRefunded));
    }
    tx.exec(QStringLiteral(
        "INSERT INTO refunds (id, payment_id, merchant, idem_key, fingerprint, amount, reason, status, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {r.id, r.paymentId, rq.merchant, rq.key, rq.fingerprint, r.amount, nullable(r.reason), refundStatusName(r.status), r.createdAt});
    out.kind = RefundOutcome::Kind::Created;
    out.response = {201, QJsonDocument(r.toJson()).toJson(QJsonDocument::Compact), {},
                    QByteArrayLiteral("application/json")};
    completeRecord(tx, rq.merchant, rq.key, out.response, rq.now + rq.retentionMs);
    return out;
}

StepWrite written(bool ok)
{
    return ok ? StepWrite::Written : StepWrite::Fenced;
}

} // namespace

std::optional<SqlGatewayStore::Options> SqlGatewayStore::fromSpec(const QString &spec, QString *error)
{
    Options o;
    if (!spec.startsWith(QLatin1String("postgresql:")) && !spec.startsWith(QLatin1String("postgres:"))) {
        o.path = spec;
        return o;
    }
    const QUrl url(spec, QUrl::StrictMode);
    const QString db = url.path().mid(1);
    if (!url.isValid() || url.host().isEmpty() || db.isEmpty() || db.contains(QLatin1Char('/'))) {
        *error = QStringLiteral("expected postgresql://USER:PASS@HOST:PORT/DBNAME");
        return std::nullopt;
    }
    o.driver = Driver::PostgreSql;
    o.hostName = url.host();
    o.port = url.port(5432);
    o.userName = url.userName(QUrl::FullyDecoded);
    o.password = url.password(QUrl::FullyDecoded);
    o.path = db;
    return o;
}

SqlGatewayStore::SqlGatewayStore(Options options)
    : m_options(std::move(options))
{
}

SqlGatewayStore::~SqlGatewayStore()
{
    close();
}

bool SqlGatewayStore::open(QString *error)
{
    const int count = isPostgres() ? qBound(1, m_options.connections, 64) : 1;
    for (int i = 0; i < count; ++i) {
        SqlBatchWorker::Options o;
        o.driver = m_options.driver;
        o.path = m_options.path;
        o.hostName = m_options.hostName;
        o.port = m_options.port;
        o.userName = m_options.userName;
        o.password = m_options.password;
        o.connectionName = QStringLiteral("oncepay-gateway-%1").arg(g_connectionCounter.fetchAndAddRelaxed(1));
        o.schemaVersion = schemaVersion;
        o.migrate = isPostgres() ? migratePostgres : migrateSqlite;
        o.busyTimeoutMs = m_options.busyTimeoutMs;
        o.applicationId = 0x4F504757;   // "OPGW"; PostgreSQL: the migration's advisory lock
        o.markerTable = QStringLiteral("idempotency_records");
        if (isPostgres())
            o.maxBatch = 1;
        else
            o.checkpointIntervalMs = 200;
        auto worker = std::make_unique<SqlBatchWorker>(o);
        if (!worker->start(error)) {
            close();
            return false;
        }
        m_workers.push_back(std::move(worker));
    }
    return true;
}

void SqlGatewayStore::close()
{
    for (auto &w : m_workers)
        w->stop();
    m_workers.clear();
}

GatewayStore::Stats SqlGatewayStore::stats() const
{
    Stats s;
    for (const auto &w : m_workers) {
        s.commits += w->batchesCommitted();
        s.units += w->unitsCommitted();
    }
    return s;
}

template <typename R>
void SqlGatewayStore::transact(QObject *context, std::function<R(SqlTx &)> work, Reply<R> reply)
{
    if (m_workers.empty()) {
        QMetaObject::invokeMethod(context, [reply = std::move(reply)] {
            reply(false, QStringLiteral("the store is closed"), R{});
        }, Qt::QueuedConnection);
        return;
    }
    SqlBatchWorker *worker = m_workers[m_next.fetchAndAddRelaxed(1) % m_workers.size()].get();
    worker->transact<R>(context, std::move(work), std::move(reply));
}

void SqlGatewayStore::claimPayment(const PaymentClaim &c, QObject *context, Reply<ClaimOutcome> reply)
{
    const bool pg = isPostgres();
    transact<ClaimOutcome>(context, [c, pg](SqlTx &tx) { return claim(tx, c, pg); }, std::move(reply));
}

void SqlGatewayStore::storedAnswer(const QString &merchant, const QString &key, const QByteArray &fingerprint,
                                   QObject *context, Reply<ClaimOutcome> reply)
{
    const bool pg = isPostgres();
    transact<ClaimOutcome>(context, [merchant, key, fingerprint, pg](SqlTx &tx) {
        return answerFromRecord(tx, readRecord(tx, merchant, key), merchant, key, fingerprint, false, 0, pg);
    }, std::move(reply));
}

void SqlGatewayStore::markAcquirerCalled(const Payment &payment, qint64 leaseMs, qint64 now, QObject *context,
                                         Reply<StepWrite> reply)
{
    const bool pg = isPostgres();
    const QString id = payment.id;
    const qint64 generation = payment.leaseGeneration;
    transact<StepWrite>(context, [id, generation, leaseMs, now, pg](SqlTx &tx) {
        const LeaseClock clock = leaseClock(tx, pg);
        return written(tx.numRowsAffected(QStringLiteral(
            "UPDATE payments SET step = ?, updated_at = ?, lease_expires_at = ?"
            " WHERE id = ? AND lease_generation = ? AND lease_boot = ? AND lease_expires_at > ?"
            " AND status = 'processing' AND step IN ('claimed', 'acquirer_called')"),
            {paymentStepName(PaymentStep::AcquirerCalled), now, clock.now + leaseMs, id, generation, clock.boot, clock.now}) == 1);
    }, std::move(reply));
}

void SqlGatewayStore::settlePayment(const Settlement &s, QObject *context, Reply<StepWrite> reply)
{
    transact<StepWrite>(context, [s](SqlTx &tx) {
        const bool final = s.status != PaymentStatus::Processing;
        // The lease ends with the write: a payment still processing goes to recovery at once.
        const int changed = tx.numRowsAffected(QStringLiteral(
            "UPDATE payments SET status = ?, decline_code = ?, card_brand = ?, card_last4 = ?,"
            " authorization_code = ?, step = ?, updated_at = ?, lease_expires_at = 0"
            " WHERE id = ? AND lease_generation = ? AND status = 'processing'"),
            {paymentStatusName(s.status), nullable(s.declineCode), nullable(s.card.brand), nullable(s.card.last4),
             nullable(s.authorizationCode),
             paymentStepName(final ? PaymentStep::Settled : PaymentStep::AcquirerCalled), s.now, s.paymentId,
             s.leaseGeneration});
        if (changed != 1)
            return StepWrite::Fenced;
        // Recovery keeps a recorded 202: its replay is answered from the payment's current state.
        completeRecord(tx, s.merchant, s.key, s.response, s.now + s.retentionMs, s.recovery);
        return StepWrite::Written;
    }, std::move(reply));
}

void SqlGatewayStore::releaseClaim(const Payment &payment, bool acquirerRefused, QObject *context,
                                   Reply<StepWrite> reply)
{
    const Payment p = payment;
    transact<StepWrite>(context, [p, acquirerRefused](SqlTx &tx) {
        const bool released = tx.numRowsAffected(QStringLiteral(
            "DELETE FROM payments WHERE id = ? AND lease_generation = ? AND status = 'processing'"
            " AND (step = 'claimed' OR ? = 1)"),
            {p.id, p.leaseGeneration, acquirerRefused ? 1 : 0}) == 1;
        if (released)
            tx.exec(QStringLiteral("DELETE FROM idempotency_records WHERE merchant = ? AND idem_key = ?"
                                   " AND state = 'in_progress'"), {p.merchant, p.idempotencyKey});
        return written(released);
    }, std::move(reply));
}

void SqlGatewayStore::releaseLease(const Payment &payment, QObject *context, Reply<StepWrite> reply)
{
    const QString id = payment.id;
    const qint64 generation = payment.leaseGeneration;
    transact<StepWrite>(context, [id, generation](SqlTx &tx) {
        return written(tx.numRowsAffected(QStringLiteral(
            "UPDATE payments SET lease_expires_at = 0 WHERE id = ? AND lease_generation = ?"), {id, generation}) == 1);
    }, std::move(reply));
}

void SqlGatewayStore::ping(QObject *context, Reply<bool> reply)
{
    transact<bool>(context, [](SqlTx &tx) {
        // Touches the payments table: a lock on it (PostgreSQL) makes the store not ready too.
        tx.exec(QStringLiteral("SELECT COUNT(*) FROM (SELECT 1 FROM payments LIMIT 1) AS probe")).finish();
        return true;
    }, std::move(reply));
}

void SqlGatewayStore::findPayment(const QString &merchant, const QString &id, QObject *context, Reply<Payment> reply)
{
    transact<Payment>(context, [merchant, id](SqlTx &tx) {
        return paymentWhere(tx, QStringLiteral("merchant = ? AND id = ?"), {merchant, id});
    }, std::move(reply));
}

void SqlGatewayStore::findPaymentByKey(const QString &merchant, const QString &key, QObject *context,
                                       Reply<Payment> reply)
{
    transact<Payment>(context, [merchant, key](SqlTx &tx) {
        return paymentWhere(tx, QStringLiteral("merchant = ? AND idem_key = ?"), {merchant, key});
    }, std::move(reply));
}

void SqlGatewayStore::listPayments(const ListQuery &lq, QObject *context, Reply<QList<Payment>> reply)
{
    transact<QList<Payment>>(context, [lq](SqlTx &tx) {
        QSqlQuery &q = tx.exec(QStringLiteral(
            "SELECT %1 FROM payments WHERE merchant = ? AND seq > ? AND (COALESCE(?, '') = '' OR terminal_id = ?)"
            " AND created_at > ? ORDER BY seq LIMIT ?").arg(kPaymentColumns),
            {lq.merchant, lq.afterSeq, lq.terminalId, lq.terminalId, lq.createdAfter, lq.limit});
        QList<Payment> out;
        while (q.next())
            out.append(readPayment(q));
        q.finish();
        return out;
    }, std::move(reply));
}

void SqlGatewayStore::createRefund(const RefundRequest &request, QObject *context, Reply<RefundOutcome> reply)
{
    transact<RefundOutcome>(context, [request](SqlTx &tx) { return refund(tx, request); }, std::move(reply));
}

void SqlGatewayStore::takeRecoveryWork(qint64 leaseMs, int limit, QObject *context, Reply<QList<RecoveryItem>> reply)
{
    const bool pg = isPostgres();
    transact<QList<RecoveryItem>>(context, [leaseMs, limit, pg](SqlTx &tx) {
        const LeaseClock clock = leaseClock(tx, pg);
        // PostgreSQL: rows another instance's recovery is taking right now are skipped, not
        // waited for; the generation check below makes the takeover exclusive either way.
        QSqlQuery &q = tx.exec(QStringLiteral(
            "SELECT r.state, %1 FROM payments p"
            " LEFT JOIN idempotency_records r ON r.merchant = p.merchant AND r.idem_key = p.idem_key"
            " WHERE p.status = 'processing' AND NOT (p.lease_boot = ? AND p.lease_expires_at > ?)"
            " ORDER BY p.seq LIMIT ?%2").arg(prefixed(kPaymentColumns, QStringLiteral("p")),
                                             pg ? QStringLiteral(" FOR UPDATE OF p SKIP LOCKED") : QString()),
            {clock.boot, clock.now, limit});
        QList<RecoveryItem> rows;
        while (q.next())
            rows.append(RecoveryItem{readPayment(q, 1), q.value(0).toString() != QLatin1String("in_progress")});
        q.finish();
        QList<RecoveryItem> out;
        for (RecoveryItem item : rows) {
            if (tx.numRowsAffected(QStringLiteral(
                    "UPDATE payments SET lease_generation = lease_generation + 1, lease_boot = ?, lease_expires_at = ?"
                    " WHERE id = ? AND lease_generation = ?"),
                    {clock.boot, clock.now + leaseMs, item.payment.id, item.payment.leaseGeneration}) != 1)
                continue;
            ++item.payment.leaseGeneration;
            out.append(item);
        }
        return out;
    }, std::move(reply));
}

void SqlGatewayStore::sweepExpiredRecords(qint64 now, int limit, QObject *context, Reply<int> reply)
{
    const bool pg = isPostgres();
    transact<int>(context, [now, limit, pg](SqlTx &tx) {
        return tx.numRowsAffected(QStringLiteral(
            "DELETE FROM idempotency_records WHERE (merchant, idem_key) IN (SELECT merchant, idem_key"
            " FROM idempotency_records WHERE state = 'completed' AND expires_at < ? LIMIT ?%1)")
                                      .arg(pg ? QStringLiteral(" FOR UPDATE SKIP LOCKED") : QString()),
            {now, limit});
    }, std::move(reply));
}

} // namespace OncePay::Gateway
