#pragma once

#include "office/officetypes.h"
#include "problem.h"

#include <QByteArray>

#include <optional>

namespace OncePay::Office {

// Reads a POST /v1/events body (OFFICE.md, "Events: the till's outbox") into an EventBatch: the
// JSON, its shape, at most maxEvents events whose seqs follow each other, each event's
// fingerprint over its canonical JSON (the same canonical form as the gateway's request
// fingerprints: reordered members or other white space are the same event). A body it cannot
// take is a problem: 400 validation-failed (bad JSON included), 413 payload-too-large for more
// than maxEvents events.
namespace EventBatchReader {

constexpr int maxEvents = 500;
// The kinds of OFFICE.md's table.
bool isKnownKind(const QString &kind);
std::optional<EventBatch> read(const QByteArray &body, Problem *problem);

}   // namespace EventBatchReader
}   // namespace OncePay::Office
