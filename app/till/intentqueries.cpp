#include "intentjournal.h"
#include "journalschema.h"

#include <QSqlQuery>

#include <utility>

// Reading the journal: the intents by key or by a Query, their attempts and journal lines, the
// late outcomes, the staff's actions. Nothing here writes (intentjournal.cpp holds the writes,
// intentcreation.cpp the one that stores a new intent).

namespace OncePay {

namespace {

using namespace JournalSchema;

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
        parts << QStringLiteral("state NOT IN %1").arg(finalStatesSql());
    if (q.needsAttention) {
        parts << QStringLiteral("(state = 'needs_attention' OR (state = 'declined' AND (attempts > 1 OR updated_at - created_at > ?"
                                " OR idem_key LIKE 'auto-ref-%')))");
        binds << lateDeclineMs;
    }
    if (!q.orderId.isEmpty()) {
        parts << QStringLiteral("order_id = ?");
        binds << q.orderId;
    }
    if (!q.saleNumber.isEmpty()) {
        parts << QStringLiteral("order_id = (SELECT order_id FROM sales WHERE number = ?)");
        binds << q.saleNumber;
    }
    if (q.kind) {
        parts << QStringLiteral("kind = ?");
        binds << intentKindName(*q.kind);
    }
    if (!q.paymentKey.isEmpty()) {
        parts << QStringLiteral("payment_key = ?");
        binds << q.paymentKey;
    }
    return {parts.isEmpty() ? QStringLiteral("1") : parts.join(QStringLiteral(" AND ")), binds};
}

}   // namespace

void IntentJournal::staffActions(QObject *context, Reply<QList<StaffAction>> reply)
{
    transact<QList<StaffAction>>(
        context, [](SqlTx &tx) {
            QList<StaffAction> out;
            QSqlQuery &q = tx.exec(
                QStringLiteral("SELECT at, staff, action, subject, amount, approved_by, detail FROM staff_actions ORDER BY id"));
            while (q.next()) {
                out.append({q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(),
                    q.value(4).toLongLong(), q.value(5).toString(), q.value(6).toString()});
            }
            q.finish();
            return out;
        },
        std::move(reply));
}

void IntentJournal::lastSignIn(QObject *context, Reply<QString> reply)
{
    transact<QString>(
        context, [](SqlTx &tx) {
            QSqlQuery &q = tx.exec(
                QStringLiteral("SELECT staff FROM staff_actions WHERE action = 'sign_in' ORDER BY id DESC LIMIT 1"));
            QString name = q.next() ? q.value(0).toString() : QString();
            q.finish();
            return name;
        },
        std::move(reply));
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
    transact<Intent>(
        context, [key](SqlTx &tx) {
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM intents WHERE idem_key = ?").arg(intentColumns()), {key});
            Intent i;
            if (q.next())
                i = readIntent(q);
            q.finish();
            return i;
        },
        std::move(reply));
}

void IntentJournal::list(const Query &query, QObject *context, Reply<QList<Intent>> reply)
{
    transact<QList<Intent>>(
        context, [query](SqlTx &tx) {
            auto [clause, binds] = where(query);
            binds << query.limit << query.offset;
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM intents WHERE %2 ORDER BY id %3 LIMIT ? OFFSET ?")
                                       .arg(intentColumns(), clause, query.newestFirst ? QStringLiteral("DESC") : QString()),
                binds);
            return readIntents(q);
        },
        std::move(reply));
}

void IntentJournal::count(const Query &query, QObject *context, Reply<qint64> reply)
{
    transact<qint64>(
        context, [query](SqlTx &tx) {
            auto [clause, binds] = where(query);
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT COUNT(*) FROM intents WHERE %1").arg(clause), binds);
            const qint64 n = q.next() ? q.value(0).toLongLong() : 0;
            q.finish();
            return n;
        },
        std::move(reply));
}

void IntentJournal::attempts(const QString &key, QObject *context, Reply<QList<Attempt>> reply)
{
    transact<QList<Attempt>>(
        context, [key](SqlTx &tx) {
            QSqlQuery &q = tx.exec(QStringLiteral(
                                       "SELECT id, idem_key, kind, started_at, ended_at, transport, outcome, http_status, replayed, latency_ms"
                                       " FROM attempts WHERE idem_key = ? ORDER BY id"),
                {key});
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
        },
        std::move(reply));
}

void IntentJournal::journal(const QString &key, QObject *context, Reply<QList<JournalEntry>> reply)
{
    transact<QList<JournalEntry>>(
        context, [key](SqlTx &tx) {
            QSqlQuery &q = tx.exec(QStringLiteral(
                                       "SELECT id, idem_key, at, from_state, to_state, detail FROM journal WHERE idem_key = ? ORDER BY id"),
                {key});
            QList<JournalEntry> out;
            while (q.next()) {
                out.append({q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toLongLong(), q.value(3).toString(),
                    q.value(4).toString(), q.value(5).toString()});
            }
            q.finish();
            return out;
        },
        std::move(reply));
}

void IntentJournal::lateOutcomes(QObject *context, Reply<QList<Intent>> reply)
{
    transact<QList<Intent>>(
        context, [](SqlTx &tx) {
            QSqlQuery &q = tx.exec(QStringLiteral(
                "SELECT %1 FROM intents WHERE customer_left_at IS NOT NULL AND acknowledged_at IS NULL"
                " AND (state NOT IN ('succeeded', 'voided') OR (kind = 'refund' AND state = 'succeeded')) ORDER BY id")
                                       .arg(intentColumns()));
            return readIntents(q);
        },
        std::move(reply));
}

}   // namespace OncePay
