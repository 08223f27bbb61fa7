#include "intent.h"

#include <utility>

namespace OncePay {

namespace {
struct Name
{
    IntentState state;
    const char *name;
};
constexpr Name kNames[] = {
    {IntentState::Queued, "queued"},
    {IntentState::Sending, "sending"},
    {IntentState::Processing, "processing"},
    {IntentState::Unknown, "unknown"},
    {IntentState::Succeeded, "succeeded"},
    {IntentState::Declined, "declined"},
    {IntentState::NeedsAttention, "needs_attention"},
    {IntentState::Voided, "voided"},
};
}   // namespace

QString intentStateName(IntentState state)
{
    for (const Name &n : kNames) {
        if (n.state == state)
            return QLatin1String(n.name);
    }
    return {};
}

QList<IntentState> allIntentStates()
{
    QList<IntentState> all;
    for (const Name &n : kNames)
        all.append(n.state);
    return all;
}

std::optional<IntentState> intentStateFromName(const QString &name)
{
    for (const Name &n : kNames) {
        if (name == QLatin1String(n.name))
            return n.state;
    }
    return std::nullopt;
}

namespace {
template <typename E, std::size_t N>
QString nameOf(const std::pair<E, const char *> (&names)[N], E value)
{
    for (const auto &[v, name] : names) {
        if (v == value)
            return QLatin1String(name);
    }
    return {};
}

template <typename E, std::size_t N>
std::optional<E> valueOf(const std::pair<E, const char *> (&names)[N], const QString &name)
{
    for (const auto &[v, n] : names) {
        if (name == QLatin1String(n))
            return v;
    }
    return std::nullopt;
}

constexpr std::pair<Tender, const char *> kTenders[] = {{Tender::Card, "card"}, {Tender::Cash, "cash"}};
constexpr std::pair<IntentKind, const char *> kIntentKinds[] = {{IntentKind::Payment, "payment"},
    {IntentKind::Refund, "refund"}};
constexpr std::pair<Attempt::Kind, const char *> kKinds[] = {
    {Attempt::Kind::Post, "post"}, {Attempt::Kind::Lookup, "lookup"}, {Attempt::Kind::Poll, "poll"}};
constexpr std::pair<Attempt::Transport, const char *> kTransports[] = {
    {Attempt::Transport::Answered, "answered"}, {Attempt::Transport::NotSent, "not_sent"},
    {Attempt::Transport::AnswerLost, "answer_lost"}};
}   // namespace

QString tenderName(Tender tender)
{
    return nameOf(kTenders, tender);
}
std::optional<Tender> tenderFromName(const QString &name)
{
    return valueOf(kTenders, name);
}
QString intentKindName(IntentKind kind)
{
    return nameOf(kIntentKinds, kind);
}
std::optional<IntentKind> intentKindFromName(const QString &name)
{
    return valueOf(kIntentKinds, name);
}
QString attemptKindName(Attempt::Kind kind)
{
    return nameOf(kKinds, kind);
}
std::optional<Attempt::Kind> attemptKindFromName(const QString &name)
{
    return valueOf(kKinds, name);
}
QString attemptTransportName(Attempt::Transport transport)
{
    return nameOf(kTransports, transport);
}
std::optional<Attempt::Transport> attemptTransportFromName(const QString &name)
{
    return valueOf(kTransports, name);
}

bool isFinal(IntentState state)
{
    return state == IntentState::Succeeded || state == IntentState::Declined
        || state == IntentState::NeedsAttention || state == IntentState::Voided;
}

bool needsCashierAttention(const Intent &intent)
{
    // A refund the till made by itself (a given-up card part charged after the customer paid
    // another way) that the bank declined: the customer paid twice, and only the cashier can
    // give it back now (oncepay-sim, seed 45).
    return intent.state == IntentState::NeedsAttention
        || (intent.state == IntentState::Declined
            && (intent.attempts > 1 || intent.updatedAt - intent.createdAt > lateDeclineMs
                || intent.key.startsWith(QLatin1String("auto-ref-"))));
}

bool locksSale(IntentState state)
{
    return !isFinal(state);
}

}   // namespace OncePay
