#include "gatewayclient.h"

#include "idempotencykey.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QUrlQuery>

namespace OncePay {

Q_LOGGING_CATEGORY(lcClient, "oncepay.core.client", QtInfoMsg)

QJsonObject GatewayResult::payment() const
{
    if (json.value(QStringLiteral("object")).toString() == QLatin1String("payment"))
        return json;
    return json.value(QStringLiteral("payment")).toObject();
}

QString GatewayResult::summary() const
{
    switch (transport) {
    case Transport::NotSent:
        return QStringLiteral("not sent: %1").arg(transportError);
    case Transport::LostAfterSend:
        return QStringLiteral("no answer after sending: %1").arg(transportError);
    case Transport::Answered:
        break;
    }
    QString s = QString::number(status);
    const QJsonObject p = payment();
    if (!p.isEmpty())
        s += QLatin1Char(' ') + p.value(QStringLiteral("status")).toString();
    else if (problem)
        s += QLatin1Char(' ') + problem->slug;
    if (replayed)
        s += QStringLiteral(" (replayed)");
    return s;
}

GatewayClient::GatewayClient(const QUrl &baseUrl, const QString &token, int timeoutMs, QObject *parent,
                             int maxConnections)
    : QObject(parent)
    , m_baseUrl(baseUrl)
    , m_token(token)
    , m_timeoutMs(timeoutMs)
{
    const int managers = qBound(1, (maxConnections + 5) / 6, 16);
    for (int i = 0; i < managers; ++i)
        m_managers.append(new QNetworkAccessManager(this));
}

QNetworkAccessManager *GatewayClient::nextManager()
{
    m_next = (m_next + 1) % int(m_managers.size());
    return m_managers.at(m_next);
}

QNetworkRequest GatewayClient::request(const QString &pathAndQuery) const
{
    QUrl url = m_baseUrl;
    const qsizetype q = pathAndQuery.indexOf(QLatin1Char('?'));
    url.setPath(url.path().chopped(url.path().endsWith(QLatin1Char('/')) ? 1 : 0) + pathAndQuery.left(q));
    if (q >= 0)
        url.setQuery(pathAndQuery.mid(q + 1));
    QNetworkRequest r(url);
    r.setTransferTimeout(m_timeoutMs);
    r.setRawHeader("Authorization", "Bearer " + m_token.toUtf8());
    r.setRawHeader("Accept", "application/json, application/problem+json");
    // HTTP/1.1 only. Note that Qt 6.4 itself re-sends a request once when a kept-alive
    // connection closes before the answer; the Idempotency-Key makes that resend a replay.
    r.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    return r;
}

void GatewayClient::postPayment(const Intent &intent, Callback done)
{
    QNetworkRequest r = request(QStringLiteral("/v1/payments"));
    r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    const auto key = IdempotencyKey::fromString(intent.key);
    r.setRawHeader("Idempotency-Key", key ? key->toHeaderValue() : intent.key.toLatin1());
    const QJsonObject body{
        {QStringLiteral("amount"), intent.amount.minorUnits()},
        {QStringLiteral("currency"), intent.amount.currency()},
        {QStringLiteral("order_id"), intent.orderId},
        {QStringLiteral("payment_method"), intent.paymentMethod},
    };
    track(nextManager()->post(r, QJsonDocument(body).toJson(QJsonDocument::Compact)), std::move(done));
}

void GatewayClient::getPaymentByKey(const QString &key, Callback done)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("idempotency_key"), key);
    track(nextManager()->get(request(QStringLiteral("/v1/payments?") + q.toString(QUrl::FullyEncoded))), std::move(done));
}

void GatewayClient::getPayment(const QString &paymentId, Callback done)
{
    track(nextManager()->get(request(QStringLiteral("/v1/payments/") + QString::fromLatin1(QUrl::toPercentEncoding(paymentId)))),
          std::move(done));
}

void GatewayClient::listPayments(const QString &terminalId, const QString &cursor, int limit, Callback done)
{
    QUrlQuery q;
    if (!terminalId.isEmpty())
        q.addQueryItem(QStringLiteral("terminal_id"), terminalId);
    if (!cursor.isEmpty())
        q.addQueryItem(QStringLiteral("cursor"), cursor);
    q.addQueryItem(QStringLiteral("limit"), QString::number(limit));
    track(nextManager()->get(request(QStringLiteral("/v1/payments?") + q.toString(QUrl::FullyEncoded))), std::move(done));
}

void GatewayClient::health(Callback done)
{
    track(nextManager()->get(request(QStringLiteral("/healthz"))), std::move(done));
}

void GatewayClient::send(const QByteArray &method, const QString &pathAndQuery, const QByteArray &jsonBody, Callback done)
{
    QNetworkRequest r = request(pathAndQuery);
    if (!jsonBody.isEmpty())
        r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    track(nextManager()->sendCustomRequest(r, method, jsonBody), std::move(done));
}

void GatewayClient::track(QNetworkReply *reply, Callback done)
{
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    // Whether every byte of the request left: after that, silence means "unknown", not "not sent".
    auto written = std::make_shared<bool>(false);
    connect(reply, &QNetworkReply::uploadProgress, reply, [written](qint64 sent, qint64 total) {
        if (total > 0 && sent >= total)
            *written = true;
    });
    connect(reply, &QNetworkReply::metaDataChanged, reply, [written] { *written = true; });
    connect(reply, &QNetworkReply::finished, this, [reply, timer, written, done = std::move(done)] {
        reply->deleteLater();
        GatewayResult r;
        r.latencyMs = timer->elapsed();
        const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (status.isValid() && status.toInt() > 0) {
            r.transport = GatewayResult::Transport::Answered;
            r.status = status.toInt();
            r.body = reply->readAll();
            const QJsonDocument doc = QJsonDocument::fromJson(r.body);
            if (doc.isObject())
                r.json = doc.object();
            if (reply->header(QNetworkRequest::ContentTypeHeader).toString().startsWith(QLatin1String(Problem::mediaType)))
                r.problem = Problem::fromJson(r.body);
            bool ok = false;
            const qint64 retryAfter = reply->rawHeader("Retry-After").trimmed().toLongLong(&ok);
            if (ok && retryAfter >= 0)
                r.retryAfterMs = retryAfter * 1000;
            r.replayed = reply->rawHeader("Idempotent-Replayed").trimmed().compare("true", Qt::CaseInsensitive) == 0;
        } else {
            const QNetworkReply::NetworkError e = reply->error();
            // An incomplete request is never executed; a complete one may have been, whatever the
            // final error says: Qt 6.4 silently re-sends a request whose connection closed before
            // the answer and reports the resend's error, e.g. "connection refused" by a gateway
            // that died while it was executing the first one.
            r.transport = *written ? GatewayResult::Transport::LostAfterSend : GatewayResult::Transport::NotSent;
            r.transportError = e == QNetworkReply::OperationCanceledError ? QStringLiteral("timed out")
                                                                          : reply->errorString();
        }
        qCDebug(lcClient) << reply->operation() << reply->url().path() << r.summary() << r.latencyMs << "ms";
        done(r);
    });
}

} // namespace OncePay
