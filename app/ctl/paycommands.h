#pragma once

#include <QStringList>

// The commands that send: pay and sync. Each takes its own arguments (after its name).
namespace OncePay::Ctl {

class CtlSession;

int payCommand(CtlSession &session, const QStringList &arguments);
int syncCommand(CtlSession &session, const QStringList &arguments);

}   // namespace OncePay::Ctl
