#pragma once

namespace OncePay::Ctl {

// Exit codes of oncepay-ctl.
enum ExitCode {
    Succeeded = 0,
    Error = 1,
    Usage = 2,
    Declined = 3,   // final with nothing moved: declined (a refund: failed), or voided
    NotFinal = 4,   // queued, sending, processing or unknown (reconcile: differences found)
    NeedsAttention = 5,
};

}   // namespace OncePay::Ctl
