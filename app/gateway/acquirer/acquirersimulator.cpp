#include "gateway/acquirer/acquirersimulator.h"
#include "gateway/acquirer/walletledger.h"

#include "timeutil.h"

#include <QAtomicInt>
#include <QPointer>
#include <QSqlQuery>
#include <QTimer>
#include <utility>

namespace OncePay::Gateway {

Q_LOGGING_CATEGORY(lcAcquirer, "oncepay.gateway.acquirer", QtInfoMsg)

namespace {

QAtomicInt g_counter;

enum class TokenOutcome {
    Approve,
    Decline,
    InsufficientFunds,
    TimeoutAfterCharge,
    ErrorBeforeCharge,
    // Wallet payment codes (API.md "Wallet payments"): the customer confirms on the phone later,
    // or never; a code used before, or too old.
    ConfirmLater,
    NeverConfirm,
    CodeExpired,
    Unknown
};

TokenOutcome walletOutcomeOf(QStringView code)
{
    if (Payment::walletBrandOf(code).isEmpty())
        return TokenOutcome::Unknown;
    switch (code.back().unicode()) {
    case '1':
        return TokenOutcome::ConfirmLater;
    case '2':
        return TokenOutcome::NeverConfirm;
    case '3':
        return TokenOutcome::InsufficientFunds;
    case '4':
        return TokenOutcome::CodeExpired;
    default:
        return TokenOutcome::Approve;
    }
}

TokenOutcome outcomeOf(const QString &token)
{
    if (Payment::isWalletMethod(token))
        return walletOutcomeOf(QStringView(token).mid(7));
    if (token == QLatin1String("tok_visa") || token == QLatin1String("tok_mastercard")
        || token == QLatin1String("tok_unionpay"))
        return TokenOutcome::Approve;
    if (token == QLatin1String("tok_chargeDeclined"))
        return TokenOutcome::Decline;
    if (token == QLatin1String("tok_insufficientFunds"))
        return TokenOutcome::InsufficientFunds;
    if (token == QLatin1String("tok_timeoutAfterCharge"))
        return TokenOutcome::TimeoutAfterCharge;
    if (token == QLatin1String("tok_errorBeforeCharge"))
        return TokenOutcome::ErrorBeforeCharge;
    return TokenOutcome::Unknown;
}

// The test card behind each token (the last four of the matching test card numbers). Declined
// cards are known too: the acquirer tells which card it declined.
Card cardOf(const QString &token)
{
    static const struct
    {
        const char *token, *brand, *last4;
    } cards[] = {
        {"tok_visa", "visa", "4242"},
        {"tok_mastercard", "mastercard", "4444"},
        {"tok_unionpay", "unionpay", "0005"},
        {"tok_chargeDeclined", "visa", "0002"},
        {"tok_insufficientFunds", "visa", "9995"},
        {"tok_timeoutAfterCharge", "visa", "0077"},
    };
    for (const auto &c : cards) {
        if (token == QLatin1String(c.token))
            return {QString::fromLatin1(c.brand), QString::fromLatin1(c.last4)};
    }
    return {};
}

void migrate(SqlTx &tx, int from)
{
    if (from < 1) {
        tx.exec(QStringLiteral(
            "CREATE TABLE charges (merchant TEXT NOT NULL, idem_key TEXT NOT NULL, amount INTEGER NOT NULL,"
            " currency TEXT NOT NULL, token TEXT NOT NULL, status TEXT NOT NULL, decline_code TEXT,"
            " created_at INTEGER NOT NULL, PRIMARY KEY (merchant, idem_key)) WITHOUT ROWID"));
    }
    if (from < 2) {
        // v2: the authorization code of an approved charge (charges made before have none).
        tx.exec(QStringLiteral("ALTER TABLE charges ADD COLUMN auth_code TEXT"));
    }
    if (from < 3) {
        // v3: refunds, each with its own key, against a charge of the same merchant.
        tx.exec(QStringLiteral(
            "CREATE TABLE refunds (merchant TEXT NOT NULL, idem_key TEXT NOT NULL, charge_key TEXT NOT NULL,"
            " amount INTEGER NOT NULL, currency TEXT NOT NULL, status TEXT NOT NULL, decline_code TEXT,"
            " created_at INTEGER NOT NULL, PRIMARY KEY (merchant, idem_key)) WITHOUT ROWID"));
        tx.exec(QStringLiteral("CREATE INDEX refunds_by_charge ON refunds (merchant, charge_key)"));
    }
    if (from < 4) {
        // v4: a real acquirer forgets idempotency keys after a window (--acquirer-key-memory): a
        // key it forgot charges or refunds again, a row of its own, so the ledger shows it.
        const char *rebuild[] = {
            "CREATE TABLE charges_v4 (seq INTEGER PRIMARY KEY AUTOINCREMENT, merchant TEXT NOT NULL,"
            " idem_key TEXT NOT NULL, amount INTEGER NOT NULL, currency TEXT NOT NULL, token TEXT NOT NULL,"
            " status TEXT NOT NULL, decline_code TEXT, created_at INTEGER NOT NULL, auth_code TEXT)",
            "INSERT INTO charges_v4 (merchant, idem_key, amount, currency, token, status, decline_code, created_at,"
            " auth_code) SELECT merchant, idem_key, amount, currency, token, status, decline_code, created_at,"
            " auth_code FROM charges ORDER BY created_at",
            "DROP TABLE charges",
            "ALTER TABLE charges_v4 RENAME TO charges",
            "CREATE INDEX charges_by_key ON charges (merchant, idem_key, seq)",
            "CREATE TABLE refunds_v4 (seq INTEGER PRIMARY KEY AUTOINCREMENT, merchant TEXT NOT NULL,"
            " idem_key TEXT NOT NULL, charge_key TEXT NOT NULL, amount INTEGER NOT NULL, currency TEXT NOT NULL,"
            " status TEXT NOT NULL, decline_code TEXT, created_at INTEGER NOT NULL)",
            "INSERT INTO refunds_v4 (merchant, idem_key, charge_key, amount, currency, status, decline_code,"
            " created_at) SELECT merchant, idem_key, charge_key, amount, currency, status, decline_code, created_at"
            " FROM refunds ORDER BY created_at",
            "DROP TABLE refunds",
            "ALTER TABLE refunds_v4 RENAME TO refunds",
            "CREATE INDEX refunds_by_key ON refunds (merchant, idem_key, seq)",
            "CREATE INDEX refunds_by_charge ON refunds (merchant, charge_key)",
        };
        for (const char *sql : rebuild)
            tx.exec(QString::fromLatin1(sql));
    }
    if (from < 5) {
        // v5: wallet payments. A charge waits for the customer's confirmation (status
        // processing, confirmed at confirm_at, never when null); a reversal gives a payment up
        // by its key, once, and a charge arriving after it is never made.
        tx.exec(QStringLiteral("ALTER TABLE charges ADD COLUMN confirm_at INTEGER"));
        tx.exec(QStringLiteral("CREATE INDEX charges_waiting ON charges (confirm_at) WHERE status = 'processing'"));
        tx.exec(QStringLiteral("CREATE INDEX charges_by_token ON charges (token)"));
        tx.exec(QStringLiteral(
            "CREATE TABLE reversals (merchant TEXT NOT NULL, idem_key TEXT NOT NULL, created_at INTEGER NOT NULL,"
            " PRIMARY KEY (merchant, idem_key)) WITHOUT ROWID"));
    }
    if (from < 6) {
        // v6: every wallet payment code ever presented, whatever became of its charge. A charge
        // given up before the customer confirmed leaves no row in charges, and its code must
        // still never pay again (issue 35).
        tx.exec(QStringLiteral("CREATE TABLE wallet_codes (code TEXT NOT NULL PRIMARY KEY, merchant TEXT NOT NULL,"
                               " idem_key TEXT NOT NULL, created_at INTEGER NOT NULL) WITHOUT ROWID"));
        tx.exec(QStringLiteral("INSERT INTO wallet_codes (code, merchant, idem_key, created_at) SELECT token,"
                               " MIN(merchant), MIN(idem_key), MIN(created_at) FROM charges WHERE token LIKE 'wallet:%'"
                               " GROUP BY token"));
    }
}

// The row of a key the acquirer still remembers: the newest, and only within its key memory
// (0: forever). Binds: merchant, key, memory, oldest remembered creation time.
const QString kRemembered = QStringLiteral(
    " WHERE merchant = ? AND idem_key = ? AND (? = 0 OR created_at >= ?) ORDER BY seq DESC LIMIT 1");

// A refund row (status, decline_code) as an answer.
AcquirerAnswer refundAnswerFromRow(const QSqlQuery &q)
{
    if (q.value(0).toString() == QLatin1String("succeeded"))
        return {AcquirerAnswer::Kind::Approved, {}, {}};
    return {AcquirerAnswer::Kind::Declined, q.value(1).toString(), {}};
}

// The last three: what the charge was asked for, to tell a retry from another request with its key.
const QString kChargeColumns = QStringLiteral("status, decline_code, token, auth_code, amount, currency");

// An answer from a row read with kChargeColumns.
AcquirerAnswer answerFromRow(const QSqlQuery &q)
{
    AcquirerAnswer a;
    a.card = cardOf(q.value(2).toString());
    const QString status = q.value(0).toString();
    if (status == QLatin1String("succeeded")) {
        a.kind = AcquirerAnswer::Kind::Approved;
        a.authorizationCode = q.value(3).toString();
    } else if (status == QLatin1String("processing")) {
        a.kind = AcquirerAnswer::Kind::Pending;
    } else if (status == QLatin1String("reversed")) {
        a.kind = AcquirerAnswer::Kind::Reversed;
    } else {
        a.kind = AcquirerAnswer::Kind::Declined;
        a.declineCode = q.value(1).toString();
    }
    return a;
}

}   // namespace

AcquirerSimulator::AcquirerSimulator(const QString &ledgerPath, qint64 keyMemoryMs, QObject *parent)
    : Acquirer(parent)
    , m_path(ledgerPath)
    , m_keyMemoryMs(qMax<qint64>(0, keyMemoryMs))
{
}

QVariantList AcquirerSimulator::remembered(const QString &merchant, const QString &key) const
{
    return {merchant, key, m_keyMemoryMs, nowMs() - m_keyMemoryMs};
}

AcquirerSimulator::~AcquirerSimulator()
{
    close();
}

void AcquirerSimulator::placeLedger(const QString &sqliteVfs, SqlBatchWorker::Options::Threading threading)
{
    m_sqliteVfs = sqliteVfs;
    m_threading = threading;
}

bool AcquirerSimulator::open(QString *error)
{
    SqlBatchWorker::Options o;
    o.path = m_path;
    o.sqliteVfs = m_sqliteVfs;
    o.threading = m_threading;
    o.connectionName = QStringLiteral("oncepay-acquirer-%1").arg(g_counter.fetchAndAddRelaxed(1));
    o.schemaVersion = 6;
    o.migrate = migrate;
    o.checkpointIntervalMs = 200;
    m_worker = std::make_unique<SqlBatchWorker>(o);
    if (!m_worker->start(error)) {
        m_worker.reset();
        return false;
    }
    return true;
}

void AcquirerSimulator::close()
{
    if (m_worker)
        m_worker->stop();
    m_worker.reset();
}

bool AcquirerSimulator::isKnownToken(const QString &token)
{
    return outcomeOf(token) != TokenOutcome::Unknown;
}

bool AcquirerSimulator::losesAnswer(const ChargeRequest &request) const
{
    return outcomeOf(request.token) == TokenOutcome::TimeoutAfterCharge
        || m_simulation.value(request.merchant).mode == Mode::TimeoutAfterCharge;
}

bool AcquirerSimulator::losesRefundAnswer(const QString &merchant) const
{
    return m_simulation.value(merchant).mode == Mode::TimeoutAfterCharge;
}

void AcquirerSimulator::simulation(const QString &merchant, QObject *context, SimulationCallback done)
{
    const SimulationState state = m_simulation.value(merchant);
    QMetaObject::invokeMethod(
        context, [state, done = std::move(done)] {
            done(true, state);
        },
        Qt::QueuedConnection);
}

void AcquirerSimulator::setSimulation(const QString &merchant, const SimulationState &state, QObject *context,
    SimulationCallback done)
{
    SimulationState s = state;
    s.latencyMs = qMax(0, s.latencyMs);
    s.walletConfirmMs = qMax(0, s.walletConfirmMs);
    m_simulation.insert(merchant, s);
    qCInfo(lcAcquirer) << "merchant" << merchant << "simulation mode" << SimulationState::modeName(s.mode)
                       << "latency" << s.latencyMs << "ms, wallet confirmation after" << s.walletConfirmMs << "ms";
    QMetaObject::invokeMethod(
        context, [s, done = std::move(done)] {
            done(true, s);
        },
        Qt::QueuedConnection);
}

void AcquirerSimulator::afterLatency(const QString &merchant, QObject *context,
    std::function<void(Mode, QObject *)> work)
{
    // The mode when the request arrived decides, not when it runs.
    const SimulationState state = m_simulation.value(merchant);
    const Mode mode = state.mode;
    if (state.latencyMs <= 0) {
        work(mode, context);
        return;
    }
    QPointer<QObject> guard(context);
    QTimer::singleShot(state.latencyMs, this, [mode, guard, work = std::move(work)] {
        if (guard)
            work(mode, guard);
    });
}

void AcquirerSimulator::charge(const ChargeRequest &request, QObject *context, AnswerCallback done)
{
    const int confirmMs = m_simulation.value(request.merchant).walletConfirmMs;
    afterLatency(request.merchant, context, [this, request, confirmMs, done = std::move(done)](Mode mode, QObject *ctx) {
        execute(request, mode, confirmMs, ctx, done);
    });
}

void AcquirerSimulator::reverse(const QString &merchant, const QString &key, QObject *context, AnswerCallback done)
{
    afterLatency(merchant, context, [this, merchant, key, done = std::move(done)](Mode mode, QObject *ctx) {
        executeReversal(merchant, key, mode, ctx, done);
    });
}

void AcquirerSimulator::executeReversal(const QString &merchant, const QString &key, Mode mode, QObject *context,
    AnswerCallback done)
{
    if (!m_worker) {
        done({AcquirerAnswer::Kind::Refused, {}, QStringLiteral("acquirer ledger closed")});
        return;
    }
    m_worker->transact<AcquirerAnswer>(
        context, [merchant, key, mode, now = nowMs()](SqlTx &tx) {
            return WalletLedger::reverse(tx, merchant, key, mode, now);
        },
        [done = std::move(done)](bool ok, const QString &error, AcquirerAnswer a) {
            done(ok ? std::move(a) : AcquirerAnswer{AcquirerAnswer::Kind::AnswerLost, {}, error});
        });
}

void AcquirerSimulator::refund(const RefundCall &call, QObject *context, AnswerCallback done)
{
    afterLatency(call.merchant, context, [this, call, done = std::move(done)](Mode mode, QObject *ctx) {
        executeRefund(call, mode, ctx, done);
    });
}

void AcquirerSimulator::executeRefund(const RefundCall &rq, Mode mode, QObject *context, AnswerCallback done)
{
    if (!m_worker) {
        done({AcquirerAnswer::Kind::Refused, {}, QStringLiteral("acquirer ledger closed")});
        return;
    }
    m_worker->transact<AcquirerAnswer>(
        context, [rq, mode, key = remembered(rq.merchant, rq.key)](SqlTx &tx) {
            WalletLedger::confirmDue(tx);
            // Idempotent by key: a refund key it remembers answers what it answered then, to the
            // same request only; with another amount or charge it is refused, nothing moves.
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT status, decline_code, amount, charge_key, currency FROM refunds")
                    + kRemembered,
                key);
            if (q.next()) {
                const bool same = q.value(2).toLongLong() == rq.amount && q.value(3).toString() == rq.chargeKey
                    && q.value(4).toString() == rq.currency;
                AcquirerAnswer a = same ? refundAnswerFromRow(q)
                                        : AcquirerAnswer::conflict("key_reused", "the refund key was used with another request");
                q.finish();
                return a;
            }
            q.finish();
            if (mode == Mode::ErrorBeforeCharge)
                return AcquirerAnswer{AcquirerAnswer::Kind::Refused, {}, QStringLiteral("the acquirer refused the request")};
            // The bank's own bound: only a succeeded charge of this merchant, never more than it in total.
            QString code;
            QSqlQuery &c = tx.exec(QStringLiteral(
                                       "SELECT amount, status, (SELECT IFNULL(SUM(amount), 0) FROM refunds r WHERE r.merchant = c.merchant"
                                       " AND r.charge_key = c.idem_key AND r.status = 'succeeded'), currency FROM charges c"
                                       " WHERE c.merchant = ? AND c.idem_key = ? ORDER BY c.seq DESC LIMIT 1"),
                {rq.merchant, rq.chargeKey});
            const bool found = c.next();
            if (found && c.value(1).toString() == QLatin1String("reversed")) {
                // Given back whole by a reversal already: nothing moves, nothing is recorded.
                c.finish();
                return AcquirerAnswer::conflict("charge_reversed", "the charge was reversed: it cannot be refunded");
            }
            if (!found || c.value(1).toString() != QLatin1String("succeeded"))
                code = QStringLiteral("charge_not_found");
            else if (c.value(3).toString() != rq.currency)   // money goes back in the money it came in
                code = QStringLiteral("currency_mismatch");
            else if (c.value(2).toLongLong() + rq.amount > c.value(0).toLongLong())
                code = QStringLiteral("amount_exceeds_charge");
            else if (mode == Mode::DeclineAll)
                code = QStringLiteral("refund_declined");
            c.finish();
            const QVariant nullText{QMetaType(QMetaType::QString)};
            tx.exec(QStringLiteral(
                        "INSERT INTO refunds (merchant, idem_key, charge_key, amount, currency, status, decline_code, created_at)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
                {rq.merchant, rq.key, rq.chargeKey, rq.amount, rq.currency,
                    code.isEmpty() ? QStringLiteral("succeeded") : QStringLiteral("declined"),
                    code.isEmpty() ? nullText : QVariant(code), nowMs()});
            if (mode == Mode::TimeoutAfterCharge)
                return AcquirerAnswer{AcquirerAnswer::Kind::AnswerLost, {}, QStringLiteral("the acquirer's answer was lost")};
            if (!code.isEmpty())
                return AcquirerAnswer{AcquirerAnswer::Kind::Declined, code, {}};
            return AcquirerAnswer{AcquirerAnswer::Kind::Approved, {}, {}};
        },
        [done = std::move(done)](bool ok, const QString &error, AcquirerAnswer a) {
            done(ok ? std::move(a) : AcquirerAnswer{AcquirerAnswer::Kind::AnswerLost, {}, error});
        });
}

void AcquirerSimulator::lookupRefund(const QString &merchant, const QString &key, QObject *context, AnswerCallback done)
{
    if (!m_worker) {
        done({AcquirerAnswer::Kind::AnswerLost, {}, QStringLiteral("acquirer ledger closed")});
        return;
    }
    m_worker->transact<AcquirerAnswer>(
        context, [key = remembered(merchant, key)](SqlTx &tx) {
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT status, decline_code FROM refunds") + kRemembered, key);
            AcquirerAnswer a{AcquirerAnswer::Kind::NotFound, {}, {}};
            if (q.next())
                a = refundAnswerFromRow(q);
            q.finish();
            return a;
        },
        [done = std::move(done)](bool ok, const QString &error, AcquirerAnswer a) {
            done(ok ? std::move(a) : AcquirerAnswer{AcquirerAnswer::Kind::AnswerLost, {}, error});
        });
}

void AcquirerSimulator::refundLedger(const QString &merchant, const QString &chargeKey, QObject *context,
    RefundLedgerCallback done)
{
    if (!m_worker) {
        done(false, {});
        return;
    }
    m_worker->transact<QList<RefundLedgerEntry>>(
        context, [merchant, chargeKey](SqlTx &tx) {
            QSqlQuery &q = tx.exec(QStringLiteral(
                                       "SELECT idem_key, charge_key, amount, currency, status, decline_code, created_at FROM refunds"
                                       " WHERE merchant = ? AND (IFNULL(?, '') = '' OR charge_key = ?) ORDER BY created_at, seq LIMIT 1000"),
                {merchant, chargeKey, chargeKey});
            QList<RefundLedgerEntry> out;
            while (q.next())
                out.append({q.value(0).toString(), q.value(1).toString(), q.value(2).toLongLong(), q.value(3).toString(),
                    q.value(4).toString(), q.value(5).toString(), q.value(6).toLongLong()});
            q.finish();
            return out;
        },
        [done = std::move(done)](bool ok, const QString &, const QList<RefundLedgerEntry> &list) {
            done(ok, list);
        });
}

void AcquirerSimulator::execute(const ChargeRequest &rq, Mode mode, int confirmMs, QObject *context,
    AnswerCallback done)
{
    TokenOutcome outcome = outcomeOf(rq.token);
    if (mode == Mode::DeclineAll)
        outcome = TokenOutcome::Decline;
    else if (mode == Mode::TimeoutAfterCharge)
        outcome = TokenOutcome::TimeoutAfterCharge;
    else if (mode == Mode::ErrorBeforeCharge)
        outcome = TokenOutcome::ErrorBeforeCharge;

    if (!m_worker) {
        done({AcquirerAnswer::Kind::Refused, {}, QStringLiteral("acquirer ledger closed")});
        return;
    }
    struct Result
    {
        AcquirerAnswer answer;
    };
    m_worker->transact<Result>(
        context, [rq, presented = outcome, confirmMs, key = remembered(rq.merchant, rq.key)](SqlTx &tx) {
            TokenOutcome outcome = presented;
            WalletLedger::confirmDue(tx);
            // Idempotent by key: a key it remembers answers what it answered then, to the same
            // request only (a retry after a lost answer); with another amount, currency or
            // payment method it is refused, nothing moves, and the first stays as it was.
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM charges").arg(kChargeColumns) + kRemembered, key);
            if (q.next()) {
                const bool same = q.value(2).toString() == rq.token && q.value(4).toLongLong() == rq.amount
                    && q.value(5).toString() == rq.currency;
                Result r{same ? answerFromRow(q) : AcquirerAnswer::conflict("key_reused", "the key was used with another request")};
                q.finish();
                return r;
            }
            q.finish();
            const bool wallet = Payment::isWalletMethod(rq.token);
            // Given up before this charge arrived (it was on its way when the reversal passed it):
            // never made, and its code was shown all the same.
            if (WalletLedger::isReversed(tx, rq.merchant, rq.key)) {
                if (wallet)
                    WalletLedger::firstPresentation(tx, rq, nowMs());
                return Result{{AcquirerAnswer::Kind::Reversed, {}, {}}};
            }
            if (outcome == TokenOutcome::ErrorBeforeCharge || outcome == TokenOutcome::Unknown)
                return Result{{AcquirerAnswer::Kind::Refused, {}, QStringLiteral("the acquirer refused the request")}};
            const qint64 now = nowMs();
            if (wallet && !WalletLedger::firstPresentation(tx, rq, now))
                outcome = TokenOutcome::CodeExpired;
            QString status = QStringLiteral("succeeded");
            QString code;
            QVariant confirmAt{QMetaType(QMetaType::LongLong)};
            if (outcome == TokenOutcome::Decline) {
                status = QStringLiteral("declined");
                code = wallet ? QStringLiteral("wallet_declined") : QStringLiteral("card_declined");
            } else if (outcome == TokenOutcome::InsufficientFunds) {
                status = QStringLiteral("declined");
                code = QStringLiteral("insufficient_funds");
            } else if (outcome == TokenOutcome::CodeExpired) {
                status = QStringLiteral("declined");
                code = QStringLiteral("code_expired");
            } else if (outcome == TokenOutcome::ConfirmLater || outcome == TokenOutcome::NeverConfirm) {
                status = QStringLiteral("processing");
                if (outcome == TokenOutcome::ConfirmLater)
                    confirmAt = now + confirmMs;
            }
            const bool approved = status == QLatin1String("succeeded");
            const QString authCode = approved ? WalletLedger::newAuthorizationCode() : QString();
            const QVariant nullText{QMetaType(QMetaType::QString)};
            tx.exec(QStringLiteral(
                        "INSERT INTO charges (merchant, idem_key, amount, currency, token, status, decline_code, created_at,"
                        " auth_code, confirm_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                {rq.merchant, rq.key, rq.amount, rq.currency, rq.token, status,
                    code.isEmpty() ? nullText : QVariant(code), now, authCode.isEmpty() ? nullText : QVariant(authCode),
                    confirmAt});
            if (outcome == TokenOutcome::TimeoutAfterCharge)
                return Result{{AcquirerAnswer::Kind::AnswerLost, {}, QStringLiteral("the acquirer's answer was lost")}};
            if (status == QLatin1String("processing"))
                return Result{{AcquirerAnswer::Kind::Pending, {}, {}}};
            AcquirerAnswer a{approved ? AcquirerAnswer::Kind::Approved : AcquirerAnswer::Kind::Declined, code, {}};
            a.card = cardOf(rq.token);
            a.authorizationCode = authCode;
            return Result{a};
        },
        [done = std::move(done)](bool ok, const QString &error, const Result &r) {
            // The ledger could not commit: from the caller's side the bank did not answer.
            done(ok ? r.answer : AcquirerAnswer{AcquirerAnswer::Kind::AnswerLost, {}, error});
        });
}

void AcquirerSimulator::lookup(const QString &merchant, const QString &key, QObject *context, AnswerCallback done)
{
    if (!m_worker) {
        done({AcquirerAnswer::Kind::AnswerLost, {}, QStringLiteral("acquirer ledger closed")});
        return;
    }
    m_worker->transact<AcquirerAnswer>(
        context, [merchant, key, binds = remembered(merchant, key)](SqlTx &tx) {
            WalletLedger::confirmDue(tx);
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM charges").arg(kChargeColumns) + kRemembered, binds);
            AcquirerAnswer a{AcquirerAnswer::Kind::NotFound, {}, {}};
            if (q.next())
                a = answerFromRow(q);
            q.finish();
            if (a.kind == AcquirerAnswer::Kind::NotFound && WalletLedger::isReversed(tx, merchant, key))
                a = AcquirerAnswer{AcquirerAnswer::Kind::Reversed, {}, {}};   // given up before any charge
            return a;
        },
        [done = std::move(done)](bool ok, const QString &error, AcquirerAnswer a) {
            done(ok ? std::move(a) : AcquirerAnswer{AcquirerAnswer::Kind::AnswerLost, {}, error});
        });
}

void AcquirerSimulator::ledger(const QString &merchant, const QString &key, QObject *context, LedgerCallback done)
{
    if (!m_worker) {
        done(false, {});
        return;
    }
    m_worker->transact<QList<LedgerEntry>>(
        context, [merchant, key](SqlTx &tx) {
            WalletLedger::confirmDue(tx);
            QSqlQuery &q = tx.exec(QStringLiteral(
                                       "SELECT idem_key, amount, currency, status, decline_code, created_at, token, auth_code FROM charges"
                                       " WHERE merchant = ? AND (IFNULL(?, '') = '' OR idem_key = ?) ORDER BY created_at, seq LIMIT 1000"),
                {merchant, key, key});
            QList<LedgerEntry> out;
            while (q.next())
                out.append({q.value(0).toString(), q.value(1).toLongLong(), q.value(2).toString(),
                    q.value(3).toString(), q.value(4).toString(), q.value(5).toLongLong(),
                    cardOf(q.value(6).toString()), q.value(7).toString()});
            q.finish();
            return out;
        },
        [done = std::move(done)](bool ok, const QString &, const QList<LedgerEntry> &list) {
            done(ok, list);
        });
}

}   // namespace OncePay::Gateway
