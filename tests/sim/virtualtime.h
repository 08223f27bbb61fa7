#pragma once

#include "world.h"

#include <QAbstractEventDispatcher>
#include <QHash>
#include <QRandomGenerator>

#include <cstdint>
#include <functional>
#include <map>
#include <tuple>

namespace OncePay::Sim {

// Virtual time for a whole simulated world on one thread (docs/simulation.md):
// - the event dispatcher of that thread, so every QTimer of the product (and QTimer::singleShot)
//   fires in virtual time, in a fixed order;
// - the product's World (world.h): the wall clock and the monotonic clock read virtual time, and
//   random numbers come from one seeded generator.
//
// Nothing waits: step() runs the posted events, then the earliest timer or scheduled action,
// moving the clock to its time. Ties run in the order they were registered. The same seed and
// the same calls give the same run.
class VirtualTime final : public QAbstractEventDispatcher
    , public World
{
    Q_OBJECT

public:
    // `epochMs`: the wall clock at virtual time 0.
    VirtualTime(quint32 seed, qint64 epochMs);
    ~VirtualTime() override;

    qint64 now() const { return m_now; }   // virtual milliseconds since the start
    // A new world on the same thread: the clocks back to their start, no scheduled actions, the
    // generator seeded anew. Call it between worlds, when no product object is left.
    void restart(quint32 seed);
    int timersRegistered() const { return int(m_timers.size()); }
    // Runs `action` at virtual time `at` (not before now), after what is already due then.
    void schedule(qint64 at, std::function<void()> action);
    void after(qint64 delayMs, std::function<void()> action) { schedule(m_now + qMax<qint64>(0, delayMs), std::move(action)); }
    // Posted events, then the earliest due timer or action (the clock moves to it). False when
    // nothing is left to run at all.
    bool step();
    // Steps until `done()` or the clock passes `untilMs`; whether done() became true.
    bool runUntil(const std::function<bool()> &done, qint64 untilMs);
    // Wall-clock jump (an administrator, NTP): the wall clock moves, the monotonic one does not.
    void jumpWallClock(qint64 deltaMs) { m_wallOffset += deltaMs; }
    quint64 timersFired() const { return m_fired; }

    // World
    qint64 wallMs() override { return m_epoch + m_wallOffset + m_now; }
    qint64 monotonicMs() override { return 1'000'000 + m_now; }
    QRandomGenerator *random() override { return &m_random; }

    // QAbstractEventDispatcher
    bool processEvents(QEventLoop::ProcessEventsFlags flags) override;
    void registerSocketNotifier(QSocketNotifier *) override {}
    void unregisterSocketNotifier(QSocketNotifier *) override {}
    void registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object) override;
    bool unregisterTimer(int timerId) override;
    bool unregisterTimers(QObject *object) override;
    QList<TimerInfo> registeredTimers(QObject *object) const override;
    int remainingTime(int timerId) override;
    void wakeUp() override {}
    void interrupt() override {}

private:
    struct Timer
    {
        qint64 interval = 0;
        Qt::TimerType type = Qt::CoarseTimer;
        QObject *object = nullptr;
        qint64 due = 0;
        std::uint64_t armed = 0;   // the queue entry that is current for this timer
    };
    // (due, order) -> a timer id (> 0) or an action (timer id 0)
    using Key = std::pair<qint64, std::uint64_t>;
    struct Entry
    {
        int timerId = 0;
        std::function<void()> action;
    };
    void arm(int timerId, Timer &timer);
    bool runEntry();

    qint64 m_now = 0;
    qint64 m_epoch = 0;
    qint64 m_wallOffset = 0;
    std::uint64_t m_order = 0;
    quint64 m_fired = 0;
    QRandomGenerator m_random;
    QHash<int, Timer> m_timers;
    std::map<Key, Entry> m_queue;
};

}   // namespace OncePay::Sim
