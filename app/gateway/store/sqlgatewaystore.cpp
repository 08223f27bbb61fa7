#include "gateway/store/sqlgatewaystore.h"

#include "gateway/store/gatewayschema.h"
#include "gateway/store/cancelrows.h"
#include "gateway/store/idempotencyrecords.h"
#include "gateway/paymentlog.h"
#include "gateway/store/paymentrows.h"
#include "gateway/store/pgsinglestatements.h"
#include "gateway/store/refundrows.h"
#include "gateway/store/reviewrows.h"
#include "gateway/store/storeplacement.h"
#include "databasespec.h"

#include <QAtomicInt>
#include <QPointer>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QStorageInfo>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QUrl>

#include <ctime>
#include <optional>
#include <utility>
#include <type_traits>

#include <sys/statvfs.h>

namespace OncePay::Gateway {

namespace {

QAtomicInt g_connectionCounter;

using Driver = SqlBatchWorker::Driver;

// Bytes this process may still write on the file system holding `folder` (statvfs: no walk of
// the mount table, cheap enough for every new claim); -1 when it cannot be asked.
qint64 freeBytesAt(const QByteArray &folder)
{
    struct statvfs s
    {};
    if (statvfs(folder.constData(), &s) != 0)
        return -1;
    return qint64(s.f_bavail) * qint64(s.f_frsize);
}

// A new key is claimed only while the disk keeps `minFree` free: below it a claim that fits
// might not leave room for its outcome, so the claim is undone (the unit rolls back: nothing is
// recorded, nothing will be sent, promise 10's 503). Keys already recorded are answered as ever.
void refuseNewClaimOnAFullDisk(const QByteArray &folder, qint64 minFree)
{
    if (minFree <= 0)
        return;
    const qint64 free = freeBytesAt(folder);
    if (free >= 0 && free < minFree) {
        throw SqlError(QStringLiteral("the disk holding the store has %1 free, less than the %2 it keeps free")
                           .arg(QLocale::c().formattedDataSize(free), QLocale::c().formattedDataSize(minFree)));
    }
}

StepWrite written(bool ok)
{
    return ok ? StepWrite::Written : StepWrite::Fenced;
}

}   // namespace

std::optional<SqlGatewayStore::Options> SqlGatewayStore::fromSpec(const QString &spec, QString *error)
{
    const std::optional<DatabaseSpec> db = DatabaseSpec::parse(spec, error);
    if (!db)
        return std::nullopt;
    Options o;
    o.driver = db->driver;
    o.path = db->path;
    o.hostName = db->hostName;
    o.port = db->port;
    o.userName = db->userName;
    o.password = db->password;
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
    if (!isPostgres()) {
        // SQLite leases hold on this machine only (storeplacement.h): refuse a shared file.
        QString why;
        if (!StorePlacement::readBootId(QString::fromLatin1(StorePlacement::kBootIdPath), &why)) {
            *error = QStringLiteral("%1: a SQLite store needs it to measure leases").arg(why);
            return false;
        }
        if (m_options.sqliteVfs.isEmpty() && !StorePlacement::checkLocalFolder(QFileInfo(m_options.path).absolutePath(), error))
            return false;
    }
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
        o.sqliteVfs = m_options.sqliteVfs;
        o.threading = m_options.threading;
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
void SqlGatewayStore::transact(QObject *context, std::function<R(SqlTx &)> work, Reply<R> reply, bool singleStatement)
{
    if (m_workers.empty()) {
        QMetaObject::invokeMethod(
            context, [reply = std::move(reply)] {
                reply(false, QStringLiteral("the store is closed"), R{});
            },
            Qt::QueuedConnection);
        return;
    }
    SqlBatchWorker *worker = m_workers[m_next.fetchAndAddRelaxed(1) % m_workers.size()].get();
    worker->transactChecked<R>(
        context, std::move(work), [reply = std::move(reply)](SqlBatchWorker::Commit commit, const QString &error, R value) {
            // A unit whose COMMIT may have happened must not be answered as "nothing happened".
            if (commit == SqlBatchWorker::Commit::Unknown)
                markCommitUnknown(value);
            reply(commit == SqlBatchWorker::Commit::Done, error, std::move(value));
        },
        singleStatement);
}

void SqlGatewayStore::claimPayment(const PaymentClaim &c, QObject *context, Reply<ClaimOutcome> reply)
{
    const bool pg = isPostgres();
    if (!pg) {
        const QByteArray folder = QFile::encodeName(QFileInfo(m_options.path).absolutePath());
        const qint64 minFree = m_options.minFreeBytes;
        transact<ClaimOutcome>(
            context, [c, folder, minFree](SqlTx &tx) {
                ClaimOutcome out = Gateway::claimPayment(tx, c, false);
                if (out.kind == ClaimOutcome::Kind::Claimed)
                    refuseNewClaimOnAFullDisk(folder, minFree);
                return out;
            },
            std::move(reply));
        return;
    }
    // PostgreSQL: a new key is claimed in one statement (one round trip); anything else (a key
    // seen before, a refund's key) takes the full transaction.
    QPointer<QObject> guard(context);
    transact<std::optional<ClaimOutcome>>(
        context, [c](SqlTx &tx) {
            return claimNewKey(tx, c);
        },
        [this, c, guard, reply](bool ok, const QString &error, std::optional<ClaimOutcome> fresh) {
            if (!ok)
                return reply(false, error, fresh.value_or(ClaimOutcome{}));   // commitUnknown kept
            if (fresh)
                return reply(true, {}, *fresh);
            if (guard)
                transact<ClaimOutcome>(
                    guard, [c](SqlTx &tx) {
                        return Gateway::claimPayment(tx, c, true);
                    },
                    reply);
        },
        true);
}

void SqlGatewayStore::storedAnswer(const QString &merchant, const QString &key, const QByteArray &fingerprint,
    QObject *context, Reply<ClaimOutcome> reply)
{
    const bool pg = isPostgres();
    transact<ClaimOutcome>(
        context, [merchant, key, fingerprint, pg](SqlTx &tx) {
            return paymentAnswerFromRecord(tx, readRecord(tx, merchant, key), merchant, key, fingerprint, false, 0, pg);
        },
        std::move(reply));
}

void SqlGatewayStore::markAcquirerCalled(const LeasedRow &row, qint64 leaseMs, qint64 now, QObject *context,
    Reply<StepWrite> reply)
{
    const bool pg = isPostgres();
    transact<StepWrite>(
        context, [row, leaseMs, now, pg](SqlTx &tx) {
            return written(markCalled(tx, row.table, row.id, row.generation, leaseMs, now, pg));
        },
        std::move(reply), pg);
}

void SqlGatewayStore::releaseClaim(const LeasedRow &row, bool acquirerRefused, QObject *context, Reply<StepWrite> reply)
{
    transact<StepWrite>(
        context, [row, acquirerRefused](SqlTx &tx) {
            return written(Gateway::releaseClaim(tx, row, acquirerRefused));
        },
        std::move(reply));
}

void SqlGatewayStore::releaseLease(const LeasedRow &row, QObject *context, Reply<StepWrite> reply)
{
    transact<StepWrite>(
        context, [row](SqlTx &tx) {
            return written(endLease(tx, row.table, row.id, row.generation));
        },
        std::move(reply));
}

void SqlGatewayStore::checkKeyWindow(const LeasedRow &row, qint64 windowMs, const StoredResponse &response,
    qint64 retentionMs, QObject *context, Reply<KeyWindow> reply)
{
    const bool pg = isPostgres();
    transact<KeyWindow>(
        context, [row, windowMs, response, retentionMs, pg](SqlTx &tx) {
            const KeyWindow w = Gateway::checkKeyWindow(tx, row.table, row.id, row.generation, windowMs, row.updatedAt, pg);
            if (w == KeyWindow::Review)   // replays answer the row's current state from now on
                completeRecord(tx, row.merchant, row.idempotencyKey, response, row.updatedAt + retentionMs, true);
            return w;
        },
        std::move(reply));
}

void SqlGatewayStore::listNeedsReview(QObject *context, Reply<ReviewList> reply)
{
    transact<ReviewList>(
        context, [](SqlTx &tx) {
            ReviewList out;
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM payments WHERE needs_review = 1 AND status = 'processing'"
                                                  " ORDER BY created_at, id")
                                       .arg(kPaymentColumns));
            while (q.next())
                out.payments.append(readPayment(q));
            q.finish();
            out.refunds = refundsWhere(tx, QStringLiteral("r.needs_review = 1 AND r.status = 'processing'"), {}, 100000);
            return out;
        },
        std::move(reply));
}

