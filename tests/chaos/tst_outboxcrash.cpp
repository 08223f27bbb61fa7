// Issue 38's chaos test: the till's outbox under kill -9. `oncepay-ctl sale` (which sends the
// outbox to the office in the background, as the till does) and `oncepay-ctl office push` are
// killed at random instants while an office answers as OFFICE.md says (tests/common/fakeoffice.h,
// in this process), losing some answers after applying their batch and refusing others with 503.
// Afterwards `office push` sends what is left, and:
//   - the office holds every event the journal committed, exactly once, as the journal holds it
//     (same seq, same canonical JSON), and nothing the journal does not hold;
//   - every sale the journal holds as ended (paid or cancelled) has exactly one `sale` event, and
//     no sale still open has one (the event and the change were one transaction).
// The seed is printed (ONCEPAY_CHAOS_SEED replays the choices; the kill instants are timing).
#include "chaosctl.h"
#include "fakeoffice.h"
#include "gatewayapi.h"
#include "gatewayprocess.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace GatewayApi;
using namespace Chaos;

namespace {

const QString kTea = QStringLiteral("6901234500011");   // ¥4.50
const QString kTill = QStringLiteral("1");
const QString kOfficeToken = QStringLiteral("ot_chaos_till1");

struct JournalEvent
{
    qint64 seq = 0;
    QJsonObject event;
};

}   // namespace

class TestOutboxCrash final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void killedWhileSending();

private:
    QStringList args(const QUrl &gateway, const QStringList &command) const;
    QList<JournalEvent> journalEvents();
    QHash<QString, QString> saleStates();   // number -> state

    quint32 m_seed = 0;
    QTemporaryDir m_dir;
    QString m_journal;
    FakeOffice m_office;
};

void TestOutboxCrash::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(QFile::exists(GatewayProcess::binaryPath()), "ONCEPAY_GATEWAY_BIN is not set or does not exist");
    QVERIFY2(QFile::exists(qEnvironmentVariable("ONCEPAY_CTL_BIN")), "ONCEPAY_CTL_BIN is not set or does not exist");
    m_seed = seedOfThisRun();
    m_journal = m_dir.filePath(QStringLiteral("till.db"));
    m_office.addTill(kTill, kOfficeToken);
    QString why;
    QVERIFY2(m_office.start(&why), qPrintable(why));
}

QStringList TestOutboxCrash::args(const QUrl &gateway, const QStringList &command) const
{
    return ctlArgs(m_journal, gateway,
        QStringList{QStringLiteral("--office"), m_office.url().toString(), QStringLiteral("--office-token"), kOfficeToken}
            + command);
}

QList<JournalEvent> TestOutboxCrash::journalEvents()
{
    QList<JournalEvent> out;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("peek"));
        db.setDatabaseName(m_journal);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        if (db.open()) {
            QSqlQuery q(db);
            q.exec(QStringLiteral("SELECT seq, kind, at, data FROM outbox ORDER BY seq"));
            while (q.next()) {
                out.append({q.value(0).toLongLong(),
                    QJsonObject{{QStringLiteral("seq"), q.value(0).toLongLong()}, {QStringLiteral("kind"), q.value(1).toString()},
                        {QStringLiteral("at"), q.value(2).toString()},
                        {QStringLiteral("data"), QJsonDocument::fromJson(q.value(3).toByteArray()).object()}}});
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("peek"));
    return out;
}

QHash<QString, QString> TestOutboxCrash::saleStates()
{
    QHash<QString, QString> out;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("sales"));
        db.setDatabaseName(m_journal);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        if (db.open()) {
            QSqlQuery q(db);
            q.exec(QStringLiteral("SELECT number, state FROM sales"));
            while (q.next())
                out.insert(q.value(0).toString(), q.value(1).toString());
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("sales"));
    return out;
}

