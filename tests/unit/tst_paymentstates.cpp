// Payment steps and statuses as enum class values with their wire and database names: every
// name round-trips, a name this version does not know reads as nothing, and the store reads an
// unknown name from a row as the state that promises the least (processing, acquirer_called).
#include "gateway/gatewaytypes.h"
#include "gateway/answers.h"
#include "gateway/store/sqlgatewaystore.h"
#include "storeawait.h"

#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace OncePay::Gateway;

Q_DECLARE_METATYPE(OncePay::Gateway::PaymentStep)
Q_DECLARE_METATYPE(OncePay::Gateway::PaymentStatus)
Q_DECLARE_METATYPE(OncePay::Gateway::RefundStatus)

using StoreAwait::await;   // one store call, waited for by condition

class TestPaymentStates final : public QObject
{
    Q_OBJECT

private slots:
    void stepNames_data()
    {
        QTest::addColumn<PaymentStep>("step");
        QTest::addColumn<QString>("name");
        QTest::newRow("claimed") << PaymentStep::Claimed << QStringLiteral("claimed");
        QTest::newRow("acquirer_called") << PaymentStep::AcquirerCalled << QStringLiteral("acquirer_called");
        QTest::newRow("settled") << PaymentStep::Settled << QStringLiteral("settled");
    }
    void stepNames()
    {
        QFETCH(PaymentStep, step);
        QFETCH(QString, name);
        QCOMPARE(paymentStepName(step), name);
        QCOMPARE(paymentStepFromName(name), std::optional<PaymentStep>(step));
    }

    void statusNames_data()
    {
        QTest::addColumn<PaymentStatus>("status");
        QTest::addColumn<QString>("name");
        QTest::newRow("processing") << PaymentStatus::Processing << QStringLiteral("processing");
        QTest::newRow("succeeded") << PaymentStatus::Succeeded << QStringLiteral("succeeded");
        QTest::newRow("declined") << PaymentStatus::Declined << QStringLiteral("declined");
        QTest::newRow("refunded") << PaymentStatus::Refunded << QStringLiteral("refunded");
        QTest::newRow("partially_refunded") << PaymentStatus::PartiallyRefunded << QStringLiteral("partially_refunded");
    }
    void statusNames()
    {
        QFETCH(PaymentStatus, status);
        QFETCH(QString, name);
        QCOMPARE(paymentStatusName(status), name);
        QCOMPARE(paymentStatusFromName(name), std::optional<PaymentStatus>(status));
    }

    void refundStatusNames_data()
    {
        QTest::addColumn<RefundStatus>("status");
        QTest::addColumn<QString>("name");
        QTest::newRow("processing") << RefundStatus::Processing << QStringLiteral("processing");
        QTest::newRow("succeeded") << RefundStatus::Succeeded << QStringLiteral("succeeded");
        QTest::newRow("failed") << RefundStatus::Failed << QStringLiteral("failed");
    }

    void refundStatusNames()
    {
        QFETCH(RefundStatus, status);
        QFETCH(QString, name);
        QCOMPARE(refundStatusName(status), name);
        QCOMPARE(refundStatusFromName(name), std::optional<RefundStatus>(status));
    }

    void unknownNamesReadAsNothing_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("empty") << QString();
        QTest::newRow("other case") << QStringLiteral("Succeeded");
        QTest::newRow("dash") << QStringLiteral("acquirer-called");
        QTest::newRow("padded") << QStringLiteral(" settled");
        QTest::newRow("newer") << QStringLiteral("chargeback_pending");
    }
    void unknownNamesReadAsNothing()
    {
        QFETCH(QString, name);
        QVERIFY(!paymentStepFromName(name));
        QVERIFY(!paymentStatusFromName(name));
        QVERIFY(!refundStatusFromName(name));
    }

    void storeReadsUnknownNamesAsUnfinished()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SqlGatewayStore::Options options;
        options.path = dir.filePath(QStringLiteral("gateway.db"));
        SqlGatewayStore store(options);
        QString error;
        QVERIFY2(store.open(&error), qPrintable(error));
        QObject context;

        Payment draft;
        draft.id = newResourceId("pay_");
        draft.merchant = QStringLiteral("m1");
        draft.terminalId = QStringLiteral("t1");
        draft.idempotencyKey = QStringLiteral("key-1");
        draft.fingerprint = "fp";
        draft.amount = 1250;
        draft.currency = QStringLiteral("EUR");
        draft.orderId = QStringLiteral("o1");
        draft.paymentMethod = QStringLiteral("tok_visa");
        const PaymentClaim claim{draft.merchant, draft.idempotencyKey, draft.fingerprint, draft, 30'000};
        const std::optional<ClaimOutcome> claimed = await<ClaimOutcome>([&](auto reply) {
            store.claimPayment(claim, &context, reply);
        });
        QVERIFY(claimed);
        QCOMPARE(claimed->kind, ClaimOutcome::Kind::Claimed);
        QCOMPARE(claimed->payment.status, PaymentStatus::Processing);
        QCOMPARE(claimed->payment.step, PaymentStep::Claimed);

        {
            // A row as a newer version (or a damaged file) might leave it.
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("tamper"));
            db.setDatabaseName(options.path);
            db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000"));
            QVERIFY2(db.open(), qPrintable(db.lastError().text()));
            QSqlQuery q(db);
            QVERIFY(q.prepare(QStringLiteral("UPDATE payments SET status = 'chargeback_pending', step = 'bank_asked'"
                                             " WHERE id = ?")));
            q.addBindValue(draft.id);
            QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
            QCOMPARE(q.numRowsAffected(), 1);
        }
        QSqlDatabase::removeDatabase(QStringLiteral("tamper"));

        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("unknown status \"chargeback_pending\".*processing")));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("unknown step \"bank_asked\".*acquirer_called")));
        const std::optional<Payment> read = await<Payment>([&](auto reply) {
            store.findPayment(draft.merchant, draft.id, &context, reply);
        });
        QVERIFY(read && read->isValid());
        QCOMPARE(read->status, PaymentStatus::Processing);
        QCOMPARE(read->step, PaymentStep::AcquirerCalled);
        QCOMPARE(read->toJson().value(QStringLiteral("status")).toString(), QStringLiteral("processing"));
        QCOMPARE(Answers::forPayment(*read).status, 202);
        store.close();
    }
};

QTEST_GUILESS_MAIN(TestPaymentStates)
#include "tst_paymentstates.moc"
