// GET /v1/payments?terminal_id=&created_after=&limit=&cursor=: paging through next_cursor
// returns every payment exactly once, newest last; bad parameters are 400.
#include "gatewayapi.h"
#include "gatewayprocess.h"

#include <QDateTime>
#include <QtTest>

using namespace GatewayApi;

class TestListing final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void pagesThroughEverything_data();
    void pagesThroughEverything();
    void createdAfterFilters();
    void badParameters_data();
    void badParameters();

private:
    // Follows next_cursor from the first page; fails the test on a bad page.
    QList<QJsonObject> listAll(const QString &query, int limit, int *pages);

    GatewayProcess m_gateway;
    HttpClient m_client;
    QStringList m_till1Ids;   // in creation order
    QStringList m_till2Ids;
};

void TestListing::initTestCase()
{
    QVERIFY2(m_gateway.start(), m_gateway.failureMessage().constData());
    m_client.setBaseUrl(m_gateway.baseUrl());
    HttpClient till2(m_gateway.baseUrl(), kTill2);
    for (int i = 0; i < 37; ++i) {
        const HttpReply r = pay(m_client, uniqueKey(QStringLiteral("list")), paymentBody(100 + i));
        ONCEPAY_VERIFY_STATUS(r, 201);
        m_till1Ids << r.object().value(QStringLiteral("id")).toString();
        if (i % 9 == 0) {
            const HttpReply r2 = pay(till2, uniqueKey(QStringLiteral("list2")), paymentBody(100 + i));
            ONCEPAY_VERIFY_STATUS(r2, 201);
            m_till2Ids << r2.object().value(QStringLiteral("id")).toString();
        }
    }
}

void TestListing::cleanup()
{
    QVERIFY2(m_gateway.isRunning(), m_gateway.failureMessage().constData());
}

QList<QJsonObject> TestListing::listAll(const QString &query, int limit, int *pages)
{
    QList<QJsonObject> out;
    QString cursor;
    *pages = 0;
    for (;;) {
        QString path = QStringLiteral("/v1/payments?") + query + QStringLiteral("&limit=") + QString::number(limit);
        if (!cursor.isEmpty())
            path += QStringLiteral("&cursor=") + QString::fromLatin1(QUrl::toPercentEncoding(cursor));
        const HttpReply r = m_client.get(path);
        if (r.status != 200 || !r.object().value(QStringLiteral("data")).isArray()) {
            QTest::qFail(r.describe().constData(), __FILE__, __LINE__);
            return {};
        }
        ++*pages;
        const QJsonArray data = r.object().value(QStringLiteral("data")).toArray();
        if (data.size() > limit) {
            QTest::qFail("page longer than limit", __FILE__, __LINE__);
            return {};
        }
        for (const auto &p : data)
            out << p.toObject();
        const QJsonValue next = r.object().value(QStringLiteral("next_cursor"));
        if (!r.object().contains(QStringLiteral("next_cursor"))) {
            QTest::qFail("no next_cursor member", __FILE__, __LINE__);
            return {};
        }
        if (next.isNull())
            return out;
        cursor = next.toString();
        if (cursor.isEmpty() || *pages > 1000) {
            QTest::qFail("bad next_cursor", __FILE__, __LINE__);
            return {};
        }
    }
}

void TestListing::pagesThroughEverything_data()
{
    QTest::addColumn<QString>("terminal");
    QTest::addColumn<int>("limit");
    QTest::newRow("till-1 by 5") << QStringLiteral("till-1") << 5;
    QTest::newRow("till-1 by 1") << QStringLiteral("till-1") << 1;
    QTest::newRow("till-1 by 37") << QStringLiteral("till-1") << 37;
    QTest::newRow("till-1 by 500") << QStringLiteral("till-1") << 500;
    QTest::newRow("till-2 by 2") << QStringLiteral("till-2") << 2;
}

