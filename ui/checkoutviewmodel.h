#pragma once

#include "cartmodel.h"
#include "catalog.h"
#include "intent.h"
#include "syncengine.h"

#include <QObject>

namespace OncePay::Ui {

// The checkout's logic, testable without widgets: the cart, the sale's order id, and the
// sale's payment intent followed through the sync engine. The pay action locks itself in the
// same call that starts it, so a double click, key repeat or scanner burst creates one intent.
class CheckoutViewModel final : public QObject
{
    Q_OBJECT

public:
    enum class Phase {
        Selling,               // ringing up, nothing paid
        Storing,               // the intent is being written to the journal
        Sending,               // on the wire
        WaitingForConnection,  // stored, queued until the gateway can be reached
        BankProcessing,        // the gateway owns it (202/409)
        Checking,              // the answer was lost: asking the gateway
        Paid,
        Declined,              // another card may be tried (a new intent, a new key)
        NeedsAttention,
        Failed,                // not stored: nothing was sent (disk full, limits...)
    };
    Q_ENUM(Phase)

    CheckoutViewModel(SyncEngine *engine, const Catalog *catalog, QObject *parent = nullptr);

    CartModel *cart() { return &m_cart; }
    QString orderId() const { return m_orderId; }
    Phase phase() const { return m_phase; }
    QString message() const { return m_message; }
    std::optional<Intent> intent() const { return m_intent; }

    bool canEditCart() const;
    bool canPay() const;
    bool canStartNewSale() const;
    // The sale is paid: the next scan starts the next customer's sale (not lost to a
    // disabled field).
    bool scanStartsNextSale() const;

    // Adds the product with this code or name start; false (and a reason) if none matches.
    bool addProduct(const QString &codeOrName, QString *reason);
    void removeLine(int row);
    void changeQuantity(int row, int delta);   // + / - on the selected line

    void payByCard(const QString &cardToken);
    // Cash never goes to the gateway: recorded in the journal as paid. Change via `change`.
    bool payCash(const Money &tendered, Money *change, QString *reason);
    void startNewSale();

signals:
    void phaseChanged(OncePay::Ui::CheckoutViewModel::Phase phase, const QString &message);
    void actionsChanged();   // canPay / canEditCart / canStartNewSale may have changed
    void saleStarted();      // a new sale (new order id, empty cart): per-sale choices reset

private:
    void setPhase(Phase phase, const QString &message);
    void follow(const Intent &intent);
    static QString newOrderId();

    SyncEngine *m_engine;
    const Catalog *m_catalog;
    CartModel m_cart;
    QString m_orderId;
    Phase m_phase = Phase::Selling;
    QString m_message;
    std::optional<Intent> m_intent;
    bool m_payInProgress = false;   // set in the click's own handler, before anything else
};

} // namespace OncePay::Ui
