#pragma once

#include "intent.h"
#include "paymentmatching.h"
#include "shiftfinding.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace OncePay {

// Shift matching: one shift's payments and refunds against the gateway's records and, in demo
// mode, the acquirer's ledger (pure: everything is fetched beforehand, by ShiftCheck). Builds on
// payment matching (paymentmatching.h).

// One refund of the gateway (API.md refund object): the fields reconciliation compares.
struct GatewayRefund
{
    QString id;
    QString idempotencyKey;
    QString paymentId;
    Money amount;
    QString status;   // processing, succeeded, failed
    qint64 createdAt = 0;

    static GatewayRefund fromJson(const QJsonObject &object);
};

// What the acquirer's own ledger (the demo's /v1/_sim/acquirer) holds for one key.
struct BankMoves
{
    int succeeded = 0;   // charges (refunds) that moved money
    qint64 amount = 0;   // what they moved together
};

// Everything a shift's reconciliation compares, fetched beforehand (ShiftCheck does).
struct ShiftMatchInput
{
    // The shift's own intents and those carried over from earlier shifts: one row each.
    QList<Intent> intents;
    // Payments of earlier shifts refunded in this one: their refunded amount is checked.
    QList<Intent> refundedPayments;
    // The gateway's list for the terminal since the shift opened, without payments of earlier
    // shifts; and the gateway's payments refunded in this shift that the list does not hold.
    QList<GatewayPayment> payments;
    QList<GatewayPayment> otherPayments;
    // The gateway's refunds of the payments refunded in this shift (GET /v1/payments/{id}/refunds),
    // without those of earlier shifts.
    QList<GatewayRefund> refunds;
    // The acquirer's ledger by payment key and by refund key; none: not a demo gateway.
    std::optional<QHash<QString, BankMoves>> bankCharges;
    std::optional<QHash<QString, BankMoves>> bankRefunds;
};

// The shift's payments by key (OncePay::reconcile), its refunds by key against the gateway's
// refunds, each refunded payment's amount_refunded against the journal's succeeded refunds, and,
// in demo mode, each of them against the acquirer's ledger: charged once, refunded once. Rows
// needing a person come first, then those to wait for, then the rest, each group in the
// journal's order.
QList<ShiftFinding> matchShift(const ShiftMatchInput &input);

// How many findings of each kind ("matched": n, ...) and action, for a summary line.
QJsonObject shiftFindingCounts(const QList<ShiftFinding> &findings);

}   // namespace OncePay
