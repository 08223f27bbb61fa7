// OFFICE.md, "The program": tokens made by `oncepay-office till add` / `owner add`, kept hashed;
// a till token writes and reads its own till only, an owner token reads the merchant's tills and
// writes no events; no token 401. Bad usage: a non-zero exit and one line on stderr. Runs on
// PostgreSQL too (tst_officetokens_pg).
#include "gatewayapi.h"
#include "gatewayprocess.h"
#include "officeapi.h"
#include "testdatabase.h"

#include <QFile>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QtTest>

using namespace OfficeApi;

class TestOfficeTokens final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void noTokenIs401_data();
    void noTokenIs401();
    void tillTokenWritesItsOwnTillOnly();
    void ownerReadsAndNeverWrites();
    void tillAddMakesAWorkingToken();
    void ownerOfOneStore();
    void tokensAreKeptHashed();
    void badUsage_data();
    void badUsage();

private:
    struct Run
    {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };
    Run office(const QStringList &args);

    GatewayProcess m_office{GatewayProcess::Program::Office};
};

void TestOfficeTokens::initTestCase()
{
    QVERIFY2(m_office.start(), m_office.failureMessage().constData());
}

TestOfficeTokens::Run TestOfficeTokens::office(const QStringList &args)
{
    QProcess p;
    p.start(GatewayProcess::binaryPath(GatewayProcess::Program::Office), args);
    Run run;
    if (!p.waitForFinished(30000)) {
        p.kill();
        p.waitForFinished();
        return run;
    }
    run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    run.out = p.readAllStandardOutput();
    run.err = p.readAllStandardError();
    return run;
}

void TestOfficeTokens::noTokenIs401_data()
{
    QTest::addColumn<QByteArray>("authorization");
    QTest::newRow("none") << QByteArray();
    QTest::newRow("unknown") << QByteArray("Bearer ot_nobody_knows_this_token");
    QTest::newRow("not bearer") << QByteArray("Basic b3Q6ZGVtbw==");
    QTest::newRow("gateway token") << QByteArray("Bearer sk_test_demo_till1");
}

void TestOfficeTokens::noTokenIs401()
{
    QFETCH(QByteArray, authorization);
    HttpClient client(m_office.baseUrl(), {});
    const HttpHeaders headers{{"Authorization", authorization}};
    ONCEPAY_VERIFY_PROBLEM(client.post(QStringLiteral("/v1/events"), eventsBody(QStringLiteral("1"), 1, 1), headers), 401,
        QStringLiteral("unauthorized"));
    ONCEPAY_VERIFY_PROBLEM(client.get(QStringLiteral("/v1/tills/1/position"), headers), 401, QStringLiteral("unauthorized"));
}

void TestOfficeTokens::tillTokenWritesItsOwnTillOnly()
{
    HttpClient till1(m_office.baseUrl(), kTill1);
    ONCEPAY_VERIFY_PROBLEM(postEvents(till1, eventsBody(QStringLiteral("2"), 1, 2)), 403, QStringLiteral("forbidden"));
    ONCEPAY_VERIFY_PROBLEM(till1.get(QStringLiteral("/v1/tills/2/position")), 403, QStringLiteral("forbidden"));
    HttpClient till2(m_office.baseUrl(), kTill2);
    const Position p = position(till2, QStringLiteral("2"));
    QVERIFY2(p.ok && p.lastSeq == 0, p.raw.constData());
}

void TestOfficeTokens::ownerReadsAndNeverWrites()
{
    HttpClient till1(m_office.baseUrl(), kTill1);
    const Position before = position(till1, QStringLiteral("1"));
    QVERIFY2(before.ok, before.raw.constData());
    HttpClient owner(m_office.baseUrl(), kOwner);
    ONCEPAY_VERIFY_PROBLEM(postEvents(owner, eventsBody(QStringLiteral("1"), before.lastSeq + 1, 1)), 403, QStringLiteral("forbidden"));
    ONCEPAY_VERIFY_BATCH(postEvents(till1, eventsBody(QStringLiteral("1"), before.lastSeq + 1, 2)), 2, 0, before.lastSeq + 2);
    for (const QString &till : {QStringLiteral("1"), QStringLiteral("2")}) {
        const Position p = position(owner, till);
        QVERIFY2(p.ok && p.lastSeq == (till == QLatin1String("1") ? before.lastSeq + 2 : 0), p.raw.constData());
    }
    ONCEPAY_VERIFY_PROBLEM(owner.get(QStringLiteral("/v1/tills/9/position")), 404, QStringLiteral("not-found"));
}

