// Two processes on one journal. The till (here, this test process) owns its journal; an
// oncepay-ctl command that would change it is refused with the owner's process id and changes
// nothing (before, it took the owner's live `sending` intent for an interrupted one, marked it
// `unknown` and polled it); a command that only reads works beside the owner.
#include "idempotencykey.h"
#include "intentjournal.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace OncePay;

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run ctl(const QString &journal, const QStringList &command)
{
    QProcess p;
    // Nothing listens on port 9 (discard): a command that got past the journal could not pay.
    p.start(qEnvironmentVariable("ONCEPAY_CTL_BIN"),
        QStringList{QStringLiteral("--db"), journal, QStringLiteral("--gateway"), QStringLiteral("http://127.0.0.1:9"),
            QStringLiteral("--token"), QStringLiteral("sk_test_demo_till1")}
            + command);
    Run r;
    if (!p.waitForFinished(30'000) || p.exitStatus() != QProcess::NormalExit)
        return r;
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

template <typename T>
std::optional<T> await(const std::function<void(IntentJournal::Reply<T>)> &call)
{
    std::optional<T> value;
    bool done = false;
    call([&](bool ok, const TillError &, T v) {
        done = true;
        if (ok)
            value = v;
    });
    if (!QTest::qWaitFor([&] {
            return done;
        },
            10'000))
        return std::nullopt;
    return value;
}

}   // namespace

class TestJournalOwner final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void commandsThatChangeItAreRefused_data();
    void commandsThatChangeItAreRefused();
};

void TestJournalOwner::initTestCase()
{
    QVERIFY2(QFile::exists(qEnvironmentVariable("ONCEPAY_CTL_BIN")), "ONCEPAY_CTL_BIN is not set (run through ctest)");
}

void TestJournalOwner::commandsThatChangeItAreRefused_data()
{
    QTest::addColumn<QStringList>("command");
    QTest::newRow("sync") << QStringList{QStringLiteral("sync"), QStringLiteral("--wait"), QStringLiteral("1")};
    QTest::newRow("pay") << QStringList{QStringLiteral("pay"), QStringLiteral("--amount"), QStringLiteral("12.00"),
        QStringLiteral("--currency"), QStringLiteral("CNY"), QStringLiteral("--order"),
        QStringLiteral("second-till"), QStringLiteral("--no-wait")};
}

void TestJournalOwner::commandsThatChangeItAreRefused()
{
    QFETCH(QStringList, command);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("till.db"));
    IntentJournal owner(IntentJournal::Options{path});
    TillError error;
    QVERIFY2(owner.open(&error), qPrintable(error.text()));

    // The owner's payment is on the wire: `sending`.
    Intent intent;
    intent.key = IdempotencyKey::generate(QStringLiteral("pay")).value();
    intent.orderId = QStringLiteral("first-till");
    intent.amount = Money(4200, QStringLiteral("CNY"));
    intent.paymentMethod = QStringLiteral("tok_visa");
    const auto created = await<Intent>([&](auto reply) {
        owner.create(intent, this, reply);
    });
    QVERIFY(created);
    Intent sending = *created;
    sending.state = IntentState::Sending;
    sending.attempts = 1;
    QVERIFY(await<bool>([&](auto reply) {
        owner.update(sending, IntentState::Queued, QStringLiteral("attempt 1"),
            std::nullopt, this, reply);
    }).value_or(false));

    const Run refused = ctl(path, command);
    QVERIFY2(refused.exitCode != 0 && refused.exitCode != -1, refused.err.constData());
    const QByteArray expected = "in use by process " + QByteArray::number(QCoreApplication::applicationPid());
    QVERIFY2(refused.err.contains(expected), refused.err.constData());
    QCOMPARE(refused.err.trimmed().count('\n'), 0);   // one line
    QVERIFY(refused.out.isEmpty());

    // Reading works beside the owner, and shows the owner's intent as it is.
    const Run list = ctl(path, {QStringLiteral("list"), QStringLiteral("--json")});
    QVERIFY2(list.exitCode == 0, list.err.constData());
    const QJsonArray rows = QJsonDocument::fromJson(list.out).array();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.first().toObject().value(QStringLiteral("state")).toString(), QStringLiteral("sending"));

    // Nothing changed: not the state, not the journal, no second intent.
    const auto now = await<Intent>([&](auto reply) {
        owner.find(sending.key, this, reply);
    });
    QVERIFY(now);
    QCOMPARE(intentStateName(now->state), QStringLiteral("sending"));
    const auto lines = await<QList<JournalEntry>>([&](auto reply) {
        owner.journal(sending.key, this, reply);
    });
    QVERIFY(lines);
    QCOMPARE(lines->size(), 2);
    IntentJournal::Query all;
    QCOMPARE(await<qint64>([&](auto reply) {
        owner.count(all, this, reply);
    }).value_or(-1),
        qint64(1));
}

QTEST_GUILESS_MAIN(TestJournalOwner)
#include "tst_journalowner.moc"
