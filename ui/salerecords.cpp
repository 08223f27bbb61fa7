#include "salerecords.h"

#include "sqlbatchworker.h"

#include <QAtomicInt>
#include <QFileInfo>
#include <QDir>

namespace OncePay::Ui {

namespace {
QAtomicInt g_counter;

void migrate(SqlTx &tx, int from)
{
    if (from < 1) {
        tx.exec(QStringLiteral(
            "CREATE TABLE sale_lines (order_id TEXT NOT NULL, line INTEGER NOT NULL, code TEXT NOT NULL,"
            " name_en TEXT NOT NULL, name_zh TEXT NOT NULL, unit_price INTEGER NOT NULL, currency TEXT NOT NULL,"
            " quantity INTEGER NOT NULL, PRIMARY KEY (order_id, line))"));
        tx.exec(QStringLiteral(
            "CREATE TABLE refund_lines (refund_key TEXT NOT NULL, order_id TEXT NOT NULL, line INTEGER NOT NULL,"
            " quantity INTEGER NOT NULL, PRIMARY KEY (refund_key, line))"));
    }
}
} // namespace

QString SaleRecords::pathFor(const QString &journalPath)
{
    const QFileInfo journal(journalPath);
    return journal.dir().filePath(journal.completeBaseName() + QStringLiteral("-sales.db"));
}

SaleRecords::SaleRecords(QString path, QObject *parent)
    : QObject(parent)
    , m_path(std::move(path))
{
}

SaleRecords::~SaleRecords()
{
    if (m_worker)
        m_worker->stop();
}

bool SaleRecords::open(QString *error)
{
    SqlBatchWorker::Options o;
    o.path = m_path;
    o.connectionName = QStringLiteral("oncepay-sales-%1").arg(g_counter.fetchAndAddRelaxed(1));
    o.schemaVersion = 1;
    o.migrate = migrate;
    o.applicationId = 0x4F505453;   // "OPTS": OncePay till sales
    o.markerTable = QStringLiteral("sale_lines");
    auto worker = std::make_unique<SqlBatchWorker>(o);
    if (!worker->start(error))
        return false;
    m_worker = std::move(worker);
    return true;
}

void SaleRecords::recordSale(const QString &orderId, const QList<SaleLine> &lines, QObject *context, Reply<bool> reply)
{
    if (!m_worker)
        return reply(false, tr("The sales file is not open."), false);
    m_worker->transact<bool>(context, [orderId, lines](SqlTx &tx) {
        tx.exec(QStringLiteral("DELETE FROM sale_lines WHERE order_id = ?"), {orderId});
        for (const SaleLine &l : lines) {
            tx.exec(QStringLiteral("INSERT INTO sale_lines (order_id, line, code, name_en, name_zh, unit_price, currency,"
                                   " quantity) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
                    {orderId, l.line, l.code, l.nameEn, l.nameZh, l.unitPrice.minorUnits(), l.unitPrice.currency(), l.quantity});
        }
        return true;
    }, std::move(reply));
}

void SaleRecords::lines(const QString &orderId, QObject *context, Reply<QList<SaleLine>> reply)
{
    if (!m_worker)
        return reply(false, tr("The sales file is not open."), {});
    m_worker->transact<QList<SaleLine>>(context, [orderId](SqlTx &tx) {
        QSqlQuery &q = tx.exec(QStringLiteral("SELECT line, code, name_en, name_zh, unit_price, currency, quantity"
                                              " FROM sale_lines WHERE order_id = ? ORDER BY line"), {orderId});
        QList<SaleLine> out;
        while (q.next()) {
            SaleLine l;
            l.line = q.value(0).toInt();
            l.code = q.value(1).toString();
            l.nameEn = q.value(2).toString();
            l.nameZh = q.value(3).toString();
            l.unitPrice = Money(q.value(4).toLongLong(), q.value(5).toString());
            l.quantity = q.value(6).toInt();
            out.append(l);
        }
        q.finish();
        return out;
    }, std::move(reply));
}

void SaleRecords::recordRefund(const QString &refundKey, const QString &orderId, const QHash<int, int> &quantities,
                               QObject *context, Reply<bool> reply)
{
    if (!m_worker)
        return reply(false, tr("The sales file is not open."), false);
    m_worker->transact<bool>(context, [refundKey, orderId, quantities](SqlTx &tx) {
        for (auto it = quantities.cbegin(); it != quantities.cend(); ++it) {
            if (it.value() > 0) {
                tx.exec(QStringLiteral("INSERT OR REPLACE INTO refund_lines (refund_key, order_id, line, quantity)"
                                       " VALUES (?, ?, ?, ?)"), {refundKey, orderId, it.key(), it.value()});
            }
        }
        return true;
    }, std::move(reply));
}

void SaleRecords::refundedQuantities(const QStringList &refundKeys, QObject *context, Reply<QHash<int, int>> reply)
{
    if (!m_worker)
        return reply(false, tr("The sales file is not open."), {});
    m_worker->transact<QHash<int, int>>(context, [refundKeys](SqlTx &tx) {
        QHash<int, int> out;
        for (const QString &key : refundKeys) {
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT line, quantity FROM refund_lines WHERE refund_key = ?"), {key});
            while (q.next())
                out[q.value(0).toInt()] += q.value(1).toInt();
            q.finish();
        }
        return out;
    }, std::move(reply));
}

} // namespace OncePay::Ui
