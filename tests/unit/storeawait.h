#pragma once

// The unit suites that call the gateway's store directly: one asynchronous store call, waited
// for by condition (never by time); nothing when it failed or did not answer.
#include <QString>
#include <QTest>

#include <memory>
#include <optional>

namespace StoreAwait {

constexpr int kWaitMs = 20000;

template <typename T, typename Call>
std::optional<T> await(Call call)
{
    auto answer = std::make_shared<std::optional<T>>();
    auto done = std::make_shared<bool>(false);
    call([answer, done](bool ok, const QString &error, T value) {
        *done = true;
        if (ok)
            *answer = std::move(value);
        else
            qWarning("store failed: %s", qPrintable(error));
    });
    if (!QTest::qWaitFor([done] {
            return *done;
        },
            kWaitMs))
        qWarning("the store did not answer within %d ms", kWaitMs);
    return *answer;
}

}   // namespace StoreAwait