void TestListing::pagesThroughEverything()
{
    QFETCH(QString, terminal);
    QFETCH(int, limit);
    int pages = 0;
    const QList<QJsonObject> all = listAll(QStringLiteral("terminal_id=") + terminal, limit, &pages);
    if (QTest::currentTestFailed())
        return;
    const QStringList &expected = terminal == QStringLiteral("till-1") ? m_till1Ids : m_till2Ids;
    QStringList ids;
    QString previousCreated;
    for (const QJsonObject &p : all) {
        const QByteArray why = paymentMismatch(p);
        QVERIFY2(why.isEmpty(), why.constData());
        QCOMPARE(p.value(QStringLiteral("terminal_id")).toString(), terminal);
        const QString created = p.value(QStringLiteral("created_at")).toString();
        QVERIFY2(QDateTime::fromString(created, Qt::ISODateWithMs)
                    >= QDateTime::fromString(previousCreated, Qt::ISODateWithMs)
                || previousCreated.isEmpty(),
            "not newest last");
        previousCreated = created;
        ids << p.value(QStringLiteral("id")).toString();
    }
    // Every payment exactly once, in the order they were made (newest last).
    QCOMPARE(ids, expected);
    const int fullPages = int((expected.size() + limit - 1) / limit);
    QVERIFY2(pages == fullPages || pages == fullPages + 1, QByteArray::number(pages).constData());
}

void TestListing::createdAfterFilters()
{
    const HttpReply pivot = m_client.get(QStringLiteral("/v1/payments/") + m_till1Ids.at(20));
    ONCEPAY_VERIFY_STATUS(pivot, 200);
    const QString after = pivot.object().value(QStringLiteral("created_at")).toString();
    const QDateTime afterTime = QDateTime::fromString(after, Qt::ISODateWithMs);
    QVERIFY(afterTime.isValid());
    int pages = 0;
    const QList<QJsonObject> listed = listAll(
        QStringLiteral("terminal_id=till-1&created_after=") + QString::fromLatin1(QUrl::toPercentEncoding(after)),
        7, &pages);
    if (QTest::currentTestFailed())
        return;
    QStringList listedIds;
    for (const QJsonObject &p : listed) {
        QVERIFY(QDateTime::fromString(p.value(QStringLiteral("created_at")).toString(), Qt::ISODateWithMs) > afterTime);
        listedIds << p.value(QStringLiteral("id")).toString();
    }
    // Everything made after the pivot is there (ids 21..36 at least when timestamps differ).
    int newer = 0;
    for (const QString &id : std::as_const(m_till1Ids)) {
        const QJsonObject p = m_client.get(QStringLiteral("/v1/payments/") + id).object();
        if (QDateTime::fromString(p.value(QStringLiteral("created_at")).toString(), Qt::ISODateWithMs) > afterTime) {
            QVERIFY2(listedIds.contains(id), qPrintable(id));
            ++newer;
        }
    }
    QCOMPARE(listedIds.size(), newer);
    QVERIFY(!listedIds.contains(m_till1Ids.at(20)));
}

void TestListing::badParameters_data()
{
    QTest::addColumn<QString>("query");
    QTest::newRow("limit 501") << QStringLiteral("terminal_id=till-1&limit=501");
    QTest::newRow("limit 100000") << QStringLiteral("terminal_id=till-1&limit=100000");
    QTest::newRow("limit 0") << QStringLiteral("terminal_id=till-1&limit=0");
    QTest::newRow("limit negative") << QStringLiteral("terminal_id=till-1&limit=-5");
    QTest::newRow("limit not a number") << QStringLiteral("terminal_id=till-1&limit=five");
    QTest::newRow("created_after not a time") << QStringLiteral("terminal_id=till-1&created_after=yesterday");
    QTest::newRow("garbage cursor") << QStringLiteral("terminal_id=till-1&cursor=%2F%2F%2Fnot-a-cursor");
}

void TestListing::badParameters()
{
    QFETCH(QString, query);
    const HttpReply r = m_client.get(QStringLiteral("/v1/payments?") + query);
    ONCEPAY_VERIFY_PROBLEM(r, 400, QStringLiteral("validation-failed"));
}

QTEST_GUILESS_MAIN(TestListing)
#include "tst_listing.moc"
