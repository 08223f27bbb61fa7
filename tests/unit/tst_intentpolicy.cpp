// The till's response rules as tables: every answer class of API.md (and the two ways the
// transport can fail) against the state, the next step and the queue-wide effects, for payments
// and for refunds; backoff
// with full jitter; the merchant's store-and-forward limits; the state names as stored.
#include "intentpolicy.h"

#include <QJsonObject>
#include <QSet>
#include <QTest>

#include <limits>

using namespace OncePay;
using Next = Decision::Next;

Q_DECLARE_METATYPE(OncePay::GatewayResult)
Q_DECLARE_METATYPE(OncePay::IntentState)
Q_DECLARE_METATYPE(OncePay::Decision::Next)
Q_DECLARE_METATYPE(OncePay::OfflineLimits)

namespace {

QJsonObject payment(const QString &status, const QString &declineCode = {})
{
    QJsonObject p{{QStringLiteral("id"), QStringLiteral("pay_0123456789abcdefghijklmn")},
        {QStringLiteral("object"), QStringLiteral("payment")},
        {QStringLiteral("amount"), 1999},
        {QStringLiteral("currency"), QStringLiteral("CNY")},
        {QStringLiteral("status"), status},
        {QStringLiteral("order_id"), QStringLiteral("ord-0001")},
        {QStringLiteral("idempotency_key"), QStringLiteral("pay-k")}};
    p.insert(QStringLiteral("decline_code"), declineCode.isEmpty() ? QJsonValue() : QJsonValue(declineCode));
    return p;
}

GatewayResult withPayment(int status, const QString &paymentStatus, bool replayed = false)
{
    GatewayResult r;
    r.transport = GatewayResult::Transport::Answered;
    r.status = status;
    r.json = payment(paymentStatus);
    r.replayed = replayed;
    return r;
}

GatewayResult withProblem(int status, const QString &slug, qint64 retryAfterMs = -1)
{
    Problem p = Problem::make(status, slug, QStringLiteral("Title of %1").arg(slug),
        QStringLiteral("Detail of %1").arg(slug));
    if (status == 402)
        p.extra.insert(QStringLiteral("payment"), payment(QStringLiteral("declined"), QStringLiteral("card_declined")));
    GatewayResult r;
    r.transport = GatewayResult::Transport::Answered;
    r.status = status;
    r.json = p.toJsonObject();
    r.body = p.toJson();
    r.problem = p;
    r.retryAfterMs = retryAfterMs;
    return r;
}

QJsonObject refund(const QString &status, const QString &failureCode = {})
{
    QJsonObject r{{QStringLiteral("id"), QStringLiteral("re_0123456789abcdefghijklmn")},
        {QStringLiteral("object"), QStringLiteral("refund")},
        {QStringLiteral("payment_id"), QStringLiteral("pay_0123456789abcdefghijklmn")},
        {QStringLiteral("amount"), 500},
        {QStringLiteral("currency"), QStringLiteral("CNY")},
        {QStringLiteral("status"), status},
        {QStringLiteral("idempotency_key"), QStringLiteral("ref-k")}};
    r.insert(QStringLiteral("failure_code"), failureCode.isEmpty() ? QJsonValue() : QJsonValue(failureCode));
    return r;
}

GatewayResult withRefund(int status, const QString &refundStatus, const QString &failureCode = {})
{
    GatewayResult r;
    r.transport = GatewayResult::Transport::Answered;
    r.status = status;
    r.json = refund(refundStatus, failureCode);
    return r;
}

// A refund's problem: a 402 refund-declined carries the failed refund.
GatewayResult withRefundProblem(int status, const QString &slug, qint64 retryAfterMs = -1)
{
    GatewayResult r = withProblem(status, slug, retryAfterMs);
    if (status == 402) {
        r.problem->extra.remove(QStringLiteral("payment"));
        r.problem->extra.insert(QStringLiteral("refund"), refund(QStringLiteral("failed"), QStringLiteral("refund_rejected")));
        r.json = r.problem->toJsonObject();
        r.body = r.problem->toJson();
    }
    return r;
}

// What something in front of the gateway answers (nginx "bad gateway"): no problem document.
GatewayResult bareStatus(int status)
{
    GatewayResult r;
    r.transport = GatewayResult::Transport::Answered;
    r.status = status;
    r.body = "<html>" + QByteArray::number(status) + "</html>";
    return r;
}

GatewayResult transport(GatewayResult::Transport t, const QString &error)
{
    GatewayResult r;
    r.transport = t;
    r.transportError = error;
    return r;
}

void addDecisionColumns()
{
    QTest::addColumn<GatewayResult>("result");
    QTest::addColumn<IntentState>("state");
    QTest::addColumn<Next>("next");
    QTest::addColumn<bool>("pauseQueue");
    QTest::addColumn<bool>("connectivityLost");
    QTest::addColumn<qint64>("retryAfterMs");
    QTest::addColumn<QString>("problemContains");   // empty: the decision carries no problem
}

void verifyDecision(const Decision &d)
{
    QFETCH(IntentState, state);
    QFETCH(Next, next);
    QFETCH(bool, pauseQueue);
    QFETCH(bool, connectivityLost);
    QFETCH(qint64, retryAfterMs);
    QFETCH(QString, problemContains);
    QCOMPARE(intentStateName(d.state), intentStateName(state));
    QCOMPARE(int(d.next), int(next));
    QCOMPARE(d.pauseQueue, pauseQueue);
    QCOMPARE(d.connectivityLost, connectivityLost);
    QCOMPARE(d.retryAfterMs, retryAfterMs);
    if (problemContains.isEmpty())
        QVERIFY2(d.problem.isEmpty(), qPrintable(d.problem));
    else
        QVERIFY2(d.problem.contains(problemContains), qPrintable(d.problem));
}

constexpr auto NotSent = GatewayResult::Transport::NotSent;
constexpr auto LostAfterSend = GatewayResult::Transport::LostAfterSend;

}   // namespace

