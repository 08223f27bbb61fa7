#include "intenttext.h"

#include "receipt.h"

#include "timeutil.h"
#include "walletcode.h"

#include <QDateTime>
#include <QLocale>
#include <QRegularExpression>

namespace OncePay::Ui {

QString IntentText::state(IntentState state)
{
    switch (state) {
    case IntentState::Queued:
        return tr("Waiting for connection");
    case IntentState::Sending:
        return tr("Sending");
    case IntentState::Processing:
        return tr("Bank processing");
    case IntentState::Unknown:
        return tr("Checking with the server");
    case IntentState::Succeeded:
        return tr("Paid");
    case IntentState::Declined:
        return tr("Declined");
    case IntentState::NeedsAttention:
        return tr("Needs attention");
    case IntentState::Voided:
        return tr("Voided");
    }
    return {};
}

QString IntentText::kind(IntentKind kind)
{
    switch (kind) {
    case IntentKind::Payment:
        return tr("Payment");
    case IntentKind::Refund:
        return tr("Refund");
    }
    return {};
}

QString IntentText::stateOf(const Intent &intent)
{
    // A card part the cashier gave up (the customer paid another way): what it is to the sale.
    if (!intent.isRefund() && intent.givenUpAt > 0) {
        if (!isFinal(intent.state))
            return tr("Given up, still checking: refunded by the till if charged");
        if (intent.state == IntentState::Succeeded)
            return intent.amountRefunded >= intent.amount.minorUnits() ? tr("Charged late, refunded automatically")
                                                                       : tr("Charged late, being refunded automatically");
    }
    if (intent.state != IntentState::Succeeded)
        return state(intent.state);
    if (intent.isRefund())
        return tr("Refunded");
    if (intent.amountRefunded > 0)
        return intent.amountRefunded >= intent.amount.minorUnits() ? tr("Refunded") : tr("Partly refunded");
    return state(intent.state);
}

QString IntentText::uncertainSave()
{
    return tr("The till's disk failed while saving this. It may have been saved, so the till keeps trying and "
              "sends nothing until it knows. Keep the sale open and take no other payment for it; free disk "
              "space or call support.");
}

QString IntentText::meaning(const Intent &intent)
{
    const QString amount = intent.amount.toDisplayString();
    if (intent.isRefund()) {
        if (intent.isCash()) {
            return intent.state == IntentState::Succeeded ? tr("%1 was handed back in cash.").arg(amount)
                                                          : tr("A cash refund of %1.").arg(amount);
        }
        switch (intent.state) {
        case IntentState::Queued:
            return tr("Not sent yet. The till sends it by itself as soon as the gateway can be reached; "
                      "the customer gets %1 back once, never twice.")
                .arg(amount);
        case IntentState::Sending:
            return tr("Being sent to the gateway now. The customer gets %1 back once, never twice.").arg(amount);
        case IntentState::Processing:
            return tr("The bank is still working on it. The till keeps asking; do not refund again.");
        case IntentState::Unknown:
            return tr("The answer was lost on the way. The till is asking the gateway whether the money went back; "
                      "it never refunds twice.");
        case IntentState::Succeeded:
            return tr("%1 went back to the customer's card.").arg(amount);
        case IntentState::Declined:
            return tr("The refund was refused: nothing went back to the card.");
        case IntentState::NeedsAttention:
            return tr("The till stopped sending this refund (%1). Call support before refunding again.")
                .arg(intent.lastProblem.isEmpty() ? tr("the gateway refused it") : intent.lastProblem);
        case IntentState::Voided:
            return tr("Cancelled on the till before it was sent: nothing went back.");
        }
        return {};
    }
    if (intent.isCash()) {
        return intent.state == IntentState::Voided ? tr("Cancelled: no cash was kept.")
                                                   : tr("Paid %1 in cash. Cash is counted in the drawer when the shift closes.").arg(amount);
    }
    // A card part the customer replaced with another tender.
    if (intent.givenUpAt > 0) {
        if (!isFinal(intent.state)) {
            return tr("The customer paid another way. The till is still finding out whether this card was charged; "
                      "if it was, the till refunds it by itself.");
        }
        if (intent.state == IntentState::Succeeded) {
            return intent.amountRefunded >= intent.amount.minorUnits()
                ? tr("The card was charged after the customer paid another way; the till refunded %1 by itself.").arg(amount)
                : tr("The card was charged after the customer paid another way; the till is refunding %1 by itself.").arg(amount);
        }
    }
    switch (intent.state) {
    case IntentState::Queued:
        return tr("Not sent yet. The till sends it by itself as soon as the gateway can be reached; "
                  "the card is charged once at most.");
    case IntentState::Sending:
        return tr("Being sent to the gateway now. The card is charged once at most.");
    case IntentState::Processing:
        return tr("The bank is still working on it. The till keeps asking; do not take the payment again.");
    case IntentState::Unknown:
        return tr("The answer was lost on the way. The till is asking the gateway whether the card was charged; "
                  "it never charges it twice.");
    case IntentState::Succeeded:
        if (intent.amountRefunded > 0) {
            return tr("The card was charged %1; %2 of it was given back.")
                .arg(amount, Money(intent.amountRefunded, intent.amount.currency()).toDisplayString());
        }
        return tr("The card was charged %1.").arg(amount);
    case IntentState::Declined:
        return intent.declineCode.isEmpty()
            ? tr("The bank declined the card. It was not charged.")
            : tr("The bank declined the card (%1). It was not charged.").arg(declineReason(intent.declineCode).toLower());
    case IntentState::NeedsAttention:
        return tr("The till stopped sending this payment (%1). Call support before taking the payment again.")
            .arg(intent.lastProblem.isEmpty() ? tr("the gateway refused it") : intent.lastProblem);
    case IntentState::Voided:
        return tr("Cancelled on the till before it was sent: nothing was charged.");
    }
    return {};
}

QString IntentText::amount(const Intent &intent)
{
    if (!intent.isRefund())
        return intent.amount.toDisplayString();
    return tr("−%1", "a refund's amount: money going back to the customer").arg(intent.amount.toDisplayString());
}

QString IntentText::cardBrand(const QString &token)
{
    // A wallet payment's method is its code: the brand of the code's shape, before the gateway says it.
    if (token.startsWith(QLatin1String("wallet:")))
        return Receipt::cardLabel(walletBrandOf(QStringView(token).mid(7)), {});
    // A test card's token names its brand ("tok_visa"); the brand's label is Receipt::cardLabel's.
    static const char *const kBrands[] = {"visa", "mastercard", "unionpay", "amex", "jcb"};
    for (const char *brand : kBrands) {
        if (token.compare(QLatin1String("tok_") + QLatin1String(brand), Qt::CaseInsensitive) == 0)
            return Receipt::cardLabel(QString::fromLatin1(brand), {});
    }
    return tr("Card");
}

QString IntentText::card(const QString &brand, const QString &last4)
{
    const QString name = brand.isEmpty() ? tr("Card") : brand;
    return last4.isEmpty() ? name : tr("%1 ··%2", "card brand and its last four digits").arg(name, last4);
}

QString IntentText::paymentMethod(const Intent &intent)
{
    if (intent.isCash())
        return tr("Cash");
    // The card the acquirer named, once it answered ("Visa ··4242"); before that, the test card.
    if (!intent.cardBrand.isEmpty())
        return Receipt::cardLabel(intent.cardBrand, intent.cardLast4);
    return card(cardBrand(intent.paymentMethod), {});
}

QString IntentText::shortTime(qint64 epochMs)
{
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(epochMs);
    const QLocale locale;
    if (at.date() == QDate::currentDate())
        return locale.toString(at.time(), QLocale::ShortFormat);
    return locale.toString(at, QLocale::ShortFormat);
}

QString IntentText::journalLine(const JournalEntry &entry, IntentKind kind)
{
    auto word = [kind](const QString &name) {
        const auto s = intentStateFromName(name);
        if (s && *s == IntentState::Succeeded && kind == IntentKind::Refund)
            return tr("Refunded");
        return s ? state(*s) : name;
    };
    const QString time = QLocale().toString(QDateTime::fromMSecsSinceEpoch(entry.at).time(), QStringLiteral("HH:mm:ss"));
    const QString states = entry.fromState.isEmpty() || entry.fromState == entry.toState
        ? word(entry.toState)
        : tr("%1 → %2", "journal: from one state to another").arg(word(entry.fromState), word(entry.toState));
    if (entry.detail.isEmpty())
        return QStringLiteral("%1  %2").arg(time, states);
    return tr("%1  %2: %3", "journal line: time, states, what happened").arg(time, states, journalDetail(entry.detail, kind));
}

QStringList IntentText::journalLines(const QList<JournalEntry> &entries, IntentKind kind)
{
    // Two entries are "the same" when only their numbers differ (attempt 7, attempt 8).
    static const QRegularExpression digits(QStringLiteral("\\d+"));
    auto same = [&entries](qsizetype a, qsizetype b) {
        const JournalEntry &x = entries.at(a);
        const JournalEntry &y = entries.at(b);
        return x.fromState == y.fromState && x.toState == y.toState
            && QString(x.detail).replace(digits, QString()) == QString(y.detail).replace(digits, QString());
    };
    QStringList lines;
    qsizetype i = 0;
    while (i < entries.size()) {
        // The longest run of one block of one or two entries repeated back to back.
        qsizetype bestPeriod = 1;
        qsizetype bestRepeats = 1;
        for (qsizetype period = 1; period <= 2; ++period) {
            qsizetype repeats = 1;
            while (i + (repeats + 1) * period <= entries.size()) {
                bool match = true;
                for (qsizetype k = 0; k < period && match; ++k)
                    match = same(i + k, i + repeats * period + k);
                if (!match)
                    break;
                ++repeats;
            }
            if (repeats >= 3 && repeats * period > bestRepeats * bestPeriod) {   // folding fewer saves nothing
                bestPeriod = period;
                bestRepeats = repeats;
            }
        }
        for (qsizetype k = 0; k < bestPeriod; ++k)
            lines << journalLine(entries.at(i + k), kind);
        if (bestRepeats > 1) {
            const qint64 until = entries.at(i + bestRepeats * bestPeriod - 1).at;
            const QString time = QLocale().toString(QDateTime::fromMSecsSinceEpoch(until).time(), QStringLiteral("HH:mm:ss"));
            lines << tr("          … and the same %1 more times, until %2", "journal: a retry loop folded")
                         .arg(bestRepeats - 1)
                         .arg(time);
        }
        i += bestPeriod * bestRepeats;
    }
    return lines;
}

namespace {
// What an HTTP answer recorded as "STATUS WORD" said, WORD being the payment's status or the
// problem's slug (GatewayResult::summary()).
QString answerText(int status, const QString &word, IntentKind kind)
{
    const bool refund = kind == IntentKind::Refund;
    if (!word.isEmpty() && status >= 200 && status < 300) {
        return IntentText::tr("the gateway answered: %1")
            .arg((refund ? IntentText::refundStatus(word) : IntentText::paymentStatus(word)).toLower());
    }
    if (status == 402)
        return IntentText::tr("the gateway answered: declined");
    if (status == 404)
        return refund ? IntentText::tr("the gateway has no refund with this key") : IntentText::tr("the gateway has no payment with this key");
    if (status == 409)
        return IntentText::tr("the gateway is still working on this key");
    if (status == 401 || status == 403)
        return IntentText::tr("the gateway refused this till's token");
    if (status == 429)
        return IntentText::tr("the gateway asked the till to slow down");
    if (status >= 500)
        return IntentText::tr("the gateway had a problem (%1)").arg(word.isEmpty() ? QString::number(status) : word);
    if (status >= 400) {
        const QString what = word.isEmpty() ? QString::number(status) : word;
        return refund ? IntentText::tr("the gateway refused the refund (%1)").arg(what)
                      : IntentText::tr("the gateway refused the payment (%1)").arg(what);
    }
    return IntentText::tr("the gateway answered %1").arg(status);
}
// Qt's words for what went wrong on the wire (QNetworkReply::errorString()) in people's words;
// anything else as stored.
QString transportText(const QString &error)
{
    if (error == QLatin1String("timed out") || error == QLatin1String("Operation canceled"))
        return IntentText::tr("no answer in time");
    if (error == QLatin1String("Connection refused"))
        return IntentText::tr("the gateway did not take the connection");
    if (error == QLatin1String("Connection closed") || error == QLatin1String("Remote host closed"))
        return IntentText::tr("the connection closed");
    if (error.startsWith(QLatin1String("Host ")) && error.endsWith(QLatin1String(" not found")))
        return IntentText::tr("the gateway's address was not found");
    if (error.contains(QLatin1String("Network unreachable"), Qt::CaseInsensitive)
        || error.contains(QLatin1String("Network access is disabled"), Qt::CaseInsensitive))
        return IntentText::tr("no network");
    return error;
}
}   // namespace

QString IntentText::journalDetail(const QString &detail, IntentKind kind)
{
    // The journal's own words (IntentJournal, SyncEngine) and the outcomes of GatewayResult::summary().
    if (detail == QLatin1String("created"))
        return tr("created");
    if (detail == QLatin1String("interrupted while sending; ask the gateway first"))
        return tr("interrupted while sending; ask the gateway first");
    if (detail == QLatin1String("voided on the till: never sent"))
        return tr("voided on the till: never sent");
    if (detail == QLatin1String("customer left; the till confirms it by itself"))
        return tr("customer left; the till confirms it by itself");
    if (detail == QLatin1String("acknowledged by the cashier"))
        return tr("acknowledged by the cashier");
    static const QLatin1String refundOf("created: refund of ");
    if (detail.startsWith(refundOf))
        return tr("created: a refund of payment %1").arg(detail.mid(refundOf.size()));
    // JournalRules::creditPayment: "refund KEY succeeded: 5.00 given back (5.00 of 12.00 refunded)"
    static const QRegularExpression credited(QStringLiteral("^refund (\\S+) succeeded: ([0-9.]+) given back \\(([0-9.]+) of ([0-9.]+) refunded\\)$"));
    if (const auto m = credited.match(detail); m.hasMatch())
        return tr("refund %1 succeeded: %2 given back (%3 of %4 refunded)").arg(m.captured(1), m.captured(2), m.captured(3), m.captured(4));
    static const QRegularExpression attempt(QStringLiteral("^attempt (\\d+)$"));
    if (const auto m = attempt.match(detail); m.hasMatch())
        return tr("attempt %1").arg(m.captured(1));
    static const QLatin1String notSent("not sent: "), lost("no answer after sending: ");
    if (detail.startsWith(notSent))
        return tr("not sent: %1").arg(transportText(detail.mid(notSent.size())));
    if (detail.startsWith(lost))
        return tr("no answer after sending: %1").arg(transportText(detail.mid(lost.size())));
    static const QRegularExpression answer(QStringLiteral("^(\\d{3})(?: ([a-z0-9_-]+))?( \\(replayed\\))?$"));
    if (const auto m = answer.match(detail); m.hasMatch()) {
        const QString text = answerText(m.captured(1).toInt(), m.captured(2), kind);
        return m.capturedLength(3) > 0 ? tr("%1 (the same answer again)", "a replayed answer").arg(text) : text;
    }
    return detail;
}

QString IntentText::paymentStatus(const QString &status)
{
    if (status == QLatin1String("succeeded"))
        return tr("Paid");
    if (status == QLatin1String("declined"))
        return tr("Declined");
    if (status == QLatin1String("processing"))
        return tr("Bank processing");
    if (status == QLatin1String("refunded"))
        return tr("Refunded");
    if (status == QLatin1String("partially_refunded"))
        return tr("Partly refunded");
    return status;
}

QString IntentText::refundStatus(const QString &status)
{
    if (status == QLatin1String("succeeded"))
        return tr("Refunded");
    if (status == QLatin1String("processing"))
        return tr("Bank processing");
    if (status == QLatin1String("failed"))
        return tr("Declined");
    return status;
}

QString IntentText::declineReason(const QString &code)
{
    if (code == QLatin1String("card_declined"))
        return tr("card declined");
    if (code == QLatin1String("insufficient_funds"))
        return tr("insufficient funds");
    if (code == QLatin1String("processing_error"))
        return tr("the bank could not process it");
    // Wallet payments (issue 26).
    if (code == QLatin1String("code_expired"))
        return tr("the payment code was used or is too old: ask the customer for a new one");
    if (code == QLatin1String("wallet_timeout"))
        return tr("the customer did not confirm on the phone in time; nothing was charged");
    if (code == QLatin1String("cancelled"))
        return tr("cancelled at the bank; nothing was charged");
    if (code == QLatin1String("wallet_declined"))
        return tr("the wallet declined it");
    // A refund's failure codes (the gateway's refund object, failure_code).
    if (code == QLatin1String("refund_declined"))
        return tr("the bank declined the refund");
    if (code == QLatin1String("charge_not_found"))
        return tr("the bank has no such charge");
    if (code == QLatin1String("amount_exceeds_charge"))
        return tr("more than the bank charged");
    return code;
}

QList<QPair<QString, QString>> IntentText::gatewayFields(const QJsonObject &payment)
{
    const QString none = tr("—", "no value");
    auto text = [&](const char *field) {
        const QString v = payment.value(QLatin1String(field)).toString();
        return v.isEmpty() ? none : v;
    };
    QString amount = none;
    const QString currency = payment.value(QStringLiteral("currency")).toString();
    if (payment.value(QStringLiteral("amount")).isDouble() && !currency.isEmpty())
        amount = Money(qint64(payment.value(QStringLiteral("amount")).toDouble()), currency).toDisplayString();
    QString created = none;
    if (const auto at = fromRfc3339(payment.value(QStringLiteral("created_at")).toString()))
        created = QLocale().toString(QDateTime::fromMSecsSinceEpoch(*at), QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    const QString decline = payment.value(QStringLiteral("decline_code")).toString();
    const QString method = payment.value(QStringLiteral("payment_method")).toString();
    return {
        {tr("Status"), payment.contains(QStringLiteral("status")) ? paymentStatus(text("status")) : none},
        {tr("Amount"), amount},
        {tr("Order id"), text("order_id")},
        {tr("Payment id"), text("id")},
        {tr("Card"), method.isEmpty() ? none : cardBrand(method)},
        {tr("Created"), created},
        {tr("Decline reason"), decline.isEmpty() ? none : declineReason(decline)},
    };
}

}   // namespace OncePay::Ui

namespace OncePay::Ui {

QList<QPair<QString, QString>> IntentText::gatewayRefundFields(const QJsonObject &refund)
{
    const QString none = tr("—", "no value");
    auto text = [&](const char *field) {
        const QString v = refund.value(QLatin1String(field)).toString();
        return v.isEmpty() ? none : v;
    };
    QString amount = none;
    const QString currency = refund.value(QStringLiteral("currency")).toString();
    if (refund.value(QStringLiteral("amount")).isDouble() && !currency.isEmpty())
        amount = Money(qint64(refund.value(QStringLiteral("amount")).toDouble()), currency).toDisplayString();
    else if (refund.value(QStringLiteral("amount")).isDouble())
        amount = QString::number(qint64(refund.value(QStringLiteral("amount")).toDouble()));
    QString created = none;
    if (const auto at = fromRfc3339(refund.value(QStringLiteral("created_at")).toString()))
        created = QLocale().toString(QDateTime::fromMSecsSinceEpoch(*at), QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    return {
        {tr("Status"), refund.contains(QStringLiteral("status")) ? refundStatus(text("status")) : none},
        {tr("Amount"), amount},
        {tr("Refund id"), text("id")},
        {tr("Payment id"), text("payment_id")},
        {tr("Reason"), text("reason")},
        {tr("Created"), created},
    };
}

}   // namespace OncePay::Ui
