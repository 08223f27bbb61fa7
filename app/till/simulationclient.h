#pragma once

#include "money.h"

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QUrl>

#include <functional>

namespace OncePay {

class GatewayClient;

// One charge in the simulated acquirer's ledger (API.md, /v1/_sim/acquirer/charges).
struct LedgerCharge
{
    QString key;
    Money amount;
    bool charged = false;   // succeeded; false: declined, reversed or waiting
    QDateTime at;
    // The ledger's word: succeeded, declined; a wallet payment's processing (waiting for the
    // customer) or reversed (charged, then given up: money back).
    QString status = {};
};

// One refund in the acquirer's refund ledger, against the charge of payment key `chargeKey`.
struct LedgerRefund
{
    QString key;
    QString chargeKey;
    Money amount;
    bool refunded = false;   // succeeded; false: refused
    QDateTime at;
};

// The till's client of the demo gateway's simulation endpoints (API.md "/v1/_sim"): the
// acquirer's ledger and its fault mode. It talks to the gateway straight, not through the
// network simulator: the ledger is the ground truth the demo checks against.
class SimulationClient final : public QObject
{
    Q_OBJECT

public:
    SimulationClient(const QUrl &gatewayUrl, const QString &token, QObject *parent = nullptr);
    // The gateway it asks, straight (never through the till's simulated network).
    QUrl gatewayUrl() const;

    template <typename T>
    using Reply = std::function<void(bool ok, const QString &error, const T &value)>;
    // Every call answers on `context` and drops the answer if `context` is gone by then.

    // The ledger's charges, all of them or those of one idempotency key, oldest first.
    void charges(const QString &key, QObject *context, Reply<QList<LedgerCharge>> reply);
    // The ledger's refunds, all of them or those against the charge of one payment key.
    void refunds(const QString &chargeKey, QObject *context, Reply<QList<LedgerRefund>> reply);
    // normal, decline_all, timeout_after_charge, error_before_charge (API.md).
    void setAcquirerMode(const QString &mode, QObject *context, Reply<bool> reply);
    // Any of the acquirer's simulation fields at once (mode, latency_ms, wallet_confirm_ms);
    // those left out keep their value.
    void setAcquirer(const QJsonObject &fields, QObject *context, Reply<bool> reply);

private:
    GatewayClient *m_client;
};

}   // namespace OncePay
