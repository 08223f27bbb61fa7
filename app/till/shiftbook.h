#pragma once

#include "intent.h"
#include "intentjournal.h"
#include "shiftreport.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QStringList>

#include <optional>

namespace OncePay {

// The till's shifts, kept in the journal (schema v5, table `shifts`). A shift is the intents
// after the previous close (by id: a clock that jumps cannot move one into another shift); it
// opens with its first intent. Closing stores the shift's report with the counted cash and the
// reconciliation as it was shown, and the next intent opens the next shift. Closed shifts are
// never rewritten (SQLite refuses). Every call answers on its context, on the journal's thread.
class ShiftBook final
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::ShiftBook)

public:
    explicit ShiftBook(IntentJournal *journal)
        : m_journal(journal) {}

    template <typename T>
    using Reply = IntentJournal::Reply<T>;

    // What the open shift holds, read in one transaction.
    struct Snapshot
    {
        int number = 1;
        qint64 openedAt = 0;   // its first intent's time; 0 while it has none
        qint64 previousClosedAt = 0;   // 0: no shift was closed before
        qint64 firstIntentId = 1;
        qint64 lastIntentId = 0;   // the newest intent now; the close covers up to it
        qint64 openingFloat = 0;   // what the previous close left in the drawer
        // The first shift of a till opens with the cash the cashier put in the drawer; every later
        // one with what the previous close left (openingFloat), which nobody types again.
        bool isFirst() const { return previousClosedAt == 0; }
        QList<Intent> intents;   // its own, oldest first
        QList<Intent> carriedOver;   // waiting when an earlier shift closed, as they are now
        QList<Intent> refundedPayments;   // payments of earlier shifts that this one refunds
        QList<Sale> paidSales;   // sales whose last payment is in this shift, paid
        QHash<QString, QList<TaxBand>> returns;   // ShiftReport::Input::returns
        QList<ShiftReport::Parked> parked;   // the sales on hold now (issue 36)
        // Payments the previous close found only on the gateway: reported once, not again.
        QSet<QString> reportedBefore;

        // The report's input: these intents, the opening float, `countedCash`, now.
        ShiftReport::Input reportInput(const QString &currency, std::optional<qint64> countedCash) const;
    };
    void current(QObject *context, Reply<Snapshot> reply);

    // Of `keys`, those of intents up to `lastId` (earlier shifts): the gateway lists them when
    // they reached it after their shift closed.
    void earlierKeys(const QStringList &keys, qint64 lastId, QObject *context, Reply<QSet<QString>> reply);

    struct Close
    {
        int number = 0;   // the shift being closed, as shown (Snapshot::number)
        qint64 lastIntentId = 0;   // its last intent, as shown: a newer one opens the next shift
        QString currency;
        std::optional<qint64> countedCash;
        qint64 nextFloat = 0;   // left in the drawer for the next shift
        // The first shift's opening float, as the cashier counted it; refused for a later shift.
        std::optional<qint64> openingFloat;
        QStringList confirmedWaiting;   // the waiting keys the cashier was shown and accepted
        // The refunds the till owes (ShiftReport::refundsOwed) the cashier was shown and accepted.
        QStringList confirmedOwed;
        QJsonObject reconciliation;   // as shown: counts, rows, when it was made
    };
    // Computes the report again in the closing transaction and stores it. Refused, in words, when
    // the shift was closed meanwhile, or something waits or a refund is owed that the cashier
    // did not confirm.
    void close(const Close &request, QObject *context, Reply<ShiftReport> reply);

    // The stored closes, newest first: {"shift", "closed_at", "counted_cash", "next_float",
    // "report", "reconciliation"}.
    void closedShifts(int limit, QObject *context, Reply<QJsonArray> reply);

    static constexpr qint64 kMaxFloat = 100'000'000;   // in minor units: ¥1,000,000.00

    // The journal's migration to version 5: the shifts table. JournalSchema::migrate calls it.
    static void createTable(SqlTx &tx);

private:
    IntentJournal *m_journal;
};

}   // namespace OncePay
