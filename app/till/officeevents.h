#pragma once

#include "intentjournal.h"
#include "sale.h"
#include "shiftreport.h"
#include "sqlbatchworker.h"

#include <QJsonObject>
#include <QList>
#include <QString>

// The till's outbox (issue 38, ../shared/OFFICE.md "Events: the till's outbox"): every change the
// shop cares about appends an event to the journal's `outbox` table IN THE SAME TRANSACTION that
// makes the change, so nothing is committed and not queued, nor queued and not committed. Seqs
// are 1, 2, 3, ... per till (per journal), never reused, never skipped. This is the one place
// that builds each event's JSON; OfficeSync sends them.
namespace OncePay::OfficeEvents {

// The migration (schema v10): the table, append-only. A journal migrated from before starts its
// outbox at its next change.
void createTable(SqlTx &tx);

// Schema v11: where the office stands is one row (outbox_sent.last_seq), not a column of every
// event (v10's sent_at and its index, dropped): appending writes the table alone.
void keepSentPosition(SqlTx &tx);

// Appends an event (seq = the last + 1) and answers its seq. `atMs`: epoch ms.
qint64 append(SqlTx &tx, const QString &kind, qint64 atMs, const QJsonObject &data);

// "2026-12-07T10:15:02.113Z"
QString isoMs(qint64 epochMs);

// --- the events, each appended inside the transaction of its change ---
// A sale ended: `sale` as it is now (state paid or cancelled, with its intents).
QJsonObject saleData(const Sale &sale);
void saleEnded(SqlTx &tx, const Sale &sale, qint64 now);
// A cart thrown away (SaleBook::discard).
void discarded(SqlTx &tx, const Sale &sale, qint64 now);
// A refund became final (succeeded, declined, voided, needs attention): read by its key.
void refundFinal(SqlTx &tx, const QString &refundKey, qint64 now);
// What staff did (IntentJournal::recordStaffAction): a drawer opened without a sale, cash in or
// out are `cash`; a cart thrown away is `discard`; every other action is `staff`.
QString kindOfStaffAction(const QString &action);
void staffAction(SqlTx &tx, const IntentJournal::StaffAction &action);
// A shift closed: its Z report as stored, its totals, how many sales it paid.
void shiftClosed(SqlTx &tx, const ShiftReport &report, const QJsonObject &storedReport, int paidSales,
    qint64 nextFloat, const QString &staff);

// --- for the sender ---
struct Event
{
    qint64 seq = 0;
    QString kind;
    QString at;
    QByteArray data;   // the JSON text as stored: sent as it is, the same on every try
    QJsonObject toJson() const;   // {"seq", "kind", "at", "data"}
};
// The events not acknowledged by the office, seq order, at most `limit`.
QList<Event> waiting(SqlTx &tx, int limit);
// The office holds every event up to `lastSeq` (a 200's last_seq, or its position): those are
// sent, and any after it are not (an office that lost some gets them again).
void acknowledgeUpTo(SqlTx &tx, qint64 lastSeq, qint64 now);

struct Status
{
    int waiting = 0;
    qint64 lastSentSeq = 0;
    qint64 lastSeq = 0;
    qint64 oldestWaitingAtMs = 0;   // 0: nothing waits
};
Status status(SqlTx &tx);

}   // namespace OncePay::OfficeEvents
