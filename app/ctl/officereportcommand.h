#pragma once

#include <QStringList>

// `oncepay-ctl office report` (issue 39, docs/office.md "Reports"): the office's sales report
// read with an owner's token; no journal is opened.
namespace OncePay::Ctl {

class CtlSession;

int officeReportCommand(CtlSession &session, const QStringList &arguments);

}   // namespace OncePay::Ctl
