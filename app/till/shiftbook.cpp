#include "shiftbook.h"

#include "officeevents.h"
#include "parkedsalebook.h"
#include "salebook.h"
#include "saleitem.h"

#include "journalschema.h"
#include "timeutil.h"

#include <QJsonDocument>
#include <QSqlQuery>

namespace OncePay {

namespace {

using namespace JournalSchema;

struct LastClose
{
    int number = 0;
    qint64 closedAt = 0;
    qint64 lastIntentId = 0;
    qint64 nextFloat = 0;
    QStringList waitingKeys;
    QSet<QString> reportedKeys;
};

LastClose lastClose(SqlTx &tx)
{
    QSqlQuery &q = tx.exec(QStringLiteral(
        "SELECT id, closed_at, last_intent_id, next_float, waiting_keys, reconciliation FROM shifts ORDER BY id DESC LIMIT 1"));
    LastClose c;
    if (q.next()) {
        c.number = q.value(0).toInt();
        c.closedAt = q.value(1).toLongLong();
        c.lastIntentId = q.value(2).toLongLong();
        c.nextFloat = q.value(3).toLongLong();
        const QJsonArray stored = QJsonDocument::fromJson(q.value(4).toByteArray()).array();
        for (const QJsonValue &v : stored)
            c.waitingKeys << v.toString();
        const QJsonObject reconciliation = QJsonDocument::fromJson(q.value(5).toByteArray()).object();
        const QJsonArray rows = reconciliation.value(QStringLiteral("rows")).toArray();
        for (const QJsonValue &v : rows) {
            const QJsonObject row = v.toObject();
            if (row.value(QStringLiteral("finding")).toString() == QLatin1String("only_on_gateway"))
                c.reportedKeys.insert(row.value(QStringLiteral("key")).toString());
        }
    }
    q.finish();
    return c;
}

std::optional<Intent> intentByKey(SqlTx &tx, const QString &key)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM intents WHERE idem_key = ?").arg(intentColumns()), {key});
    std::optional<Intent> i;
    if (q.next())
        i = readIntent(q);
    q.finish();
    return i;
}

// The open shift's intents up to `upToId` (all of them when < 0), read in `tx`.
ShiftBook::Snapshot readSnapshot(SqlTx &tx, qint64 upToId)
{
    const LastClose previous = lastClose(tx);
    ShiftBook::Snapshot s;
    s.number = previous.number + 1;
    s.previousClosedAt = previous.closedAt;
    s.firstIntentId = previous.lastIntentId + 1;
    s.lastIntentId = previous.lastIntentId;
    s.openingFloat = previous.nextFloat;
    s.reportedBefore = previous.reportedKeys;
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM intents WHERE id > ? AND id <= ? ORDER BY id").arg(intentColumns()),
        {previous.lastIntentId, upToId < 0 ? std::numeric_limits<qint64>::max() : upToId});
    s.intents = readIntents(q);
    if (!s.intents.isEmpty()) {
        s.openedAt = s.intents.constFirst().createdAt;
        s.lastIntentId = s.intents.constLast().id;
    }
    for (const QString &key : previous.waitingKeys) {
        if (const auto i = intentByKey(tx, key))
            s.carriedOver.append(*i);
    }
    QSet<QString> own;
    for (const Intent &i : std::as_const(s.intents))
        own.insert(i.key);
    for (const Intent &i : std::as_const(s.intents)) {
        if (!i.isRefund() || own.contains(i.paymentKey))
            continue;
        own.insert(i.paymentKey);
        if (const auto p = intentByKey(tx, i.paymentKey))
            s.refundedPayments.append(*p);
    }
    // A sale belongs to the shift of its last succeeded payment.
    QSet<QString> orders;
    for (const Intent &i : std::as_const(s.intents)) {
        if (!i.isRefund() && i.state == IntentState::Succeeded && !i.orderId.isEmpty())
            orders.insert(i.orderId);
    }
    for (const QString &orderId : std::as_const(orders)) {
        const std::optional<Sale> sale = SaleBook::read(tx, orderId);
        if (!sale || sale->state != SaleState::Paid)
            continue;
        qint64 lastPaid = 0;
        for (const Intent &part : sale->intents) {
            if (!part.isRefund() && part.state == IntentState::Succeeded)
                lastPaid = qMax(lastPaid, part.id);
        }
        if (lastPaid >= s.firstIntentId && (upToId < 0 || lastPaid <= upToId))
            s.paidSales.append(*sale);
    }
    // Goods that came back: the refunds that succeeded of paid sales with lines (not the till's
    // own refunds of parts it gave up), by items (their slip's tax per rate) or as an amount.
    QHash<QString, std::optional<Sale>> sales;
    for (const Intent &i : std::as_const(s.intents)) {
        if (!i.isRefund() || i.state != IntentState::Succeeded || isAutoRefundKey(i.key) || i.orderId.isEmpty())
            continue;
        auto sale = sales.find(i.orderId);
        if (sale == sales.end())
            sale = sales.insert(i.orderId, SaleBook::read(tx, i.orderId));
        if (!*sale || (*sale)->state != SaleState::Paid || (*sale)->lines.isEmpty())
            continue;
        const QHash<int, int> quantities = SaleBook::refundedQuantities(tx, {i.key});
        s.returns.insert(i.key,
            quantities.isEmpty() ? QList<TaxBand>{} : pricingOfReturn((*sale)->lines, quantities, SaleBook::refundedBefore(tx, i)).bands);
    }
    for (const ParkedSale &p : ParkedSaleBook::readParked(tx))
        s.parked.append({p.number, p.parkedAt, p.parkedBy, p.itemCount, p.total});
    return s;
}

