#include "simulationclient.h"

#include "gatewayclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrlQuery>

namespace OncePay {

SimulationClient::SimulationClient(const QUrl &gatewayUrl, const QString &token, QObject *parent)
    : QObject(parent)
    , m_client(new GatewayClient(gatewayUrl, token, 5000, this))
{
}

QUrl SimulationClient::gatewayUrl() const
{
    return m_client->baseUrls().value(0);
}

void SimulationClient::charges(const QString &key, QObject *context, Reply<QList<LedgerCharge>> reply)
{
    QString path = QStringLiteral("/v1/_sim/acquirer/charges");
    if (!key.isEmpty()) {
        QUrlQuery q;
        q.addQueryItem(QStringLiteral("idempotency_key"), key);
        path += QLatin1Char('?') + q.toString(QUrl::FullyEncoded);
    }
    m_client->send("GET", path, {}, context, [reply = std::move(reply)](const GatewayResult &r) {
        if (!r.answered() || r.status != 200)
            return reply(false, r.summary(), {});
        QList<LedgerCharge> out;
        const QJsonArray rows = r.json.value(QStringLiteral("data")).toArray();
        for (const QJsonValue &v : rows) {
            const QJsonObject o = v.toObject();
            out.append({o.value(QStringLiteral("idempotency_key")).toString(),
                Money(o.value(QStringLiteral("amount")).toInteger(), o.value(QStringLiteral("currency")).toString()),
                o.value(QStringLiteral("status")).toString() == QLatin1String("succeeded"),
                QDateTime::fromString(o.value(QStringLiteral("created_at")).toString(), Qt::ISODateWithMs),
                o.value(QStringLiteral("status")).toString()});
        }
        reply(true, {}, out);
    });
}

void SimulationClient::refunds(const QString &chargeKey, QObject *context, Reply<QList<LedgerRefund>> reply)
{
    QString path = QStringLiteral("/v1/_sim/acquirer/refunds");
    if (!chargeKey.isEmpty()) {
        QUrlQuery q;
        q.addQueryItem(QStringLiteral("charge_key"), chargeKey);
        path += QLatin1Char('?') + q.toString(QUrl::FullyEncoded);
    }
    m_client->send("GET", path, {}, context, [reply = std::move(reply)](const GatewayResult &r) {
        if (!r.answered() || r.status != 200)
            return reply(false, r.summary(), {});
        QList<LedgerRefund> out;
        const QJsonArray data = r.json.value(QStringLiteral("data")).toArray();
        for (const QJsonValue &v : data) {
            const QJsonObject o = v.toObject();
            out.append({o.value(QStringLiteral("idempotency_key")).toString(), o.value(QStringLiteral("charge_key")).toString(),
                Money(o.value(QStringLiteral("amount")).toInteger(), o.value(QStringLiteral("currency")).toString()),
                o.value(QStringLiteral("status")).toString() == QLatin1String("succeeded"),
                QDateTime::fromString(o.value(QStringLiteral("created_at")).toString(), Qt::ISODateWithMs)});
        }
        reply(true, {}, out);
    });
}

void SimulationClient::setAcquirerMode(const QString &mode, QObject *context, Reply<bool> reply)
{
    setAcquirer(QJsonObject{{QStringLiteral("mode"), mode}}, context, std::move(reply));
}

void SimulationClient::setAcquirer(const QJsonObject &fields, QObject *context, Reply<bool> reply)
{
    const QByteArray body = QJsonDocument(fields).toJson(QJsonDocument::Compact);
    m_client->send("PUT", QStringLiteral("/v1/_sim/acquirer"), body, context, [reply = std::move(reply)](const GatewayResult &r) {
        if (!r.answered() || r.status != 200)
            return reply(false, r.summary(), false);
        reply(true, {}, true);
    });
}

}   // namespace OncePay