class TestIntentPolicy final : public QObject
{
    Q_OBJECT

private slots:
    void classifyPost_data();
    void classifyPost();
    void classifyLookup_data();
    void classifyLookup();
    void paymentStatus_data();
    void paymentStatus();
    void classifyRefundPost_data();
    void classifyRefundPost();
    void classifyRefundLookup_data();
    void classifyRefundLookup();
    void refundStatus_data();
    void refundStatus();
    void backoffBounds_data();
    void backoffBounds();
    void backoffRetryAfterFloor_data();
    void backoffRetryAfterFloor();
    void backoffJitterSpread();
    void backoffSeeded();
    void offlineRefusal_data();
    void offlineRefusal();
    void stateNames_data();
    void stateNames();
    void stateNamesRejectOthers_data();
    void stateNamesRejectOthers();
    void everyStateHasAName();
    void kindNames();
};

void TestIntentPolicy::classifyPost_data()
{
    addDecisionColumns();
    using S = IntentState;
    // result, state, next, pause, lost, retryAfter, problem
    QTest::newRow("201 succeeded") << withPayment(201, QStringLiteral("succeeded"))
                                   << S::Succeeded << Next::Settle << false << false << qint64(-1) << QString();
    QTest::newRow("201 replayed") << withPayment(201, QStringLiteral("succeeded"), true)
                                  << S::Succeeded << Next::Settle << false << false << qint64(-1) << QString();
    QTest::newRow("201 later refunded") << withPayment(201, QStringLiteral("partially_refunded"))
                                        << S::Succeeded << Next::Settle << false << false << qint64(-1) << QString();
    QTest::newRow("202 processing") << withPayment(202, QStringLiteral("processing"))
                                    << S::Processing << Next::Poll << false << false << qint64(-1) << QString();
    QTest::newRow("202 replay now succeeded") << withPayment(201, QStringLiteral("succeeded"), true)
                                              << S::Succeeded << Next::Settle << false << false << qint64(-1) << QString();
    QTest::newRow("402 card-declined") << withProblem(402, QStringLiteral("card-declined"))
                                       << S::Declined << Next::Settle << false << false << qint64(-1)
                                       << QStringLiteral("Detail of card-declined");
    QTest::newRow("409 key in use, Retry-After 1") << withProblem(409, QStringLiteral("idempotency-key-in-use"), 1000)
                                                   << S::Processing << Next::RetryPost << false << false << qint64(1000)
                                                   << QString();
    QTest::newRow("400 validation-failed") << withProblem(400, QStringLiteral("validation-failed"))
                                           << S::NeedsAttention << Next::Hold << false << false << qint64(-1)
                                           << QStringLiteral("Detail of validation-failed");
    QTest::newRow("400 idempotency-key-invalid") << withProblem(400, QStringLiteral("idempotency-key-invalid"))
                                                 << S::NeedsAttention << Next::Hold << false << false << qint64(-1)
                                                 << QStringLiteral("idempotency-key-invalid");
    QTest::newRow("401 unauthorized") << withProblem(401, QStringLiteral("unauthorized"))
                                      << S::Queued << Next::Hold << true << false << qint64(-1)
                                      << QStringLiteral("Detail of unauthorized");
    QTest::newRow("413 payload-too-large") << withProblem(413, QStringLiteral("payload-too-large"))
                                           << S::NeedsAttention << Next::Hold << false << false << qint64(-1)
                                           << QStringLiteral("payload-too-large");
    QTest::newRow("415 unsupported media type") << withProblem(415, QStringLiteral("unsupported-media-type"))
                                                << S::NeedsAttention << Next::Hold << false << false << qint64(-1)
                                                << QStringLiteral("unsupported-media-type");
    QTest::newRow("422 idempotency-key-reused") << withProblem(422, QStringLiteral("idempotency-key-reused"))
                                                << S::NeedsAttention << Next::Hold << false << false << qint64(-1)
                                                << QStringLiteral("idempotency-key-reused");
    QTest::newRow("429 rate-limited, Retry-After 2") << withProblem(429, QStringLiteral("rate-limited"), 2000)
                                                     << S::Queued << Next::RetryPost << false << false << qint64(2000)
                                                     << QStringLiteral("rate-limited");
    QTest::newRow("502 acquirer-unavailable") << withProblem(502, QStringLiteral("acquirer-unavailable"))
                                              << S::Queued << Next::RetryPost << false << false << qint64(-1)
                                              << QStringLiteral("acquirer-unavailable");
    QTest::newRow("503 store-unavailable, Retry-After 1") << withProblem(503, QStringLiteral("store-unavailable"), 1000)
                                                          << S::Queued << Next::RetryPost << false << false
                                                          << qint64(1000) << QStringLiteral("store-unavailable");
    QTest::newRow("500 internal") << withProblem(500, QStringLiteral("internal"))
                                  << S::Queued << Next::RetryPost << false << false << qint64(-1)
                                  << QStringLiteral("internal");
    {
        GatewayResult bare;   // a proxy's 500 with an HTML body: no problem document
        bare.transport = GatewayResult::Transport::Answered;
        bare.status = 500;
        bare.body = "<html>oops</html>";
        QTest::newRow("500 without a problem document") << bare << S::Queued << Next::RetryPost << false << false
                                                        << qint64(-1) << QStringLiteral("500");
    }
    QTest::newRow("transport: not sent") << transport(NotSent, QStringLiteral("Connection refused"))
                                         << S::Queued << Next::RetryPost << false << true << qint64(-1)
                                         << QStringLiteral("Connection refused");
    QTest::newRow("transport: lost after send") << transport(LostAfterSend, QStringLiteral("timed out"))
                                                << S::Unknown << Next::Resolve << false << true << qint64(-1)
                                                << QStringLiteral("timed out");
}

