#pragma once

#include "intent.h"
#include "sqlbatchworker.h"
#include "tillerror.h"

#include <QString>

// The business rules the journal checks inside the transaction that writes, so that nothing can
// come between the check and the write: one payment per sale, what may be refunded, what may be
// voided, and a payment following its refunds. Every refusal is a TillError: a kind, and the
// values its words name.
namespace OncePay::JournalRules {

// None when `payment` may be stored as a new payment of its order. An order that is a sale (the
// `sales` table) takes tenders until it is paid: a card part only while no other card part of it
// is still open (not final and not given up), and no tender above what remains. Any other order
// takes one payment: a new intent only when every earlier one was declined or voided.
TillError saleRefusal(SqlTx &tx, const Intent &payment);

// None when the card part `part` may be given up ("the customer pays another way"): a payment of
// a sale, by card, not final, not given up already.
TillError giveUpRefusal(const Intent &part);

// None when `refund` may be stored, after filling in what it takes from its payment (the
// order, the gateway's payment id, and the whole remainder when its amount is not valid).
// The payment must be a settled payment of the same tender with no refund still open, and the
// amount must not exceed what remains after the refunds that succeeded or are still open.
TillError refundRefusal(SqlTx &tx, Intent *refund);

// None when `intent`, as stored, may be voided: queued, and no try of it may have reached the
// gateway (a POST that was answered, lost after sending, or interrupted by a crash).
TillError voidRefusal(SqlTx &tx, const Intent &intent);

// The refund `refundKey` has just succeeded: its payment's amount_refunded and gateway status
// follow, with a line in the payment's journal.
void creditPayment(SqlTx &tx, const QString &refundKey, qint64 at);

}   // namespace OncePay::JournalRules
