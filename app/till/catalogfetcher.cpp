#include "catalogfetcher.h"

#include "catalogcsv.h"
#include "tillcatalog.h"

#include <QLoggingCategory>
#include <QNetworkReply>

namespace OncePay {

Q_LOGGING_CATEGORY(lcFetch, "oncepay.till.catalog.fetch")

CatalogFetcher::CatalogFetcher(TillCatalog *catalog, QObject *parent)
    : QObject(parent)
    , m_catalog(catalog)
{
    m_timer.setInterval(5 * 60 * 1000);
    connect(&m_timer, &QTimer::timeout, this, &CatalogFetcher::fetchNow);
}

void CatalogFetcher::setUrl(const QUrl &url)
{
    m_url = url;
    if (m_url.isValid() && !m_url.isEmpty()) {
        m_timer.start();
        fetchNow();
    } else {
        m_timer.stop();
    }
}

void CatalogFetcher::fetchNow()
{
    if (m_busy || !m_url.isValid() || m_url.isEmpty() || !m_catalog->store())
        return;
    m_busy = true;
    QNetworkRequest request(m_url);
    request.setTransferTimeout(30'000);
    // The ETag of what is in use, only when that came from this URL.
    if (m_catalog->source() == m_url.toString() && !m_catalog->etag().isEmpty())
        request.setRawHeader("If-None-Match", m_catalog->etag().toUtf8());
    QNetworkReply *reply = m_network.get(request);
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status == 304) {
            m_busy = false;
            emit fetched(Outcome::NotModified, {});
            return;
        }
        if (reply->error() != QNetworkReply::NoError || status != 200) {
            m_busy = false;
            const QString why = status > 0 ? QStringLiteral("HTTP %1").arg(status) : reply->errorString();
            qCInfo(lcFetch) << "catalog not fetched from" << m_url << why << "; the cached one stays";
            emit fetched(Outcome::Unreachable, why);
            return;
        }
        const QString etag = QString::fromUtf8(reply->rawHeader("ETag"));
        m_catalog->store()->importData(reply->readAll(), m_url.toString(), etag, this,
            [this](bool ok, const QString &error, const CatalogStore::FileImport &r) {
                m_busy = false;
                if (!ok) {
                    emit fetched(Outcome::Unreachable, error);
                } else if (r.problem.kind != CatalogProblem::Kind::None) {
                    const QString why = CatalogCsv::describe(r.problem);
                    qCWarning(lcFetch) << "the catalog at" << m_url << "was refused:" << why;
                    emit fetched(Outcome::Refused, why);
                } else {
                    emit fetched(Outcome::Updated, {});
                }
            });
    });
}

}   // namespace OncePay
