#include "bearertoken.h"

#include <QCryptographicHash>
#include <QRandomGenerator>

namespace OncePay::BearerToken {

QString hash(const QByteArray &token)
{
    return QString::fromLatin1(QCryptographicHash::hash(token, QCryptographicHash::Sha256).toHex());
}

std::optional<QByteArray> fromAuthorization(const QByteArray &authorization)
{
    static const QByteArray scheme = QByteArrayLiteral("bearer ");
    if (authorization.size() <= scheme.size() || authorization.left(scheme.size()).toLower() != scheme)
        return std::nullopt;
    const QByteArray token = authorization.mid(scheme.size()).trimmed();
    if (token.isEmpty())
        return std::nullopt;
    return token;
}

QByteArray generate(const QByteArray &prefix)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    QByteArray token = prefix;
    QRandomGenerator *random = QRandomGenerator::system();
    for (int i = 0; i < 32; ++i)
        token.append(alphabet[random->bounded(36)]);
    return token;
}

}   // namespace OncePay::BearerToken
