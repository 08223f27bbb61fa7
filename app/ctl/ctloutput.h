#pragma once

#include "intent.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

// What oncepay-ctl prints: results on stdout, an error as one line on stderr.
namespace OncePay::Ctl {

// Prints "oncepay-ctl: <message>" as one line on stderr and returns `code`.
int fail(int code, const QString &message);
// Writes `text` to stdout at once (a script may be reading while the command still runs).
void out(const QByteArray &text);
void outJson(const QJsonObject &object);   // one compact line
void outJson(const QJsonArray &array);

// A payment or refund: key, kind, state, amount, ...; a refund also payment_key (its payment's
// intent; payment_id is that payment's gateway id), refund_id and reason; a payment amount_refunded.
QJsonObject intentJson(const Intent &intent);
// KEY KIND STATE ORDER AMOUNT PAYMENT, one intent a line under a heading.
QByteArray intentTable(const QList<Intent> &intents);
// The exit code an intent's state stands for (pay's and refund's answer).
int exitFor(IntentState state);

}   // namespace OncePay::Ctl
