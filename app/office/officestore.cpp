#include "office/officestore.h"

#include "bearertoken.h"
#include "office/officeschema.h"
#include "timeutil.h"

#include <QAtomicInt>
#include <QEventLoop>
#include <QLoggingCategory>
#include <QPointer>
#include <QSqlQuery>

namespace OncePay::Office {

Q_LOGGING_CATEGORY(lcOfficeStore, "oncepay.office.store", QtInfoMsg)

namespace {

QAtomicInt g_connectionCounter;

QVariant nullable(const QString &text)
{
    return text.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(text);
}

// Qt binds a null QString as NULL; the columns that mean "every store" or "no till" hold ''.
QString notNull(const QString &text)
{
    return text.isNull() ? QStringLiteral("") : text;
}

// Thrown to roll a batch back once it has started writing: another instance stored one of its
// seqs with another fingerprint while this one was applying it (PostgreSQL).
SqlError refusedMidway()
{
    return SqlError(QStringLiteral("event-mismatch: another instance stored one of the batch's seqs differently"));
}

// Events go in by the dozen: one statement for many rows costs one execution, not one each.
// 15 values a row, well under SQLite's 32,766 and PostgreSQL's 65,535 parameters.
constexpr qsizetype kRowsPerInsert = 50;

QString insertStatement(qsizetype rows)
{
    QString sql = QStringLiteral("INSERT INTO events (merchant, store, till, seq, kind, at, at_ms, fingerprint, data,"
                                 " received_at, state, staff, currency, number, amount) VALUES ");
    for (qsizetype i = 0; i < rows; ++i)
        sql += i ? QStringLiteral(", (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") : QStringLiteral("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    return sql + QStringLiteral(" ON CONFLICT (merchant, store, till, seq) DO NOTHING");
}

// The batch as one unit of work. What was already stored is compared first, so that a refusal
// writes nothing; the new events then go in by their key, and a key some other writer took in
// the meantime (another instance on the same PostgreSQL database) is a replay or a mismatch,
// never a second copy.
void applyInTx(SqlTx &tx, const OfficeCaller &c, const EventBatch &b, BatchOutcome &out)
{
    QSqlQuery &max = tx.exec(QStringLiteral("SELECT COALESCE(MAX(seq), 0) FROM events WHERE merchant = ? AND store = ? AND till = ?"),
        {c.merchant, c.store, c.till});
    const qint64 last = max.next() ? max.value(0).toLongLong() : 0;
    max.finish();
    out.lastSeq = last;
    if (b.events.isEmpty())
        return;
    const qint64 first = b.events.constFirst().seq;
    const qint64 lastInBatch = b.events.constLast().seq;
    if (first > last + 1) {
        out.kind = BatchOutcome::Kind::Gap;
        out.expectedSeq = last + 1;
        out.refusedSeq = first;
        return;
    }
    if (first <= last) {
        QSqlQuery &stored = tx.exec(QStringLiteral("SELECT seq, fingerprint FROM events WHERE merchant = ? AND store = ?"
                                                   " AND till = ? AND seq BETWEEN ? AND ? ORDER BY seq"),
            {c.merchant, c.store, c.till, first, qMin(last, lastInBatch)});
        while (stored.next()) {
            const qint64 seq = stored.value(0).toLongLong();
            if (stored.value(1).toString().toLatin1() != b.events.at(seq - first).fingerprint) {
                stored.finish();
                out.kind = BatchOutcome::Kind::Mismatch;
                out.mismatchSeq = seq;
                out.replayed = 0;
                return;
            }
            ++out.replayed;
        }
        stored.finish();
    }
    const qint64 now = nowMs();
    for (qsizetype from = qMax<qint64>(0, last + 1 - first); from < b.events.size(); from += kRowsPerInsert) {
        const qsizetype rows = qMin<qsizetype>(kRowsPerInsert, b.events.size() - from);
        QVariantList binds;
        binds.reserve(rows * 15);
        for (qsizetype i = from; i < from + rows; ++i) {
            const OfficeEvent &e = b.events.at(i);
            binds << c.merchant << c.store << c.till << e.seq << e.kind << e.at << e.atMs << QString::fromLatin1(e.fingerprint)
                  << QString::fromUtf8(e.data) << now << nullable(e.state) << nullable(e.staff) << nullable(e.currency)
                  << nullable(e.number) << (e.hasAmount ? QVariant(e.amount) : QVariant(QMetaType::fromType<qint64>()));
        }
        const int inserted = tx.numRowsAffected(insertStatement(rows), binds);
        out.applied += inserted;
        if (inserted == rows)
            continue;
        // Another writer stored some of these seqs meanwhile: each must be the same event.
        const OfficeEvent &head = b.events.at(from);
        QSqlQuery &q = tx.exec(QStringLiteral("SELECT seq, fingerprint FROM events WHERE merchant = ? AND store = ?"
                                              " AND till = ? AND seq BETWEEN ? AND ?"),
            {c.merchant, c.store, c.till, head.seq, head.seq + rows - 1});
        while (q.next()) {
            const qint64 seq = q.value(0).toLongLong();
            if (q.value(1).toString().toLatin1() != b.events.at(from + (seq - head.seq)).fingerprint) {
                q.finish();
                out.kind = BatchOutcome::Kind::Mismatch;
                out.mismatchSeq = seq;
                throw refusedMidway();
            }
        }
        q.finish();
        out.replayed += int(rows) - inserted;
    }
    out.lastSeq = qMax(last, lastInBatch);
}

// The merchant, store and till rows a token needs, made if missing.
void ensurePlace(SqlTx &tx, const QString &merchant, const QString &store, const QString &till, qint64 now)
{
    tx.exec(QStringLiteral("INSERT INTO merchants (merchant, created_at) VALUES (?, ?) ON CONFLICT (merchant) DO NOTHING"),
          {merchant, now})
        .finish();
    if (store.isEmpty())
        return;
    tx.exec(QStringLiteral("INSERT INTO stores (merchant, store, created_at) VALUES (?, ?, ?) ON CONFLICT (merchant, store) DO NOTHING"),
          {merchant, store, now})
        .finish();
    if (till.isEmpty())
        return;
    tx.exec(QStringLiteral("INSERT INTO tills (merchant, store, till, created_at) VALUES (?, ?, ?, ?)"
                           " ON CONFLICT (merchant, store, till) DO NOTHING"),
          {merchant, store, till, now})
        .finish();
}

const QString kEventColumns = QStringLiteral("store, till, seq, kind, at, at_ms, data");

QList<OfficeReports::StoredEvent> readEvents(QSqlQuery &q)
{
    QList<OfficeReports::StoredEvent> out;
    while (q.next()) {
        out.append({q.value(0).toString(), q.value(1).toString(), q.value(2).toLongLong(), q.value(3).toString(),
            q.value(4).toString(), q.value(5).toLongLong(), q.value(6).toString().toUtf8()});
    }
    q.finish();
    return out;
}

}   // namespace

OfficeStore::OfficeStore(Options options)
    : m_options(std::move(options))
{
}

OfficeStore::~OfficeStore()
{
    close();
}

bool OfficeStore::open(QString *error)
{
    const int count = isPostgres() ? qBound(1, m_options.connections, 64) : 1;
    for (int i = 0; i < count; ++i) {
        SqlBatchWorker::Options o;
        m_options.db.applyTo(o);
        o.connectionName = QStringLiteral("oncepay-office-%1").arg(g_connectionCounter.fetchAndAddRelaxed(1));
        o.schemaVersion = OfficeSchema::version;
        o.migrate = isPostgres() ? OfficeSchema::migratePostgres : OfficeSchema::migrateSqlite;
        o.busyTimeoutMs = m_options.busyTimeoutMs;
        o.applicationId = 0x4F504F46;   // "OPOF"; PostgreSQL: the migration's advisory lock
        o.markerTable = QStringLiteral("events");
        if (isPostgres())
            o.maxBatch = 1;   // see SqlBatchWorker::Options::maxBatch
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

void OfficeStore::close()
{
    for (auto &w : m_workers)
        w->stop();
    m_workers.clear();
}

template <typename R>
void OfficeStore::transact(QObject *context, std::function<R(SqlTx &)> work, Reply<R> reply)
{
    if (m_workers.empty()) {
        QMetaObject::invokeMethod(
            context, [reply = std::move(reply)] {
                reply(Commit::Failed, QStringLiteral("the store is closed"), R{});
            },
            Qt::QueuedConnection);
        return;
    }
    SqlBatchWorker *worker = m_workers[m_next.fetchAndAddRelaxed(1) % m_workers.size()].get();
    worker->transactChecked<R>(context, std::move(work), std::move(reply));
}

template <typename R>
bool OfficeStore::transactNow(std::function<R(SqlTx &)> work, R *result, QString *error)
{
    QEventLoop loop;
    bool ok = false;
    transact<R>(&loop, std::move(work), [&](Commit commit, const QString &why, R value) {
        ok = commit == Commit::Done;
        *error = why;
        *result = std::move(value);
        loop.quit();
    });
    loop.exec();
    return ok;
}

void OfficeStore::applyBatch(const OfficeCaller &till, const EventBatch &batch, QObject *context, Reply<BatchOutcome> reply)
{
    // The outcome is kept outside the unit: a batch refused midway throws to roll back, and its
    // answer (which seq) must survive the throw.
    auto out = std::make_shared<BatchOutcome>();
    transact<bool>(
        context, [till, batch, out](SqlTx &tx) {
            *out = BatchOutcome{};
            applyInTx(tx, till, batch, *out);
            return true;
        },
        [out, reply = std::move(reply)](Commit commit, const QString &error, bool) {
            reply(commit, error, *out);
        });
}

void OfficeStore::recordRefusal(const OfficeCaller &till, const BatchOutcome &refused, QObject *context)
{
    const QString problem = refused.kind == BatchOutcome::Kind::Gap ? QStringLiteral("seq-gap") : QStringLiteral("event-mismatch");
    const qint64 seq = refused.kind == BatchOutcome::Kind::Gap ? refused.refusedSeq : refused.mismatchSeq;
    const QVariant expected = refused.kind == BatchOutcome::Kind::Gap ? QVariant(refused.expectedSeq)
                                                                      : QVariant(QMetaType::fromType<qint64>());
    const qint64 now = nowMs();
    transact<bool>(
        context, [till, problem, seq, expected, now](SqlTx &tx) {
            tx.exec(QStringLiteral("INSERT INTO refusals (merchant, store, till, problem, seq, expected_seq, refusals, first_at, last_at)"
                                   " VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT (merchant, store, till) DO UPDATE SET"
                                   " problem = excluded.problem, seq = excluded.seq, expected_seq = excluded.expected_seq,"
                                   " refusals = refusals.refusals + 1, last_at = excluded.last_at"),
                  {till.merchant, till.store, till.till, problem, seq, expected, now, now})
                .finish();
            return true;
        },
        [](Commit commit, const QString &error, bool) {
            if (commit != Commit::Done)
                qCWarning(lcOfficeStore) << "a refused batch could not be noted:" << error;
        });
}

void OfficeStore::positions(const QString &merchant, const QString &store, const QString &till, QObject *context,
    Reply<QList<Position>> reply)
{
    transact<QList<Position>>(
        context, [merchant, store, till](SqlTx &tx) {
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT t.store, COALESCE((SELECT MAX(e.seq) FROM events e WHERE e.merchant = t.merchant"
                                                  " AND e.store = t.store AND e.till = t.till), 0)"
                                                  " FROM tills t WHERE t.merchant = ? AND t.till = ? AND (? = '' OR t.store = ?)"
                                                  " ORDER BY t.store"),
                {merchant, till, notNull(store), notNull(store)});
            QList<Position> out;
            while (q.next())
                out.append({q.value(0).toString(), q.value(1).toLongLong()});
            q.finish();
            return out;
        },
        std::move(reply));
}

void OfficeStore::reportEvents(const QString &merchant, const QString &store, const QString &till, qint64 fromMs,
    qint64 toMs, QObject *context, Reply<QList<StoredEvent>> reply)
{
    transact<QList<StoredEvent>>(
        context, [=](SqlTx &tx) {
            return readEvents(tx.exec(QStringLiteral("SELECT %1 FROM events WHERE merchant = ? AND at_ms >= ? AND at_ms < ?"
                                                     " AND kind IN ('sale', 'refund') AND (? = '' OR store = ?) AND (? = '' OR till = ?)"
                                                     " ORDER BY at_ms, store, till, seq")
                                          .arg(kEventColumns),
                {merchant, fromMs, toMs, notNull(store), notNull(store), notNull(till), notNull(till)}));
        },
        std::move(reply));
}

void OfficeStore::shiftEvents(const QString &merchant, const QString &store, qint64 fromMs, qint64 toMs, QObject *context,
    Reply<QList<ShiftEvents>> reply)
{
    transact<QList<ShiftEvents>>(
        context, [=](SqlTx &tx) {
            QList<ShiftEvents> out;
            const QList<StoredEvent> shifts = readEvents(tx.exec(QStringLiteral("SELECT %1 FROM events WHERE merchant = ?"
                                                                                " AND at_ms >= ? AND at_ms < ? AND kind = 'shift'"
                                                                                " AND (? = '' OR store = ?) ORDER BY at_ms, store, till, seq")
                                                                     .arg(kEventColumns),
                {merchant, fromMs, toMs, notNull(store), notNull(store)}));
            for (const StoredEvent &s : shifts) {
                QSqlQuery &prev = tx.exec(QStringLiteral("SELECT COALESCE(MAX(seq), 0) FROM events WHERE merchant = ? AND store = ?"
                                                         " AND till = ? AND kind = 'shift' AND seq < ?"),
                    {merchant, s.store, s.till, s.seq});
                const qint64 since = prev.next() ? prev.value(0).toLongLong() : 0;
                prev.finish();
                out.append({s, readEvents(tx.exec(QStringLiteral("SELECT %1 FROM events WHERE merchant = ? AND store = ? AND till = ?"
                                                                 " AND seq > ? AND seq < ? AND kind IN ('sale', 'refund') ORDER BY seq")
                                                      .arg(kEventColumns),
                                   {merchant, s.store, s.till, since, s.seq}))});
            }
            return out;
        },
        std::move(reply));
}

void OfficeStore::tillStates(const QString &merchant, const QString &store, QObject *context, Reply<QList<TillState>> reply)
{
    transact<QList<TillState>>(
        context, [=](SqlTx &tx) {
            // A till's last event is its highest seq: one row by the primary key, whatever the database.
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT t.store, t.till, t.created_at, e.seq, e.at, e.at_ms, e.received_at,"
                                                  " r.problem, r.seq, r.expected_seq, r.refusals, r.last_at FROM tills t"
                                                  " LEFT JOIN events e ON e.merchant = t.merchant AND e.store = t.store AND e.till = t.till"
                                                  " AND e.seq = (SELECT MAX(m.seq) FROM events m WHERE m.merchant = t.merchant"
                                                  " AND m.store = t.store AND m.till = t.till)"
                                                  " LEFT JOIN refusals r ON r.merchant = t.merchant AND r.store = t.store AND r.till = t.till"
                                                  " WHERE t.merchant = ? AND (? = '' OR t.store = ?) ORDER BY t.store, t.till"),
                {merchant, notNull(store), notNull(store)});
            QList<TillState> out;
            while (q.next()) {
                TillState s;
                s.store = q.value(0).toString();
                s.till = q.value(1).toString();
                s.createdAt = q.value(2).toLongLong();
                s.lastSeq = q.value(3).toLongLong();
                s.lastAt = q.value(4).toString();
                s.lastAtMs = q.value(5).toLongLong();
                s.lastReceivedAt = q.value(6).toLongLong();
                s.problem = q.value(7).toString();
                s.refusedSeq = q.value(8).toLongLong();
                s.expectedSeq = q.value(9).toLongLong();
                s.refusals = q.value(10).toLongLong();
                s.refusedAt = q.value(11).toLongLong();
                out.append(s);
            }
            q.finish();
            return out;
        },
        std::move(reply));
}

void OfficeStore::findToken(const QString &tokenHash, QObject *context, Reply<std::optional<OfficeCaller>> reply)
{
    transact<std::optional<OfficeCaller>>(
        context, [tokenHash](SqlTx &tx) -> std::optional<OfficeCaller> {
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT role, merchant, store, till FROM tokens WHERE token_hash = ?"), {tokenHash});
            std::optional<OfficeCaller> out;
            if (q.next()) {
                OfficeCaller c;
                c.role = q.value(0).toString() == QLatin1String("owner") ? OfficeCaller::Role::Owner : OfficeCaller::Role::Till;
                c.merchant = q.value(1).toString();
                c.store = q.value(2).toString();
                c.till = q.value(3).toString();
                c.tokenHash = tokenHash;
                out = c;
            }
            q.finish();
            return out;
        },
        std::move(reply));
}

void OfficeStore::ping(QObject *context, Reply<bool> reply)
{
    transact<bool>(
        context, [](SqlTx &tx) {
            tx.exec(QStringLiteral("SELECT 1")).finish();
            return true;
        },
        std::move(reply));
}

bool OfficeStore::addTillToken(const QString &merchant, const QString &store, const QString &till, const QByteArray &token,
    QString *error)
{
    const QString hash = BearerToken::hash(token);
    bool done = false;
    return transactNow<bool>(
        [=](SqlTx &tx) {
            const qint64 now = nowMs();
            ensurePlace(tx, merchant, store, till, now);
            tx.exec(QStringLiteral("INSERT INTO tokens (token_hash, role, merchant, store, till, created_at)"
                                   " VALUES (?, 'till', ?, ?, ?, ?) ON CONFLICT (token_hash) DO NOTHING"),
                  {hash, merchant, store, till, now})
                .finish();
            return true;
        },
        &done, error);
}

bool OfficeStore::addOwnerToken(const QString &merchant, const QString &store, const QByteArray &token, QString *error)
{
    const QString hash = BearerToken::hash(token);
    bool done = false;
    return transactNow<bool>(
        [=](SqlTx &tx) {
            const qint64 now = nowMs();
            ensurePlace(tx, merchant, store, {}, now);
            tx.exec(QStringLiteral("INSERT INTO tokens (token_hash, role, merchant, store, till, created_at)"
                                   " VALUES (?, 'owner', ?, ?, '', ?) ON CONFLICT (token_hash) DO NOTHING"),
                  {hash, merchant, notNull(store), now})
                .finish();
            return true;
        },
        &done, error);
}

std::optional<QString> OfficeStore::soleMerchant(const QString &fallback, QString *error)
{
    QStringList merchants;
    if (!transactNow<QStringList>(
            [](SqlTx &tx) {
                QStringList out;
                QSqlQuery &q = tx.exec(QStringLiteral("SELECT merchant FROM merchants ORDER BY merchant LIMIT 2"));
                while (q.next())
                    out.append(q.value(0).toString());
                q.finish();
                return out;
            },
            &merchants, error))
        return std::nullopt;
    if (merchants.size() > 1) {
        *error = QStringLiteral("this office keeps several merchants: say which with --merchant M");
        return std::nullopt;
    }
    return merchants.isEmpty() ? fallback : merchants.constFirst();
}

}   // namespace OncePay::Office
