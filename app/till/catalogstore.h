#pragma once

#include "catalog.h"
#include "catalogcsv.h"
#include "pricing.h"
#include "sqlbatchworker.h"

#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

namespace OncePay {

// The shop's catalog, kept in the till's own SQLite file beside its journal (never in the
// journal: a catalog is replaced whole by an import, and a sale keeps the lines it was sold
// with). Every call answers on the caller's context; the SQL runs on the store's thread.
class CatalogStore final : public QObject
{
    Q_OBJECT

public:
    template <typename T>
    using Reply = std::function<void(bool ok, const QString &error, T value)>;

    // Where the catalog came from, and what the catalog URL's server said last.
    struct Meta
    {
        QString currency = QStringLiteral("CNY");
        QString source;   // the file or URL last imported
        QString etag;   // the catalog URL's ETag for If-None-Match
        qint64 importedAt = 0;   // ms since the epoch; 0: never imported
        TaxMode taxMode = TaxMode::Inclusive;   // whether the prices include VAT (a setting)
    };
    // Every product, retired ones too, in catalog order.
    struct Snapshot
    {
        QList<Product> products;
        Meta meta;
    };
    struct ImportSummary
    {
        int added = 0;
        int changed = 0;
        int unchanged = 0;
        int retired = 0;   // in the store, not in the file: retired (kept for the editor)
    };

    // "…/till.db" -> "…/till-catalog.db".
    static QString pathBeside(const QString &journalPath);

    explicit CatalogStore(QString path, QObject *parent = nullptr);
    ~CatalogStore() override;
    // Opens (creates) the file; false with the reason in `error`. Only while starting up.
    bool open(QString *error);
    void close();
    QString path() const { return m_path; }

    void load(QObject *context, Reply<Snapshot> reply);
    // The catalog becomes `products`, in one transaction: new codes added, known ones updated
    // (and brought back if retired), the others retired.
    void replace(const QList<Product> &products, const Meta &meta, QObject *context, Reply<ImportSummary> reply);
    // A file's products, read and checked on the store's thread: a bad file (`problem` set)
    // changes nothing; a good one replaces the catalog as replace() does.
    struct FileImport
    {
        CatalogProblem problem;
        QString readError;   // the file could not be read
        int products = 0;
        ImportSummary summary;
    };
    void importFile(const QString &path, QObject *context, Reply<FileImport> reply);
    // The same for a catalog fetched from `source` (a URL) with the server's ETag.
    void importData(const QByteArray &data, const QString &source, const QString &etag, QObject *context,
        Reply<FileImport> reply);
    // Every product, retired ones too, written to `path` as CSV on the store's thread.
    void exportCsv(const QString &path, QObject *context, Reply<int> reply);
    // Adds the product, or changes the one with its code (the editor); its place is kept.
    void save(const Product &product, QObject *context, Reply<bool> reply);
    // The catalog URL's answer "304 Not Modified": only the time and the ETag are kept.
    void setEtag(const QString &source, const QString &etag, QObject *context, Reply<bool> reply);
    // Whether the catalog's prices include VAT (Settings); sales already rung up keep theirs.
    void setTaxMode(TaxMode mode, QObject *context, Reply<bool> reply);

signals:
    void changed();   // after replace() or save() committed

private:
    // The completion of a unit that may change the catalog: changed() once it committed and
    // `isChange` says so (a refused file changes nothing), then the answer on `context` if it
    // lives. The unit runs with this store as its context, so changed() is never lost.
    template <typename T>
    std::function<void(bool, const QString &, T)> changedThen(QObject *context, Reply<T> reply, bool (*isChange)(const T &))
    {
        return [this, context = QPointer<QObject>(context), reply = std::move(reply), isChange](
                   bool ok, const QString &error, const T &value) {
            if (ok && isChange(value))
                emit changed();
            if (context)
                reply(ok, error, value);
        };
    }

    QString m_path;
    std::unique_ptr<SqlBatchWorker> m_worker;
};

}   // namespace OncePay
