#include "gateway/steps/faultpoints.h"

#include "gateway/paymentlog.h"

#include <csignal>
#include <utility>
#include <unistd.h>

namespace OncePay::Gateway {

FaultPoints::FaultPoints(QString killAt, QString pauseAt)
    : m_killAt(std::move(killAt))
    , m_pauseAt(std::move(pauseAt))
{
}

void FaultPoints::reach(const char *step)
{
    if (m_killAt == QLatin1String(step)) {
        qCCritical(lcPayments) << "fault injection: killing the gateway at" << step;
        ::kill(::getpid(), SIGKILL);
    }
    if (m_pauseAt == QLatin1String(step) && !std::exchange(m_paused, true)) {
        qCCritical(lcPayments) << "fault injection: stopping the gateway at" << step;
        ::raise(SIGSTOP);
    }
}

}   // namespace OncePay::Gateway
