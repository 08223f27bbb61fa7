#include "intentjournal.h"
#include "journaldecided.h"

#include "journallocation.h"
#include "journallock.h"
#include "journalrules.h"
#include "salebook.h"
#include "journalschema.h"
#include "officeevents.h"

#include "timeutil.h"

#include <QAtomicInt>
#include <QFileInfo>
#include <QSqlQuery>

#include <utility>

namespace OncePay {

namespace {

using namespace JournalSchema;
using namespace JournalDecided;

QAtomicInt g_counter;

}   // namespace

IntentJournal::IntentJournal(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
}

IntentJournal::~IntentJournal()
{
    close();
}

bool IntentJournal::open(TillError *error)
{
    // On a simulated disk SQLite itself says whether the file is there, and there is no lock.
    const bool realDisk = m_options.sqliteVfs.isEmpty();
    if (!realDisk) {
        m_lock.reset();
    } else if (m_options.readOnly) {
        if (!QFileInfo(m_options.path).isFile()) {
            *error = TillError(TillError::Kind::JournalMissing, {m_options.path});
            return false;
        }
    } else {
        // Another account that may write the folder could swap the journal or plant its -wal.
        if (const TillError shared = JournalLocation::sharedFolderRefusal(m_options.path); shared.isError()) {
            *error = shared;
            return false;
        }
        m_lock = JournalLock::acquire(m_options.path, error);
        if (!m_lock)
            return false;
    }
    SqlBatchWorker::Options o;
    o.readOnly = m_options.readOnly;
    o.path = m_options.path;
    o.sqliteVfs = m_options.sqliteVfs;
    o.threading = m_options.threading;
    o.connectionName = QStringLiteral("oncepay-journal-%1").arg(g_counter.fetchAndAddRelaxed(1));
    o.schemaVersion = schemaVersion;
    o.migrate = JournalSchema::migrate;
    o.maxBatch = 512;
    o.applicationId = 0x4F50544A;   // "OPTJ": OncePay till journal
    o.markerTable = QStringLiteral("intents");
    o.ownerOnly = true;
    if (m_options.maxPageCount > 0)
        o.extraPragmas << QStringLiteral("max_page_count=%1").arg(m_options.maxPageCount);
    m_worker = std::make_unique<SqlBatchWorker>(o);
    QString why;
    if (!m_worker->start(&why)) {
        // The database's own words (or the worker's) stay English: they are for support.
        const bool foreign = m_worker->openFailure() == SqlBatchWorker::OpenFailure::ForeignFile;
        *error = TillError(foreign ? TillError::Kind::JournalForeign : TillError::Kind::JournalUnusable, {m_options.path}, why);
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
    // Creates still trying to learn whether they were saved: every call has its answer.
    const auto uncertain = std::exchange(m_uncertain, {});
    for (const UncertainSave &pending : uncertain) {
        if (pending.context)
            pending.reply(false, TillError(TillError::Kind::SaveUncertain, {pending.intent.key}), {});
    }
}

void IntentJournal::recordStaffAction(const StaffAction &action, QObject *context, Reply<bool> reply)
{
    StaffAction a = action;
    if (a.staff.isEmpty())
        a.staff = m_actor;
    transact<bool>(
        context, [a](SqlTx &tx) {
            StaffAction written = a;
            written.at = nowMs();
            tx.exec(QStringLiteral("INSERT INTO staff_actions (at, staff, action, subject, amount, approved_by, detail)"
                                   " VALUES (?, ?, ?, ?, ?, ?, ?)"),
                {written.at, a.staff.isEmpty() ? QStringLiteral("") : a.staff, a.action, a.subject.isEmpty() ? QStringLiteral("") : a.subject,
                    a.amount, orNull(a.approvedBy), a.detail.isEmpty() ? QStringLiteral("") : a.detail});
            OfficeEvents::staffAction(tx, written);   // `cash`, `discard` or `staff`, in this transaction
            return true;
        },
        std::move(reply));
}

void IntentJournal::update(const Intent &after, IntentState from, const QString &detail,
    const std::optional<Attempt> &attempt, QObject *context, Reply<bool> reply)
{
    transact<bool>(
        context, [after, from, detail, attempt](SqlTx &tx) {
            const qint64 now = nowMs();
            // Compare and set: the change applies only to the state it was decided from. Anything else
            // means the intent moved meanwhile, and this decision is stale: nothing is written.
            QSqlQuery &q = tx.exec(QStringLiteral(
                                       "UPDATE intents SET state = ?, payment_id = ?, gateway_status = ?, decline_code = ?, attempts = ?,"
                                       " next_attempt_at = ?, last_problem = ?, updated_at = ?,"
                                       " card_brand = ?, card_last4 = ?, authorization_code = ?, refund_id = ?"
                                       " WHERE idem_key = ? AND state = ? RETURNING kind, order_id"),
                {intentStateName(after.state), orNull(after.paymentId), orNull(after.gatewayStatus),
                    orNull(after.declineCode), after.attempts, after.nextAttemptAt, orNull(after.lastProblem), now,
                    orNull(after.cardBrand), orNull(after.cardLast4), orNull(after.authorizationCode), orNull(after.refundId),
                    after.key, intentStateName(from)});
            const bool applied = q.next();
            const bool refund = applied && intentKindFromName(q.value(0).toString()) == IntentKind::Refund;
            const QString orderId = applied ? q.value(1).toString() : QString();
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
            // A refund that has just succeeded gives back to its payment, in the same transaction.
            if (refund && after.state == IntentState::Succeeded && from != IntentState::Succeeded)
                JournalRules::creditPayment(tx, after.key, now);
            if (refund && isFinal(after.state) && !isFinal(from))
                OfficeEvents::refundFinal(tx, after.key, now);
            if (from != after.state)
                SaleBook::refresh(tx, orderId, now);
            return true;
        },
        std::move(reply));
}

void IntentJournal::voidIntent(const QString &key, QObject *context, Reply<Intent> reply)
{
    transact<Decided>(
        context, [key](SqlTx &tx) {
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM intents WHERE idem_key = ?").arg(intentColumns()), {key});
            const bool found = q.next();
            Intent i = found ? readIntent(q) : Intent();
            q.finish();
            if (!found)
                return Decided{{}, TillError(TillError::Kind::NoIntentWithKey, {key})};
            const TillError refusal = JournalRules::voidRefusal(tx, i);
            if (refusal.isError())
                return Decided{i, refusal};
            // Compare and set from `queued`, decided in this transaction: a send records `sending`
            // in a transaction of its own, before this one or after it, never in between.
            const qint64 now = nowMs();
            const int changed = tx.numRowsAffected(QStringLiteral(
                                                       "UPDATE intents SET state = 'voided', next_attempt_at = 0, last_problem = NULL, updated_at = ?"
                                                       " WHERE idem_key = ? AND state = 'queued'"),
                {now, key});
            if (changed != 1)
                return Decided{i, TillError(TillError::Kind::ChangedMeanwhile)};
            appendJournal(tx, key, now, intentStateName(IntentState::Queued), intentStateName(IntentState::Voided),
                QStringLiteral("voided on the till: never sent"));
            SaleBook::refresh(tx, i.orderId, now);
            if (i.isRefund())
                OfficeEvents::refundFinal(tx, key, now);
            i.state = IntentState::Voided;
            i.nextAttemptAt = 0;
            i.lastProblem.clear();   // nothing is wrong with it any more: it will never go out
            i.updatedAt = now;
            return Decided{i, {}};
        },
        decidedReply(std::move(reply)));
}

namespace {

Intent readByKey(SqlTx &tx, const QString &key)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM intents WHERE idem_key = ?").arg(intentColumns()), {key});
    Intent i = q.next() ? readIntent(q) : Intent();
    q.finish();
    return i;
}

// Voids `part` when no try of it may have reached the gateway and `mayVoid`; otherwise marks it
// given up. Either way it no longer counts for its sale. Returns it as it is now.
Intent giveUpPart(SqlTx &tx, const Intent &part, bool mayVoid, const QString &why, qint64 now)
{
    if (mayVoid && part.state == IntentState::Queued && !JournalRules::voidRefusal(tx, part).isError()
        && tx.numRowsAffected(QStringLiteral("UPDATE intents SET state = 'voided', next_attempt_at = 0, last_problem = NULL,"
                                             " updated_at = ? WHERE idem_key = ? AND state = 'queued'"),
               {now, part.key})
            == 1) {
        appendJournal(tx, part.key, now, intentStateName(IntentState::Queued), intentStateName(IntentState::Voided),
            QStringLiteral("voided on the till: never sent (%1)").arg(why));
        return readByKey(tx, part.key);
    }
    tx.exec(QStringLiteral("UPDATE intents SET given_up_at = ?, updated_at = ? WHERE idem_key = ? AND given_up_at IS NULL"),
        {now, now, part.key});
    appendJournal(tx, part.key, now, intentStateName(part.state), intentStateName(part.state),
        QStringLiteral("given up: %1; if it was charged, the till refunds it").arg(why));
    return readByKey(tx, part.key);
}

// Inserts `refund` (its key derived from its payment's) unless an intent has that key already:
// then that one is the answer, and nothing is written.
Intent insertDerivedRefund(SqlTx &tx, Intent refund, TillError *refusal, qint64 now)
{
    Intent existing = readByKey(tx, refund.key);
    if (existing.isValid())
        return existing;
    *refusal = JournalRules::refundRefusal(tx, &refund);
    if (refusal->isError())
        return {};
    tx.exec(QStringLiteral(
                "INSERT INTO intents (idem_key, kind, order_id, amount, currency, tender, payment_method, state, payment_id,"
                " payment_key, reason, card_brand, card_last4, created_at, updated_at)"
                " VALUES (?, 'refund', ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?)"),
        {refund.key, refund.orderId, refund.amount.minorUnits(), refund.amount.currency(), tenderName(refund.tender),
            intentStateName(refund.state), orNull(refund.paymentId), refund.paymentKey, orNull(refund.reason),
            orNull(refund.cardBrand), orNull(refund.cardLast4), now, now});
    appendJournal(tx, refund.key, now, {}, intentStateName(refund.state),
        QStringLiteral("created by the till: refund of %1 (%2)").arg(refund.paymentKey, refund.reason));
    if (refund.state == IntentState::Succeeded)
        JournalRules::creditPayment(tx, refund.key, now);
    if (isFinal(refund.state))
        OfficeEvents::refundFinal(tx, refund.key, now);
    return readByKey(tx, refund.key);
}

}   // namespace

void IntentJournal::giveUp(const QString &key, bool mayVoid, QObject *context, Reply<Intent> reply)
{
    transact<Decided>(
        context, [key, mayVoid](SqlTx &tx) {
            const Intent part = readByKey(tx, key);
            if (!part.isValid())
                return Decided{{}, TillError(TillError::Kind::NoPaymentWithKey, {key})};
            if (!SaleBook::read(tx, part.orderId))
                return Decided{part, TillError(TillError::Kind::GiveUpNotSalePart)};
            const TillError refusal = JournalRules::giveUpRefusal(part);
            if (refusal.isError())
                return Decided{part, refusal};
            const qint64 now = nowMs();
            const Intent after = giveUpPart(tx, part, mayVoid, QStringLiteral("the customer pays another way"), now);
            SaleBook::refresh(tx, part.orderId, now);
            return Decided{after, {}};
        },
        decidedReply(std::move(reply)));
}

void IntentJournal::cancelSale(const QString &orderId, const QSet<QString> &mayVoid, QObject *context,
    Reply<QList<Intent>> reply)
{
    struct Result
    {
        QList<Intent> changed;
        TillError refusal;
    };
    transact<Result>(
        context, [orderId, mayVoid](SqlTx &tx) {
            const std::optional<Sale> sale = SaleBook::read(tx, orderId);
            if (!sale)
                return Result{{}, TillError(TillError::Kind::NoSuchSale, {orderId})};
            if (sale->state == SaleState::Cancelled)
                return Result{{}, TillError(TillError::Kind::SaleCancelledAlready, {sale->number})};
            if (sale->state == SaleState::Paid)
                return Result{{}, TillError(TillError::Kind::CancelPaidSale, {sale->number})};
            const qint64 now = nowMs();
            Result r;
            for (const Intent &i : sale->intents) {
                if (i.isRefund())
                    continue;
                if (i.isCash() && i.state == IntentState::Succeeded) {
                    // The cash taken goes back from the drawer now.
                    Intent back;
                    back.kind = IntentKind::Refund;
                    back.key = autoRefundKey(i.key);
                    back.paymentKey = i.key;
                    back.tender = Tender::Cash;
                    back.state = IntentState::Succeeded;
                    back.reason = saleCancelledReason();
                    TillError refusal;
                    const Intent stored = insertDerivedRefund(tx, back, &refusal, now);
                    if (stored.isValid())
                        r.changed.append(stored);
                } else if (!i.isCash() && !isFinal(i.state) && i.givenUpAt == 0) {
                    r.changed.append(giveUpPart(tx, i, mayVoid.contains(i.key), QStringLiteral("the sale was cancelled"), now));
                }
            }
            SaleBook::setCancelled(tx, orderId, now);
            return r;
        },
        [reply = std::move(reply)](bool ok, const TillError &error, const Result &r) {
            if (!ok)
                return reply(false, error, {});
            if (r.refusal.isError())
                return reply(false, r.refusal, {});
            reply(true, {}, r.changed);
        });
}

void IntentJournal::dueAutoRefunds(QObject *context, Reply<QStringList> reply)
{
    transact<QStringList>(
        context, [](SqlTx &tx) {
            // Card parts the till no longer keeps (given up, or of a cancelled sale) that were charged
            // and have no refund by the till yet.
            // Two indexed halves (given-up parts; parts of cancelled sales), never a scan of every
            // payment: this runs at every start, and a journal holds years of them.
            QSqlQuery &q = tx.exec(QStringLiteral(
                "SELECT id, idem_key FROM intents p INDEXED BY intents_given_up WHERE p.given_up_at IS NOT NULL AND p.kind = 'payment'"
                " AND p.tender = 'card' AND p.state = 'succeeded'"
                " AND NOT EXISTS (SELECT 1 FROM intents r WHERE r.idem_key = 'auto-ref-' || p.idem_key)"
                " UNION"
                " SELECT p.id, p.idem_key FROM sales s INDEXED BY sales_cancelled CROSS JOIN intents p INDEXED BY intents_by_order"
                " ON p.order_id = s.order_id WHERE s.state = 'cancelled'"
                " AND p.kind = 'payment' AND p.tender = 'card' AND p.state = 'succeeded'"
                " AND NOT EXISTS (SELECT 1 FROM intents r WHERE r.idem_key = 'auto-ref-' || p.idem_key) ORDER BY 1"));
            QStringList keys;
            while (q.next())
                keys << q.value(1).toString();
            q.finish();
            return keys;
        },
        std::move(reply));
}

void IntentJournal::createAutoRefund(const QString &paymentKey, QObject *context, Reply<Intent> reply)
{
    transact<Decided>(
        context, [paymentKey](SqlTx &tx) {
            const Intent payment = readByKey(tx, paymentKey);
            Intent refund;
            refund.kind = IntentKind::Refund;
            refund.key = autoRefundKey(paymentKey);
            refund.paymentKey = paymentKey;
            refund.tender = Tender::Card;
            refund.state = IntentState::Queued;
            refund.reason = payment.givenUpAt > 0 ? chargedLateReason() : saleCancelledReason();
            const bool storedBefore = readByKey(tx, refund.key).isValid();
            Decided r;
            const qint64 now = nowMs();
            r.intent = insertDerivedRefund(tx, refund, &r.refusal, now);
            // Issue 36: a part charged after the customer paid another way is refunded with no one at
            // the counter to hear of it: its refund is a late outcome (lateOutcomes()), said to the
            // cashier once it ends, with what to tell the customer, until acknowledged.
            if (!storedBefore && r.intent.isValid() && refund.reason == chargedLateReason()) {
                tx.exec(QStringLiteral("UPDATE intents SET customer_left_at = ? WHERE idem_key = ?"), {now, refund.key});
                r.intent = readByKey(tx, refund.key);
            }
            return r;
        },
        decidedReply(std::move(reply)));
}

void IntentJournal::recoverInterrupted(QObject *context, Reply<int> reply)
{
    transact<int>(
        context, [](SqlTx &tx) {
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT idem_key FROM intents WHERE state = 'sending'"));
            QStringList keys;
            while (q.next())
                keys << q.value(0).toString();
            q.finish();
            const qint64 now = nowMs();
            for (const QString &key : keys) {
                tx.exec(QStringLiteral("UPDATE intents SET state = 'unknown', next_attempt_at = 0, updated_at = ?"
                                       " WHERE idem_key = ? AND state = 'sending'"),
                    {now, key});
                appendJournal(tx, key, now, QStringLiteral("sending"), QStringLiteral("unknown"),
                    QStringLiteral("interrupted while sending; ask the gateway first"));
            }
            return int(keys.size());
        },
        std::move(reply));
}

void IntentJournal::markCustomerLeft(const QString &key, QObject *context, Reply<bool> reply)
{
    transact<bool>(
        context, [key](SqlTx &tx) {
            const qint64 now = nowMs();
            QSqlQuery &q = tx.exec(QStringLiteral(
                                       "UPDATE intents SET customer_left_at = ? WHERE idem_key = ? AND customer_left_at IS NULL"
                                       " AND state NOT IN %1 RETURNING state")
                                       .arg(finalStatesSql()),
                {now, key});
            const QString state = q.next() ? q.value(0).toString() : QString();
            q.finish();
            if (state.isEmpty())
                return false;   // final already, or noted before
            appendJournal(tx, key, now, state, state, QStringLiteral("customer left; the till confirms it by itself"));
            return true;
        },
        std::move(reply));
}

void IntentJournal::acknowledge(const QString &key, QObject *context, Reply<bool> reply)
{
    transact<bool>(
        context, [key](SqlTx &tx) {
            const qint64 now = nowMs();
            QSqlQuery &q = tx.exec(QStringLiteral(
                                       "UPDATE intents SET acknowledged_at = ? WHERE idem_key = ? AND acknowledged_at IS NULL"
                                       " AND customer_left_at IS NOT NULL AND (state IN ('declined', 'needs_attention')"
                                       " OR (kind = 'refund' AND state = 'succeeded')) RETURNING state"),
                {now, key});
            const QString state = q.next() ? q.value(0).toString() : QString();
            q.finish();
            if (state.isEmpty())
                return false;
            appendJournal(tx, key, now, state, state, QStringLiteral("acknowledged by the cashier"));
            return true;
        },
        std::move(reply));
}

}   // namespace OncePay
