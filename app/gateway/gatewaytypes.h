#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringView>
#include <QtGlobal>

#include <optional>

namespace OncePay::Gateway {

// Who is calling: a token belongs to one merchant (the tenant) and one terminal.
struct Caller
{
    QString merchant;
    QString terminal;
    QString tokenHash;   // identifies the token for rate limiting without keeping it in clear
};

// Recorded steps of a payment, so that a crash at any point resumes correctly. The database
// keeps their names ("claimed", "acquirer_called", "settled").
enum class PaymentStep {
    Claimed,   // key owned; acquirer not called
    AcquirerCalled,   // the acquirer may have charged
    Settled,   // final outcome stored
};

// A payment's status as the API and the database name it ("processing", "succeeded", ...).
enum class PaymentStatus {
    Processing,   // the outcome is not known yet (202)
    Succeeded,
    Declined,
    Refunded,
    PartiallyRefunded,
};

// A refund moves money back through the acquirer, with the same steps as a payment: processing
// while the acquirer's answer is unknown, then succeeded, or failed when the acquirer refused
// to refund (nothing moved).
enum class RefundStatus {
    Processing,
    Succeeded,
    Failed,
};

// Wire and database names. Reading gives nullopt for a name this version does not know; the
// caller decides what that means and says so (the store logs it and assumes the least).
QString paymentStepName(PaymentStep step);
std::optional<PaymentStep> paymentStepFromName(QStringView name);
QString paymentStatusName(PaymentStatus status);
std::optional<PaymentStatus> paymentStatusFromName(QStringView name);
QString refundStatusName(RefundStatus status);
std::optional<RefundStatus> refundStatusFromName(QStringView name);

// The card as the acquirer names it (API.md: "card": {"brand", "last4"}); empty until it answered.
struct Card
{
    QString brand;   // "visa", "mastercard", "unionpay", ...
    QString last4;

    bool isEmpty() const { return brand.isEmpty() && last4.isEmpty(); }
    QJsonValue toJson() const;   // null when empty
    static Card fromJson(const QJsonValue &value);   // empty for null or anything else
    friend bool operator==(const Card &a, const Card &b) { return a.brand == b.brand && a.last4 == b.last4; }
};

struct Payment
{
    qint64 seq = 0;
    QString id;
    QString merchant;
    QString terminalId;
    QString idempotencyKey;
    QByteArray fingerprint;
    qint64 amount = 0;
    QString currency;
    QString orderId;
    QString paymentMethod;
    QString description;   // empty when absent
    QByteArray metadataJson;   // canonical JSON object, empty when absent
    PaymentStatus status = PaymentStatus::Processing;
    PaymentStep step = PaymentStep::Claimed;
    QString declineCode;   // empty when none
    Card card;   // from the acquirer: empty until it answered
    QString authorizationCode;   // from the acquirer: an approved charge's, empty otherwise
    qint64 amountRefunded = 0;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    // The lease this copy was read or taken under: every write of a step is conditional on it.
    qint64 leaseGeneration = 0;
    // Past the acquirer's key window and unknown to it: a person settles it (API.md promise 11).
    bool needsReview = false;
    // A wallet payment given up (API.md "Wallet payments"): "wallet_timeout" or "cancelled",
    // recorded before the reversal is sent; whoever holds the payment next reverses it and
    // settles it declined with this code. Empty while nobody gave it up.
    QString cancelReason;

    bool isValid() const { return !id.isEmpty(); }
    // A wallet payment keeps its payment code in paymentMethod as "wallet:<digits>" (what the
    // acquirer is sent); the API says "wallet" and names the brand, never the code.
    bool isWallet() const { return isWalletMethod(paymentMethod); }
    QString walletBrand() const;
    QJsonObject toJson() const;

    static bool isWalletMethod(const QString &method) { return method.startsWith(QLatin1String("wallet:")); }
    // The brand of an 18-digit payment code: "wechat" (10-15...), "alipay" (25-30...), or empty
    // for anything else.
    static QString walletBrandOf(QStringView code);
};

struct Refund
{
    qint64 seq = 0;
    QString id;
    QString paymentId;
    QString merchant;
    QString terminalId;
    QString idempotencyKey;
    QByteArray fingerprint;
    qint64 amount = 0;
    QString currency;   // the payment's
    QString reason;
    RefundStatus status = RefundStatus::Processing;
    PaymentStep step = PaymentStep::Claimed;   // the same steps as a payment's
    QString failureCode;   // failed: the acquirer's reason
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    qint64 leaseGeneration = 0;
    QString chargeKey;   // the payment's idempotency key: the charge the acquirer refunds
    bool needsReview = false;   // as a payment's

    bool isValid() const { return !id.isEmpty(); }
    QJsonObject toJson() const;
};

// The tables whose rows are written under a fenced lease, both with the columns
// lease_generation, lease_boot, lease_expires_at, status and step.
enum class LeasedTable {
    Payments,
    Refunds
};

// A row of either kind as its lease holder writes it: which row, under which generation, and
// what the store touches beside it. Made from the record the holder read or took over.
struct LeasedRow
{
    LeasedTable table = LeasedTable::Payments;
    QString id;
    qint64 generation = 0;   // the lease generation held: every write is conditional on it
    QString merchant;
    QString idempotencyKey;   // its idempotency record
    qint64 updatedAt = 0;   // what a write under the lease records as updated_at
    // A refund's reservation on its payment: given back when the claim is released.
    QString reservedOnPayment;
    qint64 reservedAmount = 0;

    static LeasedRow of(const Payment &payment);
    static LeasedRow of(const Refund &refund);
};

// A new resource id: `prefix` and 24 random base62 characters ("pay_...", "re_...").
QString newResourceId(const char *prefix);

// An HTTP answer as recorded for replay: status, body and Location, byte for byte.
struct StoredResponse
{
    int status = 0;
    QByteArray body;
    QByteArray location;
    QByteArray contentType;
};

}   // namespace OncePay::Gateway
