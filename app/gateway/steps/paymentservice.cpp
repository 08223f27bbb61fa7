#include "gateway/steps/paymentservice.h"

#include "gateway/answers.h"
#include "gateway/store/timedreply.h"

#include <QJsonArray>

#include <utility>

namespace OncePay::Gateway {

namespace {
PaymentConfig bounded(PaymentConfig config)
{
    // The acquirer must answer well within the lease, or a retry could take over a live call.
    config.acquirerTimeoutMs = qBound<qint64>(1, config.acquirerTimeoutMs, qMax<qint64>(1, config.leaseMs / 2));
    return config;
}
}   // namespace

PaymentService::PaymentService(Config config, GatewayStore *store, Acquirer *acquirer, Metrics *metrics,
    QObject *parent)
    : QObject(parent)
    , m_config(bounded(std::move(config)))
    , m_store(store)
    , m_metrics(metrics)
    , m_payments(m_config, store, acquirer, metrics)
    , m_refunds(m_config, store, acquirer, metrics)
    , m_recovery(m_config, store, &m_payments, &m_refunds, metrics)
    , m_retention(m_config.retentionMs, store, metrics)
{
}

void PaymentService::start()
{
    m_retention.start();
    m_recovery.start();
}

void PaymentService::stop()
{
    m_recovery.stop();
    m_retention.stop();
}

template <typename T>
GatewayStore::Reply<T> PaymentService::timed(GatewayStore::Reply<T> reply)
{
    return timedReply<T>(m_metrics, std::move(reply));
}

void PaymentService::createPayment(const Caller &caller, const QString &key, const QByteArray &fingerprint,
    Payment fields, const Respond &respond)
{
    m_payments.createPayment(caller, key, fingerprint, std::move(fields), respond);
}

void PaymentService::cancelPayment(const Caller &caller, const QString &key, const QByteArray &fingerprint,
    const QString &paymentId, const Respond &respond)
{
    m_payments.cancelPayment(caller, key, fingerprint, paymentId, respond);
}

void PaymentService::createRefund(const Caller &caller, const QString &key, const QByteArray &fingerprint,
    Refund fields, const Respond &respond)
{
    m_refunds.createRefund(caller, key, fingerprint, std::move(fields), respond);
}

void PaymentService::getRefund(const Caller &caller, const QString &id, const Respond &respond)
{
    m_store->findRefund(caller.merchant, id, this, timed<Refund>([respond](bool ok, const QString &, const Refund &r) {
        if (!ok)
            return respond(Answers::storeUnavailable());
        respond(r.isValid() ? Http::HttpAnswer::json(200, r.toJson()) : Answers::notFound(QStringLiteral("No such refund.")));
    }));
}

void PaymentService::getRefundByKey(const Caller &caller, const QString &key, const Respond &respond)
{
    m_store->findRefundByKey(caller.merchant, key, this, timed<Refund>([respond](bool ok, const QString &, const Refund &r) {
        if (!ok)
            return respond(Answers::storeUnavailable());
        respond(r.isValid() ? Http::HttpAnswer::json(200, r.toJson())
                            : Answers::notFound(QStringLiteral("No refund has this Idempotency-Key.")));
    }));
}

void PaymentService::listRefunds(const Caller &caller, const QString &paymentId, const Respond &respond)
{
    m_store->listRefunds(caller.merchant, paymentId, this, timed<RefundList>([respond](bool ok, const QString &, const RefundList &list) {
        if (!ok)
            return respond(Answers::storeUnavailable());
        if (!list.paymentFound)
            return respond(Answers::notFound(QStringLiteral("No such payment.")));
        QJsonArray data;
        for (const Refund &r : list.refunds)
            data.append(r.toJson());
        respond(Http::HttpAnswer::json(200, {{QStringLiteral("object"), QStringLiteral("list")}, {QStringLiteral("data"), data}}));
    }));
}

void PaymentService::getPayment(const Caller &caller, const QString &id, const Respond &respond)
{
    m_store->findPayment(caller.merchant, id, this, timed<Payment>([respond](bool ok, const QString &, const Payment &p) {
        if (!ok)
            return respond(Answers::storeUnavailable());
        respond(p.isValid() ? Http::HttpAnswer::json(200, p.toJson()) : Answers::notFound(QStringLiteral("No such payment.")));
    }));
}

void PaymentService::getPaymentByKey(const Caller &caller, const QString &key, const Respond &respond)
{
    m_store->findPaymentByKey(caller.merchant, key, this, timed<Payment>([respond](bool ok, const QString &, const Payment &p) {
        if (!ok)
            return respond(Answers::storeUnavailable());
        respond(p.isValid() ? Http::HttpAnswer::json(200, p.toJson())
                            : Answers::notFound(QStringLiteral("No payment has this Idempotency-Key.")));
    }));
}

void PaymentService::listPayments(ListQuery query, const Respond &respond)
{
    const int limit = query.limit;
    query.limit = limit + 1;   // one more tells whether there is a next page
    m_store->listPayments(query, this, timed<QList<Payment>>([respond, limit](bool ok, const QString &, QList<Payment> list) {
        if (!ok)
            return respond(Answers::storeUnavailable());
        const bool more = list.size() > limit;
        if (more)
            list.resize(limit);
        QJsonArray data;
        for (const Payment &p : list)
            data.append(p.toJson());
        const QJsonValue cursor = more ? QJsonValue(QString::fromLatin1(QByteArray::number(list.last().seq)
                                                                            .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals)))
                                       : QJsonValue(QJsonValue::Null);
        respond(Http::HttpAnswer::json(200, {{QStringLiteral("object"), QStringLiteral("list")}, {QStringLiteral("data"), data}, {QStringLiteral("next_cursor"), cursor}}));
    }));
}

void PaymentService::readiness(const Respond &respond)
{
    m_store->ping(this, [respond](bool ok, const QString &error, bool) {
        if (!ok)
            return respond(Http::HttpAnswer::problem(503, QStringLiteral("store-unavailable"), QStringLiteral("Not ready"),
                QStringLiteral("The gateway's store is not ready: %1").arg(error))
                               .withHeader(QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1")));
        respond(Http::HttpAnswer::json(200, {{QStringLiteral("status"), QStringLiteral("ok")}}));
    });
}

}   // namespace OncePay::Gateway
