#include "journalrules.h"

#include "journalschema.h"

#include <QCoreApplication>
#include <QSqlQuery>

namespace OncePay::JournalRules {

using namespace JournalSchema;

// The rules speak in IntentJournal's words: its translation context, spelled out for lupdate.
QString saleRefusal(SqlTx &tx, const QString &orderId)
{
    // One sale, one payment: a new intent only when every earlier one was declined or voided
    // (nothing was charged). Refunds of the sale's payment are not payments of it.
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT state FROM intents WHERE order_id = ? AND kind = 'payment'"), {orderId});
    QString refusal;
    while (q.next() && refusal.isEmpty()) {
        const IntentState s = intentStateFromName(q.value(0).toString()).value_or(IntentState::Unknown);
        if (s == IntentState::Succeeded)
            refusal = QCoreApplication::translate("OncePay::IntentJournal", "This sale is already paid.");
        else if (s == IntentState::NeedsAttention)
            refusal = QCoreApplication::translate("OncePay::IntentJournal", "A payment for this sale needs attention first.");
        else if (s != IntentState::Declined && s != IntentState::Voided)
            refusal = QCoreApplication::translate("OncePay::IntentJournal", "A payment for this sale is still in progress.");
    }
    q.finish();
    return refusal;
}

} // namespace OncePay::JournalRules
