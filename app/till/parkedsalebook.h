#pragma once

#include "intentjournal.h"
#include "parkedsale.h"
#include "sqlbatchworker.h"

#include <QList>
#include <QObject>

namespace OncePay {

// The sales on hold, in the journal's own file and transactions (the `parked_sales` table,
// schema v9): a cart parked with nothing paid, the list of those still parked, recalling one
// (once: compare and set) and deleting one (kept as deleted, with a staff action). Rows are never
// removed: what was parked, recalled or thrown away stays readable. Every call answers on the
// caller's context; the SQL runs on the journal's thread.
class ParkedSaleBook final : public QObject
{
    Q_OBJECT

public:
    template <typename T>
    using Reply = IntentJournal::Reply<T>;

    explicit ParkedSaleBook(IntentJournal *journal, QObject *parent = nullptr);

    struct Park
    {
        ParkedCart cart;
        Money total;   // what the cart comes to, as the cashier saw it
        int itemCount = 0;
        // The journal's sale the cart is already (a card declined or given up): refused when any
        // part of it is paid or waits for an answer, else cancelled in the same transaction.
        QString orderId = {};
    };
    // Stores the cart as parked by the journal's actor, with its number ("P3").
    void park(const Park &request, QObject *context, Reply<ParkedSale> reply);
    // Those still parked, oldest first.
    void parked(QObject *context, Reply<QList<ParkedSale>> reply);
    // Parked -> recalled, once: refused (ParkedSaleGone) when it is no longer parked. The value is
    // the sale with its cart, to be put back.
    void recall(qint64 id, QObject *context, Reply<ParkedSale> reply);
    // Parked -> deleted, with a staff action ("delete_parked", its number and total).
    void remove(qint64 id, QObject *context, Reply<ParkedSale> reply);

    // --- inside a journal transaction ---
    static void createTable(SqlTx &tx);
    static QList<ParkedSale> readParked(SqlTx &tx);

private:
    void end(qint64 id, ParkedState to, QObject *context, Reply<ParkedSale> reply);

    IntentJournal *m_journal;
};

}   // namespace OncePay
