#include "catalogstore.h"

#include "oncontext.h"
#include "timeutil.h"
#include "world.h"

#include <QAtomicInt>
#include <QFile>
#include <QFileInfo>
#include <QHash>

namespace OncePay {

namespace {

QAtomicInt g_counter;

constexpr int kSchemaVersion = 2;

void migrate(SqlTx &tx, int fromVersion)
{
    if (fromVersion < 1) {
        tx.exec(QStringLiteral(
            "CREATE TABLE products (code TEXT PRIMARY KEY, barcodes TEXT NOT NULL, name_en TEXT NOT NULL,"
            " name_zh TEXT NOT NULL, price INTEGER NOT NULL, vat INTEGER NOT NULL, category TEXT NOT NULL,"
            " unit TEXT NOT NULL, quick_key INTEGER NOT NULL, open_price INTEGER NOT NULL, retired INTEGER NOT NULL,"
            " position INTEGER NOT NULL, updated_at INTEGER NOT NULL)"));
        tx.exec(QStringLiteral("CREATE TABLE catalog_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)"));
    }
    if (fromVersion < 2)   // issue 36: the category's Chinese name
        tx.exec(QStringLiteral("ALTER TABLE products ADD COLUMN category_zh TEXT NOT NULL DEFAULT ''"));
}

const QString kColumns = QStringLiteral(
    "code, barcodes, name_en, name_zh, price, vat, category, unit, quick_key, open_price, retired, category_zh");

// Text never bound as NULL (an empty QString may be null, which the NOT NULL columns refuse).
QVariant text(const QString &s)
{
    return s.isNull() ? QStringLiteral("") : s;
}

QVariantList binds(const Product &p)
{
    return {p.code, text(p.barcodes.join(QLatin1Char('|'))), text(p.nameEn), text(p.nameZh), p.price.minorUnits(),
        p.vatBasisPoints, text(p.category), saleUnitName(p.unit), p.quickKey, p.openPrice ? 1 : 0, p.retired ? 1 : 0,
        text(p.categoryZh)};
}

CatalogStore::Meta readMeta(SqlTx &tx)
{
    CatalogStore::Meta meta;
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT name, value FROM catalog_meta"));
    while (q.next()) {
        const QString name = q.value(0).toString();
        const QString value = q.value(1).toString();
        if (name == QLatin1String("currency"))
            meta.currency = value;
        else if (name == QLatin1String("source"))
            meta.source = value;
        else if (name == QLatin1String("etag"))
            meta.etag = value;
        else if (name == QLatin1String("imported_at"))
            meta.importedAt = value.toLongLong();
        else if (name == QLatin1String("tax_mode"))
            meta.taxMode = value == QLatin1String("exclusive") ? TaxMode::Exclusive : TaxMode::Inclusive;
    }
    q.finish();
    return meta;
}

QList<Product> readProducts(SqlTx &tx, const QString &currency)
{
    QList<Product> out;
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM products ORDER BY position").arg(kColumns));
    while (q.next()) {
        Product p;
        p.code = q.value(0).toString();
        p.barcodes = q.value(1).toString().split(QLatin1Char('|'), Qt::SkipEmptyParts);
        p.nameEn = q.value(2).toString();
        p.nameZh = q.value(3).toString();
        p.price = Money(q.value(4).toLongLong(), currency);
        p.vatBasisPoints = q.value(5).toInt();
        p.category = q.value(6).toString();
        p.unit = q.value(7).toString() == QLatin1String("kg") ? SaleUnit::Kilogram : SaleUnit::Each;
        p.quickKey = q.value(8).toInt();
        p.openPrice = q.value(9).toInt() != 0;
        p.retired = q.value(10).toInt() != 0;
        p.categoryZh = q.value(11).toString();
        out.append(std::move(p));
    }
    q.finish();
    return out;
}

void writeMeta(SqlTx &tx, const QString &name, const QString &value)
{
    tx.exec(QStringLiteral("INSERT OR REPLACE INTO catalog_meta (name, value) VALUES (?, ?)"), {name, text(value)});
}

CatalogStore::ImportSummary replaceIn(SqlTx &tx, const QList<Product> &products, const CatalogStore::Meta &meta)
{
    using ImportSummary = CatalogStore::ImportSummary;
    const qint64 now = nowMs();
    QHash<QString, Product> before;
    const QList<Product> stored = readProducts(tx, meta.currency);
    for (const Product &p : stored)
        before.insert(p.code, p);
    ImportSummary s;
    QHash<QString, bool> kept;
    kept.reserve(products.size());
    const QString upsert = QStringLiteral("INSERT OR REPLACE INTO products (%1, position, updated_at)"
                                          " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                               .arg(kColumns);
    for (int i = 0; i < products.size(); ++i) {
        Product p = products.at(i);
        p.retired = false;
        kept.insert(p.code, true);
        const auto it = before.constFind(p.code);
        if (it == before.cend())
            ++s.added;
        else if (*it == p)
            ++s.unchanged;
        else
            ++s.changed;
        QVariantList b = binds(p);
        b << i << now;
        tx.exec(upsert, b);
    }
    // What the file no longer has is retired and goes after it, in its old order.
    qint64 position = products.size();
    QSqlQuery &rest = tx.exec(QStringLiteral("SELECT code FROM products ORDER BY position"));
    QStringList absent;
    while (rest.next()) {
        if (!kept.contains(rest.value(0).toString()))
            absent.append(rest.value(0).toString());
    }
    rest.finish();
    for (const QString &code : std::as_const(absent)) {
        if (!before.value(code).retired)
            ++s.retired;
        tx.exec(QStringLiteral("UPDATE products SET retired = 1, position = ?, updated_at = ? WHERE code = ?"),
            {position++, now, code});
    }
    writeMeta(tx, QStringLiteral("currency"), meta.currency);
    writeMeta(tx, QStringLiteral("source"), meta.source);
    writeMeta(tx, QStringLiteral("etag"), meta.etag);
    writeMeta(tx, QStringLiteral("imported_at"), QString::number(now));
    return s;
}

}   // namespace

QString CatalogStore::pathBeside(const QString &journalPath)
{
    const QFileInfo info(journalPath);
    return info.path() + QLatin1Char('/') + info.completeBaseName() + QStringLiteral("-catalog.db");
}

CatalogStore::CatalogStore(QString path, QObject *parent)
    : QObject(parent)
    , m_path(std::move(path))
{
}

CatalogStore::~CatalogStore()
{
    close();
}

bool CatalogStore::open(QString *error)
{
    SqlBatchWorker::Options o;
    o.path = m_path;
    o.connectionName = QStringLiteral("oncepay-catalog-%1").arg(g_counter.fetchAndAddRelaxed(1));
    o.schemaVersion = kSchemaVersion;
    o.migrate = migrate;
    o.applicationId = 0x4F504354;   // "OPCT": OncePay catalog
    o.markerTable = QStringLiteral("products");
    o.ownerOnly = true;
    m_worker = std::make_unique<SqlBatchWorker>(o);
    if (!m_worker->start(error)) {
        m_worker.reset();
        return false;
    }
    return true;
}

void CatalogStore::close()
{
    if (m_worker)
        m_worker->stop();
    m_worker.reset();
}

void CatalogStore::load(QObject *context, Reply<Snapshot> reply)
{
    if (!m_worker)
        return reply(false, tr("The catalog is not open."), {});
    m_worker->transact<Snapshot>(
        context, [](SqlTx &tx) {
            Snapshot s;
            s.meta = readMeta(tx);
            s.products = readProducts(tx, s.meta.currency);
            return s;
        },
        onContext(context, std::move(reply)));
}

void CatalogStore::replace(const QList<Product> &products, const Meta &meta, QObject *context, Reply<ImportSummary> reply)
{
    if (!m_worker)
        return reply(false, tr("The catalog is not open."), {});
    m_worker->transact<ImportSummary>(
        this, [products, meta](SqlTx &tx) {
            return replaceIn(tx, products, meta);
        },
        changedThen<ImportSummary>(context, std::move(reply), [](const ImportSummary &) {
            return true;
        }));
}

void CatalogStore::importFile(const QString &path, QObject *context, Reply<FileImport> reply)
{
    if (!m_worker)
        return reply(false, tr("The catalog is not open."), {});
    m_worker->transact<FileImport>(
        this, [path](SqlTx &tx) {
            FileImport result;
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly)) {
                result.readError = file.errorString();
                return result;
            }
            Meta meta = readMeta(tx);
            const auto products = CatalogCsv::parseAny(file.readAll(), meta.currency, &result.problem);
            if (!products)
                return result;
            meta.source = QFileInfo(path).absoluteFilePath();
            meta.etag.clear();
            result.products = int(products->size());
            result.summary = replaceIn(tx, *products, meta);
            return result;
        },
        changedThen<FileImport>(context, std::move(reply), [](const FileImport &r) {
            return r.readError.isEmpty() && r.problem.kind == CatalogProblem::Kind::None;
        }));
}

