#include "walletcode.h"

namespace OncePay {

QString walletBrandOf(QStringView code)
{
    if (code.size() != 18)
        return {};
    for (const QChar c : code) {
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return {};
    }
    const int prefix = code.left(2).toInt();
    if (prefix >= 10 && prefix <= 15)
        return QStringLiteral("wechat");
    if (prefix >= 25 && prefix <= 30)
        return QStringLiteral("alipay");
    return {};
}

}   // namespace OncePay
