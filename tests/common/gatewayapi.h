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
// A wallet payment code of the brand's shape (prefix "10".."15", "25".."30") whose last digit is
// `outcome` (API.md's table); each call a new code, as each customer's phone shows a new one.
QString walletCode(const char *prefix, int outcome);
QByteArray walletBody(const QString &code, qint64 amount = 1999);
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
    bool ok = false;   // the ledger answered 200 with a data array
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
    bool ok = false;   // the refund ledger answered 200 with a data array
    QByteArray raw;
    QJsonArray rows;
    int succeeded = 0;
    int declined = 0;
    qint64 refunded = 0;   // the sum of the succeeded ones
    QStringList keys;   // the refund keys the acquirer saw, in its order
};
// The acquirer's refunds against the charge of payment key `chargeKey` (empty: the merchant's all).
AcquirerRefunds acquirerRefunds(HttpClient &client, const QString &chargeKey);

// Prometheus text: sample ("name{labels}") -> value. Comment lines are skipped.
QMap<QString, double> parseMetrics(const QByteArray &text);
// Sum of the samples whose name starts with `namePrefix` and whose label set contains
// every string of `labelParts`.
double metricSum(const QMap<QString, double> &metrics, const QString &namePrefix,
    const QStringList &labelParts = {});

}   // namespace GatewayApi

#define ONCEPAY_VERIFY_PROBLEM(reply, code, slug) \
    do { \
        const QByteArray why_ = GatewayApi::problemMismatch((reply), (code), (slug)); \
        QVERIFY2(why_.isEmpty(), why_.constData()); \
    } while (false)

#define ONCEPAY_VERIFY_STATUS(reply, code) \
    do { \
        const HttpReply &r_ = (reply); \
        QVERIFY2(r_.status == (code), r_.describe().constData()); \
    } while (false)

// Repeats `action` (a request with side effects) until `condition` holds or timeoutMs pass.
// QTRY_* evaluate their expression once more after it held; the flag keeps that from
// sending one request too many.
#define ONCEPAY_TRY_UNTIL(action, condition, timeoutMs) \
    do { \
        bool done_ = false; \
        QTRY_VERIFY_WITH_TIMEOUT(done_ || ((action), done_ = bool(condition)), timeoutMs); \
    } while (false)

namespace GatewayApi {

// The keyed POST the money suites repeat for both flows ("payment" and "refund" rows): a
// payment, or a refund of `refundAmount` against a payment made first for it. The same key and
// body on every send().
class KeyedMove final
{
public:
    KeyedMove(bool isRefund, const QString &prefix, qint64 paymentAmount, qint64 refundAmount);

    // A refund's payment is made here (with `client`); empty when ready, else why not.
    QByteArray prepare(HttpClient &client);
    HttpRequest request() const;
    HttpReply send(HttpClient &client) const { return client.send(request()); }

    bool isRefund() const { return m_isRefund; }
    QString key() const { return m_key; }
    QString paymentKey() const { return m_paymentKey; }
    QString paymentId() const { return m_paymentId; }
    // Rows the acquirer holds for it: the charges of the key, or the refunds of the payment.
    qsizetype rowsAtAcquirer(HttpClient &client) const;
    // Empty when the acquirer moved the money exactly once (one succeeded charge, or refunds
    // that add up to `refundAmount` in one), else its ledger.
    QByteArray onceAtAcquirer(HttpClient &client) const;

private:
    bool m_isRefund;
    qint64 m_refundAmount;
    QByteArray m_paymentBody;
    QString m_paymentKey;
    QString m_key;
    QString m_paymentId;
};

}   // namespace GatewayApi
