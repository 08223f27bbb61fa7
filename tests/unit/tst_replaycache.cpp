// The gateway's in-memory replay cache: a finished answer is replayed until its expiry and not
// from then on; 202s and answers without a fingerprint are never kept; keys are per merchant;
// the least recently used answer goes first when the cache is full.
#include "gateway/store/replaycache.h"

#include <QTest>

using namespace OncePay::Gateway;

namespace {
StoredResponse answer(int status, const QByteArray &body)
{
    return {status, body, QByteArrayLiteral("/v1/payments/pay_1"), QByteArrayLiteral("application/json")};
}
}   // namespace

class TestReplayCache final : public QObject
{
    Q_OBJECT

private slots:
    void replaysUntilExpiry()
    {
        ReplayCache cache;
        cache.remember(QStringLiteral("m1"), QStringLiteral("k1"), "fp", answer(201, "{\"a\":1}"), 1000);
        const std::optional<ReplayCache::Answer> hit = cache.lookup(QStringLiteral("m1"), QStringLiteral("k1"), 999);
        QVERIFY(hit);
        QCOMPARE(hit->fingerprint, QByteArray("fp"));
        QCOMPARE(hit->response.status, 201);
        QCOMPARE(hit->response.body, QByteArray("{\"a\":1}"));
        QCOMPARE(hit->response.location, QByteArray("/v1/payments/pay_1"));
        QCOMPARE(hit->expiresAt, qint64(1000));
        QVERIFY(!cache.lookup(QStringLiteral("m1"), QStringLiteral("k1"), 1000));
        QVERIFY(!cache.lookup(QStringLiteral("m1"), QStringLiteral("k1"), 5000));
    }

    void keepsOnlyFinishedAnswers()
    {
        ReplayCache cache;
        cache.remember(QStringLiteral("m1"), QStringLiteral("processing"), "fp", answer(202, "{}"), 1000);
        cache.remember(QStringLiteral("m1"), QStringLiteral("nofingerprint"), {}, answer(201, "{}"), 1000);
        cache.remember(QStringLiteral("m1"), QStringLiteral("declined"), "fp", answer(402, "{}"), 1000);
        QVERIFY(!cache.lookup(QStringLiteral("m1"), QStringLiteral("processing"), 0));
        QVERIFY(!cache.lookup(QStringLiteral("m1"), QStringLiteral("nofingerprint"), 0));
        QVERIFY(cache.lookup(QStringLiteral("m1"), QStringLiteral("declined"), 0));
    }

    void keysBelongToOneMerchant()
    {
        ReplayCache cache;
        cache.remember(QStringLiteral("m1"), QStringLiteral("k1"), "fp", answer(201, "{}"), 1000);
        QVERIFY(!cache.lookup(QStringLiteral("m2"), QStringLiteral("k1"), 0));
        QVERIFY(!cache.lookup(QStringLiteral("m1"), QStringLiteral("k2"), 0));
    }

    void dropsLeastRecentlyUsedWhenFull()
    {
        ReplayCache cache(2);
        cache.remember(QStringLiteral("m1"), QStringLiteral("a"), "fp", answer(201, "a"), 1000);
        cache.remember(QStringLiteral("m1"), QStringLiteral("b"), "fp", answer(201, "b"), 1000);
        QVERIFY(cache.lookup(QStringLiteral("m1"), QStringLiteral("a"), 0));   // a is now the most recent
        cache.remember(QStringLiteral("m1"), QStringLiteral("c"), "fp", answer(201, "c"), 1000);
        QVERIFY(cache.lookup(QStringLiteral("m1"), QStringLiteral("a"), 0));
        QVERIFY(!cache.lookup(QStringLiteral("m1"), QStringLiteral("b"), 0));
        QVERIFY(cache.lookup(QStringLiteral("m1"), QStringLiteral("c"), 0));
    }
};

QTEST_GUILESS_MAIN(TestReplayCache)
#include "tst_replaycache.moc"
