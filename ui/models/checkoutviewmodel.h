#pragma once

#include "cartmodel.h"
#include "catalog.h"
#include "intent.h"
#include "ringup.h"
#include "salebook.h"
#include "syncengine.h"

#include <QObject>
#include <QTimer>

namespace OncePay::Ui {

// The checkout's logic, testable without widgets: the cart, the sale's order id, and the
// sale's payment intent followed through the sync engine. The pay action locks itself in the
// same call that starts it, so a double click, key repeat or scanner burst creates one intent.
class CheckoutViewModel final : public QObject
    , private RingUp::Gate
{
    Q_OBJECT

public:
    enum class Phase {
        Selling,   // ringing up, nothing paid
        Storing,   // the intent is being written to the journal
        Sending,   // on the wire
        WaitingForConnection,   // stored, queued until the gateway can be reached
        BankProcessing,   // the gateway owns it (202/409)
        Checking,   // the answer was lost: asking the gateway
        NotConfirmed,   // no final answer within the limit: the till confirms it by itself
        Paid,
        Declined,   // another card may be tried (a new intent, a new key)
        NeedsAttention,
        Voided,   // cancelled on the till before it was sent: the sale may be paid again
        Failed,   // not stored: nothing was sent (disk full, limits...)
    };
    Q_ENUM(Phase)

    CheckoutViewModel(SyncEngine *engine, const Catalog *catalog, QObject *parent = nullptr);

    // The journal's sales (issue 21): each cart that is paid becomes a sale there before its first
    // tender, so that the journal's rules hold for the sale as a whole (a card part given up, the
    // customer paying another way). None: each payment stands alone (one per order id).
    void setSaleBook(SaleBook *sales) { m_sales = sales; }
    // The sale's short number ("1-000123") once it is in the journal; empty before.
    QString saleNumber() const { return m_saleNumber; }

    CartModel *cart() { return &m_cart; }
    QString orderId() const { return m_orderId; }
    Phase phase() const { return m_phase; }
    QString message() const { return m_message; }
    // Why the last thing asked was refused, as a kind (message() holds its words); None once
    // anything else is said.
    TillError lastError() const { return m_error; }
    std::optional<Intent> intent() const { return m_intent; }
    // Cash: what the customer handed over for this sale, once paid (for the receipt).
    std::optional<Money> cashTendered() const { return m_cashTendered; }

    bool canEditCart() const override;
    bool canPay() const;
    // What is still to be paid: the total less the parts paid (split tender: cash for part).
    Money remaining() const;
    // The parts of this sale paid (cash taken, cards that succeeded), and the card part still
    // waiting for its answer: the window says what is paid, what waits, what remains.
    Money paid() const;
    Money waiting() const;
    // The parts paid so far, oldest first; those before the one shown now (a receipt of a split
    // sale names each tender).
    QList<Intent> paidParts() const { return m_paidParts; }
    QList<Intent> earlierParts() const;
    // A card amount the cashier typed ("5.00"): nullopt and a sentence unless it is more than 0
    // and at most what remains. An empty text means all that remains.
    std::optional<Money> cardAmount(const QString &typed, QString *reason) const;
    // A sale the journal kept open or paying when the till stopped (SaleBook::unfinished): its
    // lines at their prices then, what is paid, and the card part still waiting are shown again.
    void restoreSale(const Sale &sale);
    // Cash for part of the sale (less than remains): recorded as a tender of the sale; the rest
    // by card or more cash. Needs the journal's sales (setSaleBook).
    bool payCashPart(const Money &tendered, QString *reason);
    // A sale partly paid and abandoned: cancelled in the journal (cash handed back, card parts
    // refunded), then the next sale; the banner says what to hand back.
    bool canCancelSale() const;
    void cancelSale();
    bool canStartNewSale() const;
    // Items rung up and nothing paid or waiting: Ctrl+N would throw the cart away. The window asks
    // first; discardSale() keeps a record of it (a cancelled sale with its lines) and starts the next.
    bool discardAsksFirst() const;
    void discardSale();
    // The sale has a card payment that is not final: leaving it asks first whether the customer
    // left (keep whatever the card does) or pays another way.
    bool leavingAsksFirst() const;
    // "Customer pays another way": the card payment that is not final is voided if it was never
    // sent, otherwise given up (if it turns out charged, the till refunds it by itself); the sale
    // stays, for cash or another card.
    bool canPayAnotherWay() const;
    void payAnotherWay();
    // How long a card payment may wait for its final answer before the sale is handed to the
    // queue ("not confirmed yet; you may serve the next customer"). The payment stays locked.
    void setUnconfirmedAfterMs(int ms) { m_unconfirmedAfterMs = ms; }
    int unconfirmedAfterMs() const { return m_unconfirmedAfterMs; }
    // The sale is paid: the next scan starts the next customer's sale (not lost to a
    // disabled field).
    bool scanStartsNextSale() const;
    // Parking (ParkedSales, issue 36) holds the sale while the journal stores or gives back a
    // parked cart: nothing is added, paid or started meanwhile.
    void setHeld(bool held)
    {
        m_held = held;
        emit actionsChanged();
    }

    // Adds the product with this code, barcode or name start, or the item of a weighed-goods
    // label; false (and a reason) if none or several match (then matchingProducts() lists them,
    // for the cashier to pick one), if a barcode was misread (its check digit is wrong), or if
    // the product is sold at a price the cashier types (needsPrice(): addProductAtPrice()).
    // Ringing up is RingUp's (ringup.h): these delegate to it.
    bool addProduct(const QString &codeOrName, QString *reason) { return m_ringUp.addProduct(codeOrName, reason); }
    // The open-price product `codeOrName` means, if it is one.
    std::optional<Product> needsPrice(const QString &codeOrName) const { return m_ringUp.needsPrice(codeOrName); }
    // An open-price product at the price the cashier typed: above 0, at most openPriceLimit().
    bool addProductAtPrice(const QString &codeOrName, const QString &price, QString *reason)
    {
        return m_ringUp.addProductAtPrice(codeOrName, price, reason);
    }
    // A product sold by the kg at a weight typed in kg ("0.532"), when no scale label is scanned.
    bool addWeighedProduct(const QString &code, const QString &kilograms, QString *reason)
    {
        return m_ringUp.addWeighedProduct(code, kilograms, reason);
    }
    void setOpenPriceLimit(const Money &limit) { m_ringUp.setOpenPriceLimit(limit); }
    Money openPriceLimit() const { return m_ringUp.openPriceLimit(); }
    void setEmbeddedLayouts(const QList<EmbeddedLayout> &layouts) { m_ringUp.setEmbeddedLayouts(layouts); }
    // Whether the catalog's prices include VAT: the cart is priced so (a sale already in the
    // journal keeps what it was rung up with).
    void setTaxMode(TaxMode mode);
    QList<Product> matchingProducts(const QString &codeOrName) const { return m_ringUp.matchingProducts(codeOrName); }
    // A discount ("10%" or "5.00") on the line `row`, or on the whole sale; "" or "0" takes it
    // off. False and why when it is not one, or when the sale's amount can no longer change (a
    // card part was sent: its key is bound to the amount).
    bool discountLine(int row, const QString &text, QString *reason) { return m_ringUp.discountLine(row, text, reason); }
    // Whether a discount may be given now: on the line `row`, or on the sale (row -1; any other
    // row outside the cart: no line chosen).
    bool canDiscount(int row, QString *reason) const { return m_ringUp.canDiscount(row, reason); }
    bool discountSale(const QString &text, QString *reason) { return m_ringUp.discountSale(text, reason); }
    // Whether `text` as a discount on `row` (-1: the sale) is more than `limitPercent` of what
    // it is on: then a manager approves it first.
    bool discountAboveLimit(int row, const QString &text, int limitPercent) const
    {
        return m_ringUp.discountAboveLimit(row, text, limitPercent);
    }
    void removeLine(int row) { m_ringUp.removeLine(row); }
    void changeQuantity(int row, int delta) { m_ringUp.changeQuantity(row, delta); }   // + / - on the selected line

    // The card pays `amount` (at most what remains; none: all that remains). Less than what
    // remains is a card part: the rest by more cards or cash.
    void payByCard(const QString &cardToken, std::optional<Money> amount = std::nullopt);
    // A wallet payment code scanned at the pay step (issue 26): the customer's phone pays what
    // remains. Refused (false, and why) unless the sale can be paid now and the gateway is
    // reachable: a code expires within a minute, so it is never saved to be sent later.
    static bool isWalletCode(const QString &text);
    bool payByWallet(const QString &code, QString *reason);
    // The payment waiting now is a wallet payment: its customer confirms on the phone, and
    // "customer gave up" (payAnotherWay) cancels it at the bank.
    bool waitsForWallet() const;
    // How long the gateway waits for the customer's confirmation (its --wallet-confirm-timeout):
    // the countdown the window shows.
    void setWalletConfirmMs(int ms) { m_walletConfirmMs = ms; }
    // Cash never goes to the gateway: recorded in the journal as paid. Change via `change`.
    bool payCash(const Money &tendered, Money *change, QString *reason);
    // What Ctrl+N does when leavingAsksFirst(): the customer left, or pays another way (then the
    // sale stays on screen). Without a card payment pending, both start the next sale.
    enum class Leaving {
        CustomerLeft,
        PaysAnotherWay
    };
    void startNewSale(Leaving leaving = Leaving::CustomerLeft);

signals:
    void phaseChanged(OncePay::Ui::CheckoutViewModel::Phase phase, const QString &message);
    void actionsChanged();   // canPay / canEditCart / canStartNewSale may have changed
    // A new sale started while this sale's payment was not final: the customer has left.
    void customerLeft(const OncePay::Intent &intent);
    void saleStarted();   // a new sale (new order id, empty cart): per-sale choices reset
    // Cash of this sale is in the journal (the whole rest, or a part): the drawer opens for it.
    void cashTaken(const OncePay::Intent &cash);

private:
    void setPhase(Phase phase, const QString &message);
    void setPhase(Phase phase, const TillError &refusal);   // its words where they are shown: here
    void follow(const Intent &intent);
    static QString newOrderId();
    // The cart as a sale in the journal (opened, or its lines and total brought up to date while
    // nothing of it is paid), then `then` with the order id to pay.
    void withSale(const std::function<void(bool ok, const TillError &error)> &then);
    bool tenderOpen() const;   // no tender of this sale being stored or waiting
    // The sale that is over gives way to the next; false (and why) when the cart cannot change.
    bool readyToAdd(QString *reason) override;

    SyncEngine *m_engine;
    SaleBook *m_sales = nullptr;
    QString m_saleNumber;   // the journal's sale for this cart, once opened
    qint64 m_saleTotal = 0;
    QJsonArray m_saleLines;
    bool m_givingUp = false;
    qint64 m_salePaid = 0;   // minor units: the parts of this sale paid before its last tender
    QList<Intent> m_paidParts;   // those parts
    CartModel m_cart;
    RingUp m_ringUp;   // the cart's items, quantities and discounts; gated by canEditCart/readyToAdd
    QString m_orderId;
    Phase m_phase = Phase::Selling;
    QString m_message;
    TillError m_error;
    std::optional<Intent> m_intent;
    std::optional<Money> m_cashTendered;
    std::optional<Money> m_cashChange;   // said with "Paid in cash" until the next sale
    bool m_payInProgress = false;   // set in the click's own handler, before anything else
    bool m_held = false;   // setHeld()
    int m_unconfirmedAfterMs = 30'000;
    QTimer m_unconfirmedTimer;
    bool m_unconfirmed = false;   // the limit passed without a final answer
    int m_walletConfirmMs = 60'000;
    QTimer m_walletCountdown;   // a wallet payment waiting: the seconds left, said every second
};

}   // namespace OncePay::Ui
