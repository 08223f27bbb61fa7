// Every step write of a leased record (payments and refunds alike) is fenced by the lease's
// generation: a holder whose lease was taken over writes nothing (StepWrite::Fenced, or
// KeyWindow::Fenced) and the holder that took it over writes. This is what keeps a gateway that
// was paused past its lease (a VM freeze, SIGSTOP) from recording an outcome over the work of
// the instance that took over: the steps (LeasedSteps) stop and answer from the store when told
// Fenced. On the SQLite store; the PostgreSQL statements are the same steps (tst_multiinstance_pg).
#include "gateway/answers.h"
#include "gateway/store/sqlgatewaystore.h"
#include "storeawait.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <optional>

using namespace OncePay::Gateway;

namespace {
constexpr qint64 kShortLeaseMs = 30;   // lapses at once: the next claim takes it over
constexpr qint64 kLongLeaseMs = 60'000;   // held for the whole test

using StoreAwait::await;
using StoreAwait::kWaitMs;
}   // namespace

class TestLeaseFencing final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void paymentStepWritesAreFenced_data();
    void paymentStepWritesAreFenced();
    void refundStepWritesAreFenced_data();
    void refundStepWritesAreFenced();
    void releasedRefundClaimGivesTheReservationBack();

private:
    // Claims with a lease that lapses at once, then claims again (same key, same fingerprint)
    // until the store hands the lease over: (the first holder, now stale; the new holder).
    std::pair<Payment, Payment> paymentTakenOver(const QString &key);
    std::pair<Refund, Refund> refundTakenOver(const Payment &paid, const QString &key);
    // A payment settled succeeded by the holder that took it over; invalid if a step was refused.
    Payment paidPayment(const QString &key);
    std::optional<StepWrite> write(const QString &step, const Payment &holder);
    std::optional<StepWrite> write(const QString &step, const Refund &holder);
    std::optional<StepWrite> write(const QString &step, const LeasedRow &holder);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<SqlGatewayStore> m_store;
    QObject m_context;
};

void TestLeaseFencing::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    SqlGatewayStore::Options options;
    options.path = m_dir->filePath(QStringLiteral("gateway.db"));
    m_store = std::make_unique<SqlGatewayStore>(options);
    QString error;
    QVERIFY2(m_store->open(&error), qPrintable(error));
}

void TestLeaseFencing::cleanup()
{
    if (m_store)
        m_store->close();
    m_store.reset();
    m_dir.reset();
}

std::pair<Payment, Payment> TestLeaseFencing::paymentTakenOver(const QString &key)
{
    Payment draft;
    draft.id = newResourceId("pay_");
    draft.merchant = QStringLiteral("m1");
    draft.terminalId = QStringLiteral("t1");
    draft.idempotencyKey = key;
    draft.fingerprint = "fp-" + key.toUtf8();
    draft.amount = 1250;
    draft.currency = QStringLiteral("CNY");
    draft.orderId = QStringLiteral("o-") + key;
    draft.paymentMethod = QStringLiteral("tok_visa");
    PaymentClaim claim{draft.merchant, key, draft.fingerprint, draft, kShortLeaseMs};
    const auto first = await<ClaimOutcome>([&](auto reply) {
        m_store->claimPayment(claim, &m_context, reply);
    });
    if (!first || first->kind != ClaimOutcome::Kind::Claimed)
        return {};
    claim.leaseMs = kLongLeaseMs;
    std::optional<ClaimOutcome> second;
    const bool tookOver = QTest::qWaitFor([&] {
        second = await<ClaimOutcome>([&](auto reply) {
            m_store->claimPayment(claim, &m_context, reply);
        });
        return second && second->kind == ClaimOutcome::Kind::Resume;
    },
        kWaitMs);
    if (!tookOver)
        return {};
    return {first->payment, second->payment};
}

Payment TestLeaseFencing::paidPayment(const QString &key)
{
    const Payment payment = paymentTakenOver(key).second;
    if (!payment.isValid() || write(QStringLiteral("mark acquirer called"), payment) != StepWrite::Written
        || write(QStringLiteral("settle"), payment) != StepWrite::Written)
        return {};
    return payment;
}

