#pragma once

#include "intent.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>

namespace OncePay::Ui {

// A payment intent in the cashier's words: its state, how it was paid, the journal's lines and
// the gateway's record. The journal and the gateway store identifiers ("queued", "attempt 2",
// "402 declined", "tok_visa"); people read these.
class IntentText final
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::Ui::IntentText)

public:
    static QString state(IntentState state);
    // "Payment" or "Refund".
    static QString kind(IntentKind kind);
    // The state as the payments list shows it: a refund that succeeded is "Refunded", a paid
    // payment that was given back in part or in full says so ("Partly refunded", "Refunded").
    static QString stateOf(const Intent &intent);
    // The amount as the payments list shows it: a refund's as money going back ("−¥5.00").
    static QString amount(const Intent &intent);
    // "tok_visa" → "Visa"; a test token without a brand (tok_chargeDeclined ...) → "Card".
    static QString cardBrand(const QString &token);
    // "Visa ··4242"; the brand alone when the last four digits are not known.
    static QString card(const QString &brand, const QString &last4);
    // "Cash", or the card as far as the intent knows it. Never the raw token.
    static QString paymentMethod(const Intent &intent);
    // A time for a list: the time alone today, the date and time otherwise (local, short).
    static QString shortTime(qint64 epochMs);

    // What the intent means for the customer's money, in words a cashier can say out loud:
    // whether money moved, whether it still can, and what the till does about it.
    static QString meaning(const Intent &intent);
    // While the journal cannot tell whether a new payment or refund was saved (a disk that
    // failed as it was written): what the cashier must and must not do until it knows.
    static QString uncertainSave();

    // One journal line: "12:00:03  Waiting for connection → Sending: attempt 2".
    // A refund's lines say "Refunded" and "refund" where a payment's say "Paid" and "payment".
    static QString journalLine(const JournalEntry &entry, IntentKind kind = IntentKind::Payment);
    // The journal's lines for people: a retry loop (the same one or two changes three times or
    // more, attempt numbers aside) is shown once, then "… and the same 36 more times, until
    // 12:01:10".
    static QStringList journalLines(const QList<JournalEntry> &entries, IntentKind kind = IntentKind::Payment);
    // The journal's detail ("created", "attempt 2", "not sent: ...", "201 succeeded", ...) in words;
    // a detail it does not know is shown as stored.
    static QString journalDetail(const QString &detail, IntentKind kind = IntentKind::Payment);

    // The gateway's payment object as labelled fields, in this order: status, amount (money),
    // order id, payment id, card, created (local time), decline reason.
    static QList<QPair<QString, QString>> gatewayFields(const QJsonObject &payment);
    // The gateway's refund object likewise: status, amount, refund id, payment id, reason, created.
    static QList<QPair<QString, QString>> gatewayRefundFields(const QJsonObject &refund);
    // The gateway's payment status word ("succeeded", "declined", ...) in words.
    static QString paymentStatus(const QString &status);
    // The gateway's refund status word ("succeeded", "processing", "failed") in words.
    static QString refundStatus(const QString &status);
    // The gateway's decline code ("insufficient_funds") in words.
    static QString declineReason(const QString &code);
};

}   // namespace OncePay::Ui
