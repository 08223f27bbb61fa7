#include "gatewaytypes.h"

#include "timeutil.h"

#include <QJsonDocument>

namespace OncePay::Gateway {

QJsonObject Payment::toJson() const
{
    QJsonObject o{
        {QStringLiteral("id"), id},
        {QStringLiteral("object"), QStringLiteral("payment")},
        {QStringLiteral("amount"), amount},
        {QStringLiteral("currency"), currency},
        {QStringLiteral("status"), status},
        {QStringLiteral("order_id"), orderId},
        {QStringLiteral("terminal_id"), terminalId},
        {QStringLiteral("idempotency_key"), idempotencyKey},
        {QStringLiteral("payment_method"), paymentMethod},
        {QStringLiteral("decline_code"), declineCode.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(declineCode)},
        {QStringLiteral("amount_refunded"), amountRefunded},
        {QStringLiteral("created_at"), toRfc3339(createdAt)},
        {QStringLiteral("updated_at"), toRfc3339(updatedAt)},
    };
    if (!description.isEmpty())
        o.insert(QStringLiteral("description"), description);
    if (!metadataJson.isEmpty())
        o.insert(QStringLiteral("metadata"), QJsonDocument::fromJson(metadataJson).object());
    return o;
}

QJsonObject Refund::toJson() const
{
    QJsonObject o{
        {QStringLiteral("id"), id},
        {QStringLiteral("object"), QStringLiteral("refund")},
        {QStringLiteral("payment_id"), paymentId},
        {QStringLiteral("amount"), amount},
        {QStringLiteral("status"), status},
        {QStringLiteral("created_at"), toRfc3339(createdAt)},
    };
    if (!reason.isEmpty())
        o.insert(QStringLiteral("reason"), reason);
    return o;
}

} // namespace OncePay::Gateway
