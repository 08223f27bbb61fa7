#pragma once

// What the journal suites share: waiting for one asynchronous journal call by condition, the
// checks of its answer, a new payment intent, and readable QCOMPARE failures for states.
#include "idempotencykey.h"
#include "intentjournal.h"

#include <QTest>

#include <memory>

namespace JournalTest {

inline constexpr int kWaitMs = 20000;

template <typename T>
struct Answer
{
    bool done = false;
    bool ok = false;
    OncePay::TillError error;   // why not: a kind, compared by the suites (never its words)
    T value{};
};

// Runs one asynchronous journal call and waits (by condition, not by time) for its answer.
template <typename T, typename Call>
Answer<T> await(Call call)
{
    auto answer = std::make_shared<Answer<T>>();
    call([answer](bool ok, const OncePay::TillError &error, T value) {
        answer->done = true;
        answer->ok = ok;
        answer->error = error;
        answer->value = std::move(value);
    });
    if (!QTest::qWaitFor([answer] {
            return answer->done;
        },
            kWaitMs))
        qWarning("the journal did not answer within %d ms", kWaitMs);
    return *answer;
}

inline OncePay::Intent newIntent(const QString &orderId, qint64 amount = 1999,
    OncePay::Tender tender = OncePay::Tender::Card)
{
    OncePay::Intent i;
    i.tender = tender;
    i.key = OncePay::IdempotencyKey::generate(QStringLiteral("pay")).value();
    i.orderId = orderId;
    i.amount = OncePay::Money(amount, QStringLiteral("CNY"));
    i.paymentMethod = tender == OncePay::Tender::Card ? QStringLiteral("tok_visa") : QString();
    return i;
}

}   // namespace JournalTest

// Each evaluates its argument once: it is often the call itself.
#define VERIFY_OK(expr) \
    do { \
        const auto a_ = (expr); \
        QVERIFY2(a_.done &&a_.ok, qPrintable(a_.done ? a_.error.text() : QStringLiteral("no answer"))); \
    } while (false)
#define VERIFY_REFUSED(expr) \
    do { \
        const auto a_ = (expr); \
        QVERIFY2(a_.done && !a_.ok, a_.done ? "accepted" : "no answer"); \
    } while (false)
// Refused, and for that reason.
#define VERIFY_REFUSED_AS(expr, errorKind) \
    do { \
        const auto a_ = (expr); \
        QVERIFY2(a_.done && !a_.ok, a_.done ? "accepted" : "no answer"); \
        QCOMPARE(a_.error.kind(), errorKind); \
    } while (false)

namespace OncePay {
// Readable QCOMPARE failures for states (found by argument-dependent lookup).
inline char *toString(IntentState state)
{
    return qstrdup(qPrintable(intentStateName(state)));
}
}   // namespace OncePay