QJsonArray waitingKeys(const ShiftReport &report)
{
    QJsonArray keys;
    for (const ShiftReport::Waiting &w : report.waiting)
        keys.append(w.key);
    return keys;
}

QVariant nullableAmount(const std::optional<qint64> &v)
{
    return v ? QVariant(*v) : QVariant(QMetaType(QMetaType::LongLong));
}

}   // namespace

ShiftReport::Input ShiftBook::Snapshot::reportInput(const QString &currency, std::optional<qint64> countedCash) const
{
    ShiftReport::Input in;
    in.number = number;
    in.openedAt = openedAt;
    in.firstIntentId = firstIntentId;
    in.lastIntentId = lastIntentId;
    in.currency = currency;
    in.intents = intents;
    in.carriedOver = carriedOver;
    in.paidSales = paidSales;
    in.returns = returns;
    in.parked = parked;
    in.openingFloat = openingFloat;
    in.countedCash = countedCash;
    in.generatedAt = nowMs();
    return in;
}

void ShiftBook::createTable(SqlTx &tx)
{
    // One row per closed shift, its number the id. The open shift has no row: it is every intent
    // after the last row's last_intent_id.
    tx.exec(QStringLiteral(
        "CREATE TABLE shifts (id INTEGER PRIMARY KEY, opened_at INTEGER NOT NULL, closed_at INTEGER NOT NULL,"
        " first_intent_id INTEGER NOT NULL, last_intent_id INTEGER NOT NULL, currency TEXT NOT NULL,"
        " opening_float INTEGER NOT NULL, cash_expected INTEGER NOT NULL, counted_cash INTEGER,"
        " next_float INTEGER NOT NULL, waiting_keys TEXT NOT NULL, report TEXT NOT NULL, reconciliation TEXT NOT NULL)"));
    // A closed shift's numbers are what was printed: SQLite itself refuses to change them.
    tx.exec(QStringLiteral("CREATE TRIGGER shifts_are_final_u BEFORE UPDATE ON shifts"
                           " BEGIN SELECT RAISE(ABORT, 'a closed shift is never changed'); END"));
    tx.exec(QStringLiteral("CREATE TRIGGER shifts_are_final_d BEFORE DELETE ON shifts"
                           " BEGIN SELECT RAISE(ABORT, 'a closed shift is never changed'); END"));
}

void ShiftBook::current(QObject *context, Reply<Snapshot> reply)
{
    m_journal->transact<Snapshot>(
        context, [](SqlTx &tx) {
            return readSnapshot(tx, -1);
        },
        std::move(reply));
}

void ShiftBook::earlierKeys(const QStringList &keys, qint64 lastId, QObject *context, Reply<QSet<QString>> reply)
{
    m_journal->transact<QSet<QString>>(
        context, [keys, lastId](SqlTx &tx) {
            QSet<QString> known;
            constexpr qsizetype chunk = 200;   // binds per statement: one prepared statement for full chunks
            for (qsizetype from = 0; from < keys.size(); from += chunk) {
                const QStringList part = keys.mid(from, chunk);
                QStringList marks;
                QVariantList binds{lastId};
                for (const QString &k : part) {
                    marks << QStringLiteral("?");
                    binds << k;
                }
                QSqlQuery &q = tx.exec(QStringLiteral("SELECT idem_key FROM intents WHERE id <= ? AND idem_key IN (%1)")
                                           .arg(marks.join(QLatin1Char(','))),
                    binds);
                while (q.next())
                    known.insert(q.value(0).toString());
                q.finish();
            }
            return known;
        },
        std::move(reply));
}

