#pragma once

#include "gateway/gatewaytypes.h"

#include <QByteArray>
#include <QCache>
#include <QString>

#include <optional>

namespace OncePay::Gateway {

// Finished answers of recent keys, kept in memory so that replays skip the store. A recorded
// answer is immutable until its retention ends; a 202 is never kept, because its replay
// answers the payment's current state. Least recently used answers go first when full.
class ReplayCache final
{
public:
    struct Answer
    {
        QByteArray fingerprint;
        StoredResponse response;
        qint64 expiresAt = 0;   // epoch ms: not answered from here from then on
    };

    explicit ReplayCache(qsizetype capacity = 100'000);

    // The answer recorded for (merchant, key), unless it has expired at `now`.
    std::optional<Answer> lookup(const QString &merchant, const QString &key, qint64 now) const;
    // Keeps a finished answer; ignores a 202 and an answer without a fingerprint.
    void remember(const QString &merchant, const QString &key, const QByteArray &fingerprint,
        const StoredResponse &response, qint64 expiresAt);

private:
    QCache<QString, Answer> m_answers;
};

}   // namespace OncePay::Gateway
