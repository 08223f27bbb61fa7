#pragma once

#include "syncengine.h"

#include <functional>
#include <optional>

// What the commands that send share (pay, refund, sync): the --wait option, and following one new
// intent through the engine to the answer the command prints.
namespace OncePay::Ctl {

class CommandLine;

// "--wait SECONDS": a finite number, 0 or more, in milliseconds (longer than the timer's range,
// about 24 days, is the same as that long); else a usage error, printed, in `*rc`.
std::optional<qint64> waitMs(const CommandLine &cl, std::optional<int> *rc);
// The queue is paused because the gateway refused the token: says so, returns 5.
int paused(const SyncEngine &engine);

// Stores a new intent with `create` (a call of the engine given the callback) and follows it:
// until it is final or the queue is paused; with `noWait`, only until its first try has an
// answer (or the till is offline and it waits in the queue); at most `timeoutMs`. Prints it as
// one JSON line and returns the exit code of its state. Not stored: the reason on stderr, 1.
int followIntent(SyncEngine &engine, const std::function<void(SyncEngine::PayCallback)> &create, bool noWait,
    qint64 timeoutMs);

// The part of followIntent that neither prints nor chooses an exit code: the intent as it stands
// when the wait ended, or nullopt with the refusal in `error` when it was not stored.
std::optional<Intent> storeAndFollow(SyncEngine &engine, const std::function<void(SyncEngine::PayCallback)> &create,
    bool noWait, qint64 timeoutMs, QString *error);

}   // namespace OncePay::Ctl