std::pair<Refund, Refund> TestLeaseFencing::refundTakenOver(const Payment &paid, const QString &key)
{
    Refund draft;
    draft.id = newResourceId("re_");
    draft.paymentId = paid.id;
    draft.terminalId = paid.terminalId;
    draft.amount = 500;
    draft.reason = QStringLiteral("returned");
    RefundClaim claim{paid.merchant, key, "fp-" + key.toUtf8(), draft, kShortLeaseMs};
    const auto first = await<RefundClaimOutcome>([&](auto reply) {
        m_store->claimRefund(claim, &m_context, reply);
    });
    if (!first || first->kind != RefundClaimOutcome::Kind::Claimed)
        return {};
    claim.leaseMs = kLongLeaseMs;
    std::optional<RefundClaimOutcome> second;
    const bool tookOver = QTest::qWaitFor([&] {
        second = await<RefundClaimOutcome>([&](auto reply) {
            m_store->claimRefund(claim, &m_context, reply);
        });
        return second && second->kind == RefundClaimOutcome::Kind::Resume;
    },
        kWaitMs);
    if (!tookOver)
        return {};
    return {first->refund, second->refund};
}

std::optional<StepWrite> TestLeaseFencing::write(const QString &step, const Payment &holder)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (step == QLatin1String("settle")) {
        Payment settled = holder;
        settled.status = PaymentStatus::Succeeded;
        settled.step = PaymentStep::Settled;
        const Settlement s{holder.merchant, holder.idempotencyKey, holder.id, holder.leaseGeneration,
            PaymentStatus::Succeeded, {}, now, Answers::toStored(Answers::forPayment(settled)),
            60'000, false, {}, QStringLiteral("A1"), {}};
        return await<StepWrite>([&](auto reply) {
            m_store->settlePayment(s, &m_context, reply);
        });
    }
    return write(step, LeasedRow::of(holder));
}

std::optional<StepWrite> TestLeaseFencing::write(const QString &step, const Refund &holder)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (step == QLatin1String("settle")) {
        Refund settled = holder;
        settled.status = RefundStatus::Succeeded;
        settled.step = PaymentStep::Settled;
        const RefundSettlement s{holder.merchant, holder.idempotencyKey, holder.id, holder.paymentId,
            holder.leaseGeneration, holder.amount, RefundStatus::Succeeded, {}, now,
            Answers::toStored(Answers::forRefund(settled)), 60'000, false};
        return await<StepWrite>([&](auto reply) {
            m_store->settleRefund(s, &m_context, reply);
        });
    }
    return write(step, LeasedRow::of(holder));
}

// The writes that are the same for both kinds.
std::optional<StepWrite> TestLeaseFencing::write(const QString &step, const LeasedRow &holder)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (step == QLatin1String("mark acquirer called"))
        return await<StepWrite>([&](auto reply) {
            m_store->markAcquirerCalled(holder, kLongLeaseMs, now, &m_context, reply);
        });
    if (step == QLatin1String("release claim"))
        return await<StepWrite>([&](auto reply) {
            m_store->releaseClaim(holder, true, &m_context, reply);
        });
    if (step == QLatin1String("release lease"))
        return await<StepWrite>([&](auto reply) {
            m_store->releaseLease(holder, &m_context, reply);
        });
    qWarning("no such step: %s", qPrintable(step));
    return std::nullopt;
}

void TestLeaseFencing::paymentStepWritesAreFenced_data()
{
    QTest::addColumn<QString>("step");
    for (const char *step : {"mark acquirer called", "settle", "release claim", "release lease"})
        QTest::newRow(step) << QString::fromLatin1(step);
}

