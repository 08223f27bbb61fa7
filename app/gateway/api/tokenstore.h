#pragma once

#include "gateway/gatewaytypes.h"

#include <QHash>
#include <QString>

#include <optional>

namespace OncePay::Gateway {

// Bearer tokens, kept only as SHA-256 digests: a token is never stored or logged in clear.
class TokenStore final
{
public:
    void add(const QString &token, const QString &merchant, const QString &terminal);
    void addDemoTokens();
    // Reads "TOKEN MERCHANT TERMINAL" lines ('#' starts a comment).
    bool loadFile(const QString &path, QString *error);

    std::optional<Caller> authenticate(const QByteArray &authorizationHeader) const;
    int size() const { return int(m_byHash.size()); }

    static QString hash(const QByteArray &token);

private:
    QHash<QString, Caller> m_byHash;
};

}   // namespace OncePay::Gateway
