#include "gateway/acquirer/acquirerdeadlines.h"

#include "timeutil.h"
#include "world.h"

#include <iterator>
#include <utility>

namespace OncePay::Gateway {

AcquirerDeadlines::AcquirerDeadlines(qint64 timeoutMs)
    : m_timeoutMs(timeoutMs)
{
    m_timer.setInterval(int(qBound<qint64>(qint64(5), m_timeoutMs / 20, qint64(100))));
    QObject::connect(&m_timer, &QTimer::timeout, &m_timer, [this] {
        expireDue();
    });
}

std::shared_ptr<bool> AcquirerDeadlines::start(std::function<void()> expire, qint64 timeoutMs)
{
    auto answered = std::make_shared<bool>(false);
    const qint64 at = monotonicMs() + (timeoutMs < 0 ? m_timeoutMs : qMin(timeoutMs, m_timeoutMs));
    auto before = m_deadlines.end();
    while (before != m_deadlines.begin() && std::prev(before)->at > at)
        --before;
    m_deadlines.insert(before, {at, answered, std::move(expire)});
    if (!m_timer.isActive())
        m_timer.start();
    return answered;
}

void AcquirerDeadlines::expireDue()
{
    const qint64 now = monotonicMs();
    while (!m_deadlines.empty() && (*m_deadlines.front().answered || m_deadlines.front().at <= now)) {
        Deadline d = std::move(m_deadlines.front());
        m_deadlines.pop_front();
        if (!*d.answered) {
            *d.answered = true;
            d.expire();
        }
    }
    if (m_deadlines.empty())
        m_timer.stop();
}

}   // namespace OncePay::Gateway
