#pragma once

#include <QDebug>
#include <QObject>
#include <QString>
#include <QStringList>

namespace OncePay {

// Why the till did not do what it was asked: a kind that code and tests compare, and the values
// its words will name (a sale number, a key, an amount as shown). The words are made only where
// they are shown, by text(), in the language of that moment: the journal, the sale and shift
// books and the sync engine never carry a sentence, so no test has to match one.
class TillError
{
    Q_GADGET

public:
    enum class Kind {
        None,
        Storage,   // the journal's database failed: `detail` is the driver's text
        JournalNotOpen,
        JournalPathEmpty,
        JournalPathIsFolder,   // path, a file name in it to suggest
        JournalFolderBlocked,   // the folder, the file that stands where a folder must be
        JournalFolderMissing,   // the folder
        JournalFolderNotCreatable,   // the folder, its nearest existing parent
        JournalFolderNotWritable,   // the folder
        JournalFolderShared,   // the folder, which other accounts may write
        JournalReadOnly,   // path
        JournalMissing,   // path (read-only use of a journal that is not there)
        JournalLockUnavailable,   // the lock file's path; `detail` is the system's reason
        JournalInUse,   // path, the owner's process id
        JournalForeign,   // path: another program's file, left as it is
        JournalUnusable,   // path; `detail` is the database's reason
        SaveUncertain,   // the intent's key: the journal closed before it knew whether it was saved

        // What the engine checks before anything is stored.
        BadOrderNumber,
        UnsupportedCurrency,   // currency
        AmountOutOfRange,   // lowest, highest
        NotAPaymentKey,   // key
        ReasonTooLong,
        OfflineAmountLimit,   // limit, currency
        OfflineTotalLimit,   // limit, currency
        OfflineTooLong,   // minutes
        VoidWhileOnTheWire,   // a payment on its way to the bank right now
        VoidRefundWhileOnTheWire,
        BeingVoided,
        BeingGivenUp,

        // A sale's tenders, and the one-order-one-payment rule (JournalRules::saleRefusal).
        SaleWasCancelled,   // sale number
        SaleAlreadyPaid,
        SaleInOtherCurrency,   // sale number, currency
        CardPartStillOpen,
        NothingRemainsWhileCardOpen,
        AboveSaleRemainder,   // remaining, sale number
        OrderPaymentNeedsAttention,
        OrderPaymentInProgress,

        // Giving up a card part (JournalRules::giveUpRefusal, IntentJournal::giveUp).
        GiveUpNotCard,
        GivenUpAlready,
        GiveUpFinal,   // state
        GiveUpNotSalePart,

        // Refunds (JournalRules::refundRefusal).
        NoPaymentWithKey,   // key
        RefundOfRefund,   // key
        RefundCashInCash,   // a cash payment is given back from the drawer
        RefundCardToCard,   // a card payment goes back to the card
        RefundDeclinedPayment,
        RefundVoidedPayment,
        RefundUnexecutedPayment,
        RefundUnconfirmedPayment,
        RefundNoGatewayId,
        RefundStillOpen,   // the open refund's key
        RefundedInFull,
        RefundInOtherCurrency,   // currency
        RefundOfNothing,
        AboveRefundRemainder,   // remaining, paid

        // Voids (JournalRules::voidRefusal, IntentJournal::voidIntent).
        NoIntentWithKey,   // key
        ChangedMeanwhile,
        VoidedAlready,
        VoidCashRefundFinal,
        VoidCashPaymentFinal,
        VoidRefundMade,
        VoidPaymentPaid,
        VoidRefundDeclined,
        VoidPaymentDeclined,
        VoidRefusedByGateway,
        VoidRefundMayHaveReached,
        VoidPaymentMayHaveReached,
        VoidRefundEarlierTry,
        VoidPaymentEarlierTry,

        // Sales (SaleBook, IntentJournal::cancelSale).
        NoSuchSale,   // order id
        SaleCancelledAlready,   // sale number
        CancelPaidSale,   // sale number
        SaleTotalOutOfRange,   // lowest, highest
        SalePartlyPaid,   // sale number
        OldSalesUnreadable,   // path; `detail` is the reason
        OldSalesNotRenamed,   // path

        // Finding a sale to refund by what the cashier typed or scanned (Ui::SaleLookup).
        ReceiptNumberMissing,
        NotAReceiptNumber,   // what was typed, an example
        ReceiptOfOtherTill,   // receipt, its till, this till
        NoSuchReceipt,   // receipt number
        NoSaleWithNumber,   // sale number
        NoPaymentForSale,   // order id

        // Shifts (ShiftBook).
        ShiftClosedMeanwhile,   // shift number
        FloatCarriedOver,   // shift number, the float carried over
        FloatOutOfRange,   // highest
        ShiftStillWaiting,   // the keys still waiting
        ShiftRefundsOwed,   // the keys of the till's refunds that gave nothing back, not confirmed

        // Parking a sale (ParkedSaleBook, Ui::ParkedSales; issue 36).
        ParkPartlyPaid,   // what is paid of it
        ParkPaymentWaiting,   // the payment that waits for its answer
        ParkWhileSaving,
        ParkedSaleGone,   // the parked sale's number
    };
    Q_ENUM(Kind)

    TillError() = default;
    TillError(Kind kind, QStringList args = {}, QString detail = {})
        : m_kind(kind)
        , m_args(std::move(args))
        , m_detail(std::move(detail))
    {
    }
    // A failure of the store, in the driver's words.
    static TillError storage(const QString &detail) { return {Kind::Storage, {}, detail}; }

    Kind kind() const { return m_kind; }
    bool isError() const { return m_kind != Kind::None; }
    const QStringList &args() const { return m_args; }
    const QString &detail() const { return m_detail; }

    // The words for a person, in the current language. Only where they are shown.
    QString text() const;

    friend bool operator==(const TillError &a, const TillError &b)
    {
        return a.m_kind == b.m_kind && a.m_args == b.m_args && a.m_detail == b.m_detail;
    }

private:
    Kind m_kind = Kind::None;
    QStringList m_args;
    QString m_detail;
};

// For logs: the kind's number and its values, never translated.
QDebug operator<<(QDebug debug, const TillError &error);

}   // namespace OncePay

Q_DECLARE_METATYPE(OncePay::TillError)
