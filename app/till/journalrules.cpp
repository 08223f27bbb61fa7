#include "journalrules.h"

#include "journalschema.h"
#include "salebook.h"

#include <QSqlQuery>

namespace OncePay::JournalRules {

using namespace JournalSchema;
using K = TillError::Kind;

namespace {

// A new tender of a sale: the sale must still want money, a card part waits for the one before
// it, and nothing may pay more than remains (the change of a cash tender is the caller's).
TillError tenderRefusal(const Sale &sale, const Intent &payment)
{
    if (sale.state == SaleState::Cancelled)
        return TillError(K::SaleWasCancelled, {sale.number});
    if (sale.state == SaleState::Paid)
        return TillError(K::SaleAlreadyPaid);
    if (payment.amount.currency() != sale.total.currency())
        return TillError(K::SaleInOtherCurrency, {sale.number, sale.total.currency()});
    const SalePosition p = positionOf(sale);
    if (!payment.isCash() && !p.openCardKey.isEmpty())
        return TillError(K::CardPartStillOpen);
    if (payment.amount.minorUnits() > p.remaining) {
        return p.remaining == 0
            ? TillError(K::NothingRemainsWhileCardOpen)
            : TillError(K::AboveSaleRemainder, {Money(p.remaining, sale.total.currency()).toDisplayString(), sale.number});
    }
    return {};
}

}   // namespace

TillError saleRefusal(SqlTx &tx, const Intent &payment)
{
    if (const std::optional<Sale> sale = SaleBook::read(tx, payment.orderId))
        return tenderRefusal(*sale, payment);
    // One order, one payment: a new intent only when every earlier one was declined or voided
    // (nothing was charged). Refunds of the order's payment are not payments of it.
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT state FROM intents WHERE order_id = ? AND kind = 'payment'"), {payment.orderId});
    TillError refusal;
    while (q.next() && !refusal.isError()) {
        const IntentState s = intentStateFromName(q.value(0).toString()).value_or(IntentState::Unknown);
        if (s == IntentState::Succeeded)
            refusal = TillError(K::SaleAlreadyPaid);
        else if (s == IntentState::NeedsAttention)
            refusal = TillError(K::OrderPaymentNeedsAttention);
        else if (s != IntentState::Declined && s != IntentState::Voided)
            refusal = TillError(K::OrderPaymentInProgress);
    }
    q.finish();
    return refusal;
}

TillError giveUpRefusal(const Intent &part)
{
    if (part.isRefund() || part.isCash())
        return TillError(K::GiveUpNotCard);
    if (part.givenUpAt > 0)
        return TillError(K::GivenUpAlready);
    if (isFinal(part.state))
        return TillError(K::GiveUpFinal, {intentStateName(part.state)});
    return {};
}

TillError refundRefusal(SqlTx &tx, Intent *refund)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM intents WHERE idem_key = ?").arg(intentColumns()),
        {refund->paymentKey});
    const bool found = q.next();
    const Intent payment = found ? readIntent(q) : Intent();
    q.finish();
    if (!found)
        return TillError(K::NoPaymentWithKey, {refund->paymentKey});
    if (payment.isRefund())
        return TillError(K::RefundOfRefund, {payment.key});
    if (payment.tender != refund->tender) {
        return payment.isCash() ? TillError(K::RefundCashInCash)
                                : TillError(K::RefundCardToCard);
    }
    switch (payment.state) {
    case IntentState::Succeeded:
        break;
    case IntentState::Declined:
        return TillError(K::RefundDeclinedPayment);
    case IntentState::Voided:
        return TillError(K::RefundVoidedPayment);
    case IntentState::NeedsAttention:
        return TillError(K::RefundUnexecutedPayment);
    case IntentState::Queued:
    case IntentState::Sending:
    case IntentState::Processing:
    case IntentState::Unknown:
        return TillError(K::RefundUnconfirmedPayment);
    }
    if (!payment.isCash() && payment.paymentId.isEmpty())
        return TillError(K::RefundNoGatewayId);

    // What is given back already, or may be: refunds that succeeded and refunds still open.
    QSqlQuery &r = tx.exec(QStringLiteral("SELECT idem_key, amount, state FROM intents"
                                          " WHERE payment_key = ? AND kind = 'refund' ORDER BY id"),
        {payment.key});
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
        return TillError(K::RefundStillOpen, {open});
    const QString currency = payment.amount.currency();
    const qint64 remaining = payment.amount.minorUnits() - taken;
    if (remaining <= 0)
        return TillError(K::RefundedInFull);
    if (!refund->amount.isValid())
        refund->amount = Money(remaining, currency);
    if (refund->amount.currency() != currency)
        return TillError(K::RefundInOtherCurrency, {currency});
    if (refund->amount.minorUnits() < 1)
        return TillError(K::RefundOfNothing);
    if (refund->amount.minorUnits() > remaining) {
        return TillError(K::AboveRefundRemainder, {Money(remaining, currency).toDisplayString(), payment.amount.toDisplayString()});
    }
    refund->orderId = payment.orderId;
    refund->paymentId = payment.paymentId;
    // The money goes back to the card that paid: the panel and the slip name it.
    refund->cardBrand = payment.cardBrand;
    refund->cardLast4 = payment.cardLast4;
    return {};
}

TillError voidRefusal(SqlTx &tx, const Intent &intent)
{
    const bool refund = intent.isRefund();
    switch (intent.state) {
    case IntentState::Queued:
        break;
    case IntentState::Voided:
        return TillError(K::VoidedAlready);
    case IntentState::Succeeded:
        if (intent.isCash())
            return refund ? TillError(K::VoidCashRefundFinal)
                          : TillError(K::VoidCashPaymentFinal);
        return refund ? TillError(K::VoidRefundMade)
                      : TillError(K::VoidPaymentPaid);
    case IntentState::Declined:
        return refund ? TillError(K::VoidRefundDeclined)
                      : TillError(K::VoidPaymentDeclined);
    case IntentState::NeedsAttention:
        return TillError(K::VoidRefusedByGateway);
    case IntentState::Sending:
    case IntentState::Processing:
    case IntentState::Unknown:
        return refund ? TillError(K::VoidRefundMayHaveReached)
                      : TillError(K::VoidPaymentMayHaveReached);
    }
    // Queued again after a try: every try was a POST recorded as `sending` first (attempts counts
    // them). Only a POST that provably never left ("not sent") keeps it voidable; one that was
    // answered (the gateway had it), lost after sending, or cut off by a crash may have executed.
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT COUNT(*) FROM attempts WHERE idem_key = ? AND kind = 'post'"
                                          " AND transport = 'not_sent'"),
        {intent.key});
    const qint64 notSent = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    if (intent.attempts > notSent) {
        return refund ? TillError(K::VoidRefundEarlierTry)
                      : TillError(K::VoidPaymentEarlierTry);
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

}   // namespace OncePay::JournalRules
