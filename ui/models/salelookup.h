#pragma once

#include "intent.h"
#include "tillerror.h"

#include <QCoreApplication>
#include <QString>

#include <functional>
#include <optional>

class QObject;

namespace OncePay {
class IntentJournal;
}

namespace OncePay::Ui {

// Finds the payment a cashier means by what they type or scan at "Refund a sale…": the sale's
// short number, printed on its receipt ("1-000123"), a receipt number of a refund slip or of an
// order stored before sales existed ("till-1-000042": the terminal and the journal's intent id),
// the intent's number alone ("42"), or the sale's order id ("S2026…").
class SaleLookup final
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::Ui::SaleLookup)

public:
    using Found = std::function<void(bool ok, const TillError &error, const Intent &intent)>;

    // The journal's intent id a receipt number of this till names; nullopt and a sentence when
    // it is not one (another till's receipt says which).
    static std::optional<qint64> intentId(const QString &text, const QString &terminal, TillError *error);
    // Whether `text` has the form of a sale's number (CheckoutViewModel's "S20261202-…").
    static bool looksLikeSale(const QString &text);
    // Whether `text` has the form of a sale's short number ("1-000123").
    static bool looksLikeSaleNumber(const QString &text);

    // The intent named (a payment, or a refund: the caller goes to its payment), answered on
    // `context`. A sale's number answers its paid payment, else its latest one.
    static void find(IntentJournal *journal, const QString &text, const QString &terminal, QObject *context, const Found &found);

private:
    static void findReceipt(IntentJournal *journal, const QString &text, const QString &terminal, QObject *context, const Found &found);
};

}   // namespace OncePay::Ui
