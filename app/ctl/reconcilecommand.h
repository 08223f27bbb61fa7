#pragma once

#include <QStringList>

namespace OncePay::Ctl {

class CtlSession;

// reconcile: fetches the gateway's list of payments (every page) and the journal's intents, and
// prints what OncePay::matchPayments() finds.
int reconcileCommand(CtlSession &session, const QStringList &arguments);

}   // namespace OncePay::Ctl
