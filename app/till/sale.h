#pragma once

#include "intent.h"
#include "money.h"

#include <QHash>
#include <QJsonArray>
#include <QList>
#include <QString>

#include <optional>

namespace OncePay {

// The business intent the customer has: to pay for the sale once (DESIGN.md "The sale and its
// tenders"). Its tenders are the journal's intents with its order id: card parts (payment
// intents, each with its own key) and cash parts (cash payment intents, final when taken); money
// given back for it (a given-up card part refunded by the till, cash handed back) are refund
// intents of those parts.
enum class SaleState {
    Open,   // lines, no tender yet
    Paying,   // a tender was stored; not covered yet
    Paid,   // the final tenders add up to the total (stays paid: later refunds are refunds)
    Cancelled,   // given up before it was paid; what was taken goes back
};
QString saleStateName(SaleState state);   // "open", "paying", "paid", "cancelled" as stored
std::optional<SaleState> saleStateFromName(const QString &name);

struct Sale
{
    qint64 id = 0;
    QString orderId;   // the gateway's order_id of every card part, e.g. "S20261203-161429475-803"
    QString number;   // the short number people read, the same everywhere: "1-000123"
    SaleState state = SaleState::Open;
    Money total;
    QJsonArray lines;   // [{code, name, name_zh, unit_price (minor units), quantity}]
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    QString cashier = {};   // who rang it up (empty on a till without staff)
    QList<Intent> intents;   // its tenders and the refunds of them, oldest first

    bool isValid() const { return id > 0; }
};

// Where a sale stands, from its intents. Minor units of the sale's currency.
struct SalePosition
{
    qint64 paid = 0;   // card parts that succeeded and were not given up, and cash taken
    qint64 waiting = 0;   // card parts not final and not given up
    qint64 remaining = 0;   // total - paid - waiting, never below 0
    qint64 handedBack = 0;   // cash refunds of its cash parts
    qint64 refundedByTill = 0;   // card refunds the till made of given-up or cancelled parts (succeeded)
    qint64 refundingByTill = 0;   // such refunds not final yet
    QString openCardKey;   // the card part not final and not given up, if any
    int givenUpOpen = 0;   // given-up card parts whose outcome is not known yet
    bool covered = false;   // paid >= total
};
SalePosition positionOf(const Sale &sale);

// The items of a sale a refund by items gave back, per line (by index), and those the same
// payment's earlier refunds that succeeded gave back: what its amounts were computed after
// (refundOfItems, pricing.h).
struct RefundItems
{
    QHash<int, int> given;
    QHash<int, int> before;
};

// The key of the refund the till makes by itself of a card part it no longer keeps (given up
// and charged late, or its sale cancelled): derived from the part's key, so it is made once,
// across restarts and crashes.
QString autoRefundKey(const QString &paymentKey);
// The reasons the till gives its own refunds (sent to the gateway, kept in the journal).
QString saleCancelledReason();   // "sale cancelled"
QString chargedLateReason();   // "charged after the customer paid another way"
bool isAutoRefundKey(const QString &key);

// Refunds the till owes and could not make: its own card refunds (autoRefundKey) among `intents`
// that ended without giving the money back (declined by the bank, refused, voided). The shop
// holds money that is not its own: the customer paid twice. By refund key, what is still owed:
// the refund's amount less what refunds of the same card part that succeeded after it gave back
// (a person refunding it again). A shift's report lists them as needing attention, and closing
// the shift over them asks.
QHash<QString, qint64> refundsOwed(const QList<Intent> &intents);

// What a card part (a payment intent of a sale) shows as its state in `oncepay-ctl sales`: its
// intent's state, or "given_up" once the cashier gave it up and it is not final.
QString tenderStateName(const Intent &part);

}   // namespace OncePay
