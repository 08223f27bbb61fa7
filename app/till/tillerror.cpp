#include "tillerror.h"

#include <QCoreApplication>

namespace OncePay {

namespace {

struct Words
{
    const char *context = nullptr;
    const char *source = nullptr;
};

// The words of each kind, in the translation context of the part of the till that refuses it
// (QT_TRANSLATE_NOOP: lupdate extracts them with that context; text() translates them).
Words wordsOf(TillError::Kind kind)
{
    using K = TillError::Kind;
    switch (kind) {
    case K::None:
    case K::Storage:
        return {};
    case K::JournalNotOpen:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "The journal is not open.")};
    case K::JournalPathEmpty:
        return {"OncePay::JournalLocation", QT_TRANSLATE_NOOP("OncePay::JournalLocation", "No journal file was given.")};
    case K::JournalPathIsFolder:
        return {"OncePay::JournalLocation", QT_TRANSLATE_NOOP("OncePay::JournalLocation", "%1 is a folder, not a journal file: give a file name, such as %2.")};
    case K::JournalFolderBlocked:
        return {"OncePay::JournalLocation", QT_TRANSLATE_NOOP("OncePay::JournalLocation", "The journal's folder %1 cannot be made: %2 is a file, not a folder.")};
    case K::JournalFolderMissing:
        return {"OncePay::JournalLocation", QT_TRANSLATE_NOOP("OncePay::JournalLocation", "The journal's folder %1 does not exist.")};
    case K::JournalFolderNotCreatable:
        return {"OncePay::JournalLocation", QT_TRANSLATE_NOOP("OncePay::JournalLocation", "The journal's folder %1 cannot be created: %2 is not writable.")};
    case K::JournalFolderNotWritable:
        return {"OncePay::JournalLocation", QT_TRANSLATE_NOOP("OncePay::JournalLocation", "The journal's folder %1 is not writable: the till cannot keep its journal there.")};
    case K::JournalFolderShared:
        return {"OncePay::JournalLocation", QT_TRANSLATE_NOOP("OncePay::JournalLocation", "Other accounts on this computer may write in the journal's folder %1: they could replace the till's journal or read its sales. Make the folder the till's own with the command chmod 700 %1, then start again.")};
    case K::JournalReadOnly:
        return {"OncePay::JournalLocation", QT_TRANSLATE_NOOP("OncePay::JournalLocation", "The journal %1 is read-only: the till needs to write it.")};
    case K::JournalMissing:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "There is no till journal at %1.")};
    case K::JournalLockUnavailable:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "The lock file %1 cannot be created beside the journal: %2")};
    case K::SaveUncertain:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "The till could not tell whether payment %1 was saved: the disk failed while it was written, and the journal closed before it knew. Nothing was sent. When the till starts again its journal knows; look at the sale's payments before taking its money another way.")};
    case K::JournalInUse:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "The till journal %1 is in use by process %2. Close that program first; commands that only read (list, show, export) work beside it.")};
    case K::JournalForeign:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "The file %1 is not a till journal: it belongs to another program. It was left as it is; choose another file with --db.")};
    case K::JournalUnusable:
        return {"OncePay::TillSession", QT_TRANSLATE_NOOP("OncePay::TillSession", "The journal %1 cannot be used, and it was left as it is: %2")};
    case K::BadOrderNumber:
        return {"OncePay::SyncEngine", QT_TRANSLATE_NOOP("OncePay::SyncEngine", "The order number must be 1 to 64 letters, digits, '-' or '_'.")};
    case K::UnsupportedCurrency:
        return {"OncePay::SyncEngine", QT_TRANSLATE_NOOP("OncePay::SyncEngine", "The currency %1 is not supported.")};
    case K::AmountOutOfRange:
        return {"OncePay::SyncEngine", QT_TRANSLATE_NOOP("OncePay::SyncEngine", "The amount must be between %1 and %2.")};
    case K::NotAPaymentKey:
        return {"OncePay::SyncEngine", QT_TRANSLATE_NOOP("OncePay::SyncEngine", "\"%1\" is not the key of a payment.")};
    case K::ReasonTooLong:
        return {"OncePay::SyncEngine", QT_TRANSLATE_NOOP("OncePay::SyncEngine", "The reason may be at most 500 characters long.")};
    case K::OfflineAmountLimit:
        return {"OncePay::OfflineLimits", QT_TRANSLATE_NOOP("OncePay::OfflineLimits", "Offline, card payments above %1 %2 cannot be taken. Ask for another payment method or wait for the connection.")};
    case K::OfflineTotalLimit:
        return {"OncePay::OfflineLimits", QT_TRANSLATE_NOOP("OncePay::OfflineLimits", "Offline, no more than %1 %2 may wait to be sent. Wait for the connection or take another payment method.")};
    case K::OfflineTooLong:
        return {"OncePay::OfflineLimits", QT_TRANSLATE_NOOP("OncePay::OfflineLimits", "Offline for too long: payments have waited more than %1 minutes. Card payments are paused until the connection returns.")};
    case K::VoidWhileOnTheWire:
        return {"OncePay::SyncEngine", QT_TRANSLATE_NOOP("OncePay::SyncEngine", "This payment is on its way to the bank right now, so it cannot be voided. Wait for its outcome; once it is paid, refund it.")};
    case K::VoidRefundWhileOnTheWire:
        return {"OncePay::SyncEngine", QT_TRANSLATE_NOOP("OncePay::SyncEngine", "This refund is on its way to the gateway right now, so it cannot be voided; the till will learn its outcome by itself.")};
    case K::BeingVoided:
        return {"OncePay::SyncEngine", QT_TRANSLATE_NOOP("OncePay::SyncEngine", "It is being voided already.")};
    case K::BeingGivenUp:
        return {"OncePay::SyncEngine", QT_TRANSLATE_NOOP("OncePay::SyncEngine", "It is being given up already.")};
    case K::SaleWasCancelled:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "Sale %1 was cancelled.")};
    case K::SaleAlreadyPaid:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This sale is already paid.")};
    case K::SaleInOtherCurrency:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "Sale %1 is in %2.")};
    case K::CardPartStillOpen:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "A card payment for this sale is still in progress. Wait for it, or choose \"Customer pays another way\".")};
    case K::NothingRemainsWhileCardOpen:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "Nothing remains to be paid for this sale while its card payment is in progress.")};
    case K::AboveSaleRemainder:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "At most %1 remains to be paid for sale %2.")};
    case K::OrderPaymentNeedsAttention:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "A payment for this sale needs attention first.")};
    case K::OrderPaymentInProgress:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "A payment for this sale is still in progress.")};
    case K::GiveUpNotCard:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "Only a card payment can be given up.")};
    case K::GivenUpAlready:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This card payment was given up already.")};
    case K::GiveUpFinal:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This card payment is final already (%1): there is nothing to give up.")};
    case K::GiveUpNotSalePart:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This payment is not a part of a sale; it cannot be given up.")};
    case K::NoPaymentWithKey:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "No payment of this till has the key %1.")};
    case K::RefundOfRefund:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "%1 is a refund; only a payment can be refunded.")};
    case K::RefundCashInCash:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This sale was paid in cash: give the money back from the drawer as a cash refund.")};
    case K::RefundCardToCard:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This payment was made by card: it is refunded to the card, not in cash.")};
    case K::RefundDeclinedPayment:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This payment was declined: nothing was charged, so there is nothing to refund.")};
    case K::RefundVoidedPayment:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This payment was voided before it was sent: nothing was charged, so there is nothing to refund.")};
    case K::RefundUnexecutedPayment:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This payment was never executed (it needs attention): there is nothing to refund.")};
    case K::RefundUnconfirmedPayment:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This payment is not confirmed yet. It can be refunded once the gateway says it is paid.")};
    case K::RefundNoGatewayId:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "The gateway's id of this payment is not known, so it cannot be refunded from the till.")};
    case K::RefundStillOpen:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "A refund of this payment is still in progress (%1). Wait for its outcome before refunding again.")};
    case K::RefundedInFull:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This payment has already been refunded in full.")};
    case K::RefundInOtherCurrency:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "The payment is in %1; its refund must be in %1 too.")};
    case K::RefundOfNothing:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "A refund must give back more than nothing.")};
    case K::AboveRefundRemainder:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "At most %1 of this payment remains to be refunded (paid %2).")};
    case K::NoIntentWithKey:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "No payment or refund of this till has the key %1.")};
    case K::ChangedMeanwhile:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "It changed meanwhile; look at it again.")};
    case K::VoidedAlready:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "It is voided already.")};
    case K::VoidCashRefundFinal:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "A cash refund is final once the money is given back.")};
    case K::VoidCashPaymentFinal:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "A cash payment is final once it is taken; give the money back as a cash refund instead.")};
    case K::VoidRefundMade:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This refund has been made already; it cannot be voided.")};
    case K::VoidPaymentPaid:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This payment is paid already; it cannot be voided, only refunded.")};
    case K::VoidRefundDeclined:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This refund was declined: nothing was given back, there is nothing to void.")};
    case K::VoidPaymentDeclined:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This payment was declined: nothing was charged, there is nothing to void.")};
    case K::VoidRefusedByGateway:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "The gateway refused it without executing it: there is nothing to void.")};
    case K::VoidRefundMayHaveReached:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This refund may have reached the gateway already, so it cannot be voided; the till will learn its outcome by itself.")};
    case K::VoidPaymentMayHaveReached:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "This payment may have reached the bank already, so it cannot be voided. Wait for its outcome; once it is paid, refund it.")};
    case K::VoidRefundEarlierTry:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "An earlier try of this refund may have reached the gateway, so it cannot be voided; the till will learn its outcome by itself.")};
    case K::VoidPaymentEarlierTry:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "An earlier try of this payment may have reached the bank, so it cannot be voided. Wait for its outcome; once it is paid, refund it.")};
    case K::NoSuchSale:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "There is no sale %1.")};
    case K::SaleCancelledAlready:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "Sale %1 is cancelled already.")};
    case K::CancelPaidSale:
        return {"OncePay::IntentJournal", QT_TRANSLATE_NOOP("OncePay::IntentJournal", "Sale %1 is paid; refund it instead of cancelling it.")};
    case K::SaleTotalOutOfRange:
        return {"OncePay::SaleBook", QT_TRANSLATE_NOOP("OncePay::SaleBook", "A sale must cost between %1 and %2.")};
    case K::SalePartlyPaid:
        return {"OncePay::SaleBook", QT_TRANSLATE_NOOP("OncePay::SaleBook", "Sale %1 is partly paid: its items cannot change now.")};
    case K::OldSalesUnreadable:
        return {"OncePay::SaleBook", QT_TRANSLATE_NOOP("OncePay::SaleBook", "The old sales file %1 cannot be read: %2")};
    case K::OldSalesNotRenamed:
        return {"OncePay::SaleBook", QT_TRANSLATE_NOOP("OncePay::SaleBook", "The old sales file %1 was copied but cannot be renamed.")};
    case K::ReceiptNumberMissing:
        return {"OncePay::Ui::SaleLookup", QT_TRANSLATE_NOOP("OncePay::Ui::SaleLookup", "Type or scan the receipt number first.")};
    case K::NotAReceiptNumber:
        return {"OncePay::Ui::SaleLookup", QT_TRANSLATE_NOOP("OncePay::Ui::SaleLookup", "\"%1\" is not a receipt number. Type it as printed on the receipt, e.g. %2.")};
    case K::ReceiptOfOtherTill:
        return {"OncePay::Ui::SaleLookup", QT_TRANSLATE_NOOP("OncePay::Ui::SaleLookup", "Receipt %1 was printed by till %2, not by this till (%3): refund it there.")};
    case K::NoSuchReceipt:
        return {"OncePay::Ui::SaleLookup", QT_TRANSLATE_NOOP("OncePay::Ui::SaleLookup", "No sale of this till has the receipt number %1.")};
    case K::NoSaleWithNumber:
        return {"OncePay::Ui::SaleLookup", QT_TRANSLATE_NOOP("OncePay::Ui::SaleLookup", "No sale of this till has the number %1.")};
    case K::NoPaymentForSale:
        return {"OncePay::Ui::SaleLookup", QT_TRANSLATE_NOOP("OncePay::Ui::SaleLookup", "No payment of this till is for sale %1.")};
    case K::ShiftClosedMeanwhile:
        return {"OncePay::ShiftBook", QT_TRANSLATE_NOOP("OncePay::ShiftBook", "Shift %1 was closed meanwhile; look at the open shift again.")};
    case K::FloatCarriedOver:
        return {"OncePay::ShiftBook", QT_TRANSLATE_NOOP("OncePay::ShiftBook", "Shift %1 opened with the %2 the previous close left in the drawer; only a till's first shift takes an opening float.")};
    case K::FloatOutOfRange:
        return {"OncePay::ShiftBook", QT_TRANSLATE_NOOP("OncePay::ShiftBook", "An opening float must be between 0 and %1.")};
    case K::ShiftStillWaiting:
        return {"OncePay::ShiftBook", QT_TRANSLATE_NOOP("OncePay::ShiftBook", "These still wait for the gateway and were not confirmed: %1.")};
    case K::ShiftRefundsOwed:
        return {"OncePay::ShiftBook", QT_TRANSLATE_NOOP("OncePay::ShiftBook", "The till owes these refunds, which gave nothing back, and they were not confirmed: %1.")};
    case K::ParkPartlyPaid:
        return {"OncePay::ParkedSaleBook", QT_TRANSLATE_NOOP("OncePay::ParkedSaleBook", "%1 of this sale is paid already, and a sale with money taken cannot be parked. Take the rest, or cancel the sale (Ctrl+N) to give the money back.")};
    case K::ParkPaymentWaiting:
        return {"OncePay::ParkedSaleBook", QT_TRANSLATE_NOOP("OncePay::ParkedSaleBook", "A payment of %1 for this sale is still waiting for the bank's answer, so the sale cannot be parked. Wait for the answer, or press F6 if the customer pays another way.")};
    case K::ParkWhileSaving:
        return {"OncePay::ParkedSaleBook", QT_TRANSLATE_NOOP("OncePay::ParkedSaleBook", "A payment of this sale is being saved: park it once that is done.")};
    case K::ParkedSaleGone:
        return {"OncePay::ParkedSaleBook", QT_TRANSLATE_NOOP("OncePay::ParkedSaleBook", "Parked sale %1 is no longer parked: it was recalled or deleted meanwhile.")};
    }
    return {};
}

}   // namespace

QString TillError::text() const
{
    if (m_kind == Kind::Storage)
        return m_detail;
    const Words w = wordsOf(m_kind);
    if (!w.source)
        return {};
    QString words = QCoreApplication::translate(w.context, w.source);
    // All at once, so that a value holding "%2" (a path) is never taken for a place marker. The
    // kinds whose words end with a reason name the system's or the database's own (`detail`) last.
    QStringList values = m_args;
    if (m_kind == Kind::OldSalesUnreadable || m_kind == Kind::JournalLockUnavailable || m_kind == Kind::JournalUnusable)
        values << m_detail;
    switch (values.size()) {
    case 0:
        return words;
    case 1:
        return words.arg(values.at(0));
    case 2:
        return words.arg(values.at(0), values.at(1));
    default:
        return words.arg(values.at(0), values.at(1), values.at(2));
    }
}

QDebug operator<<(QDebug debug, const TillError &error)
{
    const QDebugStateSaver saver(debug);
    debug.nospace() << "TillError(" << error.kind();
    for (const QString &arg : error.args())
        debug << ", " << arg;
    if (!error.detail().isEmpty())
        debug << ", " << error.detail();
    return debug << ')';
}

}   // namespace OncePay
