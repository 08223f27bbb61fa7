#include "ctloutput.h"

#include "exitcode.h"
#include "timeutil.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

namespace OncePay::Ctl {

int fail(int code, const QString &message)
{
    QString line = message;
    line.replace(QLatin1Char('\n'), QLatin1Char(' '));
    std::fprintf(stderr, "oncepay-ctl: %s\n", qPrintable(line));
    return code;
}

void out(const QByteArray &text)
{
    std::fwrite(text.constData(), 1, size_t(text.size()), stdout);
    std::fflush(stdout);
}

void outJson(const QJsonObject &object)
{
    out(QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n');
}

void outJson(const QJsonArray &array)
{
    out(QJsonDocument(array).toJson(QJsonDocument::Compact) + '\n');
}

QJsonObject intentJson(const Intent &i)
{
    QJsonObject o{
        {QStringLiteral("key"), i.key},
        {QStringLiteral("kind"), intentKindName(i.kind)},
        {QStringLiteral("state"), intentStateName(i.state)},
        {QStringLiteral("order_id"), i.orderId},
        // The sale's short number ("1-000123"), as the till's screen and receipt say it.
        {QStringLiteral("sale"), i.saleNumber.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(i.saleNumber)},
        {QStringLiteral("amount"), i.amount.minorUnits()},
        {QStringLiteral("currency"), i.amount.currency()},
        {QStringLiteral("payment_id"), i.paymentId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(i.paymentId)},
        {QStringLiteral("attempts"), i.attempts},
        {QStringLiteral("tender"), tenderName(i.tender)},
        // Scripts written against earlier versions read cash here.
        {QStringLiteral("payment_method"), i.isCash() ? tenderName(Tender::Cash) : i.isWallet() ? QStringLiteral("wallet")
                                                                                                : i.paymentMethod},
    };
    // As the gateway's payment object (API.md): null until the acquirer answered. A wallet
    // payment has its brand under "wallet" (the customer's code is never printed).
    const QJsonValue brand = i.cardBrand.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QJsonObject{{QStringLiteral("brand"), i.cardBrand}});
    o.insert(QStringLiteral("wallet"), i.isWallet() ? brand : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("card"), i.cardBrand.isEmpty() || i.isWallet() ? QJsonValue(QJsonValue::Null) : QJsonValue(QJsonObject{{QStringLiteral("brand"), i.cardBrand}, {QStringLiteral("last4"), i.cardLast4}}));
    o.insert(QStringLiteral("authorization_code"), i.authorizationCode.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(i.authorizationCode));
    if (i.isRefund()) {
        // payment_id above is the refunded payment's; the refund's own id comes with the gateway's answer.
        o.insert(QStringLiteral("payment_key"), i.paymentKey);
        o.insert(QStringLiteral("refund_id"), i.refundId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(i.refundId));
        o.insert(QStringLiteral("reason"), i.reason.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(i.reason));
    } else {
        o.insert(QStringLiteral("amount_refunded"), i.amountRefunded);
    }
    if (!i.gatewayStatus.isEmpty())
        o.insert(QStringLiteral("gateway_status"), i.gatewayStatus);
    if (!i.declineCode.isEmpty())
        o.insert(QStringLiteral("decline_code"), i.declineCode);
    if (!i.lastProblem.isEmpty())
        o.insert(QStringLiteral("problem"), i.lastProblem);
    if (i.createdAt)
        o.insert(QStringLiteral("created_at"), toRfc3339(i.createdAt));
    if (i.updatedAt)
        o.insert(QStringLiteral("updated_at"), toRfc3339(i.updatedAt));
    return o;
}

QByteArray intentTable(const QList<Intent> &intents)
{
    QByteArray t = QStringLiteral("%1  %2  %3  %4  %5  %6\n")
                       .arg(QStringLiteral("KEY"), -44)
                       .arg(QStringLiteral("KIND"), -7)
                       .arg(QStringLiteral("STATE"), -15)
                       .arg(QStringLiteral("ORDER"), -20)
                       .arg(QStringLiteral("AMOUNT"), 14)
                       .arg(QStringLiteral("PAYMENT"))
                       .toUtf8();
    for (const Intent &i : intents) {
        t += QStringLiteral("%1  %2  %3  %4  %5  %6\n")
                 .arg(i.key, -44)
                 .arg(intentKindName(i.kind), -7)
                 .arg(intentStateName(i.state), -15)
                 .arg(i.saleLabel(), -20)
                 .arg(i.amount.toDecimalString() + QLatin1Char(' ') + i.amount.currency(), 14)
                 .arg(i.paymentId)
                 .toUtf8();
    }
    return t;
}

int exitFor(IntentState s)
{
    switch (s) {
    case IntentState::Succeeded:
        return Succeeded;
    case IntentState::Declined:
        return Declined;
    case IntentState::Voided:
        return Declined;   // final, nothing moved
    case IntentState::NeedsAttention:
        return NeedsAttention;
    default:
        return NotFinal;
    }
}

}   // namespace OncePay::Ctl
