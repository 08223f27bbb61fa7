#pragma once

#include "intent.h"
#include "money.h"
#include "paymentmatching.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace OncePay {

// One row of a shift's reconciliation: a payment or refund of the shift as the till's journal,
// the gateway and (in demo mode) the acquirer's own ledger each know it, and what to do.
struct ShiftFinding
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::ShiftFinding)

public:
    enum class Subject {
        Payment,   // a payment, by its key
        Refund,   // a refund, by its key
        RefundTotal,   // a payment's refunded amount: the journal's succeeded refunds against the gateway's amount_refunded
    };
    using Kind = PaymentMatch::Kind;   // matched, only local, only on the gateway, different amount / state
    // The acquirer's ledger against what the till and the gateway say happened to the money.
    enum class Bank {
        NotAsked,   // not a demo gateway, or cash (the bank never sees it)
        Agrees,   // moved once with the right amount, or not at all where nothing was due
        Missing,   // the till or the gateway says the money moved; the bank has nothing
        Unexpected,   // the bank moved money the till and the gateway say did not move
        MoreThanOnce,   // the bank moved money more than once for one key
        OtherAmount,   // moved once, by another amount
    };
    enum class Action {
        None,   // they agree, or nothing was ever due at the gateway
        Sync,   // the till has not learnt the outcome yet: it asks the gateway with the same key
        Investigate,   // a person looks: money may have moved without the till knowing, or not as it says
    };

    Subject subject = Subject::Payment;
    Kind kind = Kind::Matched;
    Bank bank = Bank::NotAsked;
    Action action = Action::None;
    QString key;
    QString orderId;
    QString saleNumber;   // its sale's short number ("1-000123"), when it is a sale's
    QString paymentId;   // the gateway's payment (a refund's: the payment it refunds)
    QString refundId;   // a refund's, when the gateway has it
    Tender tender = Tender::Card;
    std::optional<IntentState> localState;   // none: only on the gateway
    Money localAmount;   // invalid: only on the gateway
    QString gatewayStatus;   // empty: only on the till
    Money gatewayAmount;   // invalid: only on the till
    std::optional<qint64> bankAmount;   // what the bank moved, when asked
    int bankMoves = 0;   // how many times it moved money for this key
    // Issue 35: a refund the till owes and could not make (refundsOwed, sale.h): what is still
    // owed (invalid: nothing), and the card payment it was to give back.
    Money owed;
    QString paymentKey;

    bool needsAction() const { return action != Action::None; }
    QJsonObject toJson() const;
    // A row as toJson() wrote it, as the journal keeps it with a closed shift (issue 36: the past
    // shift's report shows its reconciliation as the close did); none when it cannot be read.
    static std::optional<ShiftFinding> fromJson(const QJsonObject &object);

    // For people (translated): the finding in a few words, the bank's column, and what to do
    // about it as one sentence.
    QString findingText() const;
    QString bankText() const;
    QString advice() const;
};

QString shiftSubjectName(ShiftFinding::Subject subject);   // "payment", "refund", "refund_total"
QString shiftBankName(ShiftFinding::Bank bank);   // "not_asked", "agrees", "missing", ...
QString shiftActionName(ShiftFinding::Action action);   // "none", "sync", "investigate"

}   // namespace OncePay
