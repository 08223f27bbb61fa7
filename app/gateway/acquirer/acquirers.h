#pragma once

#include "gateway/acquirer/acquirer.h"

#include <QString>
#include <QUrl>

namespace OncePay::Gateway {

// What the gateway knows of its acquirer when it starts (GatewayServer, from --acquirer).
struct AcquirerSetup
{
    QUrl url;   // --acquirer; empty: the embedded simulator
    QString ledgerPath;   // the embedded simulator's ledger
    qint64 keyMemoryMs = 0;   // the embedded simulator's memory of keys; 0: forever
    int timeoutMs = 10'000;   // the deadline of one call
};

// The acquirer `setup` names: the embedded simulator without a URL, else the adapter for the
// URL's scheme (acquirers.cpp lists them). Null when no adapter speaks that scheme.
Acquirer *makeAcquirer(const AcquirerSetup &setup, QObject *parent);
// Whether an adapter speaks URLs of this scheme: --acquirer is checked against it.
bool isAcquirerScheme(const QString &scheme);

}   // namespace OncePay::Gateway
