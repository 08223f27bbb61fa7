#include "gateway/acquirer/acquirersimulation.h"

#include "timeutil.h"

namespace OncePay::Gateway {

QJsonObject LedgerEntry::toJson() const
{
    QJsonObject o{{QStringLiteral("idempotency_key"), key},
        {QStringLiteral("amount"), amount},
        {QStringLiteral("currency"), currency},
        {QStringLiteral("status"), status},
        {QStringLiteral("created_at"), toRfc3339(createdAt)}};
    if (!declineCode.isEmpty())
        o.insert(QStringLiteral("decline_code"), declineCode);
    o.insert(QStringLiteral("card"), card.toJson());
    o.insert(QStringLiteral("authorization_code"),
        authorizationCode.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(authorizationCode));
    return o;
}

QJsonObject RefundLedgerEntry::toJson() const
{
    return {{QStringLiteral("idempotency_key"), key},
        {QStringLiteral("charge_key"), chargeKey},
        {QStringLiteral("amount"), amount},
        {QStringLiteral("currency"), currency},
        {QStringLiteral("status"), status},
        {QStringLiteral("decline_code"), declineCode.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(declineCode)},
        {QStringLiteral("created_at"), toRfc3339(createdAt)}};
}

std::optional<RefundLedgerEntry> RefundLedgerEntry::fromJson(const QJsonObject &o)
{
    const auto created = fromRfc3339(o.value(QStringLiteral("created_at")).toString());
    RefundLedgerEntry e{o.value(QStringLiteral("idempotency_key")).toString(),
        o.value(QStringLiteral("charge_key")).toString(),
        qint64(o.value(QStringLiteral("amount")).toDouble()),
        o.value(QStringLiteral("currency")).toString(),
        o.value(QStringLiteral("status")).toString(),
        o.value(QStringLiteral("decline_code")).toString(),
        created.value_or(0)};
    if (e.key.isEmpty() || e.chargeKey.isEmpty() || e.status.isEmpty() || !created)
        return std::nullopt;
    return e;
}

QString SimulationState::modeName(Mode mode)
{
    switch (mode) {
    case Mode::Normal:
        return QStringLiteral("normal");
    case Mode::DeclineAll:
        return QStringLiteral("decline_all");
    case Mode::TimeoutAfterCharge:
        return QStringLiteral("timeout_after_charge");
    case Mode::ErrorBeforeCharge:
        return QStringLiteral("error_before_charge");
    }
    return {};
}

std::optional<SimulationState::Mode> SimulationState::modeFromName(const QString &name)
{
    for (Mode m : {Mode::Normal, Mode::DeclineAll, Mode::TimeoutAfterCharge, Mode::ErrorBeforeCharge}) {
        if (modeName(m) == name)
            return m;
    }
    return std::nullopt;
}

QJsonObject SimulationState::toJson() const
{
    return {{QStringLiteral("mode"), modeName(mode)}, {QStringLiteral("latency_ms"), latencyMs},
        {QStringLiteral("wallet_confirm_ms"), walletConfirmMs}};
}

std::optional<LedgerEntry> LedgerEntry::fromJson(const QJsonObject &o)
{
    const auto created = fromRfc3339(o.value(QStringLiteral("created_at")).toString());
    LedgerEntry e{o.value(QStringLiteral("idempotency_key")).toString(),
        qint64(o.value(QStringLiteral("amount")).toDouble()),
        o.value(QStringLiteral("currency")).toString(),
        o.value(QStringLiteral("status")).toString(),
        o.value(QStringLiteral("decline_code")).toString(),
        created.value_or(0),
        Card::fromJson(o.value(QStringLiteral("card"))),
        o.value(QStringLiteral("authorization_code")).toString()};
    if (e.key.isEmpty() || e.status.isEmpty() || !created)
        return std::nullopt;
    return e;
}

}   // namespace OncePay::Gateway
