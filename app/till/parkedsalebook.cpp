#include "parkedsalebook.h"

#include "journalschema.h"
#include "officeevents.h"
#include "salebook.h"
#include "timeutil.h"

#include <QJsonDocument>
#include <QSqlQuery>

namespace OncePay {

using namespace JournalSchema;

namespace {

const QString parkedColumns = QStringLiteral(
    "id, state, parked_at, parked_by, total, currency, item_count, cart, from_sale, ended_at, ended_by");

ParkedSale readRow(const QSqlQuery &q)
{
    ParkedSale p;
    p.id = q.value(0).toLongLong();
    p.number = parkedNumber(p.id);
    // A state this version does not know is read as deleted: never recalled by mistake.
    p.state = parkedStateFromName(q.value(1).toString()).value_or(ParkedState::Deleted);
    p.parkedAt = q.value(2).toLongLong();
    p.parkedBy = q.value(3).toString();
    p.total = Money(q.value(4).toLongLong(), q.value(5).toString());
    p.itemCount = q.value(6).toInt();
    p.cart = QJsonDocument::fromJson(q.value(7).toByteArray()).object();
    p.fromSale = q.value(8).toString();
    p.endedAt = q.value(9).toLongLong();
    p.endedBy = q.value(10).toString();
    return p;
}

QList<ParkedSale> readRows(SqlTx &tx, const QString &where, const QVariantList &binds)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM parked_sales WHERE %2 ORDER BY id").arg(parkedColumns, where), binds);
    QList<ParkedSale> out;
    while (q.next())
        out.append(readRow(q));
    q.finish();
    return out;
}

struct Result
{
    ParkedSale sale;
    TillError refusal;
};

template <typename Reply>
auto answer(Reply reply)
{
    return [reply = std::move(reply)](bool ok, const TillError &error, const Result &r) {
        if (!ok)
            return reply(false, error, ParkedSale());
        if (r.refusal.isError())
            return reply(false, r.refusal, r.sale);
        reply(true, {}, r.sale);
    };
}

}   // namespace

ParkedSaleBook::ParkedSaleBook(IntentJournal *journal, QObject *parent)
    : QObject(parent)
    , m_journal(journal)
{
}

void ParkedSaleBook::createTable(SqlTx &tx)
{
    tx.exec(QStringLiteral(
        "CREATE TABLE parked_sales (id INTEGER PRIMARY KEY AUTOINCREMENT, state TEXT NOT NULL, parked_at INTEGER NOT NULL,"
        " parked_by TEXT NOT NULL, total INTEGER NOT NULL, currency TEXT NOT NULL, item_count INTEGER NOT NULL,"
        " cart TEXT NOT NULL, from_sale TEXT, ended_at INTEGER, ended_by TEXT)"));
    tx.exec(QStringLiteral("CREATE INDEX parked_sales_parked ON parked_sales (state) WHERE state = 'parked'"));
}

QList<ParkedSale> ParkedSaleBook::readParked(SqlTx &tx)
{
    return readRows(tx, QStringLiteral("state = 'parked'"), {});
}

