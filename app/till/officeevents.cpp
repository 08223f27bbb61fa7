#include "officeevents.h"

#include "journalschema.h"
#include "saleitem.h"
#include "salebook.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

namespace OncePay::OfficeEvents {

using namespace JournalSchema;

namespace {

QString text(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QString tenderKind(const Intent &i)
{
    if (i.isCash())
        return QStringLiteral("cash");
    return i.isWallet() ? QStringLiteral("wallet") : QStringLiteral("card");
}

// A sale's lines with OFFICE.md's names: `amount` what the line came to after discounts, tax
// included (paidPerLine: with net prices, its share of its rate's tax added), `vat` in basis
// points. The till's own fields (discount, weight_g, ...) stay beside them.
QJsonArray officeLines(const QJsonArray &stored, const SalePricing &pricing)
{
    bool netPrices = false;
    for (const QJsonValue &v : stored)
        netPrices = netPrices || v.toObject().value(QStringLiteral("net_prices")).toBool();
    // paidPerLine, from the pricing the totals are read from too: priced once.
    const QList<qint64> paid = grossPerLine(pricing, netPrices ? TaxMode::Exclusive : TaxMode::Inclusive);
    QJsonArray out;
    for (qsizetype n = 0; n < stored.size(); ++n) {
        QJsonObject line = stored.at(n).toObject();
        if (n < paid.size())
            line.insert(QStringLiteral("amount"), paid.at(n));
        if (!line.contains(QStringLiteral("category")))
            line.insert(QStringLiteral("category"), QString());
        line.insert(QStringLiteral("vat"), line.value(QStringLiteral("vat")).toInt());
        out.append(line);
    }
    return out;
}

QJsonObject tenderOf(const Intent &i)
{
    return QJsonObject{{QStringLiteral("kind"), tenderKind(i)}, {QStringLiteral("brand"), i.cardBrand},
        {QStringLiteral("amount"), i.amount.minorUnits()}, {QStringLiteral("state"), intentStateName(i.state)},
        {QStringLiteral("key"), i.key}, {QStringLiteral("given_up"), i.givenUpAt > 0},
        {QStringLiteral("staff"), i.staff}};
}

}   // namespace

void createTable(SqlTx &tx)
{
    // IF NOT EXISTS: a journal made by a build of this version before its number was taken (or
    // a suite's journal made old by dropping later tables) may hold it already.
    QSqlQuery &there = tx.exec(QStringLiteral("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'outbox'"));
    const bool exists = there.next();
    there.finish();
    if (exists)
        return;
    tx.exec(QStringLiteral("CREATE TABLE IF NOT EXISTS outbox (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, at TEXT NOT NULL,"
                           " data TEXT NOT NULL, sent_at INTEGER)"));
    tx.exec(QStringLiteral("CREATE INDEX IF NOT EXISTS outbox_waiting ON outbox (seq) WHERE sent_at IS NULL"));
    // What was queued is what the till did: never rewritten, never taken out.
    tx.exec(QStringLiteral("CREATE TRIGGER IF NOT EXISTS outbox_is_append_only_u BEFORE UPDATE OF seq, kind, at, data ON outbox"
                           " BEGIN SELECT RAISE(ABORT, 'the outbox is append-only'); END"));
    tx.exec(QStringLiteral("CREATE TRIGGER IF NOT EXISTS outbox_is_append_only_d BEFORE DELETE ON outbox"
                           " BEGIN SELECT RAISE(ABORT, 'the outbox is append-only'); END"));
}

void keepSentPosition(SqlTx &tx)
{
    // Where the office stands, one row: the events after it wait. Marking a batch sent writes
    // one row, and appending an event touches no index but the table's own key. (IF NOT EXISTS,
    // and sent_at looked for: a suite's journal made old by dropping later tables may hold these.)
    tx.exec(QStringLiteral("CREATE TABLE IF NOT EXISTS outbox_sent (id INTEGER PRIMARY KEY CHECK (id = 1),"
                           " last_seq INTEGER NOT NULL, at INTEGER NOT NULL)"));
    QSqlQuery &has = tx.exec(QStringLiteral("SELECT COUNT(*) FROM pragma_table_info('outbox') WHERE name = 'sent_at'"));
    const bool v10 = has.next() && has.value(0).toInt() > 0;
    has.finish();
    if (v10) {
        tx.exec(QStringLiteral("INSERT OR IGNORE INTO outbox_sent (id, last_seq, at) VALUES (1, COALESCE((SELECT MIN(seq) - 1"
                               " FROM outbox WHERE sent_at IS NULL), (SELECT MAX(seq) FROM outbox), 0), 0)"));
        tx.exec(QStringLiteral("DROP INDEX IF EXISTS outbox_waiting"));
        tx.exec(QStringLiteral("DROP TRIGGER IF EXISTS outbox_is_append_only_u"));
        tx.exec(QStringLiteral("ALTER TABLE outbox DROP COLUMN sent_at"));
    }
    tx.exec(QStringLiteral("INSERT OR IGNORE INTO outbox_sent (id, last_seq, at) VALUES (1, 0, 0)"));
    tx.exec(QStringLiteral("CREATE TRIGGER IF NOT EXISTS outbox_is_append_only_u BEFORE UPDATE ON outbox"
                           " BEGIN SELECT RAISE(ABORT, 'the outbox is append-only'); END"));
}

QString isoMs(qint64 epochMs)
{
    return QDateTime::fromMSecsSinceEpoch(epochMs, Qt::UTC).toString(Qt::ISODateWithMs);
}

qint64 append(SqlTx &tx, const QString &kind, qint64 atMs, const QJsonObject &data)
{
    // The last + 1, in this transaction: a change rolled back takes its seq with it, so the next
    // one takes the same number and none is ever skipped.
    QSqlQuery &q = tx.exec(QStringLiteral("INSERT INTO outbox (seq, kind, at, data)"
                                          " SELECT COALESCE(MAX(seq), 0) + 1, ?, ?, ? FROM outbox RETURNING seq"),
        {kind, isoMs(atMs), text(data)});
    const qint64 seq = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return seq;
}

QJsonObject saleData(const Sale &sale)
{
    const SalePricing pricing = pricingOfLines(sale.lines);
    QJsonArray tenders;
    for (const Intent &i : sale.intents) {
        if (!i.isRefund())
            tenders.append(tenderOf(i));
    }
    // Money handed back for the sale by the till itself (cash of a cancelled sale, a given-up
    // card part refunded): its own refund events say so; named here too.
    QJsonArray handedBack;
    for (const Intent &i : sale.intents) {
        if (i.isRefund())
            handedBack.append(tenderOf(i));
    }
    const QJsonObject totals{{QStringLiteral("subtotal"), pricing.subtotal},
        {QStringLiteral("discounts"), pricing.lineDiscounts + pricing.saleDiscount}, {QStringLiteral("tax"), pricing.tax},
        {QStringLiteral("total"), sale.total.minorUnits()}};
    return QJsonObject{{QStringLiteral("number"), sale.number}, {QStringLiteral("order_id"), sale.orderId},
        {QStringLiteral("state"), saleStateName(sale.state)}, {QStringLiteral("currency"), sale.total.currency()},
        {QStringLiteral("staff"), sale.cashier}, {QStringLiteral("lines"), officeLines(sale.lines, pricing)},
        {QStringLiteral("tenders"), tenders}, {QStringLiteral("handed_back"), handedBack},
        {QStringLiteral("totals"), totals}, {QStringLiteral("opened_at"), isoMs(sale.createdAt)}};
}

void saleEnded(SqlTx &tx, const Sale &sale, qint64 now)
{
    append(tx, QStringLiteral("sale"), now, saleData(sale));
}

void discarded(SqlTx &tx, const Sale &sale, qint64 now)
{
    append(tx, QStringLiteral("discard"), now,
        QJsonObject{{QStringLiteral("number"), sale.number}, {QStringLiteral("currency"), sale.total.currency()},
            {QStringLiteral("lines"), officeLines(sale.lines, pricingOfLines(sale.lines))}, {QStringLiteral("total"), sale.total.minorUnits()},
            {QStringLiteral("staff"), sale.cashier}});
}

void refundFinal(SqlTx &tx, const QString &refundKey, qint64 now)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM intents WHERE idem_key = ?").arg(intentColumns()), {refundKey});
    const Intent refund = q.next() ? readIntent(q) : Intent();
    q.finish();
    if (!refund.isValid() || !refund.isRefund())
        return;
    QSqlQuery &p = tx.exec(QStringLiteral("SELECT %1 FROM intents WHERE idem_key = ?").arg(intentColumns()), {refund.paymentKey});
    const Intent payment = p.next() ? readIntent(p) : Intent();
    p.finish();
    // The items given back, when they were recorded before the refund was final (a card refund;
    // a cash refund is final as it is stored, its items recorded after: its amount says it).
    QJsonArray lines;
    if (const std::optional<Sale> sale = SaleBook::read(tx, refund.orderId)) {
        const QHash<int, int> given = SaleBook::refundedQuantities(tx, {refund.key});
        const QHash<int, int> before = SaleBook::refundedBefore(tx, refund);
        const QJsonArray sold = officeLines(sale->lines, pricingOfLines(sale->lines));
        for (auto it = given.cbegin(); it != given.cend(); ++it) {
            if (it.key() < 0 || it.key() >= sold.size() || it.value() <= 0)
                continue;
            QJsonObject line = sold.at(it.key()).toObject();
            const qint64 count = qMax<qint64>(1, line.value(QStringLiteral("quantity")).toInteger());
            line.insert(QStringLiteral("line"), it.key());
            line.insert(QStringLiteral("amount"),
                refundOfItems(line.value(QStringLiteral("amount")).toInteger(), count, before.value(it.key()), it.value()));
            line.insert(QStringLiteral("quantity"), it.value());
            lines.append(line);
        }
    }
    append(tx, QStringLiteral("refund"), now,
        QJsonObject{{QStringLiteral("key"), refund.key}, {QStringLiteral("payment_key"), refund.paymentKey},
            {QStringLiteral("sale_number"), refund.saleNumber}, {QStringLiteral("amount"), refund.amount.minorUnits()},
            {QStringLiteral("currency"), refund.amount.currency()},
            {QStringLiteral("tender"), payment.isValid() ? tenderKind(payment) : tenderName(refund.tender)},
            {QStringLiteral("brand"), refund.cardBrand}, {QStringLiteral("state"), intentStateName(refund.state)},
            {QStringLiteral("reason"), refund.reason}, {QStringLiteral("staff"), refund.staff},
            {QStringLiteral("approver"), refund.approvedBy}, {QStringLiteral("lines"), lines}});
}

QString kindOfStaffAction(const QString &action)
{
    if (action == QLatin1String("open_drawer") || action == QLatin1String("cash_in") || action == QLatin1String("cash_out"))
        return QStringLiteral("cash");
    if (action == QLatin1String("discard") || action == QLatin1String("delete_parked"))
        return QStringLiteral("discard");
    return QStringLiteral("staff");
}

void staffAction(SqlTx &tx, const IntentJournal::StaffAction &a)
{
    const QString kind = kindOfStaffAction(a.action);
    QJsonObject data{{QStringLiteral("staff"), a.staff}, {QStringLiteral("what"), a.action},
        {QStringLiteral("approver"), a.approvedBy}, {QStringLiteral("subject"), a.subject},
        {QStringLiteral("detail"), a.detail}};
    if (kind == QLatin1String("cash")) {
        data.insert(QStringLiteral("amount"), a.amount);
        data.insert(QStringLiteral("reason"), a.detail);
    } else if (kind == QLatin1String("discard")) {
        data.insert(QStringLiteral("total"), a.amount);
        data.insert(QStringLiteral("lines"), QJsonArray());
    } else {
        data.insert(QStringLiteral("who"), a.staff);
        if (a.amount != 0)
            data.insert(QStringLiteral("amount"), a.amount);
    }
    append(tx, kind, a.at, data);
}

void shiftClosed(SqlTx &tx, const ShiftReport &report, const QJsonObject &storedReport, int paidSales,
    qint64 nextFloat, const QString &staff)
{
    QJsonObject data{{QStringLiteral("number"), report.number}, {QStringLiteral("currency"), report.currency},
        {QStringLiteral("report"), storedReport},
        {QStringLiteral("totals"),
            QJsonObject{{QStringLiteral("sales"), paidSales}, {QStringLiteral("gross"), report.salesTotal()},
                {QStringLiteral("refunds"), report.refundsTotal()}, {QStringLiteral("net"), report.netTotal()}}},
        {QStringLiteral("opened_at"), isoMs(report.openedAt > 0 ? report.openedAt : report.closedAt)},
        {QStringLiteral("closed_at"), isoMs(report.closedAt)}, {QStringLiteral("cash_expected"), report.cashExpected()},
        {QStringLiteral("next_float"), nextFloat}, {QStringLiteral("staff"), staff}};
    data.insert(QStringLiteral("counted_cash"), report.countedCash ? QJsonValue(*report.countedCash) : QJsonValue());
    const std::optional<qint64> difference = report.cashDifference();
    data.insert(QStringLiteral("difference"), difference ? QJsonValue(*difference) : QJsonValue());
    append(tx, QStringLiteral("shift"), report.closedAt, data);
}

QJsonObject Event::toJson() const
{
    return QJsonObject{{QStringLiteral("seq"), seq}, {QStringLiteral("kind"), kind}, {QStringLiteral("at"), at},
        {QStringLiteral("data"), QJsonDocument::fromJson(data).object()}};
}

QList<Event> waiting(SqlTx &tx, int limit)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT seq, kind, at, data FROM outbox WHERE seq > (SELECT last_seq FROM outbox_sent)"
                                          " ORDER BY seq LIMIT ?"),
        {limit});
    QList<Event> out;
    while (q.next())
        out.append({q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toByteArray()});
    q.finish();
    return out;
}

void acknowledgeUpTo(SqlTx &tx, qint64 lastSeq, qint64 now)
{
    tx.exec(QStringLiteral("UPDATE outbox_sent SET last_seq = ?, at = ? WHERE id = 1"), {qMax<qint64>(0, lastSeq), now});
}

Status status(SqlTx &tx)
{
    Status s;
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT (SELECT last_seq FROM outbox_sent), (SELECT MAX(seq) FROM outbox)"));
    if (q.next()) {
        s.lastSeq = q.value(1).toLongLong();
        s.lastSentSeq = qMin(q.value(0).toLongLong(), s.lastSeq);
    }
    q.finish();
    s.waiting = int(s.lastSeq - s.lastSentSeq);
    if (s.waiting > 0) {
        QSqlQuery &at = tx.exec(QStringLiteral("SELECT at FROM outbox WHERE seq = ?"), {s.lastSentSeq + 1});
        if (at.next())
            s.oldestWaitingAtMs = QDateTime::fromString(at.value(0).toString(), Qt::ISODateWithMs).toMSecsSinceEpoch();
        at.finish();
    }
    return s;
}

}   // namespace OncePay::OfficeEvents
