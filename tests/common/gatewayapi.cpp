#include "gatewayapi.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrlQuery>
#include <QUuid>

namespace GatewayApi {

QString uniqueKey(const QString &prefix)
{
    return prefix + QLatin1Char('-') + QUuid::createUuid().toString(QUuid::WithoutBraces);
}

QByteArray paymentBody(qint64 amount, const QString &method, const QString &orderId,
    const QString &currency)
{
    const QJsonObject o{{QStringLiteral("amount"), amount},
        {QStringLiteral("currency"), currency},
        {QStringLiteral("order_id"), orderId},
        {QStringLiteral("payment_method"), method}};
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QString walletCode(const char *prefix, int outcome)
{
    static int serial = 0;
    return QString::fromLatin1(prefix) + QStringLiteral("%1").arg(QCoreApplication::applicationPid() % 100000, 5, 10, QLatin1Char('0'))
        + QStringLiteral("%1").arg(++serial, 10, 10, QLatin1Char('0')) + QString::number(outcome);
}

QByteArray walletBody(const QString &code, qint64 amount)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("amount"), amount}, {QStringLiteral("currency"), QStringLiteral("CNY")},
                             {QStringLiteral("order_id"), QStringLiteral("ord-wallet")},
                             {QStringLiteral("payment_method"), QStringLiteral("wallet")},
                             {QStringLiteral("wallet_code"), code}})
        .toJson(QJsonDocument::Compact);
}

HttpHeaders keyHeader(const QString &key)
{
    return {{"Idempotency-Key", '"' + key.toUtf8() + '"'}};
}

HttpReply pay(HttpClient &client, const QString &key, const QByteArray &body)
{
    return client.post(QStringLiteral("/v1/payments"), body, keyHeader(key));
}

QJsonObject paymentOf(const HttpReply &r)
{
    return r.status == 402 ? r.object().value(QStringLiteral("payment")).toObject() : r.object();
}

QByteArray problemMismatch(const HttpReply &reply, int status, const QString &slug)
{
    QByteArray why;
    if (reply.status != status)
        why += "expected status " + QByteArray::number(status) + "; ";
    if (!reply.header("Content-Type").startsWith("application/problem+json"))
        why += "Content-Type is not application/problem+json; ";
    const QJsonObject o = reply.object();
    // An empty slug: API.md names none for this status, any problem type of ours will do.
    if (slug.isEmpty() ? reply.problemSlug().isEmpty() : reply.problemSlug() != slug)
        why += "expected type .../problems/" + slug.toUtf8() + "; ";
    if (o.value(QStringLiteral("status")).toInt() != status)
        why += "body status differs; ";
    if (!o.value(QStringLiteral("title")).isString())
        why += "no title; ";
    if (!o.value(QStringLiteral("detail")).isString())
        why += "no detail; ";
    if (!why.isEmpty())
        why += "\n" + reply.describe();
    return why;
}

static bool isRfc3339Utc(const QJsonValue &v)
{
    const QString s = v.toString();
    if (!s.endsWith(QLatin1Char('Z')))
        return false;
    return QDateTime::fromString(s, Qt::ISODateWithMs).isValid();
}

