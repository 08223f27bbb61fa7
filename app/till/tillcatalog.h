#pragma once

#include "catalog.h"
#include "catalogstore.h"
#include "pricing.h"

#include <QObject>

#include <memory>

namespace OncePay {

// The catalog a till sells from: the shop's own, kept in a CatalogStore beside the journal and
// loaded in the background, or the demo's (a resource, in memory) until one is imported. The
// window asks catalog() for every scan; catalogChanged() tells it when the products changed.
class TillCatalog final : public QObject
{
    Q_OBJECT

public:
    explicit TillCatalog(QObject *parent = nullptr);
    ~TillCatalog() override;

    // Opens the store beside the journal and starts loading it; `demoJson` (a resource path)
    // sells until the shop has its own. False with a sentence when the store cannot be opened.
    bool open(const QString &journalPath, const QString &demoJson, QString *error);

    const Catalog &catalog() const { return m_catalog; }
    const Catalog *catalogPointer() const { return &m_catalog; }
    TaxMode taxMode() const { return m_taxMode; }
    bool isShopCatalog() const { return m_shop; }   // false: the demo's
    bool isLoaded() const { return m_loaded; }
    CatalogStore *store() const { return m_store.get(); }
    QString source() const { return m_source; }
    QString etag() const { return m_etag; }

    // Reads, checks and stores `path` (on the store's thread), then reloads. `done` gets a
    // sentence for the person at the till: what was imported, or what is wrong and where.
    void importFile(const QString &path, QObject *context, std::function<void(bool ok, const QString &message)> done);

signals:
    void catalogChanged();

private:
    void reload();

    Catalog m_catalog;
    QString m_demoJson;
    TaxMode m_taxMode = TaxMode::Inclusive;
    bool m_shop = false;
    bool m_loaded = false;
    QString m_source;
    QString m_etag;
    std::unique_ptr<CatalogStore> m_store;
};

}   // namespace OncePay