void TestIntentPolicy::classifyPost()
{
    QFETCH(GatewayResult, result);
    verifyDecision(OncePay::classifyPost(result));
}

void TestIntentPolicy::classifyLookup_data()
{
    addDecisionColumns();
    using S = IntentState;
    QTest::newRow("200 succeeded") << withPayment(200, QStringLiteral("succeeded"))
                                   << S::Succeeded << Next::Settle << false << false << qint64(-1) << QString();
    QTest::newRow("200 refunded") << withPayment(200, QStringLiteral("refunded"))
                                  << S::Succeeded << Next::Settle << false << false << qint64(-1) << QString();
    {
        GatewayResult declined = withPayment(200, QStringLiteral("declined"));
        declined.json = payment(QStringLiteral("declined"), QStringLiteral("insufficient_funds"));
        QTest::newRow("200 declined") << declined << S::Declined << Next::Settle << false << false << qint64(-1)
                                      << QStringLiteral("insufficient_funds");
    }
    QTest::newRow("200 processing") << withPayment(200, QStringLiteral("processing"))
                                    << S::Processing << Next::Poll << false << false << qint64(-1) << QString();
    QTest::newRow("404 never executed") << withProblem(404, QStringLiteral("not-found"))
                                        << S::Queued << Next::RetryPost << false << false << qint64(-1) << QString();
    QTest::newRow("401 unauthorized") << withProblem(401, QStringLiteral("unauthorized"))
                                      << S::Unknown << Next::Hold << true << false << qint64(-1)
                                      << QStringLiteral("Detail of unauthorized");
    QTest::newRow("429 rate-limited, Retry-After 3") << withProblem(429, QStringLiteral("rate-limited"), 3000)
                                                     << S::Unknown << Next::Resolve << false << false << qint64(3000)
                                                     << QStringLiteral("rate-limited");
    QTest::newRow("500 internal") << withProblem(500, QStringLiteral("internal"))
                                  << S::Unknown << Next::Resolve << false << false << qint64(-1)
                                  << QStringLiteral("internal");
    QTest::newRow("502 bad gateway") << withProblem(502, QStringLiteral("acquirer-unavailable"))
                                     << S::Unknown << Next::Resolve << false << false << qint64(-1)
                                     << QStringLiteral("acquirer-unavailable");
    QTest::newRow("503 store-unavailable") << withProblem(503, QStringLiteral("store-unavailable"), 1000)
                                           << S::Unknown << Next::Resolve << false << false << qint64(1000)
                                           << QStringLiteral("store-unavailable");
    QTest::newRow("transport: not sent") << transport(NotSent, QStringLiteral("Connection refused"))
                                         << S::Unknown << Next::Resolve << false << true << qint64(-1)
                                         << QStringLiteral("Connection refused");
    QTest::newRow("transport: lost after send") << transport(LostAfterSend, QStringLiteral("timed out"))
                                                << S::Unknown << Next::Resolve << false << true << qint64(-1)
                                                << QStringLiteral("timed out");
}

