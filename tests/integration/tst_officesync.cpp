// The till's sender of its outbox (issue 38, OFFICE.md) against a fake office that answers as
// OFFICE.md says (tests/common/fakeoffice.h), over real sockets: batches of at most 500 in seq
// order, every event held once however its answers go; a lost answer, a 409 seq-gap, 5xx with
// Retry-After, and a 422 event-mismatch that stops the sender and says so.
#include "fakeoffice.h"
#include "gatewaytransport.h"
#include "intentjournal.h"
#include "officeevents.h"
#include "officesync.h"
#include "salebook.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace OncePay;

namespace {

const QString kTill = QStringLiteral("1");
const QString kToken = QStringLiteral("ot_test_till1");

}   // namespace

class TestOfficeSync final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void sendsEveryEventOnceInBatches();
    void lostAnswerIsNotSentTwice();
    void eventsNotAcknowledgedAreReplayed();
    void seqGapGoesOnFromTheOfficesPosition();
    void serverErrorsBackOffWithRetryAfter();
    void mismatchStopsAndSaysSo();
    void noOfficeKeepsTheOutbox();

private:
    void queueDiscards(int count, qint64 firstTotal = 100);
    OfficeEvents::Status journalStatus();
    QList<OfficeEvents::Event> journalEvents();
    std::unique_ptr<OfficeSync> sender(const QUrl &office, OfficeSync::Config config = {});
    void verifyOfficeHoldsTheJournal();

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<IntentJournal> m_journal;
    std::unique_ptr<FakeOffice> m_office;
    std::unique_ptr<NetworkTransport> m_transport;
};

void TestOfficeSync::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_journal = std::make_unique<IntentJournal>(IntentJournal::Options{m_dir->filePath(QStringLiteral("till.db"))});
    TillError error;
    QVERIFY2(m_journal->open(&error), qPrintable(error.text()));
    m_office = std::make_unique<FakeOffice>();
    m_office->addTill(kTill, kToken);
    QString why;
    QVERIFY2(m_office->start(&why), qPrintable(why));
    m_transport = std::make_unique<NetworkTransport>(1);
}

void TestOfficeSync::cleanup()
{
    m_transport.reset();
    m_office.reset();
    m_journal.reset();
    m_dir.reset();
}

void TestOfficeSync::queueDiscards(int count, qint64 firstTotal)
{
    SaleBook book(m_journal.get());
    int answered = 0;
    for (int n = 0; n < count; ++n) {
        book.discard(Money(firstTotal + n, QStringLiteral("CNY")), {}, this, [&answered](bool ok, const TillError &, const Sale &) {
            QVERIFY(ok);
            ++answered;
        });
    }
    QTRY_COMPARE_WITH_TIMEOUT(answered, count, 30000);
}

OfficeEvents::Status TestOfficeSync::journalStatus()
{
    std::optional<OfficeEvents::Status> out;
    m_journal->transact<OfficeEvents::Status>(
        this, [](SqlTx &tx) {
            return OfficeEvents::status(tx);
        },
        [&out](bool, const TillError &, const OfficeEvents::Status &s) {
            out = s;
        });
    if (!QTest::qWaitFor([&out] {
            return out.has_value();
        },
            10000))
        qWarning("the journal did not answer");
    return out.value_or(OfficeEvents::Status());
}

QList<OfficeEvents::Event> TestOfficeSync::journalEvents()
{
    std::optional<QList<OfficeEvents::Event>> out;
    m_journal->transact<QList<OfficeEvents::Event>>(
        this, [](SqlTx &tx) {
            QList<OfficeEvents::Event> all;
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT seq, kind, at, data FROM outbox ORDER BY seq"));
            while (q.next())
                all.append({q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toByteArray()});
            q.finish();
            return all;
        },
        [&out](bool, const TillError &, const QList<OfficeEvents::Event> &e) {
            out = e;
        });
    if (!QTest::qWaitFor([&out] {
            return out.has_value();
        },
            10000))
        qWarning("the journal did not answer");
    return out.value_or(QList<OfficeEvents::Event>());
}