void ParkedSaleBook::park(const Park &request, QObject *context, Reply<ParkedSale> reply)
{
    // Empty, not NULL, on a till without staff.
    const QString staff = m_journal->actor().isEmpty() ? QStringLiteral("") : m_journal->actor();
    m_journal->transact<Result>(
        context, [request, staff](SqlTx &tx) {
            const qint64 now = nowMs();
            QString fromSale;
            if (!request.orderId.isEmpty()) {
                if (const std::optional<Sale> sale = SaleBook::read(tx, request.orderId)) {
                    // Nothing of a parked sale is paid or on its way: the journal checks it here,
                    // in the transaction that parks it, whatever the window believed.
                    const SalePosition p = positionOf(*sale);
                    if (p.paid > 0 || sale->state == SaleState::Paid)
                        return Result{{}, TillError(TillError::Kind::ParkPartlyPaid, {Money(p.paid, sale->total.currency()).toDisplayString()})};
                    if (p.waiting > 0)
                        return Result{{}, TillError(TillError::Kind::ParkPaymentWaiting, {Money(p.waiting, sale->total.currency()).toDisplayString()})};
                    fromSale = sale->number;
                    // Its declined or given-up card parts stay with it; the cart goes on hold and
                    // becomes a new sale when it is recalled and paid.
                    if (sale->state != SaleState::Cancelled)
                        SaleBook::setCancelled(tx, request.orderId, now);
                }
            }
            QSqlQuery &q = tx.exec(QStringLiteral(
                                       "INSERT INTO parked_sales (state, parked_at, parked_by, total, currency, item_count, cart, from_sale)"
                                       " VALUES ('parked', ?, ?, ?, ?, ?, ?, ?) RETURNING id"),
                {now, staff, request.total.minorUnits(), request.total.currency(), request.itemCount,
                    QString::fromUtf8(QJsonDocument(request.cart.toJson()).toJson(QJsonDocument::Compact)), orNull(fromSale)});
            const qint64 id = q.next() ? q.value(0).toLongLong() : 0;
            q.finish();
            const QList<ParkedSale> stored = readRows(tx, QStringLiteral("id = ?"), {id});
            return Result{stored.value(0), {}};
        },
        answer(std::move(reply)));
}

void ParkedSaleBook::parked(QObject *context, Reply<QList<ParkedSale>> reply)
{
    m_journal->transact<QList<ParkedSale>>(context, &ParkedSaleBook::readParked, std::move(reply));
}

void ParkedSaleBook::recall(qint64 id, QObject *context, Reply<ParkedSale> reply)
{
    end(id, ParkedState::Recalled, context, std::move(reply));
}

void ParkedSaleBook::remove(qint64 id, QObject *context, Reply<ParkedSale> reply)
{
    end(id, ParkedState::Deleted, context, std::move(reply));
}

void ParkedSaleBook::end(qint64 id, ParkedState to, QObject *context, Reply<ParkedSale> reply)
{
    const QString staff = m_journal->actor().isEmpty() ? QStringLiteral("") : m_journal->actor();
    m_journal->transact<Result>(
        context, [id, to, staff](SqlTx &tx) {
            const qint64 now = nowMs();
            // Compare and set: a sale recalled or deleted meanwhile (another window, oncepay-ctl)
            // is never put back twice.
            const int changed = tx.numRowsAffected(
                QStringLiteral("UPDATE parked_sales SET state = ?, ended_at = ?, ended_by = ? WHERE id = ? AND state = 'parked'"),
                {parkedStateName(to), now, staff, id});
            const ParkedSale sale = readRows(tx, QStringLiteral("id = ?"), {id}).value(0);
            if (changed != 1)
                return Result{sale, TillError(TillError::Kind::ParkedSaleGone, {parkedNumber(id)})};
            if (to == ParkedState::Deleted) {
                IntentJournal::StaffAction a;
                a.at = now;
                a.staff = staff;
                a.action = QStringLiteral("delete_parked");
                a.subject = sale.number;
                a.amount = sale.total.minorUnits();
                a.detail = QStringLiteral("%1 item(s), parked %2 by %3").arg(sale.itemCount).arg(toRfc3339(sale.parkedAt), sale.parkedBy);
                tx.exec(QStringLiteral("INSERT INTO staff_actions (at, staff, action, subject, amount, approved_by, detail)"
                                       " VALUES (?, ?, ?, ?, ?, NULL, ?)"),
                    {a.at, a.staff, a.action, a.subject, a.amount, a.detail});
                OfficeEvents::staffAction(tx, a);   // the office hears of it as of any staff action (issue 38)
            }
            return Result{sale, {}};
        },
        answer(std::move(reply)));
}

}   // namespace OncePay
