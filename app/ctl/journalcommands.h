#pragma once

#include <QStringList>

// The commands that only read the journal: list, queue, show and export. They open it read-only,
// so they work beside the till or the ctl process that owns it.
namespace OncePay::Ctl {

class CtlSession;

int listCommand(CtlSession &session, const QStringList &arguments);   // every intent, payments and refunds
int queueCommand(CtlSession &session, const QStringList &arguments);   // what is not final
int showCommand(CtlSession &session, const QStringList &arguments);
int exportCommand(CtlSession &session, const QStringList &arguments);

}   // namespace OncePay::Ctl
