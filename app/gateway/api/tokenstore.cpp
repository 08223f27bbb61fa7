#include "gateway/api/tokenstore.h"

#include "bearertoken.h"

#include <QFile>
#include <QRegularExpression>

namespace OncePay::Gateway {

QString TokenStore::hash(const QByteArray &token)
{
    return BearerToken::hash(token);
}

void TokenStore::add(const QString &token, const QString &merchant, const QString &terminal)
{
    const QString h = hash(token.toUtf8());
    m_byHash.insert(h, Caller{merchant, terminal, h});
}

void TokenStore::addDemoTokens()
{
    add(QStringLiteral("sk_test_demo_till1"), QStringLiteral("demo"), QStringLiteral("till-1"));
    add(QStringLiteral("sk_test_demo_till2"), QStringLiteral("demo"), QStringLiteral("till-2"));
    add(QStringLiteral("sk_test_other_till1"), QStringLiteral("other"), QStringLiteral("till-1"));
}

bool TokenStore::loadFile(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        *error = QStringLiteral("cannot read token file %1: %2").arg(path, f.errorString());
        return false;
    }
    static const QRegularExpression spaces(QStringLiteral("\\s+"));
    static const QRegularExpression name(QStringLiteral("^[A-Za-z0-9_.:-]{1,64}$"));
    int lineNo = 0;
    while (!f.atEnd()) {
        ++lineNo;
        QString line = QString::fromUtf8(f.readLine());
        const qsizetype hashPos = line.indexOf(QLatin1Char('#'));
        if (hashPos >= 0)
            line.truncate(hashPos);
        line = line.trimmed();
        if (line.isEmpty())
            continue;
        const QStringList parts = line.split(spaces);
        if (parts.size() != 3 || parts[0].size() < 8 || !name.match(parts[1]).hasMatch()
            || !name.match(parts[2]).hasMatch()) {
            *error = QStringLiteral("%1:%2: expected \"TOKEN MERCHANT TERMINAL\" (token of 8 or more characters)")
                         .arg(path)
                         .arg(lineNo);
            return false;
        }
        add(parts[0], parts[1], parts[2]);
    }
    return true;
}

std::optional<Caller> TokenStore::authenticate(const QByteArray &authorization) const
{
    const std::optional<QByteArray> token = BearerToken::fromAuthorization(authorization);
    if (!token)
        return std::nullopt;
    const auto it = m_byHash.constFind(hash(*token));
    if (it == m_byHash.cend())
        return std::nullopt;
    return *it;
}

}   // namespace OncePay::Gateway
