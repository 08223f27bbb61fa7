#pragma once

#include <QStringList>

namespace OncePay::Ctl {

class CtlSession;

// A sale paid exactly once whatever its tenders (issue 21): `sale`, `sales`, `pay-another-way`,
// `sale-cancel`.
int saleCommand(CtlSession &session, const QStringList &arguments);
int salesCommand(CtlSession &session, const QStringList &arguments);
int payAnotherWayCommand(CtlSession &session, const QStringList &arguments);
int saleCancelCommand(CtlSession &session, const QStringList &arguments);

}   // namespace OncePay::Ctl
