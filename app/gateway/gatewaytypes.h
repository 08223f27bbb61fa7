#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QtGlobal>

namespace OncePay::Gateway {

// Who is calling: a token belongs to one merchant (the tenant) and one terminal.
struct Caller
{
    QString merchant;
    QString terminal;
    QString tokenHash;   // identifies the token for rate limiting without keeping it in clear
};

// Recorded steps of a payment, so that a crash at any point resumes correctly.
namespace Step {
inline const QString claimed = QStringLiteral("claimed");               // key owned; acquirer not called
inline const QString acquirerCalled = QStringLiteral("acquirer_called"); // the acquirer may have charged
inline const QString settled = QStringLiteral("settled");               // final outcome stored
}

namespace Status {
inline const QString processing = QStringLiteral("processing");
inline const QString succeeded = QStringLiteral("succeeded");
inline const QString declined = QStringLiteral("declined");
inline const QString refunded = QStringLiteral("refunded");
inline const QString partiallyRefunded = QStringLiteral("partially_refunded");
}

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
    QString description;        // empty when absent
    QByteArray metadataJson;    // canonical JSON object, empty when absent
    QString status;
    QString step;
    QString declineCode;        // empty when none
    qint64 amountRefunded = 0;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    // The lease this copy was read or taken under: every write of a step is conditional on it.
    qint64 leaseGeneration = 0;

    bool isValid() const { return !id.isEmpty(); }
    QJsonObject toJson() const;
};

struct Refund
{
    QString id;
    QString paymentId;
    qint64 amount = 0;
    QString reason;
    QString status;
    qint64 createdAt = 0;

    QJsonObject toJson() const;
};

// An HTTP answer as recorded for replay: status, body and Location, byte for byte.
struct StoredResponse
{
    int status = 0;
    QByteArray body;
    QByteArray location;
    QByteArray contentType;
};

} // namespace OncePay::Gateway
