#pragma once

#include <QStringList>

// The commands that take money back or cancel: refund and void. Each takes its own arguments
// (after its name).
namespace OncePay::Ctl {

class CtlSession;

// refund PAYMENT_KEY [--amount X] [--reason TEXT] [--no-wait] [--wait SECONDS]: a card payment
// back to the card through the gateway, a cash sale as cash from the drawer. Exit codes as pay.
int refundCommand(CtlSession &session, const QStringList &arguments);
// void KEY: a queued card payment or refund that was never sent. Exit 0 voided; otherwise 1 and
// why it cannot be voided, in one line.
int cancelCommand(CtlSession &session, const QStringList &arguments);
int voidCommand(CtlSession &session, const QStringList &arguments);

}   // namespace OncePay::Ctl