QByteArray paymentMismatch(const QJsonObject &p)
{
    QByteArray why;
    auto need = [&](const char *field, bool ok) {
        if (!ok)
            why += QByteArray("bad field ") + field + "; ";
    };
    static const QStringList statuses{QStringLiteral("processing"), QStringLiteral("succeeded"),
        QStringLiteral("declined"), QStringLiteral("refunded"),
        QStringLiteral("partially_refunded")};
    need("id", p.value(QStringLiteral("id")).toString().startsWith(QStringLiteral("pay_")));
    need("object", p.value(QStringLiteral("object")).toString() == QStringLiteral("payment"));
    need("amount", p.value(QStringLiteral("amount")).isDouble());
    need("currency", p.value(QStringLiteral("currency")).isString());
    need("status", statuses.contains(p.value(QStringLiteral("status")).toString()));
    need("order_id", p.value(QStringLiteral("order_id")).isString());
    need("terminal_id", p.value(QStringLiteral("terminal_id")).isString());
    need("idempotency_key", p.value(QStringLiteral("idempotency_key")).isString());
    need("needs_review", p.value(QStringLiteral("needs_review")).isBool());   // promise 11: always present
    need("decline_code", p.contains(QStringLiteral("decline_code")) && (p.value(QStringLiteral("decline_code")).isNull() || p.value(QStringLiteral("decline_code")).isString()));
    // From the acquirer, null until it answered: {"brand", "last4"} and 6 capitals or digits.
    static const QRegularExpression last4Shape(QStringLiteral("^[0-9]{4}$"));
    static const QRegularExpression authorizationShape(QStringLiteral("^[0-9A-Z]{6}$"));
    const QJsonValue card = p.value(QStringLiteral("card"));
    need("card", p.contains(QStringLiteral("card")) && (card.isNull() || (card.toObject().value(QStringLiteral("brand")).isString() && last4Shape.match(card.toObject().value(QStringLiteral("last4")).toString()).hasMatch())));
    const QJsonValue code = p.value(QStringLiteral("authorization_code"));
    need("authorization_code", p.contains(QStringLiteral("authorization_code")) && (code.isNull() || authorizationShape.match(code.toString()).hasMatch()));
    // A wallet payment's brand, null for a card payment (API.md "Wallet payments").
    const QJsonValue wallet = p.value(QStringLiteral("wallet"));
    const QString walletBrand = wallet.toObject().value(QStringLiteral("brand")).toString();
    need("wallet", p.contains(QStringLiteral("wallet")) && (wallet.isNull() || walletBrand == QLatin1String("wechat") || walletBrand == QLatin1String("alipay")));
    need("payment_method", p.value(QStringLiteral("payment_method")).isString() && (wallet.isNull() || p.value(QStringLiteral("payment_method")).toString() == QLatin1String("wallet")));
    need("amount_refunded", p.value(QStringLiteral("amount_refunded")).isDouble());
    need("created_at", isRfc3339Utc(p.value(QStringLiteral("created_at"))));
    need("updated_at", isRfc3339Utc(p.value(QStringLiteral("updated_at"))));
    if (!why.isEmpty())
        why += "\n" + QJsonDocument(p).toJson(QJsonDocument::Compact);
    return why;
}

Charges acquirerCharges(HttpClient &client, const QString &key)
{
    Charges out;
    QUrlQuery q;
    if (!key.isEmpty())
        q.addQueryItem(QStringLiteral("idempotency_key"), key);
    const HttpReply r = client.get(QStringLiteral("/v1/_sim/acquirer/charges")
        + (key.isEmpty() ? QString() : QLatin1Char('?') + q.toString(QUrl::FullyEncoded)));
    out.raw = r.describe();
    if (r.status != 200 || !r.object().value(QStringLiteral("data")).isArray())
        return out;
    out.ok = true;
    out.rows = r.object().value(QStringLiteral("data")).toArray();
    for (const auto &row : std::as_const(out.rows)) {
        const QString status = row.toObject().value(QStringLiteral("status")).toString();
        if (status == QStringLiteral("succeeded"))
            ++out.succeeded;
        else if (status == QStringLiteral("declined"))
            ++out.declined;
    }
    return out;
}

HttpReply refund(HttpClient &client, const QString &paymentId, const QString &key, qint64 amount)
{
    return client.post(QStringLiteral("/v1/payments/%1/refunds").arg(paymentId),
        "{\"amount\":" + QByteArray::number(amount) + '}', keyHeader(key));
}

AcquirerRefunds acquirerRefunds(HttpClient &client, const QString &chargeKey)
{
    AcquirerRefunds out;
    QUrlQuery q;
    if (!chargeKey.isEmpty())
        q.addQueryItem(QStringLiteral("charge_key"), chargeKey);
    const HttpReply r = client.get(QStringLiteral("/v1/_sim/acquirer/refunds")
        + (chargeKey.isEmpty() ? QString() : QLatin1Char('?') + q.toString(QUrl::FullyEncoded)));
    out.raw = r.describe();
    if (r.status != 200 || !r.object().value(QStringLiteral("data")).isArray())
        return out;
    out.ok = true;
    out.rows = r.object().value(QStringLiteral("data")).toArray();
    for (const auto &row : std::as_const(out.rows)) {
        const QJsonObject o = row.toObject();
        out.keys.append(o.value(QStringLiteral("idempotency_key")).toString());
        const QString status = o.value(QStringLiteral("status")).toString();
        if (status == QStringLiteral("succeeded")) {
            ++out.succeeded;
            out.refunded += o.value(QStringLiteral("amount")).toInteger();
        } else if (status == QStringLiteral("declined")) {
            ++out.declined;
        }
    }
    return out;
}

