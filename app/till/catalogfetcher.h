#pragma once

#include <QNetworkAccessManager>
#include <QObject>
#include <QTimer>
#include <QUrl>

namespace OncePay {

class TillCatalog;

// The shop's catalog from a URL (issue 23, --catalog-url or Settings): fetched at start and
// every few minutes with If-None-Match, so an unchanged catalog costs a 304; a new one is
// checked and stored on the catalog store's thread (a bad file is refused, naming its line and
// column, and the catalog in use stays); the store is the cache, so the till keeps selling when
// the server cannot be reached.
class CatalogFetcher final : public QObject
{
    Q_OBJECT

public:
    enum class Outcome {
        Updated,   // a new catalog is in use
        NotModified,   // 304: the cached one is current
        Refused,   // the file is not a catalog: `message` says where
        Unreachable,   // no answer, or an HTTP error: the cached one stays
    };
    Q_ENUM(Outcome)

    CatalogFetcher(TillCatalog *catalog, QObject *parent = nullptr);
    void setUrl(const QUrl &url);   // empty: no fetching
    QUrl url() const { return m_url; }
    void setIntervalMs(int ms) { m_timer.setInterval(ms); }
    void fetchNow();

signals:
    void fetched(OncePay::CatalogFetcher::Outcome outcome, const QString &message);

private:
    TillCatalog *m_catalog;
    QUrl m_url;
    QNetworkAccessManager m_network;
    QTimer m_timer;
    bool m_busy = false;
};

}   // namespace OncePay
