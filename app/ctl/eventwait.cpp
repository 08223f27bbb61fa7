#include "eventwait.h"

#include <climits>

namespace OncePay::Ctl {

EventWait::EventWait(std::function<bool()> done)
    : m_done(std::move(done))
{
    m_deadline.setSingleShot(true);
    m_deadline.setTimerType(Qt::PreciseTimer);
    QObject::connect(&m_deadline, &QTimer::timeout, &m_loop, &QEventLoop::quit);
}

void EventWait::recheck()
{
    if (m_loop.isRunning() && m_done())
        m_loop.quit();
}

bool EventWait::exec(qint64 timeoutMs)
{
    // A callback may have answered before the loop runs (e.g. a refusal made without I/O).
    if (m_done())
        return true;
    if (timeoutMs >= 0)
        m_deadline.start(int(qMin<qint64>(timeoutMs, INT_MAX)));
    m_loop.exec();
    m_deadline.stop();
    return m_done();
}

}   // namespace OncePay::Ctl
