#pragma once

#include "gateway/gatewaytypes.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

namespace OncePay::Gateway {

// What only the simulated bank has, apart from what every acquirer does (acquirer.h): its
// ledgers, and the faults a demo merchant asks it for (API.md, /v1/_sim/acquirer). The embedded
// simulator (AcquirerSimulator) and the simulator as a service (HttpAcquirer) have them; an
// adapter for a real acquirer has none (Acquirer::simulated() is null).

struct LedgerEntry
{
    QString key;
    qint64 amount = 0;
    QString currency;
    // succeeded, declined; a wallet payment's: processing (the customer has not confirmed yet),
    // reversed (charged, then given up: money back)
    QString status;
    QString declineCode;
    qint64 createdAt = 0;
    Card card;
    QString authorizationCode;   // succeeded charges only
    QJsonObject toJson() const;
    static std::optional<LedgerEntry> fromJson(const QJsonObject &o);
};

// One refund in the acquirer's own ledger (API.md, /v1/_sim/acquirer/refunds).
struct RefundLedgerEntry
{
    QString key;
    QString chargeKey;
    qint64 amount = 0;
    QString currency;
    QString status;   // succeeded or declined
    QString declineCode;
    qint64 createdAt = 0;
    QJsonObject toJson() const;
    static std::optional<RefundLedgerEntry> fromJson(const QJsonObject &o);
};

// The faults a demo merchant asked the simulated acquirer for (API.md, /v1/_sim/acquirer).
struct SimulationState
{
    enum class Mode {
        Normal,
        DeclineAll,
        TimeoutAfterCharge,
        ErrorBeforeCharge
    };
    Mode mode = Mode::Normal;
    int latencyMs = 0;
    // How long a customer takes to confirm a wallet payment on the phone (codes ending in 1).
    int walletConfirmMs = 5000;

    static QString modeName(Mode mode);
    static std::optional<Mode> modeFromName(const QString &name);
    QJsonObject toJson() const;
};

// The simulated bank's ledgers and modes. Every callback runs on `context`'s thread and is
// dropped when `context` is gone.
class AcquirerSimulation
{
public:
    using LedgerCallback = std::function<void(bool ok, const QList<LedgerEntry> &)>;
    using RefundLedgerCallback = std::function<void(bool ok, const QList<RefundLedgerEntry> &)>;
    using SimulationCallback = std::function<void(bool ok, const SimulationState &)>;

    virtual ~AcquirerSimulation() = default;

    // The charges of one merchant, of the key `key` (empty: all).
    virtual void ledger(const QString &merchant, const QString &key, QObject *context, LedgerCallback done) = 0;
    // Refunds of one merchant, of the charge `chargeKey` (empty: all).
    virtual void refundLedger(const QString &merchant, const QString &chargeKey, QObject *context,
        RefundLedgerCallback done) = 0;
    virtual void simulation(const QString &merchant, QObject *context, SimulationCallback done) = 0;
    virtual void setSimulation(const QString &merchant, const SimulationState &state, QObject *context,
        SimulationCallback done) = 0;

    // Durable ledger commits and the units they carried, where the ledger is in this process.
    virtual qint64 ledgerCommits() const { return 0; }
    virtual qint64 ledgerUnits() const { return 0; }
};

}   // namespace OncePay::Gateway
