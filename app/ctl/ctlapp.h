#pragma once

#include <QStringList>

namespace OncePay::Ctl {

// Runs one oncepay-ctl command line (arguments include the program name) in the current
// QCoreApplication and returns the process exit code (exitcode.h). The global options come
// before the command; the command parses the rest. Output: stdout; errors: one line on stderr.
int run(const QStringList &arguments);

}   // namespace OncePay::Ctl
