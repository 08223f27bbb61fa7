#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace OncePay::Office {

// Who a bearer token speaks for (OFFICE.md): a till writes its own till's events and reads its
// position; an owner reads every store of the merchant, or one.
struct OfficeCaller
{
    enum class Role {
        Till,
        Owner
    };
    Role role = Role::Till;
    QString merchant;
    QString store;   // an owner's empty store: every store of the merchant
    QString till;   // empty for an owner
    QString tokenHash;

    bool isTill() const { return role == Role::Till; }
};

// One event of a till's outbox as the office keeps it: its key (merchant, store, till, seq), the
// fingerprint of its canonical JSON, its data whole, and the few fields the reports read.
struct OfficeEvent
{
    qint64 seq = 0;
    QString kind;
    QString at;   // as the till sent it (RFC 3339)
    qint64 atMs = 0;
    QByteArray fingerprint;   // hex SHA-256 of the event's canonical JSON
    QByteArray data;   // canonical JSON of `data`
    // Read from `data` for the reports (null when the kind has none): a sale's or refund's state,
    // staff and currency, and its amount in minor units (a sale's totals.total, a refund's or a
    // cash movement's amount).
    QString state;
    QString staff;
    QString currency;
    QString number;
    bool hasAmount = false;
    qint64 amount = 0;
};

// A POST /v1/events body, checked: the till it names and its events, seq after seq.
struct EventBatch
{
    QString till;
    QList<OfficeEvent> events;
};

// What the store made of a batch.
struct BatchOutcome
{
    enum class Kind {
        Stored,   // applied and replayed, one transaction
        Gap,   // the first new seq is not the till's last + 1: nothing applied
        Mismatch,   // an event already stored under a seq has another fingerprint: nothing applied
    };
    Kind kind = Kind::Stored;
    int applied = 0;
    int replayed = 0;
    qint64 lastSeq = 0;
    qint64 expectedSeq = 0;   // Gap: the seq the till must send next
    qint64 refusedSeq = 0;   // Gap: the batch's first seq
    qint64 mismatchSeq = 0;   // Mismatch
};

}   // namespace OncePay::Office