void TestIntentPolicy::classifyLookup()
{
    QFETCH(GatewayResult, result);
    verifyDecision(OncePay::classifyLookup(result));
}

void TestIntentPolicy::paymentStatus_data()
{
    QTest::addColumn<QString>("status");
    QTest::addColumn<IntentState>("state");
    QTest::newRow("succeeded") << QStringLiteral("succeeded") << IntentState::Succeeded;
    QTest::newRow("refunded") << QStringLiteral("refunded") << IntentState::Succeeded;
    QTest::newRow("partially_refunded") << QStringLiteral("partially_refunded") << IntentState::Succeeded;
    QTest::newRow("declined") << QStringLiteral("declined") << IntentState::Declined;
    QTest::newRow("processing") << QStringLiteral("processing") << IntentState::Processing;
    // Anything the till does not understand is not final: it asks again rather than guess.
    QTest::newRow("unknown word") << QStringLiteral("Succeeded") << IntentState::Processing;
    QTest::newRow("empty") << QString() << IntentState::Processing;
}

void TestIntentPolicy::paymentStatus()
{
    QFETCH(QString, status);
    QFETCH(IntentState, state);
    QCOMPARE(intentStateName(stateForPaymentStatus(status)), intentStateName(state));
}

void TestIntentPolicy::classifyRefundPost_data()
{
    addDecisionColumns();
    using S = IntentState;
    const qint64 none = -1;
    // result, state, next, pause, lost, retryAfter, problem
    QTest::newRow("201 succeeded") << withRefund(201, QStringLiteral("succeeded"))
                                   << S::Succeeded << Next::Settle << false << false << none << QString();
    QTest::newRow("201 replayed") << [] {
        GatewayResult r = withRefund(201, QStringLiteral("succeeded"));
        r.replayed = true;
        return r;
    }() << S::Succeeded << Next::Settle
                                  << false << false << none << QString();
    QTest::newRow("202 processing") << withRefund(202, QStringLiteral("processing"))
                                    << S::Processing << Next::Poll << false << false << none << QString();
    QTest::newRow("202 replay, now failed") << withRefund(202, QStringLiteral("failed"), QStringLiteral("refund_rejected"))
                                            << S::Declined << Next::Settle << false << false << none
                                            << QStringLiteral("refund_rejected");
    QTest::newRow("402 refund-declined") << withRefundProblem(402, QStringLiteral("refund-declined"))
                                         << S::Declined << Next::Settle << false << false << none
                                         << QStringLiteral("Detail of refund-declined");
    QTest::newRow("409 key in progress, Retry-After 1") << withRefundProblem(409, QStringLiteral("idempotency-key-in-use"), 1000)
                                                        << S::Processing << Next::RetryPost << false << false << qint64(1000)
                                                        << QString();
    QTest::newRow("400 more than remains") << withRefundProblem(400, QStringLiteral("validation-failed"))
                                           << S::NeedsAttention << Next::Hold << false << false << none
                                           << QStringLiteral("Detail of validation-failed");
    QTest::newRow("404 no such payment") << withRefundProblem(404, QStringLiteral("not-found"))
                                         << S::NeedsAttention << Next::Hold << false << false << none
                                         << QStringLiteral("Detail of not-found");
    QTest::newRow("422 key reused") << withRefundProblem(422, QStringLiteral("idempotency-key-reused"))
                                    << S::NeedsAttention << Next::Hold << false << false << none
                                    << QStringLiteral("idempotency-key-reused");
    QTest::newRow("413") << withRefundProblem(413, QStringLiteral("payload-too-large"))
                         << S::NeedsAttention << Next::Hold << false << false << none << QStringLiteral("payload-too-large");
    QTest::newRow("401 unauthorized") << withRefundProblem(401, QStringLiteral("unauthorized"))
                                      << S::Queued << Next::Hold << true << false << none
                                      << QStringLiteral("Detail of unauthorized");
    QTest::newRow("429 rate-limited, Retry-After 2") << withRefundProblem(429, QStringLiteral("rate-limited"), 2000)
                                                     << S::Queued << Next::RetryPost << false << false << qint64(2000)
                                                     << QStringLiteral("rate-limited");
    QTest::newRow("502 acquirer-unavailable: nothing happened") << withRefundProblem(502, QStringLiteral("acquirer-unavailable"))
                                                                << S::Queued << Next::RetryPost << false << false << none
                                                                << QStringLiteral("acquirer-unavailable");
    QTest::newRow("503 store-unavailable: nothing happened") << withRefundProblem(503, QStringLiteral("store-unavailable"), 1000)
                                                             << S::Queued << Next::RetryPost << false << false << qint64(1000)
                                                             << QStringLiteral("store-unavailable");
    QTest::newRow("500 outcome-unknown: ask by key") << withRefundProblem(500, QStringLiteral("outcome-unknown"))
                                                     << S::Unknown << Next::Resolve << false << false << none
                                                     << QStringLiteral("outcome-unknown");
    QTest::newRow("502 from a proxy: may have reached it") << bareStatus(502)
                                                           << S::Unknown << Next::Resolve << false << false << none
                                                           << QStringLiteral("502");
    QTest::newRow("504 from a proxy") << bareStatus(504) << S::Unknown << Next::Resolve << false << false << none
                                      << QStringLiteral("504");
    QTest::newRow("transport: not sent") << transport(NotSent, QStringLiteral("Connection refused"))
                                         << S::Queued << Next::RetryPost << false << true << none
                                         << QStringLiteral("Connection refused");
    QTest::newRow("transport: lost after send") << transport(LostAfterSend, QStringLiteral("timed out"))
                                                << S::Unknown << Next::Resolve << false << true << none
                                                << QStringLiteral("timed out");
}