std::unique_ptr<OfficeSync> TestOfficeSync::sender(const QUrl &office, OfficeSync::Config config)
{
    config.office = office;
    config.token = kToken;
    config.till = kTill;
    config.backoffBaseMs = 50;
    config.backoffCapMs = 400;
    config.pollMs = 100;
    config.seed = 7;
    return std::make_unique<OfficeSync>(m_journal.get(), m_transport.get(), config);
}

// The office holds every event of the journal, once, as the journal holds it.
void TestOfficeSync::verifyOfficeHoldsTheJournal()
{
    const QList<OfficeEvents::Event> ours = journalEvents();
    const QMap<qint64, QJsonObject> held = m_office->events(kTill);
    QCOMPARE(held.size(), ours.size());
    for (const OfficeEvents::Event &e : ours) {
        QVERIFY2(held.contains(e.seq), qPrintable(QStringLiteral("seq %1 is not at the office").arg(e.seq)));
        QCOMPARE(FakeOffice::fingerprint(held.value(e.seq)), FakeOffice::fingerprint(e.toJson()));
    }
}

void TestOfficeSync::sendsEveryEventOnceInBatches()
{
    queueDiscards(1203);
    auto s = sender(m_office->url());
    s->start();
    QTRY_COMPARE_WITH_TIMEOUT(m_office->lastSeq(kTill), qint64(1203), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(s->status().waiting, 0, 10000);
    QCOMPARE(journalStatus().lastSentSeq, qint64(1203));
    QCOMPARE(m_office->stats().posts, 3);   // 500 + 500 + 203
    QCOMPARE(m_office->stats().largestBatch, 500);
    QCOMPARE(m_office->stats().firstSeqOfPost, (QList<qint64>{1, 501, 1001}));
    QCOMPARE(m_office->stats().replayed, 0);
    verifyOfficeHoldsTheJournal();
    // What comes later goes too: kicked, not left for the poll.
    queueDiscards(4, 5000);
    s->kick();
    QTRY_COMPARE_WITH_TIMEOUT(m_office->lastSeq(kTill), qint64(1207), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(journalStatus().waiting, 0, 10000);
    verifyOfficeHoldsTheJournal();
}

// The office applied the batch, and its answer never came: the till asks where the office
// stands instead of guessing, and sends each event once.
void TestOfficeSync::lostAnswerIsNotSentTwice()
{
    queueDiscards(30);
    m_office->loseAnswersOfNext(1);
    auto s = sender(m_office->url());
    s->start();
    QTRY_COMPARE_WITH_TIMEOUT(journalStatus().waiting, 0, 20000);
    QCOMPARE(m_office->stats().lost, 1);
    // Asked (or sent again and counted as replayed: Qt may resend a request whose connection
    // closed unanswered by itself).
    QVERIFY(m_office->stats().positions >= 1 || m_office->stats().replayed == 30);
    QCOMPARE(m_office->stats().applied, 30);
    verifyOfficeHoldsTheJournal();
}

// A till killed between the office's 200 and marking its events sent sends them again at its
// next start: the office counts them as replayed, and the till marks them sent (200).
void TestOfficeSync::eventsNotAcknowledgedAreReplayed()
{
    queueDiscards(12);
    for (const OfficeEvents::Event &e : journalEvents()) {
        if (e.seq <= 8)
            m_office->preload(kTill, e.toJson());
    }
    auto s = sender(m_office->url());
    s->start();
    QTRY_COMPARE_WITH_TIMEOUT(journalStatus().waiting, 0, 20000);
    QCOMPARE(m_office->stats().replayed, 8);
    QCOMPARE(m_office->stats().applied, 4);
    verifyOfficeHoldsTheJournal();
}

// The office lost events the till had sent (restored from yesterday's copy): 409 seq-gap, the
// till asks the position and sends again from there.
void TestOfficeSync::seqGapGoesOnFromTheOfficesPosition()
{
    queueDiscards(20);
    for (const OfficeEvents::Event &e : journalEvents()) {
        if (e.seq <= 5)
            m_office->preload(kTill, e.toJson());
    }
    bool marked = false;
    m_journal->transact<bool>(
        this, [](SqlTx &tx) {
            OfficeEvents::acknowledgeUpTo(tx, 12, 1);
            return true;
        },
        [&marked](bool ok, const TillError &, bool) {
            marked = ok;
        });
    QTRY_VERIFY(marked);
    auto s = sender(m_office->url());
    s->start();
    QTRY_COMPARE_WITH_TIMEOUT(m_office->lastSeq(kTill), qint64(20), 20000);
    QTRY_COMPARE_WITH_TIMEOUT(journalStatus().waiting, 0, 10000);
    QCOMPARE(m_office->stats().gaps, 1);
    QVERIFY(m_office->stats().positions >= 1);
    verifyOfficeHoldsTheJournal();
}

void TestOfficeSync::serverErrorsBackOffWithRetryAfter()
{
    queueDiscards(10);
    m_office->failNext(3, 503, 1);
    auto s = sender(m_office->url());
    QSignalSpy changes(s.get(), &OfficeSync::statusChanged);
    s->start();
    QTRY_COMPARE_WITH_TIMEOUT(journalStatus().waiting, 0, 30000);
    QCOMPARE(m_office->stats().failed, 3);
    // Each try after a 503 waited at least its Retry-After (1 s), on the monotonic clock.
    const QList<qint64> at = m_office->stats().postAtMs;
    QVERIFY(at.size() >= 4);
    for (int n = 1; n < 4; ++n)
        QVERIFY2(at.at(n) - at.at(n - 1) >= 950, qPrintable(QStringLiteral("try %1 came %2 ms after the 503").arg(n).arg(at.at(n) - at.at(n - 1))));
    // It said it was offline meanwhile, and is no longer.
    bool saidOffline = false;
    for (const QList<QVariant> &c : std::as_const(changes))
        saidOffline = saidOffline || c.at(0).value<OfficeSync::Status>().offline;
    QVERIFY(saidOffline);
    QVERIFY(!s->status().offline);
    verifyOfficeHoldsTheJournal();
}

// The office holds seq 3 with other contents: the till's record changed. The sender stops,
// says so, and skips nothing: seq 3 and after stay waiting.
void TestOfficeSync::mismatchStopsAndSaysSo()
{
    queueDiscards(6);
    const QList<OfficeEvents::Event> ours = journalEvents();
    for (const OfficeEvents::Event &e : ours) {
        if (e.seq > 3)
            break;
        QJsonObject held = e.toJson();
        if (e.seq == 3)
            held.insert(QStringLiteral("kind"), QStringLiteral("sale"));
        m_office->preload(kTill, held);
    }
    auto s = sender(m_office->url());
    QSignalSpy refused(s.get(), &OfficeSync::refused);
    s->start();
    QVERIFY(refused.wait(10000));
    QVERIFY2(refused.at(0).at(0).toString().contains(QLatin1String("3")), qPrintable(refused.at(0).at(0).toString()));
    QVERIFY(s->status().stopped);
    const int posts = m_office->stats().posts;
    QCOMPARE(m_office->stats().mismatches, 1);
    // Kicked, it stays stopped; what waits still waits.
    s->kick();
    QTRY_COMPARE(s->status().waiting, 6);
    QCOMPARE(journalStatus().waiting, 6);
    QCOMPARE(m_office->stats().posts, posts);
}

// No office: the outbox fills all the same, so that a till given one later sends its history.
void TestOfficeSync::noOfficeKeepsTheOutbox()
{
    queueDiscards(5);
    auto s = sender(QUrl());
    QVERIFY(!s->hasOffice());
    s->start();
    QTRY_COMPARE_WITH_TIMEOUT(s->status().waiting, 5, 10000);
    QCOMPARE(m_office->stats().posts, 0);
    s->reconfigure(m_office->url(), kToken);
    QTRY_COMPARE_WITH_TIMEOUT(journalStatus().waiting, 0, 20000);
    verifyOfficeHoldsTheJournal();
}

QTEST_GUILESS_MAIN(TestOfficeSync)
#include "tst_officesync.moc"
