#include "gateway/store/replaycache.h"

namespace OncePay::Gateway {

namespace {
QString cacheKey(const QString &merchant, const QString &key)
{
    return merchant + QLatin1Char('\n') + key;
}
}   // namespace

ReplayCache::ReplayCache(qsizetype capacity)
    : m_answers(capacity)
{
}

std::optional<ReplayCache::Answer> ReplayCache::lookup(const QString &merchant, const QString &key, qint64 now) const
{
    const Answer *answer = m_answers.object(cacheKey(merchant, key));
    if (!answer || answer->expiresAt <= now)
        return std::nullopt;
    return *answer;
}

void ReplayCache::remember(const QString &merchant, const QString &key, const QByteArray &fingerprint,
    const StoredResponse &response, qint64 expiresAt)
{
    if (fingerprint.isEmpty() || response.status == 202)
        return;
    m_answers.insert(cacheKey(merchant, key), new Answer{fingerprint, response, expiresAt});
}

}   // namespace OncePay::Gateway
