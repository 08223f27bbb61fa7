#pragma once

#include <QByteArray>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>

namespace OncePay::Sim {

class VirtualTime;

// The faults the seed may choose from (oncepay-sim --faults): each one of the world's parts
// failing as DESIGN.md "Simulation" lists them.
QStringList allFaultKinds();

struct WorldOptions
{
    quint32 seed = 1;
    int payments = 200;   // over all tills
    int tills = 2;
    int gateways = 2;
    QSet<QString> faults;   // enabled kinds; allFaultKinds() by default
    int traceTail = 40;   // lines of the trace kept for a failure's report
};

struct WorldReport
{
    QStringList violations;   // empty: every invariant held
    QMap<QString, int> counts;   // payments, succeeded, declined, refunds, needs_review, faults...
    qint64 virtualMs = 0;   // simulated time the run took
    QByteArray trace;   // SHA-256 of the run's events, hex
    QStringList traceTail;   // the last events, for a failure's report
};

// One seeded world on the calling thread: `options.tills` tills (the real IntentJournal,
// GatewayClient and SyncEngine on a CrashVfs disk each), `options.gateways` gateway instances
// (the real HttpApi, PaymentService and SqlGatewayStore on one shared CrashVfs disk), the real
// AcquirerSimulator as the bank, an in-memory network between them; faults chosen by the seed;
// the invariants of issue 22 checked while it runs and after the world heals. The thread's event
// dispatcher must be `time`.
WorldReport runWorld(const WorldOptions &options, VirtualTime *time);

}   // namespace OncePay::Sim
