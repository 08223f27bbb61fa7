#include "tillcatalog.h"

#include "oncontext.h"

#include <QFile>
#include <QLoggingCategory>

namespace OncePay {

Q_LOGGING_CATEGORY(lcCatalog, "oncepay.till.catalog")

TillCatalog::TillCatalog(QObject *parent)
    : QObject(parent)
{
}

TillCatalog::~TillCatalog() = default;

bool TillCatalog::open(const QString &journalPath, const QString &demoJson, QString *error)
{
    m_demoJson = demoJson;
    m_store = std::make_unique<CatalogStore>(CatalogStore::pathBeside(journalPath));
    QString why;
    if (!m_store->open(&why)) {
        *error = tr("The catalog %1 cannot be opened: %2").arg(m_store->path(), why);
        m_store.reset();
        return false;
    }
    connect(m_store.get(), &CatalogStore::changed, this, &TillCatalog::reload);
    reload();
    return true;
}

void TillCatalog::reload()
{
    m_store->load(this, [this](bool ok, const QString &error, const CatalogStore::Snapshot &snapshot) {
        if (!ok) {
            qCWarning(lcCatalog) << "the catalog could not be read:" << error;
            return;
        }
        m_taxMode = snapshot.meta.taxMode;
        m_source = snapshot.meta.source;
        m_etag = snapshot.meta.etag;
        m_shop = !snapshot.products.isEmpty();
        if (m_shop) {
            m_catalog.setProducts(snapshot.products, snapshot.meta.currency);
        } else {
            // A resource: in memory, no disk.
            QFile demo(m_demoJson);
            QString why;
            if (!demo.open(QIODevice::ReadOnly) || !m_catalog.loadJson(demo.readAll(), &why))
                qCWarning(lcCatalog) << "the demo catalog could not be read:" << m_demoJson << why;
        }
        m_loaded = true;
        qCInfo(lcCatalog) << (m_shop ? "shop catalog" : "demo catalog") << m_catalog.products().size() << "products";
        emit catalogChanged();
    });
}

void TillCatalog::importFile(const QString &path, QObject *context, std::function<void(bool ok, const QString &message)> done)
{
    if (!m_store)
        return done(false, tr("The catalog is not open."));
    m_store->importFile(path, context, onContext(context, [done = std::move(done), path](bool ok, const QString &error, const CatalogStore::FileImport &r) {
        if (!ok)
            return done(false, tr("The catalog was not changed: %1").arg(error));
        if (!r.readError.isEmpty())
            return done(false, tr("Cannot read %1: %2").arg(path, r.readError));
        if (r.problem.kind != CatalogProblem::Kind::None)
            return done(false, tr("The catalog was not changed. %1").arg(CatalogCsv::describe(r.problem)));
        done(true, tr("Imported %n products: %1 new, %2 changed, %3 retired.", nullptr, r.products).arg(r.summary.added).arg(r.summary.changed).arg(r.summary.retired));
    }));
}

}   // namespace OncePay
