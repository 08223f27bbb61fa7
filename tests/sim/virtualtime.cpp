#include "virtualtime.h"

#include <QCoreApplication>
#include <QTimerEvent>

namespace OncePay::Sim {

VirtualTime::VirtualTime(quint32 seed, qint64 epochMs)
    : m_epoch(epochMs)
    , m_random(seed)
{
}

VirtualTime::~VirtualTime() = default;

void VirtualTime::restart(quint32 seed)
{
    QCoreApplication::sendPostedEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    m_queue.clear();
    for (auto it = m_timers.begin(); it != m_timers.end(); ++it) {
        it->due = it->interval;
        it->armed = ++m_order;
        m_queue.emplace(Key{it->due, it->armed}, Entry{it.key(), {}});
    }
    m_now = 0;
    m_wallOffset = 0;
    m_random.seed(seed);
}

void VirtualTime::schedule(qint64 at, std::function<void()> action)
{
    m_queue.emplace(Key{qMax(at, m_now), ++m_order}, Entry{0, std::move(action)});
}

void VirtualTime::arm(int timerId, Timer &timer)
{
    timer.due = m_now + qMax<qint64>(timer.interval, 0);
    timer.armed = ++m_order;
    m_queue.emplace(Key{timer.due, timer.armed}, Entry{timerId, {}});
}

void VirtualTime::registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object)
{
    Timer t{interval, timerType, object, 0, 0};
    arm(timerId, t);
    m_timers.insert(timerId, t);
}

bool VirtualTime::unregisterTimer(int timerId)
{
    // Its queue entry stays and is skipped: it no longer names a current timer.
    return m_timers.remove(timerId) > 0;
}

bool VirtualTime::unregisterTimers(QObject *object)
{
    return m_timers.removeIf([object](const QHash<int, Timer>::iterator &it) {
        return it->object == object;
    }) > 0;
}

QList<QAbstractEventDispatcher::TimerInfo> VirtualTime::registeredTimers(QObject *object) const
{
    QList<TimerInfo> out;
    for (auto it = m_timers.cbegin(); it != m_timers.cend(); ++it) {
        if (it->object == object)
            out.append(TimerInfo(it.key(), int(it->interval), it->type));
    }
    return out;
}

int VirtualTime::remainingTime(int timerId)
{
    const auto it = m_timers.constFind(timerId);
    return it == m_timers.cend() ? -1 : int(qMax<qint64>(0, it->due - m_now));
}

bool VirtualTime::runEntry()
{
    while (!m_queue.empty()) {
        auto first = m_queue.begin();
        const Key key = first->first;
        Entry entry = std::move(first->second);
        m_queue.erase(first);
        if (entry.timerId == 0) {
            m_now = qMax(m_now, key.first);
            entry.action();
            return true;
        }
        auto t = m_timers.find(entry.timerId);
        if (t == m_timers.end() || t->armed != key.second)
            continue;   // stopped or restarted since
        m_now = qMax(m_now, key.first);
        QObject *object = t->object;
        // A periodic timer is due again one interval on (at least 1 ms: a 0 ms timer that
        // re-arms itself would otherwise hold the clock still for ever).
        t->interval = qMax<qint64>(t->interval, 0);
        const qint64 interval = t->interval;
        t->due = m_now + qMax<qint64>(interval, 1);
        t->armed = ++m_order;
        m_queue.emplace(Key{t->due, t->armed}, Entry{entry.timerId, {}});
        ++m_fired;
        QTimerEvent event(entry.timerId);
        QCoreApplication::sendEvent(object, &event);
        return true;
    }
    return false;
}

bool VirtualTime::step()
{
    QCoreApplication::sendPostedEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return runEntry();
}

bool VirtualTime::runUntil(const std::function<bool()> &done, qint64 untilMs)
{
    for (;;) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        if (done())
            return true;
        if (m_queue.empty() || m_queue.begin()->first.first > untilMs)
            return done();
        runEntry();
    }
}

bool VirtualTime::processEvents(QEventLoop::ProcessEventsFlags)
{
    // Someone spins an event loop of their own: the posted events and what is due now, never
    // a move of the clock (only the simulator's loop moves it).
    QCoreApplication::sendPostedEvents();
    bool any = false;
    while (!m_queue.empty() && m_queue.begin()->first.first <= m_now && runEntry())
        any = true;
    return any;
}

}   // namespace OncePay::Sim