void TestLeaseFencing::paymentStepWritesAreFenced()
{
    QFETCH(QString, step);
    // Named, not a structured binding: a lambda below refers to it (C++17).
    const auto takenOver = paymentTakenOver(QStringLiteral("key-fence"));
    const auto &stale = takenOver.first;
    const auto &current = takenOver.second;
    QVERIFY(stale.isValid() && current.isValid());
    QCOMPARE(current.leaseGeneration, stale.leaseGeneration + 1);
    QCOMPARE(write(step, stale), std::optional<StepWrite>(StepWrite::Fenced));
    // Nothing of it reached the record: the holder that took over still holds it as it was.
    const auto read = await<Payment>([&](auto reply) {
        m_store->findPayment(current.merchant, current.id, &m_context, reply);
    });
    QVERIFY(read && read->isValid());
    QCOMPARE(read->status, PaymentStatus::Processing);
    QCOMPARE(read->leaseGeneration, current.leaseGeneration);
    QCOMPARE(write(step, current), std::optional<StepWrite>(StepWrite::Written));
}

void TestLeaseFencing::refundStepWritesAreFenced_data()
{
    paymentStepWritesAreFenced_data();
}

void TestLeaseFencing::refundStepWritesAreFenced()
{
    QFETCH(QString, step);
    const Payment payment = paidPayment(QStringLiteral("key-paid"));   // what the refund is against
    QVERIFY(payment.isValid());

    // Named, not a structured binding: a lambda below refers to it (C++17).
    const auto takenOver = refundTakenOver(payment, QStringLiteral("ref-fence"));
    const auto &stale = takenOver.first;
    const auto &current = takenOver.second;
    QVERIFY(stale.isValid() && current.isValid());
    QCOMPARE(current.leaseGeneration, stale.leaseGeneration + 1);
    QCOMPARE(write(step, stale), std::optional<StepWrite>(StepWrite::Fenced));
    const auto read = await<Refund>([&](auto reply) {
        m_store->findRefund(current.merchant, current.id, &m_context, reply);
    });
    QVERIFY(read && read->isValid());
    QCOMPARE(read->status, RefundStatus::Processing);
    QCOMPARE(read->leaseGeneration, current.leaseGeneration);
    QCOMPARE(write(step, current), std::optional<StepWrite>(StepWrite::Written));
}

// A refund's claim reserves its amount on the payment; a release under the live lease gives it
// back with the key, a fenced one gives nothing back.
void TestLeaseFencing::releasedRefundClaimGivesTheReservationBack()
{
    const Payment payment = paidPayment(QStringLiteral("key-reserved"));
    QVERIFY(payment.isValid());
    // Named, not a structured binding: a lambda below refers to it (C++17).
    const auto takenOver = refundTakenOver(payment, QStringLiteral("ref-reserved"));
    const auto &stale = takenOver.first;
    const auto &current = takenOver.second;
    QVERIFY(stale.isValid() && current.isValid());

    auto claimWholePayment = [&](const QString &key) {
        Refund draft;
        draft.id = newResourceId("re_");
        draft.paymentId = payment.id;
        draft.terminalId = payment.terminalId;
        draft.amount = payment.amount;
        const RefundClaim claim{payment.merchant, key, "fp-" + key.toUtf8(), draft, kLongLeaseMs};
        const auto outcome = await<RefundClaimOutcome>([&](auto reply) {
            m_store->claimRefund(claim, &m_context, reply);
        });
        return outcome ? outcome->kind : RefundClaimOutcome::Kind::Gone;
    };
    // 500 of 1250 reserved: the whole amount cannot be refunded beside it.
    QCOMPARE(claimWholePayment(QStringLiteral("ref-whole-1")), RefundClaimOutcome::Kind::NotRefundable);
    QCOMPARE(write(QStringLiteral("release claim"), stale), std::optional<StepWrite>(StepWrite::Fenced));
    QCOMPARE(claimWholePayment(QStringLiteral("ref-whole-2")), RefundClaimOutcome::Kind::NotRefundable);
    QCOMPARE(write(QStringLiteral("release claim"), current), std::optional<StepWrite>(StepWrite::Written));
    QCOMPARE(claimWholePayment(QStringLiteral("ref-whole-3")), RefundClaimOutcome::Kind::Claimed);
}

QTEST_GUILESS_MAIN(TestLeaseFencing)
#include "tst_leasefencing.moc"
