// OFFICE.md, "Events: the till's outbox", black-box against a real oncepay-office: each event
// applied once by (merchant, store, till, seq) with its fingerprint, replays counted, a mismatch
// 422 naming the seq, a gap 409 with expected_seq, nothing applied by a refused batch, at most
// 500 events, seq order, bad JSON a problem. The same suite runs on PostgreSQL as
// tst_officeevents_pg.
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "officeapi.h"
#include "testdatabase.h"

#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QtTest>

using namespace OfficeApi;

class TestOfficeEvents final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void appliedOnceThenReplayed();
    void reorderedMembersAreTheSameEvent();
    void overlapAppliesOnlyTheNew();
    void mismatchAppliesNothing();
    void gapAppliesNothing();
    void refusedBodies_data();
    void refusedBodies();
    void moreThan500Events();
    void fiveHundredEventsInOne();
    void dataStoredWhole();
    void positionStartsAtZero();
    void storeLockedIs503NothingStored();

private:
    // The refusal noted for the gaps report: "problem seq expected_seq", or why it cannot be read.
    QString refusalNoted();

    GatewayProcess m_office{GatewayProcess::Program::Office};
    QString m_till = QStringLiteral("1");
    qint64 m_next = 1;   // the till's next seq: the tests go on from each other's last
};

void TestOfficeEvents::initTestCase()
{
    QVERIFY2(m_office.start(), m_office.failureMessage().constData());
}

void TestOfficeEvents::appliedOnceThenReplayed()
{
    HttpClient client(m_office.baseUrl(), kTill1);
    const QByteArray body = eventsBody(m_till, m_next, 3);
    ONCEPAY_VERIFY_BATCH(postEvents(client, body), 3, 0, m_next + 2);
    // The answer lost, the till sends it again: counted, not applied.
    ONCEPAY_VERIFY_BATCH(postEvents(client, body), 0, 3, m_next + 2);
    m_next += 3;
    const Position p = position(client, m_till);
    QVERIFY2(p.ok && p.lastSeq == m_next - 1, p.raw.constData());
    const StoredEvents stored = storedEvents(m_office.database(), m_till);
    QVERIFY2(stored.ok, qPrintable(stored.error));
    QCOMPARE(stored.rows, m_next - 1);
    QCOMPARE(stored.distinctSeqs, m_next - 1);
}

void TestOfficeEvents::reorderedMembersAreTheSameEvent()
{
    HttpClient client(m_office.baseUrl(), kTill1);
    const qint64 seq = m_next;
    const QByteArray sent = QStringLiteral(R"({"till":"1","events":[{"seq":%1,"kind":"cash","at":"2026-12-07T10:15:02.113Z","data":{"amount":700,"reason":"float"}}]})")
                                .arg(seq)
                                .toUtf8();
    ONCEPAY_VERIFY_BATCH(postEvents(client, sent), 1, 0, seq);
    const QByteArray reordered = QStringLiteral("{ \"events\" : [ { \"data\": {\"reason\": \"float\", \"amount\": 700}, \"at\": "
                                                "\"2026-12-07T10:15:02.113Z\", \"kind\": \"cash\", \"seq\": %1 } ], \"till\": \"1\" }")
                                     .arg(seq)
                                     .toUtf8();
    ONCEPAY_VERIFY_BATCH(postEvents(client, reordered), 0, 1, seq);
    ++m_next;
}

void TestOfficeEvents::overlapAppliesOnlyTheNew()
{
    HttpClient client(m_office.baseUrl(), kTill1);
    ONCEPAY_VERIFY_BATCH(postEvents(client, eventsBody(m_till, m_next, 4)), 4, 0, m_next + 3);
    // The till sends its outbox again from two events back, with three new ones after.
    ONCEPAY_VERIFY_BATCH(postEvents(client, eventsBody(m_till, m_next + 2, 5)), 3, 2, m_next + 6);
    m_next += 7;
}

void TestOfficeEvents::mismatchAppliesNothing()
{
    HttpClient client(m_office.baseUrl(), kTill1);
    ONCEPAY_VERIFY_BATCH(postEvents(client, eventsBody(m_till, m_next, 2)), 2, 0, m_next + 1);
    // The second stored event with other data, then two new ones: the whole batch is refused.
    const HttpReply refused = postEvents(client, eventsBody(m_till, m_next + 1, 3, 1));
    ONCEPAY_VERIFY_PROBLEM(refused, 422, QStringLiteral("event-mismatch"));
    QVERIFY2(refused.object().value(QStringLiteral("detail")).toString().contains(QString::number(m_next + 1)), refused.body.constData());
    QCOMPARE(qint64(refused.object().value(QStringLiteral("seq")).toDouble()), m_next + 1);
    const Position p = position(client, m_till);
    QVERIFY2(p.ok && p.lastSeq == m_next + 1, p.raw.constData());
    // The stored event is untouched: the first version still replays.
    ONCEPAY_VERIFY_BATCH(postEvents(client, eventsBody(m_till, m_next, 2)), 0, 2, m_next + 1);
    m_next += 2;
}