void CatalogStore::importData(const QByteArray &data, const QString &source, const QString &etag, QObject *context,
    Reply<FileImport> reply)
{
    if (!m_worker)
        return reply(false, tr("The catalog is not open."), {});
    m_worker->transact<FileImport>(
        this, [data, source, etag](SqlTx &tx) {
            FileImport result;
            Meta meta = readMeta(tx);
            const auto products = CatalogCsv::parseAny(data, meta.currency, &result.problem);
            if (!products)
                return result;
            meta.source = source;
            meta.etag = etag;
            result.products = int(products->size());
            result.summary = replaceIn(tx, *products, meta);
            return result;
        },
        changedThen<FileImport>(context, std::move(reply), [](const FileImport &r) {
            return r.problem.kind == CatalogProblem::Kind::None;
        }));
}

void CatalogStore::exportCsv(const QString &path, QObject *context, Reply<int> reply)
{
    if (!m_worker)
        return reply(false, tr("The catalog is not open."), 0);
    struct Written
    {
        int count = -1;
        QString error;
    };
    m_worker->transact<Written>(
        context, [path](SqlTx &tx) {
            const Meta meta = readMeta(tx);
            const QList<Product> products = readProducts(tx, meta.currency);
            QFile file(path);
            if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(CatalogCsv::write(products)) < 0
                || !file.flush())
                return Written{-1, file.errorString()};
            return Written{int(products.size()), {}};
        },
        onContext(context, [reply = std::move(reply)](bool ok, const QString &error, const Written &w) {
            if (!ok)
                return reply(false, error, 0);
            if (w.count < 0)
                return reply(false, w.error, 0);
            reply(true, {}, w.count);
        }));
}

