// GET /metrics: Prometheus text whose counters move with the traffic that API.md lists
// (requests by route and status, replays, conflicts, mismatches, acquirer calls and
// outcomes, recovery runs, store latency).
#include "gatewayapi.h"
#include "gatewayprocess.h"

#include <QtTest>

using namespace GatewayApi;

class TestMetrics final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void isPrometheusText();
    void countersMove_data();
    void countersMove();
    void recoveryRuns();
    void unknownPathsAreOneSeries();

private:
    QMap<QString, double> scrape();

    GatewayProcess m_gateway;
    HttpClient m_client;
};

void TestMetrics::initTestCase()
{
    QVERIFY2(m_gateway.start({QStringLiteral("--recovery-interval"), QStringLiteral("200ms")}),
        m_gateway.failureMessage().constData());
    m_client.setBaseUrl(m_gateway.baseUrl());
}

QMap<QString, double> TestMetrics::scrape()
{
    return parseMetrics(m_client.get(QStringLiteral("/metrics")).body);
}

void TestMetrics::isPrometheusText()
{
    ONCEPAY_VERIFY_STATUS(pay(m_client, uniqueKey()), 201);
    const HttpReply r = m_client.get(QStringLiteral("/metrics"));
    ONCEPAY_VERIFY_STATUS(r, 200);
    QVERIFY2(r.header("Content-Type").startsWith("text/plain"), r.describe().constData());
    int samples = 0;
    for (const QByteArray &line : r.body.split('\n')) {
        if (line.isEmpty())
            continue;
        if (line.startsWith('#')) {
            QVERIFY2(line.startsWith("# HELP ") || line.startsWith("# TYPE "), line.constData());
            continue;
        }
        ++samples;
    }
    QCOMPARE(parseMetrics(r.body).size(), samples);   // every sample line parses
    QVERIFY(samples > 0);
    QVERIFY(r.body.endsWith('\n'));
}

void TestMetrics::countersMove_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QStringList>("labels");

    QTest::newRow("201 counted by route") << QStringLiteral("pay") << QStringLiteral("oncepay_http_requests_total")
                                          << QStringList{QStringLiteral("status=\"201\""), QStringLiteral("/v1/payments")};
    QTest::newRow("acquirer charge") << QStringLiteral("pay") << QStringLiteral("oncepay_acquirer_calls_total")
                                     << QStringList{QStringLiteral("charge")};
    QTest::newRow("store latency") << QStringLiteral("pay") << QStringLiteral("oncepay_store_latency_seconds_count")
                                   << QStringList();
    QTest::newRow("gateway store commits") << QStringLiteral("pay") << QStringLiteral("oncepay_store_commits_total")
                                           << QStringList{QStringLiteral("store=\"gateway\"")};
    QTest::newRow("acquirer ledger commits") << QStringLiteral("pay") << QStringLiteral("oncepay_store_commits_total")
                                             << QStringList{QStringLiteral("store=\"acquirer\"")};
    QTest::newRow("gateway store units") << QStringLiteral("pay") << QStringLiteral("oncepay_store_units_total")
                                         << QStringList{QStringLiteral("store=\"gateway\"")};
    QTest::newRow("replay") << QStringLiteral("replay") << QStringLiteral("oncepay_idempotent_replays_total") << QStringList();
    QTest::newRow("422 mismatch") << QStringLiteral("mismatch") << QStringLiteral("oncepay_idempotency_mismatches_total")
                                  << QStringList();
    QTest::newRow("422 counted") << QStringLiteral("mismatch") << QStringLiteral("oncepay_http_requests_total")
                                 << QStringList{QStringLiteral("status=\"422\"")};
    QTest::newRow("409 conflict") << QStringLiteral("conflict") << QStringLiteral("oncepay_idempotency_conflicts_total")
                                  << QStringList();
    QTest::newRow("decline outcome") << QStringLiteral("decline") << QStringLiteral("oncepay_acquirer_calls_total")
                                     << QStringList{QStringLiteral("declined")};
    QTest::newRow("404 counted") << QStringLiteral("notfound") << QStringLiteral("oncepay_http_requests_total")
                                 << QStringList{QStringLiteral("status=\"404\"")};
}