QString TestOfficeEvents::refusalNoted()
{
    QString error;
    QString noted;
    const QString name = QStringLiteral("refusals");
    if (!m_office.database().connect(name, &error))
        return error;
    {
        QSqlQuery q(QSqlDatabase::database(name, false));
        if (q.exec(QStringLiteral("SELECT problem, seq, expected_seq FROM refusals WHERE till = '1'")) && q.next())
            noted = QStringLiteral("%1 %2 %3").arg(q.value(0).toString(), q.value(1).toString(), q.value(2).toString());
        else
            noted = q.lastError().text();
    }
    QSqlDatabase::database(name, false).close();
    QSqlDatabase::removeDatabase(name);
    return noted;
}

void TestOfficeEvents::gapAppliesNothing()
{
    HttpClient client(m_office.baseUrl(), kTill1);
    const HttpReply gap = postEvents(client, eventsBody(m_till, m_next + 1, 3));
    ONCEPAY_VERIFY_PROBLEM(gap, 409, QStringLiteral("seq-gap"));
    QCOMPARE(qint64(gap.object().value(QStringLiteral("expected_seq")).toDouble()), m_next);
    // Noted for the gaps report (after the answer, by its own transaction).
    QTRY_COMPARE(refusalNoted(), QStringLiteral("seq-gap %1 %2").arg(m_next + 1).arg(m_next));
    const Position p = position(client, m_till);
    QVERIFY2(p.ok && p.lastSeq == m_next - 1, p.raw.constData());
    // From the expected seq on, the same events go in.
    ONCEPAY_VERIFY_BATCH(postEvents(client, eventsBody(m_till, m_next, 4)), 4, 0, m_next + 3);
    m_next += 4;
}

void TestOfficeEvents::refusedBodies_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("contentType");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("slug");
    const QByteArray json = "application/json";
    const QString invalid = QStringLiteral("validation-failed");
    const auto event = [](qint64 seq, const char *rest = R"("kind":"cash","at":"2026-12-07T10:00:00Z","data":{})") {
        return QByteArray(R"({"seq":)") + QByteArray::number(seq) + ',' + rest + '}';
    };
    QTest::newRow("bad JSON") << QByteArray(R"({"till":"1","events":[)") << json << 400 << invalid;
    QTest::newRow("not an object") << QByteArray("[]") << json << 400 << invalid;
    QTest::newRow("no till") << QByteArray(R"({"events":[]})") << json << 400 << invalid;
    QTest::newRow("no events") << QByteArray(R"({"till":"1"})") << json << 400 << invalid;
    QTest::newRow("unknown field") << QByteArray(R"({"till":"1","events":[],"x":1})") << json << 400 << invalid;
    QTest::newRow("seq not an integer") << QByteArray(R"({"till":"1","events":[)" + event(1).replace("1,", "1.5,") + "]}") << json << 400 << invalid;
    QTest::newRow("seq zero") << QByteArray(R"({"till":"1","events":[)" + event(0) + "]}") << json << 400 << invalid;
    QTest::newRow("unknown kind") << QByteArray(R"({"till":"1","events":[)" + event(1, R"("kind":"x","at":"2026-12-07T10:00:00Z","data":{})") + "]}") << json << 400 << invalid;
    QTest::newRow("bad time") << QByteArray(R"({"till":"1","events":[)" + event(1, R"("kind":"cash","at":"yesterday","data":{})") + "]}") << json << 400 << invalid;
    QTest::newRow("data not an object") << QByteArray(R"({"till":"1","events":[)" + event(1, R"("kind":"cash","at":"2026-12-07T10:00:00Z","data":3)") + "]}") << json << 400 << invalid;
    QTest::newRow("out of order") << QByteArray(R"({"till":"1","events":[)" + event(100000) + ',' + event(99999) + "]}") << json << 400 << invalid;
    QTest::newRow("seq twice") << QByteArray(R"({"till":"1","events":[)" + event(100000) + ',' + event(100000) + "]}") << json << 400 << invalid;
    QTest::newRow("hole inside") << QByteArray(R"({"till":"1","events":[)" + event(100000) + ',' + event(100002) + "]}") << json << 400 << invalid;
    QTest::newRow("not JSON") << QByteArray(R"({"till":"1","events":[]})") << QByteArray("text/plain") << 415 << QStringLiteral("unsupported-media-type");
}

void TestOfficeEvents::refusedBodies()
{
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, contentType);
    QFETCH(int, status);
    QFETCH(QString, slug);
    HttpClient client(m_office.baseUrl(), kTill1);
    const HttpReply reply = client.post(QStringLiteral("/v1/events"), body, {{"Content-Type", contentType}});
    ONCEPAY_VERIFY_PROBLEM(reply, status, slug);
    const Position p = position(client, m_till);
    QVERIFY2(p.ok && p.lastSeq == m_next - 1, p.raw.constData());
}