void TestIntentPolicy::classifyRefundPost()
{
    QFETCH(GatewayResult, result);
    verifyDecision(OncePay::classifyRefundPost(result));
}

void TestIntentPolicy::classifyRefundLookup_data()
{
    addDecisionColumns();
    using S = IntentState;
    const qint64 none = -1;
    QTest::newRow("200 succeeded") << withRefund(200, QStringLiteral("succeeded"))
                                   << S::Succeeded << Next::Settle << false << false << none << QString();
    QTest::newRow("200 failed") << withRefund(200, QStringLiteral("failed"), QStringLiteral("refund_rejected"))
                                << S::Declined << Next::Settle << false << false << none << QStringLiteral("refund_rejected");
    QTest::newRow("200 processing") << withRefund(200, QStringLiteral("processing"))
                                    << S::Processing << Next::Poll << false << false << none << QString();
    QTest::newRow("404 never executed: send again") << withRefundProblem(404, QStringLiteral("not-found"))
                                                    << S::Queued << Next::RetryPost << false << false << none << QString();
    QTest::newRow("401 unauthorized") << withRefundProblem(401, QStringLiteral("unauthorized"))
                                      << S::Unknown << Next::Hold << true << false << none
                                      << QStringLiteral("Detail of unauthorized");
    QTest::newRow("429, Retry-After 3") << withRefundProblem(429, QStringLiteral("rate-limited"), 3000)
                                        << S::Unknown << Next::Resolve << false << false << qint64(3000)
                                        << QStringLiteral("rate-limited");
    QTest::newRow("500") << withRefundProblem(500, QStringLiteral("internal"))
                         << S::Unknown << Next::Resolve << false << false << none << QStringLiteral("internal");
    QTest::newRow("503") << withRefundProblem(503, QStringLiteral("store-unavailable"), 1000)
                         << S::Unknown << Next::Resolve << false << false << qint64(1000) << QStringLiteral("store-unavailable");
    QTest::newRow("transport: not sent") << transport(NotSent, QStringLiteral("Connection refused"))
                                         << S::Unknown << Next::Resolve << false << true << none
                                         << QStringLiteral("Connection refused");
    QTest::newRow("transport: lost after send") << transport(LostAfterSend, QStringLiteral("timed out"))
                                                << S::Unknown << Next::Resolve << false << true << none
                                                << QStringLiteral("timed out");
}

void TestIntentPolicy::classifyRefundLookup()
{
    QFETCH(GatewayResult, result);
    verifyDecision(OncePay::classifyRefundLookup(result));
}

