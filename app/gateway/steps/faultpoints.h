#pragma once

#include <QString>

namespace OncePay::Gateway {

// The demo's fault hooks (ONCEPAY_FAULT_KILL_AT / ONCEPAY_FAULT_PAUSE_AT, honoured with --demo
// only): the process SIGKILLs itself at the named step, or SIGSTOPs itself the first time a
// request reaches it (a real stall: a VM freeze, a long pause; a test then sees others go on).
// Steps: after_claim, after_mark_called, after_acquirer, after_settle for payments, and the
// same prefixed with refund_ for refunds; before_call_again (a takeover's lookup found nothing
// and the key is within the acquirer's window: it is about to call again).
class FaultPoints final
{
public:
    FaultPoints(QString killAt, QString pauseAt);
    void reach(const char *step);

private:
    QString m_killAt;
    QString m_pauseAt;
    bool m_paused = false;
};

}   // namespace OncePay::Gateway
