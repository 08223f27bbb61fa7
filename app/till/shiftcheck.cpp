#include "shiftcheck.h"

#include "oncontext.h"
#include "timeutil.h"

#include <QJsonArray>
#include <QLoggingCategory>
#include <QSet>
#include <QUrl>

#include <algorithm>

namespace OncePay {

Q_LOGGING_CATEGORY(lcShift, "oncepay.till.shift")

namespace {

// The acquirer answers at most this many ledger rows at once (docs/api.md): a full page may
// leave rows out, and then the bank is asked key by key.
constexpr int kLedgerCap = 1000;

QString encoded(const QString &value)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(value));
}

void addMoves(QHash<QString, BankMoves> &ledger, const QJsonArray &rows)
{
    for (const QJsonValue &v : rows) {
        const QJsonObject row = v.toObject();
        if (row.value(QStringLiteral("status")).toString() != QLatin1String("succeeded"))
            continue;
        BankMoves &m = ledger[row.value(QStringLiteral("idempotency_key")).toString()];
        ++m.succeeded;
        m.amount += row.value(QStringLiteral("amount")).toInteger();
    }
}

}   // namespace

struct ShiftCheck::Run
{
    ShiftBook::Snapshot snapshot;
    Done done;   // onContext: dropped if the caller's context is gone
    QElapsedTimer timer;
    Result result;
    ShiftMatchInput input;
    QSet<QString> ownKeys;   // the shift's intents and those carried over
    QSet<QString> refundedKeys;   // payments of earlier shifts that this one refunds
    QString cursor;
    int unreachable = 0;
    int pending = 0;   // requests of the current step still out
    QString error;   // the first failure of a step with several requests
    QStringList bankQueue;   // keys still to ask the bank about, one by one
    QHash<QString, BankMoves> ledger;
};

bool ShiftCheck::Result::allAgree() const
{
    return std::none_of(findings.cbegin(), findings.cend(), [](const ShiftFinding &f) {
        return f.needsAction();
    });
}

QJsonObject ShiftCheck::Result::toJson() const
{
    QJsonArray rows;
    for (const ShiftFinding &f : findings)
        rows.append(f.toJson());
    return {{QStringLiteral("terminal_id"), terminalId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(terminalId)},
        {QStringLiteral("pages"), pages},
        {QStringLiteral("listed"), listed},
        {QStringLiteral("bank"), bankAsked},
        {QStringLiteral("elapsed_ms"), elapsedMs},
        {QStringLiteral("at"), finishedAt > 0 ? QJsonValue(toRfc3339(finishedAt)) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("all_agree"), allAgree()},
        {QStringLiteral("counts"), shiftFindingCounts(findings)},
        {QStringLiteral("rows"), rows}};
}

