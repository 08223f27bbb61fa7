#include "journalschema.h"

#include "officeevents.h"
#include "parkedsalebook.h"
#include "salebook.h"
#include "shiftbook.h"

#include <QStringList>

namespace OncePay::JournalSchema {

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
    if (from < 4) {
        // Refunds are intents too: the kind, the payment intent a refund gives money back for
        // (payment_id then holds that payment's gateway id), the gateway's refund id and the
        // cashier's reason; a payment keeps what its succeeded refunds gave back. Every intent
        // stored before is a payment with nothing refunded.
        tx.exec(QStringLiteral("ALTER TABLE intents ADD COLUMN kind TEXT NOT NULL DEFAULT 'payment'"));
        tx.exec(QStringLiteral("ALTER TABLE intents ADD COLUMN payment_key TEXT"));
        tx.exec(QStringLiteral("ALTER TABLE intents ADD COLUMN refund_id TEXT"));
        tx.exec(QStringLiteral("ALTER TABLE intents ADD COLUMN reason TEXT"));
        tx.exec(QStringLiteral("ALTER TABLE intents ADD COLUMN amount_refunded INTEGER NOT NULL DEFAULT 0"));
        tx.exec(QStringLiteral("CREATE INDEX intents_by_payment_key ON intents (payment_key, id) WHERE payment_key IS NOT NULL"));
        // At most one open refund per payment. IntentJournal::create checks it first and says
        // why in words; the index makes it a property of the file whatever writes to it.
        tx.exec(QStringLiteral("CREATE UNIQUE INDEX intents_one_open_refund ON intents (payment_key)"
                               " WHERE kind = 'refund' AND state NOT IN %1")
                    .arg(finalStatesSql()));
    }
    if (from < 5)
        ShiftBook::createTable(tx);   // closed shifts and their reports (the Z report)
    if (from < 6) {
        // Issue 21: the sale is the business intent. Its tenders are the intents with its order
        // id; a card part can be given up (the customer pays another way).
        tx.exec(QStringLiteral("ALTER TABLE intents ADD COLUMN given_up_at INTEGER"));
        tx.exec(QStringLiteral("CREATE INDEX intents_given_up ON intents (given_up_at) WHERE given_up_at IS NOT NULL"));
        SaleBook::createTable(tx);
    }
    if (from < 7) {
        // Issue 21: what each refund by items gave back, and the lines of the sales paid before
        // sales were in the journal (imported once from the old "-sales.db" file beside it).
        SaleBook::createLineTables(tx);
    }
    if (from < 8) {
        // Issue 23: who stored each intent and rang each sale, the manager who approved one on
        // the spot, and what staff did that is no intent (discounts, voids, approvals, sign-ins).
        tx.exec(QStringLiteral("ALTER TABLE intents ADD COLUMN staff TEXT"));
        tx.exec(QStringLiteral("ALTER TABLE intents ADD COLUMN approved_by TEXT"));
        tx.exec(QStringLiteral("ALTER TABLE sales ADD COLUMN cashier TEXT"));
        tx.exec(QStringLiteral("CREATE TABLE staff_actions (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, staff TEXT NOT NULL,"
                               " action TEXT NOT NULL, subject TEXT NOT NULL, amount INTEGER NOT NULL, approved_by TEXT,"
                               " detail TEXT NOT NULL)"));
    }
    if (from < 9)
        ParkedSaleBook::createTable(tx);   // issue 36: sales on hold
    if (from < 10)
        OfficeEvents::createTable(tx);   // issue 38: the outbox the office is sent from
    if (from < 11)
        OfficeEvents::keepSentPosition(tx);   // issue 38: what the office holds, one row
}

QString intentColumns()
{
    return QStringLiteral(
        "id, idem_key, order_id, amount, currency, payment_method, state, payment_id, gateway_status,"
        " decline_code, attempts, next_attempt_at, last_problem, created_at, updated_at, tender, customer_left_at,"
        " acknowledged_at, card_brand, card_last4, authorization_code, kind, payment_key, refund_id, reason,"
        " amount_refunded, given_up_at,"
        " (SELECT number FROM sales WHERE sales.order_id = intents.order_id), staff, approved_by");
}

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
    // A kind this version does not know is read as a refund: never taken for a sale's payment.
    i.kind = intentKindFromName(q.value(21).toString()).value_or(IntentKind::Refund);
    i.paymentKey = q.value(22).toString();
    i.refundId = q.value(23).toString();
    i.reason = q.value(24).toString();
    i.amountRefunded = q.value(25).toLongLong();
    i.givenUpAt = q.value(26).toLongLong();
    i.saleNumber = q.value(27).toString();
    i.staff = q.value(28).toString();
    i.approvedBy = q.value(29).toString();
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

QString finalStatesSql()
{
    QStringList names;
    for (IntentState s : allIntentStates()) {
        if (isFinal(s))
            names << QLatin1Char('\'') + intentStateName(s) + QLatin1Char('\'');
    }
    return QLatin1Char('(') + names.join(QStringLiteral(", ")) + QLatin1Char(')');
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

}   // namespace OncePay::JournalSchema
