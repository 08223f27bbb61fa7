#pragma once

#include "httpclient.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QString>

// Vocabulary of API.md for the black-box suites: bodies, keys, problem checks, the
// acquirer's ledger and metrics.
namespace GatewayApi {

inline constexpr char kTill1[] = "sk_test_demo_till1";
inline constexpr char kTill2[] = "sk_test_demo_till2";
inline constexpr char kOther[] = "sk_test_other_till1";

QString uniqueKey(const QString &prefix = QStringLiteral("k"));
QByteArray paymentBody(qint64 amount = 1999, const QString &method = QStringLiteral("tok_visa"),
                       const QString &orderId = QStringLiteral("ord-0001"),
                       const QString &currency = QStringLiteral("CNY"));
// Idempotency-Key as a Structured Field string: "key".
HttpHeaders keyHeader(const QString &key);
HttpReply pay(HttpClient &client, const QString &key, const QByteArray &body = paymentBody());
// The payment an answer carries: the body of 201/202/200, the "payment" member of a 402.
QJsonObject paymentOf(const HttpReply &reply);

// Empty when `reply` is the problem of API.md with that status and slug, else why not.
QByteArray problemMismatch(const HttpReply &reply, int status, const QString &slug);
// Empty when `payment` carries every field of the payment object with the right types.
QByteArray paymentMismatch(const QJsonObject &payment);

struct Charges
{
    bool ok = false;      // the ledger answered 200 with a data array
    QByteArray raw;
    QJsonArray rows;
    int succeeded = 0;
    int declined = 0;
};
// The acquirer's ledger for `key`, or the merchant's whole ledger for an empty key.
Charges acquirerCharges(HttpClient &client, const QString &key);
bool setAcquirer(HttpClient &client, const QString &mode, int latencyMs = 0);

// POST /v1/payments/{id}/refunds with `key` and {"amount": amount}.
HttpReply refund(HttpClient &client, const QString &paymentId, const QString &key, qint64 amount);

struct AcquirerRefunds
{
    bool ok = false;        // the refund ledger answered 200 with a data array
    QByteArray raw;
    QJsonArray rows;
    int succeeded = 0;
    int declined = 0;
    qint64 refunded = 0;    // the sum of the succeeded ones
    QStringList keys;       // the refund keys the acquirer saw, in its order
};
// The acquirer's refunds against the charge of payment key `chargeKey` (empty: the merchant's all).
AcquirerRefunds acquirerRefunds(HttpClient &client, const QString &chargeKey);

// Prometheus text: sample ("name{labels}") -> value. Comment lines are skipped.
QMap<QString, double> parseMetrics(const QByteArray &text);
// Sum of the samples whose name starts with `namePrefix` and whose label set contains
// every string of `labelParts`.
double metricSum(const QMap<QString, double> &metrics, const QString &namePrefix,
                 const QStringList &labelParts = {});

} // namespace GatewayApi

#define ONCEPAY_VERIFY_PROBLEM(reply, code, slug)                                    \
    do {                                                                             \
        const QByteArray why_ = GatewayApi::problemMismatch((reply), (code), (slug)); \
        QVERIFY2(why_.isEmpty(), why_.constData());                                  \
    } while (false)

#define ONCEPAY_VERIFY_STATUS(reply, code)                                           \
    do {                                                                             \
        const HttpReply &r_ = (reply);                                               \
        QVERIFY2(r_.status == (code), r_.describe().constData());                    \
    } while (false)

// Repeats `action` (a request with side effects) until `condition` holds or timeoutMs pass.
// QTRY_* evaluate their expression once more after it held; the flag keeps that from
// sending one request too many.
#define ONCEPAY_TRY_UNTIL(action, condition, timeoutMs)                                  \
    do {                                                                                 \
        bool done_ = false;                                                              \
        QTRY_VERIFY_WITH_TIMEOUT(done_ || ((action), done_ = bool(condition)), timeoutMs); \
    } while (false)
