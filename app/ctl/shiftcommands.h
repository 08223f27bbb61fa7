#pragma once

#include <QStringList>

// The shift's Z report: `shift` shows the open shift's report with its reconciliation (read-only,
// beside the till), `close-shift` closes it (the journal must be this process's).
namespace OncePay::Ctl {

class CtlSession;

int shiftCommand(CtlSession &session, const QStringList &arguments);
int closeShiftCommand(CtlSession &session, const QStringList &arguments);

}   // namespace OncePay::Ctl
