#include "gateway/acquirer/acquirers.h"

#include "gateway/acquirer/acquirersimulator.h"
#include "gateway/acquirer/httpacquirer.h"

namespace OncePay::Gateway {

namespace {

struct Adapter
{
    QLatin1String scheme;
    Acquirer *(*make)(const AcquirerSetup &setup, QObject *parent);
};

// oncepay-acquirer, the simulated bank as a service shared by several gateways.
Acquirer *simulatorService(const AcquirerSetup &setup, QObject *parent)
{
    return new HttpAcquirer(setup.url, setup.timeoutMs, parent);
}

// The acquirers --acquirer can name, by its URL's scheme. An adapter for another acquirer's
// protocol is one Acquirer in a file of its own and one row here (docs/architecture.md,
// "Adding an acquirer").
const Adapter kAdapters[] = {
    {QLatin1String("http"), simulatorService},
    {QLatin1String("https"), simulatorService},
};

}   // namespace

Acquirer *makeAcquirer(const AcquirerSetup &setup, QObject *parent)
{
    if (setup.url.isEmpty())
        return new AcquirerSimulator(setup.ledgerPath, setup.keyMemoryMs, parent);
    for (const Adapter &a : kAdapters) {
        if (setup.url.scheme() == a.scheme)
            return a.make(setup, parent);
    }
    return nullptr;
}

bool isAcquirerScheme(const QString &scheme)
{
    for (const Adapter &a : kAdapters) {
        if (scheme == a.scheme)
            return true;
    }
    return false;
}

}   // namespace OncePay::Gateway
