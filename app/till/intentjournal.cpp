#include "intentjournal.h"

#include "journallock.h"

#include "timeutil.h"

#include <QAtomicInt>
#include <QFileInfo>
#include <QSqlQuery>

namespace OncePay {

namespace {

QAtomicInt g_counter;

void migrate(SqlTx &tx, int from)
{
    if (from < 1) {
        tx.exec(QStringLiteral(
            "CREATE TABLE intents (id INTEGER PRIMARY KEY AUTOINCREMENT, idem_key TEXT NOT NULL UNIQUE,"
            " order_id TEXT NOT NULL, amount INTEGER NOT NULL, currency TEXT NOT NULL,"
            " payment_method TEXT NOT NULL, state TEXT NOT NULL, payment_id TEXT, gateway_status TEXT,"
            " decline_code TEXT, attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER NOT NULL DEFAULT 0,"
            " last_problem TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)"));
        tx.exec(QStringLiteral("CREATE INDEX intents_by_state ON intents (state, id)"));
        tx.exec(QStringLiteral("CREATE INDEX intents_by_order ON intents (order_id)"));
        tx.exec(QStringLiteral(
            "CREATE TABLE journal (id INTEGER PRIMARY KEY AUTOINCREMENT, idem_key TEXT NOT NULL,"
            " at INTEGER NOT NULL, from_state TEXT, to_state TEXT NOT NULL, detail TEXT)"));
        tx.exec(QStringLiteral("CREATE INDEX journal_by_key ON journal (idem_key, id)"));
        // The journal is an audit trail: SQLite itself refuses to rewrite it.
        tx.exec(QStringLiteral("CREATE TRIGGER journal_is_append_only_u BEFORE UPDATE ON journal"
                               " BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END"));
        tx.exec(QStringLiteral("CREATE TRIGGER journal_is_append_only_d BEFORE DELETE ON journal"
                               " BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END"));
        tx.exec(QStringLiteral(
            "CREATE TABLE attempts (id INTEGER PRIMARY KEY AUTOINCREMENT, idem_key TEXT NOT NULL,"
            " kind TEXT NOT NULL, started_at INTEGER NOT NULL, ended_at INTEGER NOT NULL, outcome TEXT NOT NULL,"
            " http_status INTEGER NOT NULL, replayed INTEGER NOT NULL, latency_ms INTEGER NOT NULL)"));
        tx.exec(QStringLiteral("CREATE INDEX attempts_by_key ON attempts (idem_key, id)"));
    }
    if (from < 2) {
        // Kinds as columns, not words: the tender (cash was the payment method "cash") and how
        // each attempt ended (it was only in the English outcome text).
        tx.exec(QStringLiteral("ALTER TABLE intents ADD COLUMN tender TEXT NOT NULL DEFAULT 'card'"));
        tx.exec(QStringLiteral("UPDATE intents SET tender = 'cash', payment_method = '' WHERE payment_method = 'cash'"));
        tx.exec(QStringLiteral("ALTER TABLE attempts ADD COLUMN transport TEXT NOT NULL DEFAULT 'answered'"));
        tx.exec(QStringLiteral(
            "UPDATE attempts SET transport = CASE WHEN http_status > 0 THEN 'answered'"
            " WHEN outcome LIKE 'no answer%' THEN 'answer_lost' ELSE 'not_sent' END"));
    }
    if (from < 3) {
        // Payments the customer left before they were final, and the cashier's acknowledgement
        // of those that then ended badly.
        tx.exec(QStringLiteral("ALTER TABLE intents ADD COLUMN customer_left_at INTEGER"));
        tx.exec(QStringLiteral("ALTER TABLE intents ADD COLUMN acknowledged_at INTEGER"));
        tx.exec(QStringLiteral("CREATE INDEX intents_customer_left ON intents (customer_left_at) WHERE customer_left_at IS NOT NULL"));
        // Receipts: the card and authorization code the gateway's payment carries. Intents
        // stored before read them empty.
        tx.exec(QStringLiteral("ALTER TABLE intents ADD COLUMN card_brand TEXT"));
        tx.exec(QStringLiteral("ALTER TABLE intents ADD COLUMN card_last4 TEXT"));
        tx.exec(QStringLiteral("ALTER TABLE intents ADD COLUMN authorization_code TEXT"));
    }
}

const QString kColumns = QStringLiteral(
    "id, idem_key, order_id, amount, currency, payment_method, state, payment_id, gateway_status,"
    " decline_code, attempts, next_attempt_at, last_problem, created_at, updated_at, tender, customer_left_at,"
    " acknowledged_at, card_brand, card_last4, authorization_code");

Intent readIntent(const QSqlQuery &q)
{
    Intent i;
    i.id = q.value(0).toLongLong();
    i.key = q.value(1).toString();
    i.orderId = q.value(2).toString();
    i.amount = Money(q.value(3).toLongLong(), q.value(4).toString());
    i.paymentMethod = q.value(5).toString();
    i.state = intentStateFromName(q.value(6).toString()).value_or(IntentState::Unknown);
    i.paymentId = q.value(7).toString();
    i.gatewayStatus = q.value(8).toString();
    i.declineCode = q.value(9).toString();
    i.attempts = q.value(10).toInt();
    i.nextAttemptAt = q.value(11).toLongLong();
    i.lastProblem = q.value(12).toString();
    i.createdAt = q.value(13).toLongLong();
    i.updatedAt = q.value(14).toLongLong();
    i.tender = tenderFromName(q.value(15).toString()).value_or(Tender::Card);
    i.customerLeftAt = q.value(16).toLongLong();
    i.acknowledgedAt = q.value(17).toLongLong();
    i.cardBrand = q.value(18).toString();
    i.cardLast4 = q.value(19).toString();
    i.authorizationCode = q.value(20).toString();
    return i;
}

QList<Intent> readIntents(QSqlQuery &q)
{
    QList<Intent> out;
    while (q.next())
        out.append(readIntent(q));
    q.finish();
    return out;
}

QVariant orNull(const QString &s)
{
    return s.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(s);
}

void appendJournal(SqlTx &tx, const QString &key, qint64 at, const QString &from, const QString &to,
                   const QString &detail)
{
    tx.exec(QStringLiteral("INSERT INTO journal (idem_key, at, from_state, to_state, detail) VALUES (?, ?, ?, ?, ?)"),
            {key, at, orNull(from), to, orNull(detail)});
}

// SQL for a Query: the WHERE clause and its binds.
QPair<QString, QVariantList> where(const IntentJournal::Query &q)
{
    QStringList parts;
    QVariantList binds;
    if (q.state) {
        parts << QStringLiteral("state = ?");
        binds << intentStateName(*q.state);
    }
    if (q.activeOnly)
        parts << QStringLiteral("state NOT IN ('succeeded', 'declined', 'needs_attention')");
    if (q.needsAttention) {
        parts << QStringLiteral("(state = 'needs_attention' OR (state = 'declined' AND (attempts > 1 OR updated_at - created_at > ?)))");
        binds << lateDeclineMs;
    }
    if (!q.orderId.isEmpty()) {
        parts << QStringLiteral("order_id = ?");
        binds << q.orderId;
    }
    return {parts.isEmpty() ? QStringLiteral("1") : parts.join(QStringLiteral(" AND ")), binds};
}

} // namespace

IntentJournal::IntentJournal(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
}

IntentJournal::~IntentJournal()
{
    close();
}

bool IntentJournal::open(QString *error)
{
    if (m_options.readOnly) {
        if (!QFileInfo(m_options.path).isFile()) {
            *error = tr("There is no till journal at %1.").arg(m_options.path);
            return false;
        }
    } else {
        QString owner;
        QString why;
        m_lock = JournalLock::acquire(m_options.path, &owner, &why);
        if (!m_lock) {
            *error = owner.isEmpty()
                ? tr("The lock file %1 cannot be created beside the journal: %2").arg(m_options.path + QStringLiteral(".lock"), why)
                : tr("The till journal %1 is in use by process %2. Close that program first;"
                     " commands that only read (list, show, export) work beside it.").arg(m_options.path, owner);
            return false;
        }
    }
    SqlBatchWorker::Options o;
    o.readOnly = m_options.readOnly;
    o.path = m_options.path;
    o.connectionName = QStringLiteral("oncepay-journal-%1").arg(g_counter.fetchAndAddRelaxed(1));
    o.schemaVersion = schemaVersion;
    o.migrate = migrate;
    o.maxBatch = 512;
    o.applicationId = 0x4F50544A;   // "OPTJ": OncePay till journal
    o.markerTable = QStringLiteral("intents");
    if (m_options.maxPageCount > 0)
        o.extraPragmas << QStringLiteral("max_page_count=%1").arg(m_options.maxPageCount);
    m_worker = std::make_unique<SqlBatchWorker>(o);
    if (!m_worker->start(error)) {
        m_worker.reset();
        m_lock.reset();
        return false;
    }
    return true;
}

void IntentJournal::close()
{
    if (m_worker)
        m_worker->stop();
    m_worker.reset();
    m_lock.reset();   // unlocks: the next owner may open it
}

void IntentJournal::create(const Intent &intent, QObject *context, Reply<Intent> reply)
{
    if (!m_worker)
        return reply(false, tr("The journal is not open."), {});
    struct Result { Intent intent; QString refusal; };
    m_worker->transact<Result>(context, [intent](SqlTx &tx) {
        // One sale, one payment: a new intent only when every earlier one was declined.
        QSqlQuery &q = tx.exec(QStringLiteral("SELECT state FROM intents WHERE order_id = ?"), {intent.orderId});
        QString refusal;
        while (q.next() && refusal.isEmpty()) {
            const IntentState s = intentStateFromName(q.value(0).toString()).value_or(IntentState::Unknown);
            if (s == IntentState::Succeeded)
                refusal = IntentJournal::tr("This sale is already paid.");
            else if (s == IntentState::NeedsAttention)
                refusal = IntentJournal::tr("A payment for this sale needs attention first.");
            else if (s != IntentState::Declined)
                refusal = IntentJournal::tr("A payment for this sale is still in progress.");
        }
        q.finish();
        if (!refusal.isEmpty())
            return Result{{}, refusal};
        const qint64 now = nowMs();
        tx.exec(QStringLiteral(
            "INSERT INTO intents (idem_key, order_id, amount, currency, tender, payment_method, state, created_at,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
            {intent.key, intent.orderId, intent.amount.minorUnits(), intent.amount.currency(), tenderName(intent.tender),
             // Never NULL (a v1 column): cash has no token, an empty one.
             intent.paymentMethod.isEmpty() ? QStringLiteral("") : intent.paymentMethod, intentStateName(intent.state),
             now, now});
        appendJournal(tx, intent.key, now, {}, intentStateName(intent.state), QStringLiteral("created"));
        QSqlQuery &back = tx.exec(QStringLiteral("SELECT %1 FROM intents WHERE idem_key = ?").arg(kColumns), {intent.key});
        Result r;
        if (back.next())
            r.intent = readIntent(back);
        back.finish();
        return r;
    }, [reply = std::move(reply)](bool ok, const QString &error, Result r) {
        if (!ok)
            return reply(false, error, {});
        if (!r.refusal.isEmpty())
            return reply(false, r.refusal, {});
        reply(true, {}, r.intent);
    });
}

void IntentJournal::update(const Intent &after, IntentState from, const QString &detail,
                           const std::optional<Attempt> &attempt, QObject *context, Reply<bool> reply)
{
    if (!m_worker)
        return reply(false, tr("The journal is not open."), false);
    m_worker->transact<bool>(context, [after, from, detail, attempt](SqlTx &tx) {
        const qint64 now = nowMs();
        // Compare and set: the change applies only to the state it was decided from. Anything else
        // means the intent moved meanwhile, and this decision is stale: nothing is written.
        QSqlQuery &q = tx.exec(QStringLiteral(
            "UPDATE intents SET state = ?, payment_id = ?, gateway_status = ?, decline_code = ?, attempts = ?,"
            " next_attempt_at = ?, last_problem = ?, updated_at = ?,"
            " card_brand = ?, card_last4 = ?, authorization_code = ?"
            " WHERE idem_key = ? AND state = ?"),
            {intentStateName(after.state), orNull(after.paymentId), orNull(after.gatewayStatus),
             orNull(after.declineCode), after.attempts, after.nextAttemptAt, orNull(after.lastProblem), now,
             orNull(after.cardBrand), orNull(after.cardLast4), orNull(after.authorizationCode),
             after.key, intentStateName(from)});
        const bool applied = q.numRowsAffected() == 1;
        q.finish();
        if (!applied)
            return false;
        if (from != after.state || !detail.isEmpty())
            appendJournal(tx, after.key, now, intentStateName(from), intentStateName(after.state), detail);
        if (attempt) {
            tx.exec(QStringLiteral(
                "INSERT INTO attempts (idem_key, kind, started_at, ended_at, transport, outcome, http_status, replayed,"
                " latency_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                {after.key, attemptKindName(attempt->kind), attempt->startedAt, attempt->endedAt,
                 attemptTransportName(attempt->transport), attempt->outcome.isNull() ? QStringLiteral("") : attempt->outcome,
                 attempt->httpStatus,
                 attempt->replayed ? 1 : 0, attempt->latencyMs});
        }
        return true;
    }, std::move(reply));
}

void IntentJournal::recoverInterrupted(QObject *context, Reply<int> reply)
{
    if (!m_worker)
        return reply(false, tr("The journal is not open."), 0);
    m_worker->transact<int>(context, [](SqlTx &tx) {
        QSqlQuery &q = tx.exec(QStringLiteral("SELECT idem_key FROM intents WHERE state = 'sending'"));
        QStringList keys;
        while (q.next())
            keys << q.value(0).toString();
        q.finish();
        const qint64 now = nowMs();
        for (const QString &key : keys) {
            tx.exec(QStringLiteral("UPDATE intents SET state = 'unknown', next_attempt_at = 0, updated_at = ?"
                                   " WHERE idem_key = ? AND state = 'sending'"), {now, key});
            appendJournal(tx, key, now, QStringLiteral("sending"), QStringLiteral("unknown"),
                          QStringLiteral("interrupted while sending; ask the gateway first"));
        }
        return int(keys.size());
    }, std::move(reply));
}

void IntentJournal::activeIntents(QObject *context, Reply<QList<Intent>> reply)
{
    Query q;
    q.activeOnly = true;
    q.limit = -1;
    list(q, context, std::move(reply));
}

void IntentJournal::find(const QString &key, QObject *context, Reply<Intent> reply)
{
    if (!m_worker)
        return reply(false, tr("The journal is not open."), {});
    m_worker->transact<Intent>(context, [key](SqlTx &tx) {
        QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM intents WHERE idem_key = ?").arg(kColumns), {key});
        Intent i;
        if (q.next())
            i = readIntent(q);
        q.finish();
        return i;
    }, std::move(reply));
}

void IntentJournal::list(const Query &query, QObject *context, Reply<QList<Intent>> reply)
{
    if (!m_worker)
        return reply(false, tr("The journal is not open."), {});
    m_worker->transact<QList<Intent>>(context, [query](SqlTx &tx) {
        auto [clause, binds] = where(query);
        binds << query.limit << query.offset;
        QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM intents WHERE %2 ORDER BY id %3 LIMIT ? OFFSET ?")
                                   .arg(kColumns, clause, query.newestFirst ? QStringLiteral("DESC") : QString()), binds);
        return readIntents(q);
    }, std::move(reply));
}

void IntentJournal::count(const Query &query, QObject *context, Reply<qint64> reply)
{
    if (!m_worker)
        return reply(false, tr("The journal is not open."), 0);
    m_worker->transact<qint64>(context, [query](SqlTx &tx) {
        auto [clause, binds] = where(query);
        QSqlQuery &q = tx.exec(QStringLiteral("SELECT COUNT(*) FROM intents WHERE %1").arg(clause), binds);
        const qint64 n = q.next() ? q.value(0).toLongLong() : 0;
        q.finish();
        return n;
    }, std::move(reply));
}

void IntentJournal::attempts(const QString &key, QObject *context, Reply<QList<Attempt>> reply)
{
    if (!m_worker)
        return reply(false, tr("The journal is not open."), {});
    m_worker->transact<QList<Attempt>>(context, [key](SqlTx &tx) {
        QSqlQuery &q = tx.exec(QStringLiteral(
            "SELECT id, idem_key, kind, started_at, ended_at, transport, outcome, http_status, replayed, latency_ms"
            " FROM attempts WHERE idem_key = ? ORDER BY id"), {key});
        QList<Attempt> out;
        while (q.next()) {
            Attempt a;
            a.id = q.value(0).toLongLong();
            a.key = q.value(1).toString();
            a.kind = attemptKindFromName(q.value(2).toString()).value_or(Attempt::Kind::Post);
            a.startedAt = q.value(3).toLongLong();
            a.endedAt = q.value(4).toLongLong();
            a.transport = attemptTransportFromName(q.value(5).toString()).value_or(Attempt::Transport::NotSent);
            a.outcome = q.value(6).toString();
            a.httpStatus = q.value(7).toInt();
            a.replayed = q.value(8).toBool();
            a.latencyMs = q.value(9).toLongLong();
            out.append(a);
        }
        q.finish();
        return out;
    }, std::move(reply));
}

void IntentJournal::journal(const QString &key, QObject *context, Reply<QList<JournalEntry>> reply)
{
    if (!m_worker)
        return reply(false, tr("The journal is not open."), {});
    m_worker->transact<QList<JournalEntry>>(context, [key](SqlTx &tx) {
        QSqlQuery &q = tx.exec(QStringLiteral(
            "SELECT id, idem_key, at, from_state, to_state, detail FROM journal WHERE idem_key = ? ORDER BY id"), {key});
        QList<JournalEntry> out;
        while (q.next()) {
            out.append({q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toLongLong(), q.value(3).toString(),
                        q.value(4).toString(), q.value(5).toString()});
        }
        q.finish();
        return out;
    }, std::move(reply));
}

void IntentJournal::markCustomerLeft(const QString &key, QObject *context, Reply<bool> reply)
{
    if (!m_worker)
        return reply(false, tr("The journal is not open."), false);
    m_worker->transact<bool>(context, [key](SqlTx &tx) {
        const qint64 now = nowMs();
        QSqlQuery &q = tx.exec(QStringLiteral(
            "UPDATE intents SET customer_left_at = ? WHERE idem_key = ? AND customer_left_at IS NULL"
            " AND state NOT IN ('succeeded', 'declined', 'needs_attention') RETURNING state"), {now, key});
        const QString state = q.next() ? q.value(0).toString() : QString();
        q.finish();
        if (state.isEmpty())
            return false;   // final already, or noted before
        appendJournal(tx, key, now, state, state, QStringLiteral("customer left; the till confirms it by itself"));
        return true;
    }, std::move(reply));
}

void IntentJournal::acknowledge(const QString &key, QObject *context, Reply<bool> reply)
{
    if (!m_worker)
        return reply(false, tr("The journal is not open."), false);
    m_worker->transact<bool>(context, [key](SqlTx &tx) {
        const qint64 now = nowMs();
        QSqlQuery &q = tx.exec(QStringLiteral(
            "UPDATE intents SET acknowledged_at = ? WHERE idem_key = ? AND acknowledged_at IS NULL"
            " AND customer_left_at IS NOT NULL AND state IN ('declined', 'needs_attention') RETURNING state"), {now, key});
        const QString state = q.next() ? q.value(0).toString() : QString();
        q.finish();
        if (state.isEmpty())
            return false;
        appendJournal(tx, key, now, state, state, QStringLiteral("acknowledged by the cashier"));
        return true;
    }, std::move(reply));
}

void IntentJournal::lateOutcomes(QObject *context, Reply<QList<Intent>> reply)
{
    if (!m_worker)
        return reply(false, tr("The journal is not open."), {});
    m_worker->transact<QList<Intent>>(context, [](SqlTx &tx) {
        QSqlQuery &q = tx.exec(QStringLiteral(
            "SELECT %1 FROM intents WHERE customer_left_at IS NOT NULL AND acknowledged_at IS NULL"
            " AND state <> 'succeeded' ORDER BY id").arg(kColumns));
        return readIntents(q);
    }, std::move(reply));
}

} // namespace OncePay
