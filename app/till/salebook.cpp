#include "salebook.h"

#include "intentjournal.h"
#include "journalschema.h"
#include "officeevents.h"
#include "timeutil.h"
#include "world.h"

#include <QAtomicInt>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QRandomGenerator>
#include <QSqlQuery>

namespace OncePay {

using namespace JournalSchema;

namespace {

const QString saleColumns = QStringLiteral("id, order_id, number, state, total, currency, lines, created_at, updated_at, cashier");

Sale readSaleRow(const QSqlQuery &q)
{
    Sale s;
    s.id = q.value(0).toLongLong();
    s.orderId = q.value(1).toString();
    s.number = q.value(2).toString();
    s.state = saleStateFromName(q.value(3).toString()).value_or(SaleState::Paying);
    s.total = Money(q.value(4).toLongLong(), q.value(5).toString());
    s.lines = QJsonDocument::fromJson(q.value(6).toByteArray()).array();
    s.createdAt = q.value(7).toLongLong();
    s.updatedAt = q.value(8).toLongLong();
    s.cashier = q.value(9).toString();
    return s;
}

void readIntentsOf(SqlTx &tx, Sale *sale)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM intents WHERE order_id = ? ORDER BY id").arg(intentColumns()),
        {sale->orderId});
    sale->intents = readIntents(q);
}

QList<Sale> readSales(SqlTx &tx, const QString &sql, const QVariantList &binds)
{
    QSqlQuery &q = tx.exec(sql, binds);
    QList<Sale> sales;
    while (q.next())
        sales.append(readSaleRow(q));
    q.finish();
    for (Sale &s : sales)
        readIntentsOf(tx, &s);
    return sales;
}

}   // namespace

int SaleBook::tillNumberOf(const QString &terminal)
{
    static const QRegularExpression lastNumber(QStringLiteral("(\\d+)$"));
    return qMax(1, lastNumber.match(terminal.trimmed()).captured(1).toInt());
}

SaleBook::SaleBook(IntentJournal *journal, QObject *parent)
    : QObject(parent)
    , m_journal(journal)
{
}

QString SaleBook::newOrderId()
{
    return QStringLiteral("S%1-%2")
        .arg(QDateTime::fromMSecsSinceEpoch(nowMs()).toString(QStringLiteral("yyyyMMdd-HHmmsszzz")))
        .arg(randomSource()->bounded(1000), 3, 10, QLatin1Char('0'));
}

void SaleBook::createTable(SqlTx &tx)
{
    tx.exec(QStringLiteral(
        "CREATE TABLE sales (id INTEGER PRIMARY KEY AUTOINCREMENT, order_id TEXT NOT NULL UNIQUE,"
        " number TEXT NOT NULL UNIQUE, state TEXT NOT NULL, total INTEGER NOT NULL, currency TEXT NOT NULL,"
        " lines TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)"));
    tx.exec(QStringLiteral("CREATE INDEX sales_unfinished ON sales (state) WHERE state IN ('open', 'paying')"));
    tx.exec(QStringLiteral("CREATE INDEX sales_cancelled ON sales (state) WHERE state = 'cancelled'"));
}

void SaleBook::createLineTables(SqlTx &tx)
{
    tx.exec(QStringLiteral(
        "CREATE TABLE refund_lines (refund_key TEXT NOT NULL, order_id TEXT NOT NULL, line INTEGER NOT NULL,"
        " quantity INTEGER NOT NULL, PRIMARY KEY (refund_key, line))"));
    tx.exec(QStringLiteral(
        "CREATE TABLE imported_sale_lines (order_id TEXT NOT NULL, line INTEGER NOT NULL, code TEXT NOT NULL,"
        " name_en TEXT NOT NULL, name_zh TEXT NOT NULL, unit_price INTEGER NOT NULL, currency TEXT NOT NULL,"
        " quantity INTEGER NOT NULL, PRIMARY KEY (order_id, line))"));
}

void SaleBook::lines(const QString &orderId, QObject *context, Reply<QJsonArray> reply)
{
    m_journal->transact<QJsonArray>(
        context, [orderId](SqlTx &tx) {
            QJsonArray out;
            if (const std::optional<Sale> sale = read(tx, orderId)) {
                for (const QJsonValue &v : sale->lines) {
                    QJsonObject line = v.toObject();
                    line.insert(QStringLiteral("currency"), sale->total.currency());
                    out.append(line);
                }
                return out;
            }
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT code, name_en, name_zh, unit_price, currency, quantity"
                                                  " FROM imported_sale_lines WHERE order_id = ? ORDER BY line"),
                {orderId});
            while (q.next()) {
                out.append(QJsonObject{{QStringLiteral("code"), q.value(0).toString()},
                    {QStringLiteral("name"), q.value(1).toString()},
                    {QStringLiteral("name_zh"), q.value(2).toString()},
                    {QStringLiteral("unit_price"), q.value(3).toLongLong()},
                    {QStringLiteral("currency"), q.value(4).toString()},
                    {QStringLiteral("quantity"), q.value(5).toInt()}});
            }
            q.finish();
            return out;
        },
        std::move(reply));
}