void TestOfficeEvents::moreThan500Events()
{
    HttpClient client(m_office.baseUrl(), kTill1);
    const HttpReply reply = postEvents(client, eventsBody(m_till, m_next, 501));
    ONCEPAY_VERIFY_PROBLEM(reply, 413, QStringLiteral("payload-too-large"));
    const Position p = position(client, m_till);
    QVERIFY2(p.ok && p.lastSeq == m_next - 1, p.raw.constData());
}

void TestOfficeEvents::fiveHundredEventsInOne()
{
    HttpClient client(m_office.baseUrl(), kTill1);
    ONCEPAY_VERIFY_BATCH(postEvents(client, eventsBody(m_till, m_next, 500)), 500, 0, m_next + 499);
    ONCEPAY_VERIFY_BATCH(postEvents(client, eventsBody(m_till, m_next, 500)), 0, 500, m_next + 499);
    m_next += 500;
    const StoredEvents stored = storedEvents(m_office.database(), m_till);
    QVERIFY2(stored.ok, qPrintable(stored.error));
    QCOMPARE(stored.rows, m_next - 1);
    QCOMPARE(stored.distinctSeqs, m_next - 1);
    QCOMPARE(stored.firstSeq, 1);
    QCOMPARE(stored.lastSeq, m_next - 1);
}

void TestOfficeEvents::dataStoredWhole()
{
    HttpClient client(m_office.baseUrl(), kTill1);
    const QByteArray data = R"({"number":"1-000777","state":"paid","currency":"CNY","staff":"Wang Fang","extra":{"the till":["may","send",1,"more"]},"totals":{"subtotal":1999,"discounts":0,"tax":230,"total":1999}})";
    const QByteArray body = "{\"till\":\"1\",\"events\":[{\"seq\":" + QByteArray::number(m_next)
        + ",\"kind\":\"sale\",\"at\":\"2026-12-07T10:15:02.113Z\",\"data\":" + data + "}]}";
    ONCEPAY_VERIFY_BATCH(postEvents(client, body), 1, 0, m_next);
    QString error;
    const QString name = QStringLiteral("data-whole");
    QVERIFY2(m_office.database().connect(name, &error), qPrintable(error));
    {
        QSqlQuery q(QSqlDatabase::database(name, false));
        QVERIFY(q.prepare(QStringLiteral("SELECT data, kind, at, state, staff, currency, number, amount FROM events WHERE till = ? AND seq = ?")));
        q.addBindValue(m_till);
        q.addBindValue(m_next);
        QVERIFY2(q.exec() && q.next(), qPrintable(q.lastError().text()));
        QCOMPARE(QJsonDocument::fromJson(q.value(0).toString().toUtf8()), QJsonDocument::fromJson(data));
        QCOMPARE(q.value(1).toString(), QStringLiteral("sale"));
        QCOMPARE(q.value(2).toString(), QStringLiteral("2026-12-07T10:15:02.113Z"));
        QCOMPARE(q.value(3).toString(), QStringLiteral("paid"));
        QCOMPARE(q.value(4).toString(), QStringLiteral("Wang Fang"));
        QCOMPARE(q.value(5).toString(), QStringLiteral("CNY"));
        QCOMPARE(q.value(6).toString(), QStringLiteral("1-000777"));
        QCOMPARE(q.value(7).toLongLong(), 1999);
    }
    QSqlDatabase::database(name, false).close();
    QSqlDatabase::removeDatabase(name);
    ++m_next;
}

void TestOfficeEvents::positionStartsAtZero()
{
    HttpClient client(m_office.baseUrl(), kTill2);
    const Position p = position(client, QStringLiteral("2"));
    QVERIFY2(p.ok && p.lastSeq == 0, p.raw.constData());
    // The first event of a till is seq 1.
    const HttpReply gap = postEvents(client, eventsBody(QStringLiteral("2"), 2, 1));
    ONCEPAY_VERIFY_PROBLEM(gap, 409, QStringLiteral("seq-gap"));
    QCOMPARE(gap.object().value(QStringLiteral("expected_seq")).toInt(), 1);
}

// 503 only when the office knows nothing was written: the store locked past its busy timeout
// fails the batch before its COMMIT. The same batch once the store is free is applied whole.
void TestOfficeEvents::storeLockedIs503NothingStored()
{
    HttpClient client(m_office.baseUrl(), kTill1);
    const QByteArray body = eventsBody(m_till, m_next, 20);
    {
        StoreLock lock(m_office.database(), QStringLiteral("events, tokens, tills"));
        QVERIFY2(lock.ok(), qPrintable(lock.error()));
        const HttpReply refused = postEvents(client, body);
        ONCEPAY_VERIFY_PROBLEM(refused, 503, QStringLiteral("store-unavailable"));
        QVERIFY(refused.hasHeader("Retry-After"));
        QVERIFY(lock.release());
    }
    ONCEPAY_VERIFY_BATCH(postEvents(client, body), 20, 0, m_next + 19);
    m_next += 20;
    const HttpReply health = client.get(QStringLiteral("/healthz"));
    QVERIFY2(health.status == 200, health.describe().constData());
}

QTEST_GUILESS_MAIN(TestOfficeEvents)
#include "tst_officeevents.moc"
