#include "journalrules.h"

#include "journalschema.h"
#include "salebook.h"

#include <QCoreApplication>
#include <QSqlQuery>

namespace OncePay::JournalRules {

using namespace JournalSchema;

namespace {

// A new tender of a sale: the sale must still want money, a card part waits for the one before
// it, and nothing may pay more than remains (the change of a cash tender is the caller's).
QString tenderRefusal(const Sale &sale, const Intent &payment)
{
    if (sale.state == SaleState::Cancelled)
        return QCoreApplication::translate("OncePay::IntentJournal", "Sale %1 was cancelled.").arg(sale.number);
    if (sale.state == SaleState::Paid)
        return QCoreApplication::translate("OncePay::IntentJournal", "This sale is already paid.");
    if (payment.amount.currency() != sale.total.currency())
        return QCoreApplication::translate("OncePay::IntentJournal", "Sale %1 is in %2.").arg(sale.number, sale.total.currency());
    const SalePosition p = positionOf(sale);
    if (!payment.isCash() && !p.openCardKey.isEmpty())
        return QCoreApplication::translate("OncePay::IntentJournal",
                                           "A card payment for this sale is still in progress. Wait for it, or choose "
                                           "\"Customer pays another way\".");
    if (payment.amount.minorUnits() > p.remaining) {
        return p.remaining == 0
            ? QCoreApplication::translate("OncePay::IntentJournal", "Nothing remains to be paid for this sale while its card payment is in progress.")
            : QCoreApplication::translate("OncePay::IntentJournal", "At most %1 remains to be paid for sale %2.")
                  .arg(Money(p.remaining, sale.total.currency()).toDisplayString(), sale.number);
    }
    return {};
}

} // namespace

// The rules speak in IntentJournal's words: its translation context, spelled out for lupdate.
QString saleRefusal(SqlTx &tx, const Intent &payment)
{
    if (const std::optional<Sale> sale = SaleBook::read(tx, payment.orderId))
        return tenderRefusal(*sale, payment);
    // One order, one payment: a new intent only when every earlier one was declined or voided
    // (nothing was charged). Refunds of the order's payment are not payments of it.
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT state FROM intents WHERE order_id = ? AND kind = 'payment'"), {payment.orderId});
    QString refusal;
    while (q.next() && refusal.isEmpty()) {
        const IntentState s = intentStateFromName(q.value(0).toString()).value_or(IntentState::Unknown);
        if (s == IntentState::Succeeded)
            refusal = QCoreApplication::translate("OncePay::IntentJournal", "This sale is already paid.");
        else if (s == IntentState::NeedsAttention)
            refusal = QCoreApplication::translate("OncePay::IntentJournal", "A payment for this sale needs attention first.");
        else if (s != IntentState::Declined && s != IntentState::Voided)
            refusal = QCoreApplication::translate("OncePay::IntentJournal", "A payment for this sale is still in progress.");
    }
    q.finish();
    return refusal;
}

QString giveUpRefusal(const Intent &part)
{
    if (part.isRefund() || part.isCash())
        return QCoreApplication::translate("OncePay::IntentJournal", "Only a card payment can be given up.");
    if (part.givenUpAt > 0)
        return QCoreApplication::translate("OncePay::IntentJournal", "This card payment was given up already.");
    if (isFinal(part.state))
        return QCoreApplication::translate("OncePay::IntentJournal", "This card payment is final already (%1): there is nothing to give up.")
            .arg(intentStateName(part.state));
    return {};
}

QString refundRefusal(SqlTx &tx, Intent *refund)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM intents WHERE idem_key = ?").arg(intentColumns()),
                           {refund->paymentKey});
    const bool found = q.next();
    const Intent payment = found ? readIntent(q) : Intent();
    q.finish();
    if (!found)
        return QCoreApplication::translate("OncePay::IntentJournal", "No payment of this till has the key %1.").arg(refund->paymentKey);
    if (payment.isRefund())
        return QCoreApplication::translate("OncePay::IntentJournal", "%1 is a refund; only a payment can be refunded.").arg(payment.key);
    if (payment.tender != refund->tender) {
        return payment.isCash() ? QCoreApplication::translate("OncePay::IntentJournal", "This sale was paid in cash: give the money back from the drawer as a cash refund.")
                                : QCoreApplication::translate("OncePay::IntentJournal", "This payment was made by card: it is refunded to the card, not in cash.");
    }
    switch (payment.state) {
    case IntentState::Succeeded:
        break;
    case IntentState::Declined:
        return QCoreApplication::translate("OncePay::IntentJournal", "This payment was declined: nothing was charged, so there is nothing to refund.");
    case IntentState::Voided:
        return QCoreApplication::translate("OncePay::IntentJournal", "This payment was voided before it was sent: nothing was charged, so there is nothing to refund.");
    case IntentState::NeedsAttention:
        return QCoreApplication::translate("OncePay::IntentJournal", "This payment was never executed (it needs attention): there is nothing to refund.");
    case IntentState::Queued:
    case IntentState::Sending:
    case IntentState::Processing:
    case IntentState::Unknown:
        return QCoreApplication::translate("OncePay::IntentJournal", "This payment is not confirmed yet. It can be refunded once the gateway says it is paid.");
    }
    if (!payment.isCash() && payment.paymentId.isEmpty())
        return QCoreApplication::translate("OncePay::IntentJournal", "The gateway's id of this payment is not known, so it cannot be refunded from the till.");

    // What is given back already, or may be: refunds that succeeded and refunds still open.
    QSqlQuery &r = tx.exec(QStringLiteral("SELECT idem_key, amount, state FROM intents"
                                          " WHERE payment_key = ? AND kind = 'refund' ORDER BY id"), {payment.key});
    qint64 taken = 0;
    QString open;
    while (r.next()) {
        const IntentState s = intentStateFromName(r.value(2).toString()).value_or(IntentState::Unknown);
        if (!isFinal(s) && open.isEmpty())
            open = r.value(0).toString();
        if (!isFinal(s) || s == IntentState::Succeeded)
            taken += r.value(1).toLongLong();
    }
    r.finish();
    if (!open.isEmpty())
        return QCoreApplication::translate("OncePay::IntentJournal", "A refund of this payment is still in progress (%1). Wait for its outcome before refunding again.").arg(open);
    const QString currency = payment.amount.currency();
    const qint64 remaining = payment.amount.minorUnits() - taken;
    if (remaining <= 0)
        return QCoreApplication::translate("OncePay::IntentJournal", "This payment has already been refunded in full.");
    if (!refund->amount.isValid())
        refund->amount = Money(remaining, currency);
    if (refund->amount.currency() != currency)
        return QCoreApplication::translate("OncePay::IntentJournal", "The payment is in %1; its refund must be in %1 too.").arg(currency);
    if (refund->amount.minorUnits() < 1)
        return QCoreApplication::translate("OncePay::IntentJournal", "A refund must give back more than nothing.");
    if (refund->amount.minorUnits() > remaining) {
        return QCoreApplication::translate("OncePay::IntentJournal", "At most %1 of this payment remains to be refunded (paid %2).")
            .arg(Money(remaining, currency).toDisplayString(), payment.amount.toDisplayString());
    }
    refund->orderId = payment.orderId;
    refund->paymentId = payment.paymentId;
    // The money goes back to the card that paid: the panel and the slip name it.
    refund->cardBrand = payment.cardBrand;
    refund->cardLast4 = payment.cardLast4;
    return {};
}