void ShiftBook::close(const Close &request, QObject *context, Reply<ShiftReport> reply)
{
    struct Result
    {
        ShiftReport report;
        TillError refusal;
    };
    const QString staff = m_journal->actor();
    m_journal->transact<Result>(
        context, [request, staff](SqlTx &tx) {
            const Snapshot s = readSnapshot(tx, request.lastIntentId);
            if (s.number != request.number)
                return Result{{}, TillError(TillError::Kind::ShiftClosedMeanwhile, {QString::number(request.number)})};
            if (request.openingFloat && !s.isFirst()) {
                return Result{{}, TillError(TillError::Kind::FloatCarriedOver, {QString::number(request.number), Money(s.openingFloat, request.currency).toDisplayString()})};
            }
            if (request.openingFloat && (*request.openingFloat < 0 || *request.openingFloat > kMaxFloat))
                return Result{{}, TillError(TillError::Kind::FloatOutOfRange, {Money(kMaxFloat, request.currency).toDisplayString()})};
            Snapshot opened = s;
            if (request.openingFloat)
                opened.openingFloat = *request.openingFloat;
            ShiftReport report = ShiftReport::compute(opened.reportInput(request.currency, request.countedCash));
            // The states may only have moved on since the cashier looked: nothing new can wait.
            QStringList unconfirmed;
            for (const ShiftReport::Waiting &w : std::as_const(report.waiting)) {
                if (!request.confirmedWaiting.contains(w.key))
                    unconfirmed << w.key;
            }
            if (!unconfirmed.isEmpty()) {
                return Result{{}, TillError(TillError::Kind::ShiftStillWaiting, {unconfirmed.join(QStringLiteral(", "))})};
            }
            // Nor can a refund the till owes be closed over unseen (one declined meanwhile).
            for (const ShiftReport::Waiting &w : std::as_const(report.refundsOwed)) {
                if (!request.confirmedOwed.contains(w.key))
                    unconfirmed << w.key;
            }
            if (!unconfirmed.isEmpty())
                return Result{{}, TillError(TillError::Kind::ShiftRefundsOwed, {unconfirmed.join(QStringLiteral(", "))})};
            report.closedAt = qMax(nowMs(), report.generatedAt);
            QJsonObject stored = report.toJson();
            tx.exec(QStringLiteral(
                        "INSERT INTO shifts (id, opened_at, closed_at, first_intent_id, last_intent_id, currency, opening_float,"
                        " cash_expected, counted_cash, next_float, waiting_keys, report, reconciliation)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                {report.number, report.openedAt > 0 ? report.openedAt : report.closedAt, report.closedAt, report.firstIntentId,
                    report.lastIntentId, report.currency, report.openingFloat, report.cashExpected(),
                    nullableAmount(report.countedCash), request.nextFloat,
                    QString::fromUtf8(QJsonDocument(waitingKeys(report)).toJson(QJsonDocument::Compact)),
                    QString::fromUtf8(QJsonDocument(stored).toJson(QJsonDocument::Compact)),
                    QString::fromUtf8(QJsonDocument(request.reconciliation).toJson(QJsonDocument::Compact))});
            // The office hears of the close in this transaction (issue 38).
            OfficeEvents::shiftClosed(tx, report, stored, int(s.paidSales.size()), request.nextFloat, staff);
            return Result{report, {}};
        },
        [reply = std::move(reply)](bool ok, const TillError &error, const Result &r) {
            if (!ok)
                return reply(false, error, {});
            if (r.refusal.isError())
                return reply(false, r.refusal, {});
            reply(true, {}, r.report);
        });
}

void ShiftBook::closedShifts(int limit, QObject *context, Reply<QJsonArray> reply)
{
    m_journal->transact<QJsonArray>(
        context, [limit](SqlTx &tx) {
            QSqlQuery &q = tx.exec(QStringLiteral(
                                       "SELECT id, closed_at, counted_cash, next_float, report, reconciliation FROM shifts ORDER BY id DESC LIMIT ?"),
                {limit});
            QJsonArray out;
            while (q.next()) {
                out.append(QJsonObject{
                    {QStringLiteral("shift"), q.value(0).toInt()},
                    {QStringLiteral("closed_at"), toRfc3339(q.value(1).toLongLong())},
                    {QStringLiteral("counted_cash"), q.value(2).isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(q.value(2).toLongLong())},
                    {QStringLiteral("next_float"), q.value(3).toLongLong()},
                    {QStringLiteral("report"), QJsonDocument::fromJson(q.value(4).toByteArray()).object()},
                    {QStringLiteral("reconciliation"), QJsonDocument::fromJson(q.value(5).toByteArray()).object()}});
            }
            q.finish();
            return out;
        },
        std::move(reply));
}

}   // namespace OncePay
