#pragma once

#include "httpclient.h"

#include <QByteArray>
#include <QString>

class TestDatabase;

// Vocabulary of OFFICE.md for the office's black-box suites: batches of events and the answers
// to them.
namespace OfficeApi {

inline constexpr char kTill1[] = "ot_demo_till1";
inline constexpr char kTill2[] = "ot_demo_till2";
inline constexpr char kOwner[] = "ot_demo_owner";

// `count` events of `till` from `firstSeq` on, kinds in turn (a sale, a cash movement, a staff
// sign-in...), each with data the office reads. `variant` changes every event's data: the same
// seqs with another variant are other events (another fingerprint). `marker`, if given, is written
// into every event's data (PgCommitCutter arms on it).
QByteArray eventsBody(const QString &till, qint64 firstSeq, int count, int variant = 0, const QString &marker = {});
// POST /v1/events with `body`.
HttpReply postEvents(HttpClient &client, const QByteArray &body);

struct Position
{
    bool ok = false;   // 200 with an integer last_seq
    qint64 lastSeq = -1;
    QByteArray raw;
};
Position position(HttpClient &client, const QString &till);

// What the office's database holds for a till, read from the test's own connection: every
// event once means rows == distinct seqs == last - first + 1.
struct StoredEvents
{
    bool ok = false;
    QString error;
    qint64 rows = 0;
    qint64 distinctSeqs = 0;
    qint64 firstSeq = 0;
    qint64 lastSeq = 0;
};
StoredEvents storedEvents(const TestDatabase &db, const QString &till);

// Empty when `reply` is 200 {"applied": applied, "replayed": replayed, "last_seq": lastSeq}, else why not.
QByteArray batchMismatch(const HttpReply &reply, int applied, int replayed, qint64 lastSeq);

}   // namespace OfficeApi

#define ONCEPAY_VERIFY_BATCH(reply, applied, replayed, lastSeq) \
    do { \
        const QByteArray why_ = OfficeApi::batchMismatch((reply), (applied), (replayed), (lastSeq)); \
        QVERIFY2(why_.isEmpty(), why_.constData()); \
    } while (false)