QString voidRefusal(SqlTx &tx, const Intent &intent)
{
    const bool refund = intent.isRefund();
    switch (intent.state) {
    case IntentState::Queued:
        break;
    case IntentState::Voided:
        return QCoreApplication::translate("OncePay::IntentJournal", "It is voided already.");
    case IntentState::Succeeded:
        if (intent.isCash())
            return refund ? QCoreApplication::translate("OncePay::IntentJournal", "A cash refund is final once the money is given back.")
                          : QCoreApplication::translate("OncePay::IntentJournal", "A cash payment is final once it is taken; give the money back as a cash refund instead.");
        return refund ? QCoreApplication::translate("OncePay::IntentJournal", "This refund has been made already; it cannot be voided.")
                      : QCoreApplication::translate("OncePay::IntentJournal", "This payment is paid already; it cannot be voided, only refunded.");
    case IntentState::Declined:
        return refund ? QCoreApplication::translate("OncePay::IntentJournal", "This refund was declined: nothing was given back, there is nothing to void.")
                      : QCoreApplication::translate("OncePay::IntentJournal", "This payment was declined: nothing was charged, there is nothing to void.");
    case IntentState::NeedsAttention:
        return QCoreApplication::translate("OncePay::IntentJournal", "The gateway refused it without executing it: there is nothing to void.");
    case IntentState::Sending:
    case IntentState::Processing:
    case IntentState::Unknown:
        return refund ? QCoreApplication::translate("OncePay::IntentJournal", "This refund may have reached the gateway already, so it cannot be voided; the till will learn its outcome by itself.")
                      : QCoreApplication::translate("OncePay::IntentJournal", "This payment may have reached the bank already, so it cannot be voided. Wait for its outcome; once it is paid, refund it.");
    }
    // Queued again after a try: every try was a POST recorded as `sending` first (attempts counts
    // them). Only a POST that provably never left ("not sent") keeps it voidable; one that was
    // answered (the gateway had it), lost after sending, or cut off by a crash may have executed.
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT COUNT(*) FROM attempts WHERE idem_key = ? AND kind = 'post'"
                                          " AND transport = 'not_sent'"), {intent.key});
    const qint64 notSent = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    if (intent.attempts > notSent) {
        return refund ? QCoreApplication::translate("OncePay::IntentJournal", "An earlier try of this refund may have reached the gateway, so it cannot be voided; the till will learn its outcome by itself.")
                      : QCoreApplication::translate("OncePay::IntentJournal", "An earlier try of this payment may have reached the bank, so it cannot be voided. Wait for its outcome; once it is paid, refund it.");
    }
    return {};
}

