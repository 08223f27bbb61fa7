#pragma once

#include "intent.h"
#include "money.h"
#include "pricing.h"
#include "sale.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QTimeZone>

#include <optional>

namespace OncePay {

// The Z report of one shift, computed from its intents alone (no I/O): sales by tender, refunds,
// voids, declines, what is still waiting, the cash the drawer should hold, and sales per hour.
// Amounts are minor units of `currency`; intents in another currency are counted apart and left
// out of every total.
struct ShiftReport
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::ShiftReport)

public:
    struct Totals
    {
        int count = 0;
        qint64 amount = 0;
        void add(qint64 minorUnits)
        {
            ++count;
            amount += minorUnits;
        }
        friend bool operator==(const Totals &a, const Totals &b) { return a.count == b.count && a.amount == b.amount; }
    };
    // Payments that succeeded in one clock hour (local time of the till), by tender, and what
    // was refunded in it.
    struct Hour
    {
        qint64 start = 0;   // epoch ms of the hour's first millisecond
        Totals card;
        Totals cash;
        Totals refunds;
    };
    // A payment or refund that is not final: the gateway's answer has not reached the till.
    struct Waiting
    {
        QString key;
        IntentKind kind = IntentKind::Payment;
        QString orderId;
        Money amount;
        IntentState state = IntentState::Queued;
        qint64 createdAt = 0;
        bool carriedOver = false;   // from an earlier shift, still waiting
        QString saleNumber = {};   // its sale's short number, when it is a sale's
        QString reason = {};   // a refund's reason (the till's own: why it refunded)
        QString paymentKey = {};   // a refund's: the payment it gives back

        QString saleLabel() const { return saleNumber.isEmpty() ? orderId : saleNumber; }
    };

    int number = 0;   // 1 for the journal's first shift
    qint64 openedAt = 0;   // the shift's first intent (or the previous close), epoch ms
    qint64 closedAt = 0;   // 0 while the shift is open
    qint64 generatedAt = 0;
    qint64 firstIntentId = 0;   // the shift's intents are the ids after the previous shift's last
    qint64 lastIntentId = 0;   // and up to this one
    QString currency;

    Totals cardSales;   // payments that succeeded (wallet payments among them)
    // Issue 26: the wallet payments among cardSales, by brand ("wechat", "alipay").
    Totals wechatSales;
    Totals alipaySales;
    Totals cashSales;
    Totals cardRefunds;   // refunds that succeeded
    Totals cashRefunds;
    Totals failedRefunds;   // refunds declined or refused: nothing was given back
    Totals declined;   // card payments the bank declined (nothing charged)
    // Issue 36: wallet payments the cashier cancelled or the customer never confirmed on the phone
    // (the gateway's "cancelled", "wallet_timeout"): nothing charged, and no bank declined them.
    Totals cancelledWallet;
    Totals voided;   // payments and refunds cancelled on the till before they were sent
    // What a person must see to: payments the gateway refused without executing them, and the
    // refunds the till owes and could not make (refundsOwed, what is still owed).
    Totals needsAttention;
    Totals waitingPayments;   // not final: counted in no sale yet
    Totals waitingRefunds;
    QList<Waiting> waiting;   // the same, one by one, with those carried over from earlier shifts
    // Payments an earlier shift closed while they were waiting and that became final since:
    // the card money of an earlier shift, not of this one's sales.
    Totals carriedOverSettled;
    // The same one by one, with how each ended (paid, declined, refused...).
    QList<Waiting> carriedOverEnded;
    // The card refunds the till made by itself of card parts it no longer keeps (DESIGN.md "The sale
    // and its tenders"): a part given up and charged late, or a settled part of a cancelled sale.
    // Each with its state: succeeded ("charged late, refunded automatically"), declined or needing
    // attention (a person must look), or not final yet. Counted in the totals above as refunds.
    QList<Waiting> refundsByTill;
    static bool isChargedLate(const Waiting &tillRefund);   // given up, then charged (not a cancelled sale)
    // Issue 35: those of the till's own refunds that ended without giving the money back (declined,
    // refused), this shift's and those carried over: money the shop holds that is not its own
    // (refundsOwed, sale.h). `amount` is what is still owed. Each needs a person, and closing the
    // shift over them asks (ShiftBook::Close::confirmedOwed).
    QList<Waiting> refundsOwed;
    bool owesRefunds() const { return !refundsOwed.isEmpty(); }
    // What to do about `owed` still owed for the card payment `paymentKey`, in words: give it back
    // in cash, or refund the card payment again (the report's and the reconciliation row's).
    static QString owedAdvice(const Money &owed, const QString &paymentKey);
    int otherCurrency = 0;   // intents in another currency: in no total above

    qint64 openingFloat = 0;   // the cash in the drawer when the shift opened
    std::optional<qint64> countedCash;   // what the cashier counted at the close
    QList<Hour> perHour;   // every hour from the first intent's to the last one's

    // Issue 23. The tax of the sales paid in this shift (a sale counts in the shift of its last
    // payment), per rate: each sale's tax as its receipt shows it, summed, less the tax of the
    // items given back in this shift, each refund's as its slip shows it (a rate's amounts can
    // go below zero when more came back than was sold). Their discounts.
    QList<TaxBand> taxBands;   // highest rate first
    Totals discounts;   // sales with a discount, and the discounts' total
    // Refunds of paid sales given back as an amount, not by items: no rate to take their tax
    // from, so the bands above still hold it (the till's own refunds of parts it gave up are
    // no goods coming back, and are not here).
    Totals refundsNotByItem;
    // One line per person who worked the till (by the intents they stored; "" on a till
    // without staff): what they took and gave back.
    struct StaffLine
    {
        QString staff;
        Totals sales;
        Totals refunds;
    };
    QList<StaffLine> perStaff;   // by name
    // Issue 36: the sales on hold when the report was made (at the close: left parked), by their
    // number, when and by whom they were parked, their items and total. Nothing of them is paid:
    // they are in no total above.
    struct Parked
    {
        QString number;   // "P3"
        qint64 parkedAt = 0;
        QString parkedBy;
        int itemCount = 0;
        Money total;
    };
    QList<Parked> parked;   // oldest first
    Totals parkedTotals() const;

    qint64 salesTotal() const { return cardSales.amount + cashSales.amount; }
    qint64 refundsTotal() const { return cardRefunds.amount + cashRefunds.amount; }
    qint64 netTotal() const { return salesTotal() - refundsTotal(); }
    // Opening float + cash taken − cash given back.
    qint64 cashExpected() const { return openingFloat + cashSales.amount - cashRefunds.amount; }
    // Counted − expected (negative: cash is missing); none until counted.
    std::optional<qint64> cashDifference() const;
    bool hasWaiting() const { return !waiting.isEmpty(); }
    Money money(qint64 minorUnits) const { return Money(minorUnits, currency); }

    struct Input
    {
        int number = 1;
        qint64 openedAt = 0;
        qint64 firstIntentId = 0;
        qint64 lastIntentId = 0;
        QString currency;   // empty: the currency most of the intents use (CNY if none)
        QList<Intent> intents;   // the shift's own, any order
        QList<Intent> carriedOver;   // waiting at an earlier close, as they are now
        QList<Sale> paidSales = {};   // the sales paid in this shift, with their lines
        // The shift's refunds that succeeded, of paid sales with lines, by refund key: what
        // came back by items, per rate (pricingOfReturn); empty bands: an amount, not by items.
        QHash<QString, QList<TaxBand>> returns = {};
        QList<Parked> parked = {};   // the sales on hold now (ParkedSaleBook)
        qint64 openingFloat = 0;
        std::optional<qint64> countedCash;
        qint64 generatedAt = 0;
        QTimeZone zone = QTimeZone::systemTimeZone();   // of the hours
    };
    static ShiftReport compute(const Input &input);

    // The report as oncepay-ctl prints it and the journal keeps it (amounts in minor units, times
    // RFC 3339), and back.
    QJsonObject toJson() const;
    static std::optional<ShiftReport> fromJson(const QJsonObject &object);
};

}   // namespace OncePay
