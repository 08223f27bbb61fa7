#pragma once

// Inside the journal's files only: what a call the journal may refuse in words decides on its
// thread, and how it answers.
#include "intentjournal.h"

namespace OncePay::JournalDecided {

// What a call the journal may refuse in words decides on its thread: the intent (as it is now,
// or as stored when refused) and the refusal, empty when it went through.
struct Decided
{
    Intent intent;
    TillError refusal;
};

// Its answer on the caller's context: an error, a refusal (with the intent as stored), or the intent.
inline IntentJournal::Reply<Decided> decidedReply(IntentJournal::Reply<Intent> reply)
{
    return [reply = std::move(reply)](bool ok, const TillError &error, const Decided &r) {
        if (!ok)
            return reply(false, error, {});
        if (r.refusal.isError())
            return reply(false, r.refusal, r.intent);
        reply(true, {}, r.intent);
    };
}

}   // namespace OncePay::JournalDecided