void TestOfficeTokens::tillAddMakesAWorkingToken()
{
    const Run run = office({QStringLiteral("till"), QStringLiteral("add"), QStringLiteral("--db"), m_office.database().dbArg(),
        QStringLiteral("--store"), QStringLiteral("1"), QStringLiteral("--till"), QStringLiteral("3")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QByteArray token = run.out.trimmed();
    QVERIFY2(!token.isEmpty() && !token.contains('\n'), run.out.constData());
    // The running office finds a token made after it started.
    HttpClient till3(m_office.baseUrl(), token);
    ONCEPAY_VERIFY_BATCH(postEvents(till3, eventsBody(QStringLiteral("3"), 1, 3)), 3, 0, 3);
    ONCEPAY_VERIFY_PROBLEM(postEvents(till3, eventsBody(QStringLiteral("1"), 1, 1)), 403, QStringLiteral("forbidden"));
    // Each run makes another token.
    const Run again = office({QStringLiteral("till"), QStringLiteral("add"), QStringLiteral("--db"), m_office.database().dbArg(),
        QStringLiteral("--store"), QStringLiteral("1"), QStringLiteral("--till"), QStringLiteral("3")});
    QVERIFY2(again.exitCode == 0, again.err.constData());
    QVERIFY(again.out.trimmed() != token);
}

void TestOfficeTokens::ownerOfOneStore()
{
    const Run tillInStore2 = office({QStringLiteral("till"), QStringLiteral("add"), QStringLiteral("--db"), m_office.database().dbArg(),
        QStringLiteral("--store"), QStringLiteral("2"), QStringLiteral("--till"), QStringLiteral("7")});
    QVERIFY2(tillInStore2.exitCode == 0, tillInStore2.err.constData());
    const Run run = office({QStringLiteral("owner"), QStringLiteral("add"), QStringLiteral("--db"), m_office.database().dbArg(),
        QStringLiteral("--store"), QStringLiteral("2")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    HttpClient owner2(m_office.baseUrl(), run.out.trimmed());
    const Position own = position(owner2, QStringLiteral("7"));
    QVERIFY2(own.ok && own.lastSeq == 0, own.raw.constData());
    // Till 1 is in store 1: not this owner's.
    ONCEPAY_VERIFY_PROBLEM(owner2.get(QStringLiteral("/v1/tills/1/position")), 404, QStringLiteral("not-found"));
    ONCEPAY_VERIFY_PROBLEM(owner2.get(QStringLiteral("/v1/tills/1/position?store=1")), 403, QStringLiteral("forbidden"));
    // The merchant's owner reads both stores.
    HttpClient owner(m_office.baseUrl(), kOwner);
    const Position seven = position(owner, QStringLiteral("7"));
    QVERIFY2(seven.ok && seven.lastSeq == 0, seven.raw.constData());
}

void TestOfficeTokens::tokensAreKeptHashed()
{
    QString error;
    const QString name = QStringLiteral("tokens-hashed");
    QVERIFY2(m_office.database().connect(name, &error), qPrintable(error));
    {
        QSqlQuery q(QSqlDatabase::database(name, false));
        QVERIFY2(q.exec(QStringLiteral("SELECT token_hash FROM tokens")), qPrintable(q.lastError().text()));
        int rows = 0;
        while (q.next()) {
            ++rows;
            QVERIFY(!q.value(0).toString().startsWith(QLatin1String("ot_")));
            QCOMPARE(q.value(0).toString().size(), 64);   // hex SHA-256
        }
        QVERIFY(rows >= 3);
    }
    QSqlDatabase::database(name, false).close();
    QSqlDatabase::removeDatabase(name);
    if (!m_office.database().isPostgres()) {
        QFile file(m_office.database().sqlitePath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains("ot_demo_till1"));
    }
}

void TestOfficeTokens::badUsage_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("till add without till") << QStringList{QStringLiteral("till"), QStringLiteral("add"), QStringLiteral("--db"), QStringLiteral("x.db"), QStringLiteral("--store"), QStringLiteral("1")};
    QTest::newRow("till add without db") << QStringList{QStringLiteral("till"), QStringLiteral("add"), QStringLiteral("--store"), QStringLiteral("1"), QStringLiteral("--till"), QStringLiteral("1")};
    QTest::newRow("till remove") << QStringList{QStringLiteral("till"), QStringLiteral("remove")};
    QTest::newRow("owner add, bad store") << QStringList{QStringLiteral("owner"), QStringLiteral("add"), QStringLiteral("--db"), QStringLiteral("x.db"), QStringLiteral("--store"), QStringLiteral("a b")};
    QTest::newRow("bad listen") << QStringList{QStringLiteral("--listen"), QStringLiteral("nowhere"), QStringLiteral("--db"), QStringLiteral("x.db")};
    QTest::newRow("no db") << QStringList{QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")};
    QTest::newRow("bad time zone") << QStringList{QStringLiteral("--db"), QStringLiteral("x.db"), QStringLiteral("--time-zone"), QStringLiteral("Mars/Olympus")};
    QTest::newRow("tls cert alone") << QStringList{QStringLiteral("--db"), QStringLiteral("x.db"), QStringLiteral("--tls-cert"), QStringLiteral("c.pem")};
    QTest::newRow("unknown option") << QStringList{QStringLiteral("--db"), QStringLiteral("x.db"), QStringLiteral("--frobnicate")};
}

void TestOfficeTokens::badUsage()
{
    QFETCH(QStringList, args);
    const Run run = office(args);
    QVERIFY2(run.exitCode > 0, run.err.constData());
    QVERIFY(run.out.isEmpty());
    QCOMPARE(run.err.count('\n'), 1);
    QVERIFY2(run.err.startsWith("oncepay-office: "), run.err.constData());
}

QTEST_GUILESS_MAIN(TestOfficeTokens)
#include "tst_officetokens.moc"