void SaleBook::recordRefundLines(const QString &refundKey, const QString &orderId, const QHash<int, int> &quantities,
    QObject *context, Reply<bool> reply)
{
    m_journal->transact<bool>(
        context, [refundKey, orderId, quantities](SqlTx &tx) {
            for (auto it = quantities.cbegin(); it != quantities.cend(); ++it) {
                if (it.value() > 0) {
                    tx.exec(QStringLiteral("INSERT OR REPLACE INTO refund_lines (refund_key, order_id, line, quantity)"
                                           " VALUES (?, ?, ?, ?)"),
                        {refundKey, orderId, it.key(), it.value()});
                }
            }
            return true;
        },
        std::move(reply));
}

void SaleBook::refundedQuantities(const QStringList &refundKeys, QObject *context, Reply<QHash<int, int>> reply)
{
    m_journal->transact<QHash<int, int>>(
        context, [refundKeys](SqlTx &tx) {
            return refundedQuantities(tx, refundKeys);
        },
        std::move(reply));
}

QHash<int, int> SaleBook::refundedQuantities(SqlTx &tx, const QStringList &refundKeys)
{
    QHash<int, int> out;
    for (const QString &key : refundKeys) {
        QSqlQuery &q = tx.exec(QStringLiteral("SELECT line, quantity FROM refund_lines WHERE refund_key = ?"), {key});
        while (q.next())
            out[q.value(0).toInt()] += q.value(1).toInt();
        q.finish();
    }
    return out;
}

void SaleBook::itemsOfRefund(const Intent &refund, QObject *context, Reply<RefundItems> reply)
{
    m_journal->transact<RefundItems>(
        context, [refund](SqlTx &tx) {
            return RefundItems{refundedQuantities(tx, {refund.key}), refundedBefore(tx, refund)};
        },
        std::move(reply));
}

QHash<int, int> SaleBook::refundedBefore(SqlTx &tx, const Intent &refund)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT idem_key FROM intents WHERE payment_key = ? AND id < ? AND kind = 'refund'"
                                          " AND state = 'succeeded' ORDER BY id"),
        {refund.paymentKey, refund.id});
    QStringList keys;
    while (q.next())
        keys << q.value(0).toString();
    q.finish();
    return refundedQuantities(tx, keys);
}

QString SaleBook::legacyLinesPath(const QString &journalPath)
{
    const QFileInfo journal(journalPath);
    return journal.dir().filePath(journal.completeBaseName() + QStringLiteral("-sales.db"));
}

