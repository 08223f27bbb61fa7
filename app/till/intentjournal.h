#pragma once

#include "intent.h"
#include "journalschema.h"
#include "sqlbatchworker.h"
#include "tillerror.h"

#include <QList>
#include <QMap>
#include <QSet>
#include <QStringList>
#include <QObject>
#include <QPointer>
#include <QHash>

#include <functional>

#include <memory>
#include <optional>

namespace OncePay {

class JournalLock;

// The till's durable memory: intents, the append-only journal of their state changes, and the
// attempts at the gateway. SQLite in WAL mode with synchronous=FULL on a thread of its own;
// every call answers asynchronously on the caller's context, so no UI waits on the disk.
class IntentJournal final : public QObject
{
    Q_OBJECT

public:
    struct Options
    {
        QString path;
        int maxPageCount = 0;   // > 0 bounds the file (a full disk, for tests)
        // Reads only (oncepay-ctl list, show, export): never changes the file, never takes the
        // journal's ownership, so it works beside the till that owns the journal.
        bool readOnly = false;
        // The SQLite VFS the file lives on (the simulator's disk); empty: the real file system.
        // A journal on a simulated disk takes no lock: the simulator runs one till per
        // journal, and the disk has no processes for a lock to keep apart.
        QString sqliteVfs{};   // (initialised: the suites brace-initialise the fields before it)
        // CallerThread: the journal's units run on the thread that opened it, from its event loop
        // (the simulator's one thread; SqlBatchWorker::Options::threading).
        SqlBatchWorker::Options::Threading threading{SqlBatchWorker::Options::Threading::OwnThread};
    };
    explicit IntentJournal(Options options, QObject *parent = nullptr);
    ~IntentJournal() override;

    // Opens (creating or migrating) the file. A file that is not a journal is never replaced:
    // the error says so and the file stays as it was.
    //
    // A journal belongs to one process at a time, whatever path reaches it (JournalLock: an flock
    // on the file itself, which the kernel drops with its process): a second till or oncepay-ctl
    // that would change it is refused with JournalInUse (with the owner's process id), because it
    // would take the owner's live `sending` intents for interrupted ones. Options::readOnly opens
    // beside the owner without changing anything. A journal to change in a folder other accounts
    // may write is refused (JournalFolderShared); a new one is made 0600, its -wal and -shm too.
    bool open(TillError *error);
    void close();
    QString path() const { return m_options.path; }

    // Every answer: ok, or why not (a refusal of the rules, or the store's failure).
    template <typename T>
    using Reply = std::function<void(bool ok, const TillError &error, T value)>;

    // Stores a new intent with its key and its first journal line in one transaction, after
    // checking (in that transaction) that its sale may take a new payment, or, for a refund,
    // that its payment may be refunded by that much (JournalRules::refundRefusal; an amount
    // that is not valid refunds what remains). Nothing may be sent before this answers ok; a
    // refusal is the rule's TillError. A refund stored final (cash) credits its payment.
    void create(const Intent &intent, QObject *context, Reply<Intent> reply);

    // Who works the till now (StaffSession, on sign-in): every intent created and sale opened
    // from here on is stamped with that name, unless it names its own. Empty: a till without
    // staff. Set and read on the journal's owning thread.
    void setActor(const QString &staff) { m_actor = staff; }
    QString actor() const { return m_actor; }
    // A manager's approval of what is created while it lives (a refund, a void): stamped on the
    // intent in the same transaction. Created and destroyed around the call that creates it.
    class Approval final
    {
    public:
        Approval(IntentJournal *journal, const QString &manager)
            : m_journal(journal)
        {
            m_journal->m_approver = manager;
        }
        ~Approval() { m_journal->m_approver.clear(); }
        Approval(const Approval &) = delete;
        Approval &operator=(const Approval &) = delete;