void TestIntentPolicy::refundStatus_data()
{
    QTest::addColumn<QString>("status");
    QTest::addColumn<IntentState>("state");
    QTest::newRow("succeeded") << QStringLiteral("succeeded") << IntentState::Succeeded;
    QTest::newRow("failed") << QStringLiteral("failed") << IntentState::Declined;
    QTest::newRow("processing") << QStringLiteral("processing") << IntentState::Processing;
    // A payment's words are not a refund's; anything unknown is asked about again.
    QTest::newRow("declined") << QStringLiteral("declined") << IntentState::Processing;
    QTest::newRow("unknown word") << QStringLiteral("Succeeded") << IntentState::Processing;
    QTest::newRow("empty") << QString() << IntentState::Processing;
}

void TestIntentPolicy::refundStatus()
{
    QFETCH(QString, status);
    QFETCH(IntentState, state);
    QCOMPARE(intentStateName(stateForRefundStatus(status)), intentStateName(state));
}

void TestIntentPolicy::backoffBounds_data()
{
    QTest::addColumn<int>("attempt");
    QTest::addColumn<qint64>("baseMs");
    QTest::addColumn<qint64>("capMs");
    QTest::addColumn<qint64>("ceiling");   // min(cap, base * 2^attempt)

    QTest::newRow("first try") << 0 << qint64(500) << qint64(30000) << qint64(500);
    QTest::newRow("second") << 1 << qint64(500) << qint64(30000) << qint64(1000);
    QTest::newRow("fifth") << 5 << qint64(500) << qint64(30000) << qint64(16000);
    QTest::newRow("reaches the cap") << 6 << qint64(500) << qint64(30000) << qint64(30000);
    QTest::newRow("far past the cap") << 40 << qint64(500) << qint64(30000) << qint64(30000);
    QTest::newRow("huge attempt count") << std::numeric_limits<int>::max() << qint64(500) << qint64(30000)
                                        << qint64(30000);
    QTest::newRow("negative attempt") << -3 << qint64(500) << qint64(30000) << qint64(500);
    QTest::newRow("tiny base") << 3 << qint64(1) << qint64(30000) << qint64(8);
    QTest::newRow("base zero") << 7 << qint64(0) << qint64(30000) << qint64(0);
    QTest::newRow("cap zero") << 7 << qint64(500) << qint64(0) << qint64(0);
    QTest::newRow("cap below base") << 0 << qint64(500) << qint64(100) << qint64(100);
}

void TestIntentPolicy::backoffBounds()
{
    QFETCH(int, attempt);
    QFETCH(qint64, baseMs);
    QFETCH(qint64, capMs);
    QFETCH(qint64, ceiling);
    QRandomGenerator rng(42);
    qint64 lo = std::numeric_limits<qint64>::max();
    qint64 hi = -1;
    for (int i = 0; i < 2000; ++i) {
        const qint64 d = backoffDelayMs(attempt, baseMs, capMs, rng);
        QVERIFY2(d >= 0 && d <= ceiling, qPrintable(QStringLiteral("%1 outside [0, %2]").arg(d).arg(ceiling)));
        lo = qMin(lo, d);
        hi = qMax(hi, d);
    }
    // Full jitter: the whole range is used, down to (almost) nothing and up to (almost) the ceiling.
    QVERIFY2(lo <= ceiling / 20, qPrintable(QString::number(lo)));
    QVERIFY2(hi >= ceiling - ceiling / 20, qPrintable(QString::number(hi)));
}

void TestIntentPolicy::backoffRetryAfterFloor_data()
{
    QTest::addColumn<int>("attempt");
    QTest::addColumn<qint64>("capMs");
    QTest::addColumn<qint64>("retryAfterMs");
    QTest::addColumn<bool>("always");   // the floor is above the ceiling: the delay is exactly Retry-After

    QTest::newRow("floor inside the range") << 4 << qint64(30000) << qint64(1000) << false;
    QTest::newRow("floor above the ceiling") << 0 << qint64(30000) << qint64(1000) << true;
    QTest::newRow("floor above the cap") << 20 << qint64(30000) << qint64(60000) << true;
    QTest::newRow("zero is a floor too") << 2 << qint64(30000) << qint64(0) << false;
}

