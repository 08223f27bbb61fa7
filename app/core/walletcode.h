#pragma once

#include <QString>
#include <QStringView>

namespace OncePay {

// The customer's one-time payment code of a wallet app (API.md "Wallet payments"): 18 digits,
// starting 10 to 15 for the WeChat-style wallet, 25 to 30 for the Alipay-style one. The brand as
// the API names it ("wechat", "alipay"), or empty for anything that is not such a code.
QString walletBrandOf(QStringView code);

}   // namespace OncePay