bool setAcquirer(HttpClient &client, const QString &mode, int latencyMs)
{
    const QJsonObject o{{QStringLiteral("mode"), mode}, {QStringLiteral("latency_ms"), latencyMs}};
    const HttpReply r = client.put(QStringLiteral("/v1/_sim/acquirer"),
        QJsonDocument(o).toJson(QJsonDocument::Compact));
    return r.status == 200 || r.status == 204;
}

QMap<QString, double> parseMetrics(const QByteArray &text)
{
    QMap<QString, double> out;
    static const QRegularExpression sample(
        QStringLiteral("^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\\{.*\\})?)\\s+(\\S+)(?:\\s+\\d+)?$"));
    for (const QByteArray &raw : text.split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const auto m = sample.match(line);
        if (!m.hasMatch())
            continue;
        bool ok = false;
        const double v = m.captured(2).toDouble(&ok);
        if (ok)
            out.insert(m.captured(1), v);
    }
    return out;
}

double metricSum(const QMap<QString, double> &metrics, const QString &namePrefix,
    const QStringList &labelParts)
{
    double sum = 0;
    for (auto it = metrics.cbegin(); it != metrics.cend(); ++it) {
        if (!it.key().startsWith(namePrefix))
            continue;
        const qsizetype brace = it.key().indexOf(QLatin1Char('{'));
        const QString labels = brace < 0 ? QString() : it.key().mid(brace);
        bool all = true;
        for (const QString &part : labelParts)
            all = all && labels.contains(part);
        if (all)
            sum += it.value();
    }
    return sum;
}

}   // namespace GatewayApi

namespace GatewayApi {

KeyedMove::KeyedMove(bool isRefund, const QString &prefix, qint64 paymentAmount, qint64 refundAmount)
    : m_isRefund(isRefund)
    , m_refundAmount(refundAmount)
    , m_paymentBody(paymentBody(paymentAmount))
    , m_paymentKey(uniqueKey(prefix + QStringLiteral("-pay")))
    , m_key(isRefund ? uniqueKey(prefix + QStringLiteral("-refund")) : m_paymentKey)
{
}

QByteArray KeyedMove::prepare(HttpClient &client)
{
    if (!m_isRefund)
        return {};
    const HttpReply paid = pay(client, m_paymentKey, m_paymentBody);
    if (paid.status != 201)
        return "the payment to refund was not made: " + paid.describe();
    m_paymentId = paid.object().value(QStringLiteral("id")).toString();
    return {};
}

HttpRequest KeyedMove::request() const
{
    if (!m_isRefund)
        return {"POST", QStringLiteral("/v1/payments"), m_paymentBody, keyHeader(m_key)};
    return {"POST", QStringLiteral("/v1/payments/%1/refunds").arg(m_paymentId),
        "{\"amount\":" + QByteArray::number(m_refundAmount) + '}', keyHeader(m_key)};
}

qsizetype KeyedMove::rowsAtAcquirer(HttpClient &client) const
{
    return m_isRefund ? acquirerRefunds(client, m_paymentKey).rows.size() : acquirerCharges(client, m_key).rows.size();
}

QByteArray KeyedMove::onceAtAcquirer(HttpClient &client) const
{
    if (m_isRefund) {
        const AcquirerRefunds bank = acquirerRefunds(client, m_paymentKey);
        return bank.ok && bank.succeeded == 1 && bank.refunded == m_refundAmount ? QByteArray() : bank.raw;
    }
    const Charges charges = acquirerCharges(client, m_key);
    return charges.ok && charges.rows.size() == 1 && charges.succeeded == 1 ? QByteArray() : charges.raw;
}

}   // namespace GatewayApi