void TestMetrics::countersMove()
{
    QFETCH(QString, action);
    QFETCH(QString, metric);
    QFETCH(QStringList, labels);

    const QString key = uniqueKey(action);
    if (action != QStringLiteral("pay") && action != QStringLiteral("decline") && action != QStringLiteral("notfound"))
        ONCEPAY_VERIFY_STATUS(pay(m_client, key, paymentBody(100)), 201);
    const double before = metricSum(scrape(), metric, labels);

    if (action == QStringLiteral("pay")) {
        ONCEPAY_VERIFY_STATUS(pay(m_client, key, paymentBody(100)), 201);
    } else if (action == QStringLiteral("replay")) {
        QVERIFY(pay(m_client, key, paymentBody(100)).replayed());
    } else if (action == QStringLiteral("mismatch")) {
        ONCEPAY_VERIFY_STATUS(pay(m_client, key, paymentBody(101)), 422);
    } else if (action == QStringLiteral("decline")) {
        ONCEPAY_VERIFY_STATUS(pay(m_client, key, paymentBody(100, QStringLiteral("tok_chargeDeclined"))), 402);
    } else if (action == QStringLiteral("notfound")) {
        ONCEPAY_VERIFY_STATUS(m_client.get(QStringLiteral("/v1/payments/pay_nothing")), 404);
    } else if (action == QStringLiteral("conflict")) {
        QVERIFY(setAcquirer(m_client, QStringLiteral("normal"), 800));
        const QString held = uniqueKey(QStringLiteral("held"));
        QNetworkReply *first = m_client.start({"POST", QStringLiteral("/v1/payments"), paymentBody(), keyHeader(held)});
        QTRY_VERIFY_WITH_TIMEOUT(m_client.get(QStringLiteral("/v1/payments?idempotency_key=") + held).status == 200, 10000);
        HttpClient other(m_gateway.baseUrl());
        ONCEPAY_VERIFY_STATUS(pay(other, held), 409);
        ONCEPAY_VERIFY_STATUS(m_client.collect(first), 201);
        QVERIFY(setAcquirer(m_client, QStringLiteral("normal"), 0));
    }
    // The /metrics scrape itself may be counted too, so "moved", not "moved by exactly one".
    QTRY_VERIFY_WITH_TIMEOUT(metricSum(scrape(), metric, labels) >= before + 1, 5000);
}

void TestMetrics::recoveryRuns()
{
    const double before = metricSum(scrape(), QStringLiteral("oncepay_recovery_runs_total"));
    QTRY_VERIFY_WITH_TIMEOUT(metricSum(scrape(), QStringLiteral("oncepay_recovery_runs_total")) > before, 10000);
    // A lost answer is resolved by the recovery worker, which counts it.
    const double resolved = metricSum(scrape(), QStringLiteral("oncepay_recovery_resolved_total"));
    ONCEPAY_VERIFY_STATUS(pay(m_client, uniqueKey(), paymentBody(100, QStringLiteral("tok_timeoutAfterCharge"))), 202);
    QTRY_VERIFY_WITH_TIMEOUT(metricSum(scrape(), QStringLiteral("oncepay_recovery_resolved_total")) > resolved, 20000);
}

// Issue 11: requests are counted by route template, never by the client's path: 500 unknown
// paths (with the attacker's bytes in them) add no series and no bytes of theirs to the scrape.
void TestMetrics::unknownPathsAreOneSeries()
{
    for (int i = 0; i < 5; ++i)
        ONCEPAY_VERIFY_STATUS(m_client.get(QStringLiteral("/probe-%1").arg(i)), 404);
    const QByteArray before = m_client.get(QStringLiteral("/metrics")).body;
    for (int i = 0; i < 500; ++i) {
        const HttpReply r = m_client.get(QStringLiteral("/attacker-%1-%00-%E2%80%AE-x").arg(i));
        QVERIFY2(r.status == 404 || r.status == 400, r.describe().constData());
    }
    ONCEPAY_VERIFY_STATUS(m_client.get(QStringLiteral("/v1/payments/pay_route_check")), 404);
    const QByteArray after = m_client.get(QStringLiteral("/metrics")).body;
    QVERIFY2(!after.contains("attacker") && !after.contains("probe-") && !after.contains("pay_route_check"),
        after.constData());
    QVERIFY2(after.contains("route=\"other\""), after.constData());
    QVERIFY2(after.contains("route=\"/v1/payments/{id}\""), after.constData());
    // Bounded: the same series as before, only the counts moved (a few new series at most).
    QVERIFY2(after.size() < before.size() + 1024, qPrintable(QStringLiteral("%1 -> %2 bytes").arg(before.size()).arg(after.size())));
}

QTEST_GUILESS_MAIN(TestMetrics)
#include "tst_metrics.moc"
