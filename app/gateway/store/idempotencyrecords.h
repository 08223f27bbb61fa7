#pragma once

#include "gateway/store/gatewaystore.h"
#include "gateway/gatewaytypes.h"
#include "sqlbatchworker.h"

#include <QString>
#include <QVariantList>

namespace OncePay::Gateway {

// The statements every keyed write of SqlGatewayStore shares, payments and refunds alike: the
// idempotency record of (merchant, key), promise 9's one key space, and the lease of a row.

// The response record of one key.
struct IdempotencyRecord
{
    bool exists = false;
    QByteArray fingerprint;
    QString state;   // in_progress, completed
    QString resourceId;
    StoredResponse response;
    qint64 expiresAt = 0;
};

IdempotencyRecord readRecord(SqlTx &tx, const QString &merchant, const QString &key);
// Atomic claim: the primary key decides who owns (merchant, key); never check-then-insert.
bool insertClaim(SqlTx &tx, const QString &merchant, const QString &key, const QByteArray &fingerprint,
    const QString &resourceId, qint64 now);
void deleteRecord(SqlTx &tx, const QString &merchant, const QString &key);
// With `onlyInProgress`, a record already completed (a 202 answered) is kept as it is.
void completeRecord(SqlTx &tx, const QString &merchant, const QString &key, const StoredResponse &r,
    qint64 expiresAt, bool onlyInProgress = false);

bool rowExists(SqlTx &tx, const QString &sql, const QVariantList &binds);
// Promise 9: payments and refunds of a merchant share one key space, whatever the retention.
bool keyUsedByRefund(SqlTx &tx, const QString &merchant, const QString &key);
bool keyUsedByPayment(SqlTx &tx, const QString &merchant, const QString &key);

// The lease of a row of `table` (LeasedTable, gatewaytypes.h).
// Takes over the row `id` read at `generation` whose lease has lapsed: true if this one did.
bool takeOverLease(SqlTx &tx, LeasedTable table, const QString &id, qint64 generation, qint64 leaseMs, bool postgres);
// "About to call the acquirer": step acquirer_called and a renewed lease, only under a live lease.
bool markCalled(SqlTx &tx, LeasedTable table, const QString &id, qint64 generation, qint64 leaseMs, qint64 now,
    bool postgres);
// Deletes the row held at `row.generation`, still at step claimed (or refused on its only call:
// `acquirerRefused`), with its in-progress key record and a refund's reservation: true if it did.
bool releaseClaim(SqlTx &tx, const LeasedRow &row, bool acquirerRefused);
// Ends the lease early so that the next retry or recovery run may take over at once.
bool endLease(SqlTx &tx, LeasedTable table, const QString &id, qint64 generation);
// Promise 11 for the row `id` held at `generation`: within `windowMs` of its creation (on the
// store's clock) Within; older, needs_review is set and the lease ended: Review.
KeyWindow checkKeyWindow(SqlTx &tx, LeasedTable table, const QString &id, qint64 generation, qint64 windowMs,
    qint64 now, bool postgres);

}   // namespace OncePay::Gateway