void SaleBook::importLegacyLines(const QString &path, QObject *context, Reply<int> reply)
{
    if (!QFileInfo::exists(path))
        return reply(true, {}, 0);
    static QAtomicInt counter;
    const QString connection = QStringLiteral("oncepay-legacy-lines-%1").arg(counter.fetchAndAddRelaxed(1));
    struct Result
    {
        int copied = -1;
        QString error;
    };
    m_journal->transact<Result>(
        context, [path, connection](SqlTx &tx) {
            Result r;
            {
                QSqlDatabase legacy = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
                legacy.setDatabaseName(path);
                legacy.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
                if (!legacy.open()) {
                    r.error = legacy.lastError().text();
                } else {
                    QSqlQuery sales(legacy);
                    QSqlQuery refunds(legacy);
                    if (!sales.exec(QStringLiteral("SELECT order_id, line, code, name_en, name_zh, unit_price, currency, quantity"
                                                   " FROM sale_lines"))
                        || !refunds.exec(QStringLiteral("SELECT refund_key, order_id, line, quantity FROM refund_lines"))) {
                        r.error = sales.lastError().isValid() ? sales.lastError().text() : refunds.lastError().text();
                    } else {
                        r.copied = 0;
                        while (sales.next()) {
                            QVariantList row;
                            for (int c = 0; c < 8; ++c)
                                row << sales.value(c);
                            r.copied += tx.numRowsAffected(QStringLiteral(
                                                               "INSERT OR IGNORE INTO imported_sale_lines (order_id, line, code, name_en, name_zh, unit_price,"
                                                               " currency, quantity) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
                                row);
                        }
                        while (refunds.next()) {
                            tx.exec(QStringLiteral("INSERT OR IGNORE INTO refund_lines (refund_key, order_id, line, quantity)"
                                                   " VALUES (?, ?, ?, ?)"),
                                {refunds.value(0), refunds.value(1), refunds.value(2), refunds.value(3)});
                        }
                    }
                    sales.finish();
                    refunds.finish();
                    legacy.close();
                }
            }
            QSqlDatabase::removeDatabase(connection);
            return r;
        },
        [path, reply = std::move(reply)](bool ok, const TillError &error, const Result &r) {
            if (!ok)
                return reply(false, error, 0);
            if (r.copied < 0)
                return reply(false, TillError(TillError::Kind::OldSalesUnreadable, {path}, r.error), 0);
            // Copied and committed: the file is not read again. A till killed before this line
            // copies it again next time, and INSERT OR IGNORE keeps every line once.
            // Its write-ahead log goes with it, under the name SQLite gives the renamed file's.
            const QString done = path + QStringLiteral(".imported");
            for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
                QFile::remove(done + suffix);
            if (!QFile::rename(path, done))
                return reply(false, TillError(TillError::Kind::OldSalesNotRenamed, {path}), r.copied);
            for (const QString &suffix : {QStringLiteral("-wal"), QStringLiteral("-shm")})
                QFile::rename(path + suffix, done + suffix);
            reply(true, {}, r.copied);
        });
}

namespace {

TillError saleTotalOutOfRange(const QString &currency)
{
    return TillError(TillError::Kind::SaleTotalOutOfRange,
        {Money(1, currency).toDecimalString(), Money(100'000'000, currency).toDecimalString()});
}

}   // namespace

void SaleBook::open(const Money &total, const QJsonArray &lines, QObject *context, Reply<Sale> reply)
{
    insert(total, lines, saleStateName(SaleState::Open), context, std::move(reply));
}

void SaleBook::discard(const Money &total, const QJsonArray &lines, QObject *context, Reply<Sale> reply)
{
    insert(total, lines, saleStateName(SaleState::Cancelled), context, std::move(reply));
}

void SaleBook::insert(const Money &total, const QJsonArray &lines, const QString &state, QObject *context, Reply<Sale> reply)
{
    if (!total.isValid() || total.minorUnits() < 1 || total.minorUnits() > 100'000'000)
        return reply(false, saleTotalOutOfRange(total.currency()), {});
    const int till = m_tillNumber;
    // Made here, not on the journal's thread: it reads the local clock (see tests/tsan.supp). Two
    // sales opened in the same millisecond (the till and oncepay-ctl) share the time and 1 in
    // 1,000 their suffix: the first candidate nobody holds is taken.
    const QStringList candidates{newOrderId(), newOrderId(), newOrderId(), newOrderId()};
    const QString cashier = m_journal->actor();
    m_journal->transact<Sale>(
        context, [total, lines, till, state, candidates, cashier](SqlTx &tx) {
            const qint64 now = nowMs();
            QString orderId = candidates.constLast();
            for (const QString &candidate : candidates) {
                QSqlQuery &taken = tx.exec(QStringLiteral("SELECT 1 FROM sales WHERE order_id = ?"), {candidate});
                const bool free = !taken.next();
                taken.finish();
                if (free) {
                    orderId = candidate;
                    break;
                }
            }
            QSqlQuery &q = tx.exec(QStringLiteral(
                                       "INSERT INTO sales (order_id, number, state, total, currency, lines, created_at, updated_at,"
                                       " cashier) VALUES (?, '', ?, ?, ?, ?, ?, ?, ?) RETURNING id"),
                {orderId, state, total.minorUnits(), total.currency(),
                    QString::fromUtf8(QJsonDocument(lines).toJson(QJsonDocument::Compact)), now, now,
                    cashier.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(cashier)});
            const qint64 id = q.next() ? q.value(0).toLongLong() : 0;
            q.finish();
            const QString number = QStringLiteral("%1-%2").arg(till).arg(id, 6, 10, QLatin1Char('0'));
            tx.exec(QStringLiteral("UPDATE sales SET number = ? WHERE id = ?"), {number, id});
            Sale sale = read(tx, orderId).value_or(Sale());
            // A cart thrown away: the office hears of it in this transaction (issue 38).
            if (sale.state == SaleState::Cancelled)
                OfficeEvents::discarded(tx, sale, now);
            return sale;
        },
        std::move(reply));
}

void SaleBook::reprice(const QString &orderId, const Money &total, const QJsonArray &lines, QObject *context,
    Reply<bool> reply)
{
    if (!total.isValid() || total.minorUnits() < 1 || total.minorUnits() > 100'000'000)
        return reply(false, saleTotalOutOfRange(total.currency()), false);
    struct Result
    {
        bool ok = false;
        TillError refusal;
    };
    m_journal->transact<Result>(
        context, [orderId, total, lines](SqlTx &tx) {
            const std::optional<Sale> sale = read(tx, orderId);
            if (!sale)
                return Result{false, TillError(TillError::Kind::NoSuchSale, {orderId})};
            const SalePosition p = positionOf(*sale);
            if (sale->state == SaleState::Paid || sale->state == SaleState::Cancelled || p.paid > 0 || p.waiting > 0)
                return Result{false, TillError(TillError::Kind::SalePartlyPaid, {sale->number})};
            tx.exec(QStringLiteral("UPDATE sales SET total = ?, currency = ?, lines = ?, updated_at = ? WHERE order_id = ?"),
                {total.minorUnits(), total.currency(), QString::fromUtf8(QJsonDocument(lines).toJson(QJsonDocument::Compact)),
                    nowMs(), orderId});
            return Result{true, {}};
        },
        [reply = std::move(reply)](bool ok, const TillError &error, const Result &r) {
            if (!ok)
                return reply(false, error, false);
            reply(r.ok, r.refusal, r.ok);
        });
}

void SaleBook::find(const QString &numberOrOrderId, QObject *context, Reply<Sale> reply)
{
    m_journal->transact<Sale>(
        context, [numberOrOrderId](SqlTx &tx) {
            const QList<Sale> found = readSales(tx, QStringLiteral("SELECT %1 FROM sales WHERE number = ? OR order_id = ?").arg(saleColumns), {numberOrOrderId, numberOrOrderId});
            return found.isEmpty() ? Sale() : found.first();
        },
        std::move(reply));
}

void SaleBook::list(int limit, QObject *context, Reply<QList<Sale>> reply)
{
    m_journal->transact<QList<Sale>>(
        context, [limit](SqlTx &tx) {
            return readSales(tx, QStringLiteral("SELECT * FROM (SELECT %1 FROM sales ORDER BY id DESC LIMIT ?) ORDER BY id").arg(saleColumns), {limit});
        },
        std::move(reply));
}

void SaleBook::unfinished(QObject *context, Reply<QList<Sale>> reply)
{
    m_journal->transact<QList<Sale>>(
        context, [](SqlTx &tx) {
            return readSales(tx, QStringLiteral("SELECT %1 FROM sales WHERE state IN ('open', 'paying') ORDER BY id").arg(saleColumns), {});
        },
        std::move(reply));
}

std::optional<Sale> SaleBook::read(SqlTx &tx, const QString &orderId)
{
    const QList<Sale> found = readSales(tx, QStringLiteral("SELECT %1 FROM sales WHERE order_id = ?").arg(saleColumns), {orderId});
    if (found.isEmpty())
        return std::nullopt;
    return found.first();
}

void SaleBook::refresh(SqlTx &tx, const QString &orderId, qint64 now)
{
    const std::optional<Sale> sale = read(tx, orderId);
    if (!sale || sale->state == SaleState::Cancelled || sale->state == SaleState::Paid)
        return;
    const SalePosition p = positionOf(*sale);
    bool tendered = false;
    for (const Intent &i : sale->intents)
        tendered = tendered || !i.isRefund();
    const SaleState next = p.covered ? SaleState::Paid : tendered ? SaleState::Paying
                                                                  : SaleState::Open;
    if (next != sale->state) {
        tx.exec(QStringLiteral("UPDATE sales SET state = ?, updated_at = ? WHERE order_id = ?"),
            {saleStateName(next), now, orderId});
        // The sale ended paid: its event in the transaction that says so (issue 38).
        if (next == SaleState::Paid) {
            Sale paid = *sale;
            paid.state = next;
            paid.updatedAt = now;
            OfficeEvents::saleEnded(tx, paid, now);
        }
    }
}

void SaleBook::setCancelled(SqlTx &tx, const QString &orderId, qint64 now)
{
    const int changed = tx.numRowsAffected(
        QStringLiteral("UPDATE sales SET state = 'cancelled', updated_at = ? WHERE order_id = ? AND state <> 'cancelled'"),
        {now, orderId});
    // The sale ended cancelled: its event, with what was handed back, in this transaction.
    if (changed == 1) {
        if (const std::optional<Sale> sale = read(tx, orderId))
            OfficeEvents::saleEnded(tx, *sale, now);
    }
}

}   // namespace OncePay
