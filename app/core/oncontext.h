#pragma once

#include <QObject>
#include <QPointer>

#include <type_traits>
#include <utility>

namespace OncePay {

// The one rule of the till's asynchronous calls: every call takes a context object and its
// answer is dropped if the context is gone when it comes, as QObject::connect with a context
// does. onContext(context, done) wraps `done` so: the wrapper runs `done` only while `context`
// lives. Use it at the call's entry (GatewayClient, SyncEngine, ShiftCheck...), never by
// hand in the caller: a dialog closed before its answer comes is simply not called back.
//
// Same thread only: the wrapper must be called on the context's thread (a completion that
// crosses threads goes through CompletionRelay, which applies the same rule there).
template <typename Done>
[[nodiscard]] auto onContext(const QObject *context, Done done)
{
    Q_ASSERT_X(context, "onContext", "every asynchronous call needs a context object");
    return [guard = QPointer<const QObject>(context), done = std::move(done)](auto &&...args) {
        if (guard)
            done(std::forward<decltype(args)>(args)...);
    };
}

}   // namespace OncePay
