#include "intentjournal.h"
#include "journaldecided.h"
#include "journalrules.h"
#include "journalschema.h"
#include "officeevents.h"
#include "salebook.h"

#include "timeutil.h"

#include <QLoggingCategory>
#include <QPointer>
#include <QSqlQuery>
#include <QTimer>

// Storing a new intent: the one call whose failure the till may take for "nothing happened" and
// act on (take the money another way), so the one that must never say so wrongly.

namespace OncePay {

using namespace JournalSchema;
using namespace JournalDecided;

namespace {

Q_LOGGING_CATEGORY(lcCreate, "oncepay.till.journal", QtInfoMsg)

// The intent's rows, after checking (in the same transaction) that its sale may take it.
Decided insertNew(SqlTx &tx, const Intent &intent)
{
    Intent row = intent;
    const TillError refusal = row.isRefund() ? JournalRules::refundRefusal(tx, &row)
                                             : JournalRules::saleRefusal(tx, row);
    if (refusal.isError())
        return Decided{{}, refusal};
    const qint64 now = nowMs();
    tx.exec(QStringLiteral(
                "INSERT INTO intents (idem_key, kind, order_id, amount, currency, tender, payment_method, state, payment_id,"
                " payment_key, reason, card_brand, card_last4, created_at, updated_at, staff, approved_by)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {row.key, intentKindName(row.kind), row.orderId, row.amount.minorUnits(), row.amount.currency(),
            tenderName(row.tender),
            // Never NULL (a v1 column): cash has no token, an empty one.
            row.paymentMethod.isEmpty() ? QStringLiteral("") : row.paymentMethod, intentStateName(row.state),
            orNull(row.paymentId), orNull(row.paymentKey), orNull(row.reason), orNull(row.cardBrand),
            orNull(row.cardLast4), now, now, orNull(row.staff), orNull(row.approvedBy)});
    appendJournal(tx, row.key, now, {}, intentStateName(row.state),
        row.isRefund() ? QStringLiteral("created: refund of %1").arg(row.paymentKey) : QStringLiteral("created"));
    // A cash refund is final at once: its payment follows in the same transaction.
    if (row.isRefund() && row.state == IntentState::Succeeded)
        JournalRules::creditPayment(tx, row.key, now);
    SaleBook::refresh(tx, row.orderId, now);
    if (row.isRefund() && isFinal(row.state))
        OfficeEvents::refundFinal(tx, row.key, now);
    QSqlQuery &back = tx.exec(QStringLiteral("SELECT %1 FROM intents WHERE idem_key = ?").arg(intentColumns()), {row.key});
    Decided r;
    if (back.next())
        r.intent = readIntent(back);
    back.finish();
    return r;
}

// An earlier try of this key whose COMMIT failed may have written it after all; once any later
// transaction commits on the same file, what this one reads is what a crash would keep.
Decided insertUnlessThere(SqlTx &tx, const Intent &intent)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM intents WHERE idem_key = ?").arg(intentColumns()), {intent.key});
    if (q.next()) {
        Decided there{readIntent(q), {}};
        q.finish();
        return there;
    }
    q.finish();
    return insertNew(tx, intent);
}

}   // namespace

void IntentJournal::create(const Intent &intent, QObject *context, Reply<Intent> reply)
{
    Intent stamped = intent;
    if (stamped.staff.isEmpty())
        stamped.staff = m_actor;
    if (stamped.approvedBy.isEmpty())
        stamped.approvedBy = m_approver;
    storeNew(stamped, context, std::move(reply), 0);
}

void IntentJournal::storeNew(const Intent &intent, QObject *context, Reply<Intent> reply, int tries)
{
    if (!m_worker)
        return reply(false, TillError(tries == 0 ? TillError::Kind::JournalNotOpen : TillError::Kind::SaveUncertain, {intent.key}), {});
    // Answered on `context`, which may outlive the journal: `self` says whether it is still there.
    m_worker->transactChecked<Decided>(
        context, [intent, again = tries > 0](SqlTx &tx) {
            return again ? insertUnlessThere(tx, intent) : insertNew(tx, intent);
        },
        [self = QPointer<IntentJournal>(this), intent, context = QPointer<QObject>(context), reply = std::move(reply), tries](SqlBatchWorker::Commit commit, const QString &error, const Decided &r) {
            // A COMMIT that may have been written (a disk that filled or failed as the WAL went
            // out) is not "not stored": SQLite can bring it back when the WAL is recovered after a
            // crash, and the till would then send a payment the cashier was told was never saved.
            // So it is tried again, same key, until a try commits or the rules answer; a try that
            // fails outright after an uncertain one proves nothing about that one, and is retried too.
            if (commit == SqlBatchWorker::Commit::Unknown || (commit == SqlBatchWorker::Commit::Failed && tries > 0)) {
                if (!self || !self->m_worker) {
                    // Closed meanwhile: it cannot know now (its next start will).
                    return reply(false, TillError(TillError::Kind::SaveUncertain, {intent.key}), {});
                }
                if (tries == 0) {
                    qCWarning(lcCreate) << "intent" << intent.key << "may have been saved (" << error
                                        << "); trying again until the journal knows";
                    emit self->saveUncertain(intent.key, intent.orderId);
                }
                self->m_uncertain.insert(intent.key, {intent, context, reply, tries});
                const int delayMs = int(qMin<qint64>(2000, 100LL << qMin(tries, 5)));
                QTimer::singleShot(delayMs, self.data(), [journal = self.data(), key = intent.key] {
                    journal->retryUncertain(key);
                });
                return;
            }
            if (tries > 0)
                qCInfo(lcCreate) << "intent" << intent.key << (r.refusal.isError() ? "not stored after all:" : "stored after")
                                 << (r.refusal.isError() ? r.refusal.text() : QString::number(tries) + QStringLiteral(" tries"));
            const bool ok = commit == SqlBatchWorker::Commit::Done;
            decidedReply(reply)(ok, ok ? TillError() : TillError::storage(error), r);
        });
}

void IntentJournal::retryUncertain(const QString &key)
{
    // Gone when close() answered it meanwhile.
    const UncertainSave pending = m_uncertain.take(key);
    if (pending.reply && pending.context)
        storeNew(pending.intent, pending.context, pending.reply, pending.tries + 1);
}

}   // namespace OncePay