void SqlGatewayStore::resolveReview(const QString &id, const QString &outcome, qint64 leaseMs, QObject *context,
    Reply<ReviewResolution> reply)
{
    const bool pg = isPostgres();
    transact<ReviewResolution>(
        context, [id, outcome, leaseMs, pg](SqlTx &tx) {
            return Gateway::resolveReview(tx, id, outcome, leaseMs, pg);
        },
        std::move(reply));
}

void SqlGatewayStore::settlePayment(const Settlement &s, QObject *context, Reply<StepWrite> reply)
{
    const bool pg = isPostgres();
    if (pg && s.cancelAnswerBody.isEmpty()) {
        transact<StepWrite>(
            context, [s](SqlTx &tx) {
                return settlePaymentAlone(tx, s);
            },
            std::move(reply), true);
        return;
    }
    transact<StepWrite>(
        context, [s, pg](SqlTx &tx) {
            if (pg) {
                const StepWrite w = settlePaymentAlone(tx, s);
                if (w == StepWrite::Written)
                    answerCancels(tx, s);
                return w;
            }
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
            answerCancels(tx, s);
            return StepWrite::Written;
        },
        std::move(reply));
}

void SqlGatewayStore::claimCancel(const CancelClaim &claim, QObject *context, Reply<CancelOutcome> reply)
{
    const bool pg = isPostgres();
    transact<CancelOutcome>(
        context, [claim, pg](SqlTx &tx) {
            return Gateway::claimCancel(tx, claim, pg);
        },
        std::move(reply));
}

