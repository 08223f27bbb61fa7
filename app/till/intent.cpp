#include "intent.h"

namespace OncePay {

namespace {
struct Name { IntentState state; const char *name; };
constexpr Name kNames[] = {
    {IntentState::Queued, "queued"},         {IntentState::Sending, "sending"},
    {IntentState::Processing, "processing"}, {IntentState::Unknown, "unknown"},
    {IntentState::Succeeded, "succeeded"},   {IntentState::Declined, "declined"},
    {IntentState::NeedsAttention, "needs_attention"},
};
} // namespace

QString intentStateName(IntentState state)
{
    for (const Name &n : kNames) {
        if (n.state == state)
            return QLatin1String(n.name);
    }
    return {};
}

std::optional<IntentState> intentStateFromName(const QString &name)
{
    for (const Name &n : kNames) {
        if (name == QLatin1String(n.name))
            return n.state;
    }
    return std::nullopt;
}

bool isFinal(IntentState state)
{
    return state == IntentState::Succeeded || state == IntentState::Declined
        || state == IntentState::NeedsAttention;
}

bool locksSale(IntentState state)
{
    return !isFinal(state);
}

} // namespace OncePay