void TestOutboxCrash::killedWhileSending()
{
    const int iterations = qEnvironmentVariableIsSet("ONCEPAY_CHAOS_ITERATIONS")
        ? qEnvironmentVariableIntValue("ONCEPAY_CHAOS_ITERATIONS")
        : slowRun() ? 300
                    : 150;
    QRandomGenerator rng(m_seed);
    GatewayProcess gateway;
    QVERIFY2(gateway.start(), gateway.failureMessage().constData());
    const QUrl url = gateway.baseUrl();

    // How long a sale takes, start to exit: the window the kills fall into.
    qint64 durationMs = 0;
    for (int n = 0; n < 3; ++n) {
        Ctl calibration(args(url, {QStringLiteral("sale"), QStringLiteral("--item"), kTea, QStringLiteral("--tender"), QStringLiteral("card")}));
        calibration.start();
        QVERIFY2(calibration.waitFinished(60'000) && calibration.exitCode() == 0, calibration.describe().constData());
        durationMs = qMax(durationMs, calibration.elapsedMs());
    }
    qInfo("one sale takes %lld ms", durationMs);
    int kills = 0;
    QMap<QString, int> natural;
    for (int i = 0; i < iterations; ++i) {
        // The office's weather for this process: answers lost after applying, 503s, or fine.
        switch (rng.bounded(4)) {
        case 0:
            m_office.loseAnswersOfNext(1 + int(rng.bounded(2)));
            break;
        case 1:
            m_office.failNext(1 + int(rng.bounded(2)), 503, 0);
            break;
        default:
            m_office.failNext(0, 503);
            m_office.loseAnswersOfNext(0);
        }
        QStringList command;
        switch (rng.bounded(4)) {
        case 0:
            command = {QStringLiteral("office"), QStringLiteral("push"), QStringLiteral("--wait"), QStringLiteral("3")};
            break;
        case 1:
            command = {QStringLiteral("sale"), QStringLiteral("--item"), kTea + QStringLiteral(":%1").arg(1 + rng.bounded(3)),
                QStringLiteral("--tender"), QStringLiteral("cash")};
            break;
        default:
            command = {QStringLiteral("sale"), QStringLiteral("--item"), kTea + QStringLiteral(":%1").arg(1 + rng.bounded(3)),
                QStringLiteral("--tender"), QStringLiteral("card"), QStringLiteral("--wait"), QStringLiteral("4")};
        }
        Ctl ctl(args(url, command));
        ctl.start();
        const bool kill = rng.bounded(100) < 80;
        const int delay = int(rng.bounded(quint32(durationMs * 3 / 2 + 1)));
        if (kill && !ctl.waitFinished(delay)) {
            ctl.kill9();
            ++kills;
            natural[QStringLiteral("%1 killed").arg(command.first())]++;
            continue;
        }
        if (!ctl.waitFinished(60'000)) {
            ctl.kill9();
            QFAIL(("did not end within 60 s: " + ctl.describe()).constData());
        }
        QVERIFY2(!ctl.crashed(), ctl.describe().constData());
        QVERIFY2(ctl.exitCode() == 0 || ctl.exitCode() == 4, ctl.describe().constData());
        natural[QStringLiteral("%1 exit %2").arg(command.first()).arg(ctl.exitCode())]++;
    }
    QStringList parts;
    for (auto it = natural.cbegin(); it != natural.cend(); ++it)
        parts << QStringLiteral("%1: %2").arg(it.key()).arg(it.value());
    qInfo("%d processes, %d killed: %s", iterations, kills, qPrintable(parts.join(QStringLiteral(", "))));

    // The office answers well again: what is left goes.
    m_office.failNext(0, 503);
    m_office.loseAnswersOfNext(0);
    Ctl push(args(url, {QStringLiteral("office"), QStringLiteral("push"), QStringLiteral("--wait"), QStringLiteral("30")}));
    push.start();
    QVERIFY2(push.waitFinished(60'000) && push.exitCode() == 0, push.describe().constData());
    QCOMPARE(push.json().value(QStringLiteral("waiting")).toInt(), 0);

    const QList<JournalEvent> ours = journalEvents();
    const QMap<qint64, QJsonObject> held = m_office.events(kTill);
    const FakeOffice::Stats &stats = m_office.stats();
    qInfo("%lld events; office: %d posts, %d applied, %d replayed, %d answers lost, %d 503, %d gaps, %d positions",
        qint64(ours.size()), stats.posts, stats.applied, stats.replayed, stats.lost, stats.failed, stats.gaps, stats.positions);
    QVERIFY(ours.size() > 0);
    QCOMPARE(stats.mismatches, 0);
    QCOMPARE(held.size(), ours.size());
    QCOMPARE(stats.applied, int(ours.size()));   // each applied once: replays are not applied
    for (qsizetype n = 0; n < ours.size(); ++n) {
        QCOMPARE(ours.at(n).seq, n + 1);   // never skipped
        QVERIFY2(held.contains(ours.at(n).seq), qPrintable(QStringLiteral("seq %1 never reached the office").arg(ours.at(n).seq)));
        QCOMPARE(FakeOffice::fingerprint(held.value(ours.at(n).seq)), FakeOffice::fingerprint(ours.at(n).event));
    }
    // One sale event per ended sale, none for a sale still open.
    QHash<QString, int> saleEvents;
    for (const JournalEvent &e : ours) {
        if (e.event.value(QStringLiteral("kind")).toString() == QLatin1String("sale"))
            saleEvents[e.event.value(QStringLiteral("data")).toObject().value(QStringLiteral("number")).toString()]++;
    }
    const QHash<QString, QString> states = saleStates();
    int ended = 0;
    for (auto it = states.cbegin(); it != states.cend(); ++it) {
        const bool done = it.value() == QLatin1String("paid") || it.value() == QLatin1String("cancelled");
        ended += done ? 1 : 0;
        QVERIFY2(saleEvents.value(it.key()) == (done ? 1 : 0),
            qPrintable(QStringLiteral("sale %1 (%2) has %3 sale event(s)").arg(it.key(), it.value()).arg(saleEvents.value(it.key()))));
    }
    qInfo("%lld sales, %d ended", qint64(states.size()), ended);
}

QTEST_GUILESS_MAIN(TestOutboxCrash)
#include "tst_outboxcrash.moc"