void SqlGatewayStore::requestCancel(const LeasedRow &row, const QString &reason, QObject *context, Reply<StepWrite> reply)
{
    transact<StepWrite>(
        context, [row, reason](SqlTx &tx) {
            return Gateway::requestCancel(tx, row, reason);
        },
        std::move(reply));
}

void SqlGatewayStore::ping(QObject *context, Reply<bool> reply)
{
    const qint64 minFree = isPostgres() ? 0 : m_options.minFreeBytes;
    const QString folder = QFileInfo(m_options.path).absolutePath();
    transact<bool>(
        context, [minFree, folder](SqlTx &tx) {
            // Touches the payments table: a lock on it (PostgreSQL) makes the store not ready too.
            tx.exec(QStringLiteral("SELECT COUNT(*) FROM (SELECT 1 FROM payments LIMIT 1) AS probe")).finish();
            // A full disk still answers reads, and fails every payment: not ready either.
            if (minFree > 0) {
                const QStorageInfo disk(folder);
                if (disk.isValid() && disk.isReady() && disk.bytesAvailable() < minFree)
                    throw SqlError(QStringLiteral("the disk holding it (%1) has %2 free, less than the %3 it keeps free")
                                       .arg(disk.rootPath(), QLocale::c().formattedDataSize(disk.bytesAvailable()),
                                           QLocale::c().formattedDataSize(minFree)));
            }
            return true;
        },
        std::move(reply));
}

void SqlGatewayStore::findPayment(const QString &merchant, const QString &id, QObject *context, Reply<Payment> reply)
{
    transact<Payment>(
        context, [merchant, id](SqlTx &tx) {
            return paymentWhere(tx, QStringLiteral("merchant = ? AND id = ?"), {merchant, id});
        },
        std::move(reply));
}

void SqlGatewayStore::findPaymentByKey(const QString &merchant, const QString &key, QObject *context,
    Reply<Payment> reply)
{
    transact<Payment>(
        context, [merchant, key](SqlTx &tx) {
            return paymentWhere(tx, QStringLiteral("merchant = ? AND idem_key = ?"), {merchant, key});
        },
        std::move(reply));
}

void SqlGatewayStore::listPayments(const ListQuery &lq, QObject *context, Reply<QList<Payment>> reply)
{
    transact<QList<Payment>>(
        context, [lq](SqlTx &tx) {
            QSqlQuery &q = tx.exec(QStringLiteral(
                                       "SELECT %1 FROM payments WHERE merchant = ? AND seq > ? AND (COALESCE(?, '') = '' OR terminal_id = ?)"
                                       " AND created_at > ? ORDER BY seq LIMIT ?")
                                       .arg(kPaymentColumns),
                {lq.merchant, lq.afterSeq, lq.terminalId, lq.terminalId, lq.createdAfter, lq.limit});
            QList<Payment> out;
            while (q.next())
                out.append(readPayment(q));
            q.finish();
            return out;
        },
        std::move(reply));
}

void SqlGatewayStore::claimRefund(const RefundClaim &claim, QObject *context, Reply<RefundClaimOutcome> reply)
{
    const bool pg = isPostgres();
    const QByteArray folder = QFile::encodeName(QFileInfo(m_options.path).absolutePath());
    const qint64 minFree = pg ? 0 : m_options.minFreeBytes;
    transact<RefundClaimOutcome>(
        context, [claim, pg, folder, minFree](SqlTx &tx) {
            RefundClaimOutcome out = Gateway::claimRefund(tx, claim, pg);
            if (out.kind == RefundClaimOutcome::Kind::Claimed)
                refuseNewClaimOnAFullDisk(folder, minFree);
            return out;
        },
        std::move(reply));
}

void SqlGatewayStore::storedRefundAnswer(const QString &merchant, const QString &key, const QByteArray &fingerprint,
    QObject *context, Reply<RefundClaimOutcome> reply)
{
    const bool pg = isPostgres();
    transact<RefundClaimOutcome>(
        context, [merchant, key, fingerprint, pg](SqlTx &tx) {
            return refundAnswerFromRecord(tx, merchant, key, fingerprint, false, 0, pg);
        },
        std::move(reply));
}

