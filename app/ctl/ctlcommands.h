#pragma once

#include <QStringList>

namespace OncePay::Ctl {

// Exit codes of oncepay-ctl.
enum ExitCode {
    Succeeded = 0,
    Error = 1,
    Usage = 2,
    Declined = 3,
    NotFinal = 4,        // queued, sending, processing or unknown
    NeedsAttention = 5,
};

// Runs one oncepay-ctl command line (arguments include the program name) in the current
// QCoreApplication and returns the process exit code. Output: stdout; errors: one line on stderr.
int run(const QStringList &arguments);

} // namespace OncePay::Ctl