ShiftCheck::ShiftCheck(GatewayClient *client, ShiftBook *book, Options options, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_book(book)
    , m_options(std::move(options))
{
}

ShiftCheck::~ShiftCheck() = default;

void ShiftCheck::run(const ShiftBook::Snapshot &snapshot, QObject *context, Done done)
{
    if (m_run) {
        // A second run while one is out: the first one's answer is dropped, this one starts over.
        ++m_generation;
    }
    m_run = std::make_unique<Run>();
    m_run->snapshot = snapshot;
    m_run->done = onContext(context, std::move(done));
    m_run->timer.start();
    m_run->input.intents = snapshot.intents + snapshot.carriedOver;
    m_run->input.refundedPayments = snapshot.refundedPayments;
    for (const Intent &i : std::as_const(m_run->input.intents))
        m_run->ownKeys.insert(i.key);
    for (const Intent &i : snapshot.refundedPayments)
        m_run->refundedKeys.insert(i.key);
    learnTerminal();
}

GatewayClient::Callback ShiftCheck::step(std::function<void(const GatewayResult &)> next)
{
    return [this, generation = m_generation, next = std::move(next)](const GatewayResult &r) {
        if (generation != m_generation || !m_run)
            return;   // the run failed or was started again meanwhile
        next(r);
    };
}

void ShiftCheck::learnTerminal()
{
    // The gateway names the terminal of a payment the shift made: the token's own terminal, whatever
    // the till's settings call it.
    for (const Intent &i : std::as_const(m_run->input.intents)) {
        if (i.isRefund() || i.isCash() || i.paymentId.isEmpty())
            continue;
        m_client->getPayment(i.paymentId, this, step([this](const GatewayResult &r) {
            if (!r.answered())
                return fail(r.summary());
            const QString terminal = r.json.value(QStringLiteral("terminal_id")).toString();
            m_run->result.terminalId = terminal.isEmpty() ? m_options.terminalId : terminal;
            listPage();
        }));
        return;
    }
    m_run->result.terminalId = m_options.terminalId;
    listPage();
}

void ShiftCheck::listPage()
{
    const ShiftBook::Snapshot &s = m_run->snapshot;
    const qint64 from = s.previousClosedAt > 0 ? s.previousClosedAt : s.openedAt;
    GatewayClient::ListQuery q;
    q.terminalId = m_run->result.terminalId;
    q.createdAfterMs = from > 0 ? qMax<qint64>(1, from - m_options.clockMarginMs) : 0;
    q.cursor = m_run->cursor;
    q.limit = m_options.pageSize;
    m_client->listPayments(q, this, step([this](const GatewayResult &r) {
        // A read: asked again of the next instance when this one cannot be reached.
        if (GatewayClient::isUnreachable(r) && ++m_run->unreachable < m_client->gatewayCount())
            return listPage();
        m_run->unreachable = 0;
        if (!r.answered() || r.status != 200)
            return fail(r.summary());
        const GatewayPaymentPage page = GatewayPaymentPage::fromJson(r.json);
        m_run->input.payments += page.payments;
        ++m_run->result.pages;
        m_run->result.listed += int(page.payments.size());
        m_run->cursor = page.nextCursor;
        if (m_run->cursor.isEmpty())
            fetchRefunds();
        else
            listPage();
    }));
}

void ShiftCheck::fetchRefunds()
{
    QSet<QString> listed;
    for (const GatewayPayment &p : std::as_const(m_run->input.payments))
        listed.insert(p.idempotencyKey);
    QList<QPair<QString, QString>> refunded;   // (payment id, payment key)
    QSet<QString> ids;
    for (const Intent &i : std::as_const(m_run->input.intents)) {
        if (i.isRefund() && !i.isCash() && !i.paymentId.isEmpty() && !ids.contains(i.paymentId)) {
            ids.insert(i.paymentId);
            refunded.append({i.paymentId, i.paymentKey});
        }
    }
    if (refunded.isEmpty())
        return dropEarlier();
    auto settle = [this] {
        if (--m_run->pending > 0)
            return;
        if (!m_run->error.isEmpty())
            return fail(m_run->error);
        dropEarlier();
    };
    for (const auto &[id, key] : std::as_const(refunded)) {
        ++m_run->pending;
        m_client->listRefunds(id, this, step([this, settle](const GatewayResult &r) {
            if (r.answered() && r.status == 200) {
                const QJsonArray data = r.json.value(QStringLiteral("data")).toArray();
                for (const QJsonValue &v : data)
                    m_run->input.refunds.append(GatewayRefund::fromJson(v.toObject()));
            } else if (m_run->error.isEmpty()) {
                m_run->error = r.summary();
            }
            settle();
        }));
        if (listed.contains(key))
            continue;
        // A payment of an earlier shift: its refunded amount is checked against its own record.
        ++m_run->pending;
        m_client->getPayment(id, this, step([this, settle](const GatewayResult &r) {
            if (r.answered() && r.status == 200)
                m_run->input.otherPayments.append(GatewayPayment::fromJson(r.json));
            else if (m_run->error.isEmpty())
                m_run->error = r.summary();
            settle();
        }));
    }
}

void ShiftCheck::dropEarlier()
{
    QStringList unknown;
    for (const GatewayPayment &p : std::as_const(m_run->input.payments)) {
        if (!m_run->ownKeys.contains(p.idempotencyKey))
            unknown << p.idempotencyKey;
    }
    for (const GatewayRefund &r : std::as_const(m_run->input.refunds)) {
        if (!m_run->ownKeys.contains(r.idempotencyKey))
            unknown << r.idempotencyKey;
    }
    // Found only on the gateway at the previous close and listed again within the clock margin:
    // reported then, not again.
    const QSet<QString> &reported = m_run->snapshot.reportedBefore;
    m_run->input.payments.removeIf([&](const GatewayPayment &p) {
        return reported.contains(p.idempotencyKey);
    });
    m_run->input.refunds.removeIf([&](const GatewayRefund &r) {
        return reported.contains(r.idempotencyKey);
    });
    unknown.removeIf([&](const QString &key) {
        return reported.contains(key);
    });
    if (unknown.isEmpty())
        return askBank();
    const quint64 generation = m_generation;
    m_book->earlierKeys(unknown, m_run->snapshot.firstIntentId - 1, this,
        [this, generation](bool ok, const TillError &error, QSet<QString> earlier) {
            if (generation != m_generation || !m_run)
                return;
            if (!ok)
                return fail(error.text());
            ShiftMatchInput &in = m_run->input;
            QList<GatewayPayment> kept;
            for (const GatewayPayment &p : std::as_const(in.payments)) {
                if (!earlier.contains(p.idempotencyKey))
                    kept.append(p);
                else if (m_run->refundedKeys.contains(p.idempotencyKey))
                    in.otherPayments.append(p);   // refunded in this shift: its refunded amount is checked
            }
            in.payments = kept;
            in.refunds.removeIf([&](const GatewayRefund &r) {
                return earlier.contains(r.idempotencyKey);
            });
            askBank();
        });
}

void ShiftCheck::askBank()
{
    if (!m_options.askBank)
        return finish();
    m_client->send("GET", QStringLiteral("/v1/_sim/acquirer/charges"), {}, this, step([this](const GatewayResult &r) {
        if (r.answered() && r.status == 404)
            return finish();   // not a demo gateway: there is no ledger to ask
        if (!r.answered() || r.status != 200)
            return fail(r.summary());
        m_run->result.bankAsked = true;
        const QJsonArray rows = r.json.value(QStringLiteral("data")).toArray();
        if (rows.size() < kLedgerCap) {
            addMoves(m_run->ledger, rows);
            m_run->input.bankCharges = m_run->ledger;
            m_run->ledger.clear();
            return askBankByKey(true, {});
        }
        QStringList keys;
        for (const Intent &i : std::as_const(m_run->input.intents)) {
            if (!i.isRefund() && !i.isCash())
                keys << i.key;
        }
        for (const GatewayPayment &p : std::as_const(m_run->input.payments)) {
            if (!m_run->ownKeys.contains(p.idempotencyKey))
                keys << p.idempotencyKey;
        }
        askBankByKey(false, keys);
    }));
}

// Charges (refunds == false) key by key, then the refunds: all at once, or by the payment's key
// when the ledger is longer than one answer.
void ShiftCheck::askBankByKey(bool refunds, const QStringList &keys)
{
    Run &run = *m_run;
    if (keys.isEmpty() && run.bankQueue.isEmpty() && run.pending == 0) {
        if (!refunds) {
            run.input.bankCharges = run.ledger;
            run.ledger.clear();
            return askBankByKey(true, {});
        }
        if (!run.input.bankRefunds) {
            // The refunds: the whole ledger, unless it is too long for one answer.
            m_client->send("GET", QStringLiteral("/v1/_sim/acquirer/refunds"), {}, this, step([this](const GatewayResult &r) {
                if (!r.answered() || r.status != 200)
                    return fail(r.summary());
                const QJsonArray rows = r.json.value(QStringLiteral("data")).toArray();
                m_run->input.bankRefunds = QHash<QString, BankMoves>();
                if (rows.size() < kLedgerCap) {
                    addMoves(*m_run->input.bankRefunds, rows);
                    return finish();
                }
                QStringList charges;
                for (const Intent &i : std::as_const(m_run->input.intents)) {
                    if (i.isRefund() && !i.isCash() && !charges.contains(i.paymentKey))
                        charges << i.paymentKey;
                }
                m_run->bankQueue = charges;
                askBankByKey(true, {});
            }));
            return;
        }
        *run.input.bankRefunds = run.ledger;
        return finish();
    }
    run.bankQueue += keys;
    while (run.pending < m_options.concurrency && !run.bankQueue.isEmpty()) {
        const QString key = run.bankQueue.takeFirst();
        ++run.pending;
        const QString path = refunds ? QStringLiteral("/v1/_sim/acquirer/refunds?charge_key=%1").arg(encoded(key))
                                     : QStringLiteral("/v1/_sim/acquirer/charges?idempotency_key=%1").arg(encoded(key));
        m_client->send("GET", path, {}, this, step([this, refunds](const GatewayResult &r) {
            --m_run->pending;
            if (!r.answered() || r.status != 200)
                return fail(r.summary());
            addMoves(m_run->ledger, r.json.value(QStringLiteral("data")).toArray());
            askBankByKey(refunds, {});
        }));
    }
}

void ShiftCheck::finish()
{
    std::unique_ptr<Run> run = std::move(m_run);
    ++m_generation;
    run->result.findings = matchShift(run->input);
    run->result.elapsedMs = run->timer.elapsed();
    run->result.finishedAt = nowMs();
    qCInfo(lcShift) << "shift" << run->snapshot.number << "reconciled:" << run->result.listed << "listed in"
                    << run->result.pages << "pages," << run->result.findings.size() << "rows in" << run->result.elapsedMs << "ms";
    run->done(true, {}, run->result);
}

void ShiftCheck::fail(const QString &error)
{
    std::unique_ptr<Run> run = std::move(m_run);
    ++m_generation;
    qCWarning(lcShift) << "shift reconciliation failed:" << error;
    run->done(false, error, {});
}

}   // namespace OncePay