void CatalogStore::save(const Product &product, QObject *context, Reply<bool> reply)
{
    if (!m_worker)
        return reply(false, tr("The catalog is not open."), false);
    m_worker->transact<bool>(
        this, [product](SqlTx &tx) {
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT COALESCE((SELECT position FROM products WHERE code = ?),"
                                                  " (SELECT COALESCE(MAX(position), -1) + 1 FROM products))"),
                {product.code});
            const qint64 position = q.next() ? q.value(0).toLongLong() : 0;
            q.finish();
            QVariantList b = binds(product);
            b << position << nowMs();
            tx.exec(QStringLiteral("INSERT OR REPLACE INTO products (%1, position, updated_at)"
                                   " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                        .arg(kColumns),
                b);
            return true;
        },
        changedThen<bool>(context, std::move(reply), [](const bool &) {
            return true;
        }));
}

void CatalogStore::setEtag(const QString &source, const QString &etag, QObject *context, Reply<bool> reply)
{
    if (!m_worker)
        return reply(false, tr("The catalog is not open."), false);
    m_worker->transact<bool>(
        context, [source, etag](SqlTx &tx) {
            writeMeta(tx, QStringLiteral("source"), source);
            writeMeta(tx, QStringLiteral("etag"), etag);
            return true;
        },
        onContext(context, std::move(reply)));
}

void CatalogStore::setTaxMode(TaxMode mode, QObject *context, Reply<bool> reply)
{
    if (!m_worker)
        return reply(false, tr("The catalog is not open."), false);
    m_worker->transact<bool>(
        this, [mode](SqlTx &tx) {
            writeMeta(tx, QStringLiteral("tax_mode"),
                mode == TaxMode::Exclusive ? QStringLiteral("exclusive") : QStringLiteral("inclusive"));
            return true;
        },
        changedThen<bool>(context, std::move(reply), [](const bool &) {
            return true;
        }));
}

}   // namespace OncePay
