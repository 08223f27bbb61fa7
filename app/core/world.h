#pragma once

#include <QString>
#include <QtGlobal>

class QRandomGenerator;

namespace OncePay {

// What the product reads from the world around it: the time and random numbers. Production
// reads this machine's; the simulator (tests/sim, docs/simulation.md) installs a world of its
// own, with virtual time and a seeded generator, so that one seed gives one run.
//
// Everything in the till and the gateway asks here (nowMs(), monotonicMs(), randomSource(),
// newUuid()) rather than QDateTime::currentMSecsSinceEpoch(), a clock_gettime() or
// QRandomGenerator::system() of its own. Timers need no seam: QTimer runs on the thread's
// event dispatcher, which the simulator replaces as a whole.
class World
{
public:
    virtual ~World() = default;
    // Milliseconds since the Unix epoch, UTC. May jump (the administrator, NTP).
    virtual qint64 wallMs() = 0;
    // Milliseconds that never go back and count while the machine sleeps (CLOCK_BOOTTIME):
    // what leases are measured on.
    virtual qint64 monotonicMs() = 0;
    // Safe to use from the calling thread (the machine's is QRandomGenerator::system()).
    virtual QRandomGenerator *random() = 0;

    // The installed world, or the machine's.
    static World *current();
    // Installs `world` (nullptr: the machine's again). Only while no other thread runs product
    // code: a simulator's main() does it before it builds anything.
    static void install(World *world);
};

qint64 monotonicMs();
QRandomGenerator *randomSource();
// A random (version 4) UUID without braces, from randomSource().
QString newUuid();

}   // namespace OncePay
