// The shop's catalog from a URL (issue 23) against a real HTTP server on localhost: fetched with
// its ETag, then asked with If-None-Match and answered 304; a bad file is refused naming its line
// and column and the catalog in use stays; with the server gone the cached catalog still sells,
// also after a restart.
#include "catalogfetcher.h"
#include "tillcatalog.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

using namespace OncePay;

namespace {

// One file at /catalog.csv with an ETag; remembers the If-None-Match of each request.
class CatalogServer final : public QObject
{
public:
    QByteArray body;
    QByteArray etag;
    QList<QByteArray> ifNoneMatch;

    bool listen()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [this, s] {
                    m_requests[s] += s->readAll();
                    if (!m_requests[s].contains("\r\n\r\n"))
                        return;
                    const QByteArray request = m_requests.take(s);
                    QByteArray match;
                    for (const QByteArray &line : request.split('\n')) {
                        if (line.toLower().startsWith("if-none-match:"))
                            match = line.mid(14).trimmed();
                    }
                    ifNoneMatch << match;
                    QByteArray answer;
                    if (!match.isEmpty() && match == etag)
                        answer = "HTTP/1.1 304 Not Modified\r\nETag: " + etag + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
                    else
                        answer = "HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nETag: " + etag + "\r\nContent-Length: "
                            + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
                    s->write(answer);
                    s->disconnectFromHost();
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
        return m_server.listen(QHostAddress::LocalHost, 0);
    }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/catalog.csv").arg(m_server.serverPort())); }
    void close() { m_server.close(); }

private:
    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_requests;
};

const QByteArray kHeader = "code,barcode,name,name_zh,price,vat,category,unit\n";

}   // namespace

Q_DECLARE_METATYPE(OncePay::CatalogFetcher::Outcome)

class TestCatalogFetcher final : public QObject
{
    Q_OBJECT

private slots:
    void fetchesCachesAndKeepsTheOldOnAProblem();
};

void TestCatalogFetcher::fetchesCachesAndKeepsTheOldOnAProblem()
{
    qRegisterMetaType<CatalogFetcher::Outcome>();
    QTemporaryDir dir;
    const QString journal = dir.filePath(QStringLiteral("till.db"));
    CatalogServer server;
    QVERIFY(server.listen());
    server.body = kHeader + "T1,6901234500011,Green tea,绿茶,12.50,13,Drinks,each\n";
    server.etag = "\"v1\"";

    auto catalog = std::make_unique<TillCatalog>();
    QString error;
    QVERIFY2(catalog->open(journal, QStringLiteral(ONCEPAY_DEMO_CATALOG), &error), qPrintable(error));
    QTRY_VERIFY(catalog->isLoaded());
    QVERIFY(!catalog->isShopCatalog());
    auto fetcher = std::make_unique<CatalogFetcher>(catalog.get());
    QSignalSpy fetched(fetcher.get(), &CatalogFetcher::fetched);

    // The first fetch: no ETag sent, the catalog replaced.
    fetcher->setUrl(server.url());
    QTRY_COMPARE(fetched.size(), 1);
    QCOMPARE(fetched.at(0).at(0).value<CatalogFetcher::Outcome>(), CatalogFetcher::Outcome::Updated);
    QTRY_VERIFY(catalog->isShopCatalog() && catalog->etag() == QStringLiteral("\"v1\""));
    QCOMPARE(server.ifNoneMatch.value(0), QByteArray());
    QCOMPARE(catalog->catalog().byCode(QStringLiteral("T1"))->price.minorUnits(), 1250);

    // Unchanged: asked with If-None-Match, answered 304.
    fetcher->fetchNow();
    QTRY_COMPARE(fetched.size(), 2);
    QCOMPARE(fetched.at(1).at(0).value<CatalogFetcher::Outcome>(), CatalogFetcher::Outcome::NotModified);
    QCOMPARE(server.ifNoneMatch.value(1), QByteArray("\"v1\""));

    // A bad file: refused with its line and column; the catalog in use stays.
    server.body = kHeader + "T1,,Green tea,,\"12,50\",13,Drinks,each\n";
    server.etag = "\"v2\"";
    fetcher->fetchNow();
    QTRY_COMPARE(fetched.size(), 3);
    QCOMPARE(fetched.at(2).at(0).value<CatalogFetcher::Outcome>(), CatalogFetcher::Outcome::Refused);
    QVERIFY2(fetched.at(2).at(1).toString().contains(QStringLiteral("price")), qPrintable(fetched.at(2).at(1).toString()));
    QCOMPARE(catalog->catalog().byCode(QStringLiteral("T1"))->price.minorUnits(), 1250);

    // A good new one.
    server.body = kHeader + "T1,6901234500011,Green tea,绿茶,13.00,13,Drinks,each\nT2,,Oolong,乌龙,5.00,13,Drinks,each\n";
    server.etag = "\"v3\"";
    fetcher->fetchNow();
    QTRY_COMPARE(fetched.size(), 4);
    QCOMPARE(fetched.at(3).at(0).value<CatalogFetcher::Outcome>(), CatalogFetcher::Outcome::Updated);
    QTRY_VERIFY(catalog->catalog().byCode(QStringLiteral("T2")) != nullptr);

    // The server gone: the cached catalog sells, now and after a restart of the till.
    server.close();
    fetcher->fetchNow();
    QTRY_COMPARE(fetched.size(), 5);
    QCOMPARE(fetched.at(4).at(0).value<CatalogFetcher::Outcome>(), CatalogFetcher::Outcome::Unreachable);
    QCOMPARE(catalog->catalog().byCode(QStringLiteral("T1"))->price.minorUnits(), 1300);
    fetcher.reset();
    catalog.reset();
    TillCatalog restarted;
    QVERIFY2(restarted.open(journal, QStringLiteral(ONCEPAY_DEMO_CATALOG), &error), qPrintable(error));
    QTRY_VERIFY(restarted.isLoaded());
    QVERIFY(restarted.isShopCatalog());
    QCOMPARE(restarted.catalog().byCode(QStringLiteral("T2"))->price.minorUnits(), 500);
}

QTEST_GUILESS_MAIN(TestCatalogFetcher)
#include "tst_catalogfetcher.moc"
