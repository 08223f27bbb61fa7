#pragma once

#include <QStringList>

// The till's outbox and the shop's office (issue 38, OFFICE.md): `office status` says what waits
// to be sent (read-only, beside the till), `office push` sends it now (the journal must be this
// process's).
namespace OncePay::Ctl {

class CtlSession;

int officeCommand(CtlSession &session, const QStringList &arguments);

}   // namespace OncePay::Ctl