void creditPayment(SqlTx &tx, const QString &refundKey, qint64 at)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT payment_key, amount, currency FROM intents WHERE idem_key = ? AND kind = 'refund'"),
                           {refundKey});
    if (!q.next()) {
        q.finish();
        return;
    }
    const QString paymentKey = q.value(0).toString();
    const Money amount(q.value(1).toLongLong(), q.value(2).toString());
    q.finish();
    // The gateway's own words for a card payment (API.md: refunded, partially_refunded); a cash
    // payment never had a gateway status.
    QSqlQuery &u = tx.exec(QStringLiteral(
        "UPDATE intents SET amount_refunded = amount_refunded + ?,"
        " gateway_status = CASE WHEN tender = 'cash' THEN gateway_status"
        " WHEN amount_refunded + ? >= amount THEN 'refunded' ELSE 'partially_refunded' END, updated_at = ?"
        " WHERE idem_key = ? AND kind = 'payment' RETURNING state, amount_refunded, amount"),
        {amount.minorUnits(), amount.minorUnits(), at, paymentKey});
    if (!u.next()) {
        u.finish();
        return;
    }
    const QString state = u.value(0).toString();
    const Money total(u.value(1).toLongLong(), amount.currency());
    const Money paid(u.value(2).toLongLong(), amount.currency());
    u.finish();
    appendJournal(tx, paymentKey, at, state, state,
                  QStringLiteral("refund %1 succeeded: %2 given back (%3 of %4 refunded)")
                      .arg(refundKey, amount.toDecimalString(), total.toDecimalString(), paid.toDecimalString()));
}

} // namespace OncePay::JournalRules