void SqlGatewayStore::settleRefund(const RefundSettlement &settlement, QObject *context, Reply<StepWrite> reply)
{
    transact<StepWrite>(
        context, [settlement](SqlTx &tx) {
            return Gateway::settleRefund(tx, settlement);
        },
        std::move(reply));
}

void SqlGatewayStore::findRefund(const QString &merchant, const QString &id, QObject *context, Reply<Refund> reply)
{
    transact<Refund>(
        context, [merchant, id](SqlTx &tx) {
            return refundWhere(tx, QStringLiteral("r.merchant = ? AND r.id = ?"), {merchant, id});
        },
        std::move(reply));
}

void SqlGatewayStore::findRefundByKey(const QString &merchant, const QString &key, QObject *context, Reply<Refund> reply)
{
    transact<Refund>(
        context, [merchant, key](SqlTx &tx) {
            return refundWhere(tx, QStringLiteral("r.merchant = ? AND r.idem_key = ?"), {merchant, key});
        },
        std::move(reply));
}

void SqlGatewayStore::listRefunds(const QString &merchant, const QString &paymentId, QObject *context,
    Reply<RefundList> reply)
{
    transact<RefundList>(
        context, [merchant, paymentId](SqlTx &tx) {
            return Gateway::listRefunds(tx, merchant, paymentId);
        },
        std::move(reply));
}

void SqlGatewayStore::takeRefundRecoveryWork(qint64 leaseMs, int limit, QObject *context, Reply<QList<Refund>> reply)
{
    const bool pg = isPostgres();
    transact<QList<Refund>>(
        context, [leaseMs, limit, pg](SqlTx &tx) {
            return Gateway::takeRefundRecoveryWork(tx, leaseMs, limit, pg);
        },
        std::move(reply));
}

void SqlGatewayStore::takeRecoveryWork(qint64 leaseMs, int limit, QObject *context, Reply<QList<RecoveryItem>> reply)
{
    const bool pg = isPostgres();
    transact<QList<RecoveryItem>>(
        context, [leaseMs, limit, pg](SqlTx &tx) {
            const LeaseClock clock = leaseClock(tx, pg);
            // PostgreSQL: rows another instance's recovery is taking right now are skipped, not
            // waited for; the generation check below makes the takeover exclusive either way.
            QSqlQuery &q = tx.exec(QStringLiteral(
                                       "SELECT r.state, %1 FROM payments p"
                                       " LEFT JOIN idempotency_records r ON r.merchant = p.merchant AND r.idem_key = p.idem_key"
                                       " WHERE p.status = 'processing' AND p.needs_review = 0 AND NOT (p.lease_boot = ? AND p.lease_expires_at > ?)"
                                       " ORDER BY p.seq LIMIT ?%2")
                                       .arg(prefixed(kPaymentColumns, QStringLiteral("p")),
                                           pg ? QStringLiteral(" FOR UPDATE OF p SKIP LOCKED") : QString()),
                {clock.boot, clock.now, limit});
            QList<RecoveryItem> rows;
            while (q.next())
                rows.append(RecoveryItem{readPayment(q, 1), q.value(0).toString() != QLatin1String("in_progress")});
            q.finish();
            QList<RecoveryItem> out;
            for (const RecoveryItem &row : rows) {
                if (tx.numRowsAffected(QStringLiteral(
                                           "UPDATE payments SET lease_generation = lease_generation + 1, lease_boot = ?, lease_expires_at = ?"
                                           " WHERE id = ? AND lease_generation = ?"),
                        {clock.boot, clock.now + leaseMs, row.payment.id, row.payment.leaseGeneration})
                    != 1)
                    continue;
                RecoveryItem item = row;
                ++item.payment.leaseGeneration;
                out.append(item);
            }
            return out;
        },
        std::move(reply));
}

void SqlGatewayStore::sweepExpiredRecords(qint64 now, int limit, QObject *context, Reply<int> reply)
{
    const bool pg = isPostgres();
    transact<int>(
        context, [now, limit, pg](SqlTx &tx) {
            return tx.numRowsAffected(QStringLiteral(
                                          "DELETE FROM idempotency_records WHERE (merchant, idem_key) IN (SELECT merchant, idem_key"
                                          " FROM idempotency_records WHERE state = 'completed' AND expires_at < ? LIMIT ?%1)")
                                          .arg(pg ? QStringLiteral(" FOR UPDATE SKIP LOCKED") : QString()),
                {now, limit});
        },
        std::move(reply));
}

}   // namespace OncePay::Gateway