void TestIntentPolicy::backoffRetryAfterFloor()
{
    QFETCH(int, attempt);
    QFETCH(qint64, capMs);
    QFETCH(qint64, retryAfterMs);
    QFETCH(bool, always);
    QRandomGenerator rng(7);
    const qint64 ceiling = qMin(capMs, qint64(500) << qMin(attempt, 30));
    bool sawAbove = false;
    for (int i = 0; i < 2000; ++i) {
        const qint64 d = backoffDelayMs(attempt, 500, capMs, rng, retryAfterMs);
        QVERIFY2(d >= retryAfterMs, qPrintable(QString::number(d)));
        QVERIFY2(d <= qMax(ceiling, retryAfterMs), qPrintable(QString::number(d)));
        if (always)
            QCOMPARE(d, retryAfterMs);
        sawAbove = sawAbove || d > retryAfterMs;
    }
    QCOMPARE(sawAbove, !always);
}

void TestIntentPolicy::backoffJitterSpread()
{
    QRandomGenerator rng(20240601);
    constexpr int samples = 20000;
    constexpr qint64 ceiling = 1000;
    int buckets[10] = {};
    double sum = 0;
    for (int i = 0; i < samples; ++i) {
        const qint64 d = backoffDelayMs(1, 500, 30000, rng);
        QVERIFY(d >= 0 && d <= ceiling);
        ++buckets[qMin<qint64>(9, d / (ceiling / 10))];
        sum += double(d);
    }
    // Uniform over [0, ceiling]: every tenth of the range, the lowest and the highest included,
    // gets close to its share, and the mean sits near the middle.
    for (int b = 0; b < 10; ++b)
        QVERIFY2(buckets[b] > samples / 10 * 8 / 10, qPrintable(QStringLiteral("bucket %1: %2").arg(b).arg(buckets[b])));
    const double mean = sum / samples;
    QVERIFY2(mean > 480 && mean < 520, qPrintable(QString::number(mean)));
}

void TestIntentPolicy::backoffSeeded()
{
    // A seed replays the same delays (the sync engine's tests rely on it).
    QRandomGenerator a(99);
    QRandomGenerator b(99);
    QRandomGenerator c(100);
    QList<qint64> da, db, dc;
    for (int i = 0; i < 50; ++i) {
        da << backoffDelayMs(i % 8, 50, 5000, a);
        db << backoffDelayMs(i % 8, 50, 5000, b);
        dc << backoffDelayMs(i % 8, 50, 5000, c);
    }
    QCOMPARE(da, db);
    QVERIFY(da != dc);
}

void TestIntentPolicy::offlineRefusal_data()
{
    QTest::addColumn<OfflineLimits>("limits");
    QTest::addColumn<qint64>("amount");
    QTest::addColumn<qint64>("waitingTotal");
    QTest::addColumn<qint64>("oldestAgeMs");
    QTest::addColumn<TillError>("refused");   // None: allowed; else the limit and what its words name

    const OfflineLimits none;
    const OfflineLimits single{10000, 0, 0};
    const OfflineLimits total{0, 50000, 0};
    const OfflineLimits age{0, 0, 3'600'000};
    const OfflineLimits all{10000, 50000, 3'600'000};
    constexpr qint64 big = 100'000'000;
    using K = TillError::Kind;

    QTest::newRow("no limits, huge amount, huge queue, very old")
        << none << big << qint64(1) << qint64(1) << TillError();
    QTest::newRow("no limits, huge queue") << none << qint64(1) << std::numeric_limits<qint64>::max() / 2
                                           << qint64(365LL * 24 * 3600 * 1000) << TillError();
    QTest::newRow("single: at the limit") << single << qint64(10000) << qint64(0) << qint64(0) << TillError();
    QTest::newRow("single: one over") << single << qint64(10001) << qint64(0) << qint64(0) << TillError(K::OfflineAmountLimit, {QStringLiteral("100.00"), QStringLiteral("CNY")});
    QTest::newRow("single: other limits off") << single << qint64(9999) << big << qint64(big) << TillError();
    QTest::newRow("total: reaches the limit") << total << qint64(10000) << qint64(40000) << qint64(0) << TillError();
    QTest::newRow("total: one over") << total << qint64(10000) << qint64(40001) << qint64(0)
                                     << TillError(K::OfflineTotalLimit, {QStringLiteral("500.00"), QStringLiteral("CNY")});
    QTest::newRow("total: the amount alone is over") << total << qint64(50001) << qint64(0) << qint64(0)
                                                     << TillError(K::OfflineTotalLimit, {QStringLiteral("500.00"), QStringLiteral("CNY")});
    QTest::newRow("age: at the limit") << age << qint64(1) << qint64(0) << qint64(3'600'000) << TillError();
    QTest::newRow("age: one ms over") << age << qint64(1) << qint64(0) << qint64(3'600'001) << TillError(K::OfflineTooLong, {QStringLiteral("60")});
    QTest::newRow("all: allowed") << all << qint64(10000) << qint64(40000) << qint64(3'600'000) << TillError();
    QTest::newRow("all: single first") << all << qint64(10001) << qint64(40001) << qint64(3'600'001)
                                       << TillError(K::OfflineAmountLimit, {QStringLiteral("100.00"), QStringLiteral("CNY")});
    QTest::newRow("all: total") << all << qint64(10000) << qint64(40001) << qint64(3'600'001)
                                << TillError(K::OfflineTotalLimit, {QStringLiteral("500.00"), QStringLiteral("CNY")});
    QTest::newRow("all: age") << all << qint64(10000) << qint64(0) << qint64(3'600'001)
                              << TillError(K::OfflineTooLong, {QStringLiteral("60")});
}