    private:
        IntentJournal *m_journal;
    };
    // What staff did that is no intent: a discount, a void, a manager's approval, a drawer
    // opened, a sign-in. Kept in the journal, never rewritten.
    struct StaffAction
    {
        qint64 at = 0;   // set when written
        QString staff;   // empty: the actor
        QString action;   // "discount", "void", "approve", "sign_in", "lock", "open_drawer"
        QString subject = {};   // the sale number or intent key it was about
        qint64 amount = 0;   // minor units, when it has one
        QString approvedBy = {};
        QString detail = {};
    };
    void recordStaffAction(const StaffAction &action, QObject *context, Reply<bool> reply);
    void staffActions(QObject *context, Reply<QList<StaffAction>> reply);
    // Who signed in last on this till ("" when no one ever did): the name the lock screen offers
    // first, across restarts (issue 36).
    void lastSignIn(QObject *context, Reply<QString> reply);
    // Saves `after` (state and gateway fields) and appends the journal line and the attempt, if
    // the intent is still in state `from` (compare and set). The value says whether it was: false
    // means the intent moved meanwhile and nothing was written; read it again before deciding.
    void update(const Intent &after, IntentState from, const QString &detail, const std::optional<Attempt> &attempt,
        QObject *context, Reply<bool> reply);
    // queued -> voided, compare and set, when no try of the intent may have reached the gateway
    // (JournalRules::voidRefusal). The value is the intent as it is now; on a refusal `error` says
    // why in words and the value is the intent as stored (invalid when there is none).
    void voidIntent(const QString &key, QObject *context, Reply<Intent> reply);
    // A card part of a sale the customer pays another way: voided when `mayVoid` and no try of it
    // may have reached the gateway, else marked given up (still resolved; charged, it is refunded
    // by the till). Refused in words unless it is a card payment of a sale, not final, not given
    // up. The value is the part as it is now.
    void giveUp(const QString &key, bool mayVoid, QObject *context, Reply<Intent> reply);
    // Cancels a sale that is not paid: its open card parts are given up (voided when in `mayVoid`
    // and never sent), its cash parts are handed back (cash refunds, final). Card parts that were
    // charged are then refunded by the till (dueAutoRefunds). The value: the intents it changed.
    void cancelSale(const QString &orderId, const QSet<QString> &mayVoid, QObject *context, Reply<QList<Intent>> reply);
    // The keys of card parts charged that the till must refund by itself (given up, or of a
    // cancelled sale) and whose refund is not stored yet.
    void dueAutoRefunds(QObject *context, Reply<QStringList> reply);
    // Stores that refund (key autoRefundKey(paymentKey), the whole remainder); the one stored
    // already when there is one, so it is made once whoever asks and however often.
    void createAutoRefund(const QString &paymentKey, QObject *context, Reply<Intent> reply);
    // Start-up: intents left in `sending` by a crash become `unknown` (to be asked about first).
    void recoverInterrupted(QObject *context, Reply<int> reply);

    void activeIntents(QObject *context, Reply<QList<Intent>> reply);   // not final
    void find(const QString &key, QObject *context, Reply<Intent> reply);
    struct Query
    {
        std::optional<IntentState> state;
        bool activeOnly = false;
        bool needsAttention = false;   // needsCashierAttention(): needs_attention, or declined late
        QString orderId;
        QString saleNumber;   // the intents of the sale with this short number ("1-000123")
        std::optional<IntentKind> kind;
        QString paymentKey;   // the refunds of this payment
        int limit = 100;
        qint64 offset = 0;
        bool newestFirst = false;
    };
    void list(const Query &query, QObject *context, Reply<QList<Intent>> reply);
    void count(const Query &query, QObject *context, Reply<qint64> reply);
    void attempts(const QString &key, QObject *context, Reply<QList<Attempt>> reply);
    void journal(const QString &key, QObject *context, Reply<QList<JournalEntry>> reply);

    // The customer left with the payment not final yet (the cashier served the next one): noted
    // with a journal line, so that a decline that comes later is raised as an alert.
    void markCustomerLeft(const QString &key, QObject *context, Reply<bool> reply);
    // The cashier saw the alert about a payment that ended badly after the customer left.
    void acknowledge(const QString &key, QObject *context, Reply<bool> reply);
    // Payments of customers who left: not final yet, or declined / needing attention and not
    // acknowledged; and the till's own refunds of card parts charged after the customer paid
    // another way (createAutoRefund), not final yet or ended and not acknowledged. Oldest first.
    void lateOutcomes(QObject *context, Reply<QList<Intent>> reply);

    // Runs `work` in a transaction on the journal's thread and answers on `context`, like every
    // call above: for the journal's other tables (ShiftBook's shifts), whose SQL lives with them.
    template <typename T>
    void transact(QObject *context, std::function<T(SqlTx &)> work, Reply<T> reply)
    {
        if (!m_worker)
            return reply(false, TillError(TillError::Kind::JournalNotOpen), T());
        m_worker->transact<T>(context, std::move(work), [reply = std::move(reply)](bool ok, const QString &error, T value) {
            reply(ok, ok ? TillError() : TillError::storage(error), std::move(value));
        });
    }
    bool isReadOnly() const { return m_options.readOnly; }

    static constexpr int schemaVersion = JournalSchema::version;

signals:
    // A new intent's COMMIT failed in a way that may still have written it: the disk filled, or
    // failed, while the WAL went out (SQLite can then bring the transaction back when the WAL is
    // recovered after a crash). The journal never calls such an intent "not stored": it keeps
    // trying the same key, and answers create() once it knows. Until then nothing is sent.
    void saveUncertain(const QString &key, const QString &orderId);

private:
    // create(), tried again with the same key while a COMMIT may have written it (saveUncertain).
    void storeNew(const Intent &intent, QObject *context, Reply<Intent> reply, int tries);
    void retryUncertain(const QString &key);
    // The creates waiting to be tried again, by key: close() answers them SaveUncertain.
    struct UncertainSave
    {
        Intent intent;
        QPointer<QObject> context;
        Reply<Intent> reply;
        int tries = 0;
    };
    QHash<QString, UncertainSave> m_uncertain;

    Options m_options;
    QString m_actor;
    QString m_approver;
    std::unique_ptr<JournalLock> m_lock;
    std::unique_ptr<SqlBatchWorker> m_worker;
};

}   // namespace OncePay
