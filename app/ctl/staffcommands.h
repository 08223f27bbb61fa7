#pragma once

#include <QStringList>

namespace OncePay::Ctl {

class CtlSession;

// `staff add NAME --role cashier|manager` (the PIN asked on a terminal without echo, or read
// from standard input), `staff list [--json]`: the till's staff, beside its journal.
int staffCommand(CtlSession &session, const QStringList &arguments);

}   // namespace OncePay::Ctl