void TestIntentPolicy::offlineRefusal()
{
    QFETCH(OfflineLimits, limits);
    QFETCH(qint64, amount);
    QFETCH(qint64, waitingTotal);
    QFETCH(qint64, oldestAgeMs);
    QFETCH(TillError, refused);
    const TillError reason = OncePay::offlineRefusal(limits, Money(amount, QStringLiteral("CNY")), waitingTotal, oldestAgeMs);
    QCOMPARE(reason.kind(), refused.kind());
    QCOMPARE(reason.args(), refused.args());
}

void TestIntentPolicy::stateNames_data()
{
    QTest::addColumn<IntentState>("state");
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("final");
    QTest::addColumn<bool>("locksSale");
    QTest::newRow("queued") << IntentState::Queued << QStringLiteral("queued") << false << true;
    QTest::newRow("sending") << IntentState::Sending << QStringLiteral("sending") << false << true;
    QTest::newRow("processing") << IntentState::Processing << QStringLiteral("processing") << false << true;
    QTest::newRow("unknown") << IntentState::Unknown << QStringLiteral("unknown") << false << true;
    QTest::newRow("succeeded") << IntentState::Succeeded << QStringLiteral("succeeded") << true << false;
    QTest::newRow("declined") << IntentState::Declined << QStringLiteral("declined") << true << false;
    QTest::newRow("needs_attention") << IntentState::NeedsAttention << QStringLiteral("needs_attention") << true
                                     << false;
    // Cancelled on the till before it was ever sent: final, and its sale may be paid again.
    QTest::newRow("voided") << IntentState::Voided << QStringLiteral("voided") << true << false;
}

void TestIntentPolicy::stateNames()
{
    QFETCH(IntentState, state);
    QFETCH(QString, name);
    QFETCH(bool, final);
    QFETCH(bool, locksSale);
    QCOMPARE(intentStateName(state), name);
    const std::optional<IntentState> back = intentStateFromName(name);
    QVERIFY(back.has_value());
    QCOMPARE(int(*back), int(state));
    QCOMPARE(isFinal(state), final);
    QCOMPARE(OncePay::locksSale(state), locksSale);
}

void TestIntentPolicy::stateNamesRejectOthers_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("empty") << QString();
    QTest::newRow("capitalised") << QStringLiteral("Queued");
    QTest::newRow("space") << QStringLiteral("needs attention");
    QTest::newRow("padded") << QStringLiteral(" succeeded");
    QTest::newRow("gateway word") << QStringLiteral("refunded");
}

void TestIntentPolicy::stateNamesRejectOthers()
{
    QFETCH(QString, name);
    QVERIFY(!intentStateFromName(name).has_value());
}

void TestIntentPolicy::everyStateHasAName()
{
    const QList<IntentState> all = allIntentStates();
    QCOMPARE(all.size(), 8);
    QSet<QString> names;
    for (IntentState s : all) {
        const QString name = intentStateName(s);
        QVERIFY(!name.isEmpty());
        names.insert(name);
        QCOMPARE(int(intentStateFromName(name).value()), int(s));
    }
    QCOMPARE(names.size(), all.size());
}

void TestIntentPolicy::kindNames()
{
    QCOMPARE(intentKindName(IntentKind::Payment), QStringLiteral("payment"));
    QCOMPARE(intentKindName(IntentKind::Refund), QStringLiteral("refund"));
    QCOMPARE(intentKindFromName(QStringLiteral("payment")), std::optional<IntentKind>(IntentKind::Payment));
    QCOMPARE(intentKindFromName(QStringLiteral("refund")), std::optional<IntentKind>(IntentKind::Refund));
    for (const QString &other : {QString(), QStringLiteral("Refund"), QStringLiteral("void"), QStringLiteral(" payment")})
        QVERIFY2(!intentKindFromName(other).has_value(), qPrintable(other));
}

QTEST_GUILESS_MAIN(TestIntentPolicy)
#include "tst_intentpolicy.moc"
