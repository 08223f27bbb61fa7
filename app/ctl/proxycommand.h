#pragma once

#include <QStringList>

namespace OncePay::Ctl {

class CtlSession;

// proxy: the network simulator (a fault proxy) in front of a gateway, until SIGTERM or SIGINT.
// It opens no journal; the session is not used.
int proxyCommand(CtlSession &session, const QStringList &arguments);

}   // namespace OncePay::Ctl
