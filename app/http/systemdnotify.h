#pragma once

#include <QByteArray>

namespace OncePay::Http {

// Tells the service manager the process's state, as sd_notify(3) does, without libsystemd.
class SystemdNotify final
{
public:
    // Sends state lines ("READY=1", "STOPPING=1", "STATUS=...", separated by '\n') as one
    // datagram to the AF_UNIX socket that $NOTIFY_SOCKET names (a path, or "@name" in the
    // abstract namespace). False if the variable is unset (not started by systemd with
    // Type=notify) or the datagram could not be sent (logged); the caller carries on either way.
    static bool notify(const QByteArray &state);
};

}   // namespace OncePay::Http
