#pragma once

#include <QTimer>
#include <QtGlobal>

#include <deque>
#include <functional>
#include <memory>

namespace OncePay::Gateway {

// The deadlines of acquirer calls, on the monotonic clock. The timeout is almost always the same
// for every call, so deadlines arrive in order and a queue checked by one timer replaces a QTimer
// per call (tens of thousands of live timers make every event loop iteration slow); a shorter one
// (a call made late in its lease) is placed in order from the back.
class AcquirerDeadlines final
{
public:
    explicit AcquirerDeadlines(qint64 timeoutMs);

    // Starts a deadline `timeoutMs` from now (at most the timeout given to the constructor; -1:
    // that timeout). The call's answer and the deadline share the returned flag: whichever comes
    // first sets it; `expire` runs only if the deadline does.
    std::shared_ptr<bool> start(std::function<void()> expire, qint64 timeoutMs = -1);

private:
    void expireDue();

    struct Deadline
    {
        qint64 at = 0;
        std::shared_ptr<bool> answered;
        std::function<void()> expire;
    };
    qint64 m_timeoutMs;
    std::deque<Deadline> m_deadlines;
    QTimer m_timer;
};

}   // namespace OncePay::Gateway
