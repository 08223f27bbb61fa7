#include "gateway/gatewaytypes.h"

#include "timeutil.h"
#include "walletcode.h"
#include "world.h"

#include <QJsonDocument>
#include <QRandomGenerator>

namespace OncePay::Gateway {

namespace {
// Every value of E, from First to Last, whose name is `name`.
template <typename E, E First, E Last>
std::optional<E> fromName(QString (*nameOf)(E), QStringView name)
{
    for (int i = int(First); i <= int(Last); ++i) {
        if (nameOf(E(i)) == name)
            return E(i);
    }
    return std::nullopt;
}
}   // namespace

// The names are the wire and database contract: never rename one.
QString paymentStepName(PaymentStep step)
{
    switch (step) {
    case PaymentStep::Claimed:
        return QStringLiteral("claimed");
    case PaymentStep::AcquirerCalled:
        return QStringLiteral("acquirer_called");
    case PaymentStep::Settled:
        return QStringLiteral("settled");
    }
    Q_UNREACHABLE();
    return {};
}

std::optional<PaymentStep> paymentStepFromName(QStringView name)
{
    return fromName<PaymentStep, PaymentStep::Claimed, PaymentStep::Settled>(paymentStepName, name);
}

QString paymentStatusName(PaymentStatus status)
{
    switch (status) {
    case PaymentStatus::Processing:
        return QStringLiteral("processing");
    case PaymentStatus::Succeeded:
        return QStringLiteral("succeeded");
    case PaymentStatus::Declined:
        return QStringLiteral("declined");
    case PaymentStatus::Refunded:
        return QStringLiteral("refunded");
    case PaymentStatus::PartiallyRefunded:
        return QStringLiteral("partially_refunded");
    }
    Q_UNREACHABLE();
    return {};
}

std::optional<PaymentStatus> paymentStatusFromName(QStringView name)
{
    return fromName<PaymentStatus, PaymentStatus::Processing, PaymentStatus::PartiallyRefunded>(paymentStatusName,
        name);
}

QString refundStatusName(RefundStatus status)
{
    switch (status) {
    case RefundStatus::Processing:
        return QStringLiteral("processing");
    case RefundStatus::Succeeded:
        return QStringLiteral("succeeded");
    case RefundStatus::Failed:
        return QStringLiteral("failed");
    }
    Q_UNREACHABLE();
    return {};
}

std::optional<RefundStatus> refundStatusFromName(QStringView name)
{
    return fromName<RefundStatus, RefundStatus::Processing, RefundStatus::Failed>(refundStatusName, name);
}

QString newResourceId(const char *prefix)
{
    static const char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    QString id = QLatin1String(prefix);
    auto *rng = randomSource();
    for (int i = 0; i < 24; ++i)
        id.append(QLatin1Char(alphabet[rng->bounded(62)]));
    return id;
}

QJsonValue Card::toJson() const
{
    if (isEmpty())
        return QJsonValue(QJsonValue::Null);
    return QJsonObject{{QStringLiteral("brand"), brand}, {QStringLiteral("last4"), last4}};
}

Card Card::fromJson(const QJsonValue &value)
{
    const QJsonObject o = value.toObject();
    return {o.value(QStringLiteral("brand")).toString(), o.value(QStringLiteral("last4")).toString()};
}

QJsonObject Payment::toJson() const
{
    QJsonObject o{
        {QStringLiteral("id"), id},
        {QStringLiteral("object"), QStringLiteral("payment")},
        {QStringLiteral("amount"), amount},
        {QStringLiteral("currency"), currency},
        {QStringLiteral("status"), paymentStatusName(status)},
        {QStringLiteral("order_id"), orderId},
        {QStringLiteral("terminal_id"), terminalId},
        {QStringLiteral("idempotency_key"), idempotencyKey},
        {QStringLiteral("payment_method"), isWallet() ? QStringLiteral("wallet") : paymentMethod},
        {QStringLiteral("decline_code"), declineCode.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(declineCode)},
        {QStringLiteral("card"), card.toJson()},
        {QStringLiteral("wallet"),
            isWallet() ? QJsonValue(QJsonObject{{QStringLiteral("brand"), walletBrand()}}) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("authorization_code"),
            authorizationCode.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(authorizationCode)},
        {QStringLiteral("amount_refunded"), amountRefunded},
        {QStringLiteral("needs_review"), needsReview},
        {QStringLiteral("created_at"), toRfc3339(createdAt)},
        {QStringLiteral("updated_at"), toRfc3339(updatedAt)},
    };
    if (!description.isEmpty())
        o.insert(QStringLiteral("description"), description);
    if (!metadataJson.isEmpty())
        o.insert(QStringLiteral("metadata"), QJsonDocument::fromJson(metadataJson).object());
    return o;
}

QString Payment::walletBrand() const
{
    return isWallet() ? walletBrandOf(QStringView(paymentMethod).mid(7)) : QString();
}

QString Payment::walletBrandOf(QStringView code)
{
    return OncePay::walletBrandOf(code);
}

QJsonObject Refund::toJson() const
{
    QJsonObject o{
        {QStringLiteral("id"), id},
        {QStringLiteral("object"), QStringLiteral("refund")},
        {QStringLiteral("payment_id"), paymentId},
        {QStringLiteral("amount"), amount},
        {QStringLiteral("currency"), currency},
        {QStringLiteral("status"), refundStatusName(status)},
        {QStringLiteral("idempotency_key"), idempotencyKey},
        {QStringLiteral("terminal_id"), terminalId},
        {QStringLiteral("failure_code"), failureCode.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(failureCode)},
        {QStringLiteral("needs_review"), needsReview},
        {QStringLiteral("created_at"), toRfc3339(createdAt)},
        {QStringLiteral("updated_at"), toRfc3339(updatedAt)},
    };
    if (!reason.isEmpty())
        o.insert(QStringLiteral("reason"), reason);
    return o;
}

LeasedRow LeasedRow::of(const Payment &payment)
{
    return {LeasedTable::Payments, payment.id, payment.leaseGeneration, payment.merchant, payment.idempotencyKey,
        payment.updatedAt, {}, 0};
}

LeasedRow LeasedRow::of(const Refund &refund)
{
    return {LeasedTable::Refunds, refund.id, refund.leaseGeneration, refund.merchant, refund.idempotencyKey,
        refund.updatedAt, refund.paymentId, refund.amount};
}

}   // namespace OncePay::Gateway
