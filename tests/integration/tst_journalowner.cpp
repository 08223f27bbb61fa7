// Two processes on one journal. The till (here, this test process) owns its journal; an
// oncepay-ctl command that would change it is refused with the owner's process id and changes
// nothing (before, it took the owner's live `sending` intent for an interrupted one, marked it
// `unknown` and polled it); a command that only reads works beside the owner. Whatever path
// leads to the journal (issue 35): the lock file was named after the path given, so a symlink to
// the journal or a hard link got a lock of its own and wrote the journal beside the owner; a
// symlinked folder and a path through ".." found the same lock file, and still do.
#include "idempotencykey.h"
#include "intentjournal.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

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
    void otherPathsToItAreRefused_data();
    void otherPathsToItAreRefused();

private:
    // The owner's payment, on the wire: `sending`.
    std::optional<Intent> sendingPayment(IntentJournal &owner);
    // Refused as the owner's: a non-zero exit, one line on stderr naming this process, no output.
    static bool refusedAsOurs(const Run &refused);
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
    const std::optional<Intent> sending = sendingPayment(owner);
    QVERIFY(sending);

    QVERIFY(refusedAsOurs(ctl(path, command)));

    // Reading works beside the owner, and shows the owner's intent as it is.
    const Run list = ctl(path, {QStringLiteral("list"), QStringLiteral("--json")});
    QVERIFY2(list.exitCode == 0, list.err.constData());
    const QJsonArray rows = QJsonDocument::fromJson(list.out).array();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.first().toObject().value(QStringLiteral("state")).toString(), QStringLiteral("sending"));

    // Nothing changed: not the state, not the journal, no second intent.
    const auto now = await<Intent>([&](auto reply) {
        owner.find(sending->key, this, reply);
    });
    QVERIFY(now);
    QCOMPARE(intentStateName(now->state), QStringLiteral("sending"));
    const auto lines = await<QList<JournalEntry>>([&](auto reply) {
        owner.journal(sending->key, this, reply);
    });
    QVERIFY(lines);
    QCOMPARE(lines->size(), 2);
    IntentJournal::Query all;
    QCOMPARE(await<qint64>([&](auto reply) {
        owner.count(all, this, reply);
    }).value_or(-1),
        qint64(1));
}

void TestJournalOwner::otherPathsToItAreRefused_data()
{
    QTest::addColumn<QString>("how");
    QTest::newRow("through a symlink") << QStringLiteral("symlink");
    QTest::newRow("through a symlinked folder") << QStringLiteral("folder-symlink");
    QTest::newRow("through ..") << QStringLiteral("dotdot");
    QTest::newRow("through a hard link") << QStringLiteral("hard-link");
}

void TestJournalOwner::otherPathsToItAreRefused()
{
    QFETCH(QString, how);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("till")));
    const QString path = dir.filePath(QStringLiteral("till/till.db"));
    IntentJournal owner(IntentJournal::Options{path});
    TillError error;
    QVERIFY2(owner.open(&error), qPrintable(error.text()));
    const std::optional<Intent> sending = sendingPayment(owner);
    QVERIFY(sending);

    QString other;
    if (how == QLatin1String("symlink")) {
        other = dir.filePath(QStringLiteral("till/link.db"));
        QVERIFY(QFile::link(path, other));
    } else if (how == QLatin1String("folder-symlink")) {
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("till")), dir.filePath(QStringLiteral("same"))));
        other = dir.filePath(QStringLiteral("same/till.db"));
    } else if (how == QLatin1String("dotdot")) {
        other = dir.filePath(QStringLiteral("till/../till/till.db"));
    } else {
        other = dir.filePath(QStringLiteral("till/hard.db"));
        QVERIFY(::link(QFile::encodeName(path).constData(), QFile::encodeName(other).constData()) == 0);
    }
    // `sync` would take the owner's `sending` payment for one a crash interrupted.
    QVERIFY(refusedAsOurs(ctl(other, {QStringLiteral("sync"), QStringLiteral("--wait"), QStringLiteral("1")})));
    const auto now = await<Intent>([&](auto reply) {
        owner.find(sending->key, this, reply);
    });
    QVERIFY(now);
    QCOMPARE(intentStateName(now->state), QStringLiteral("sending"));

    // Once the owner is gone, the other path leads to the journal, the same one.
    owner.close();
    const Run after = ctl(other, {QStringLiteral("sync"), QStringLiteral("--wait"), QStringLiteral("1")});
    QVERIFY2(after.exitCode != -1 && !after.err.contains("in use by process"), after.err.constData());
    const Run list = ctl(other, {QStringLiteral("list"), QStringLiteral("--json")});
    QVERIFY2(list.exitCode == 0, list.err.constData());
    QCOMPARE(QJsonDocument::fromJson(list.out).array().size(), 1);
}

std::optional<Intent> TestJournalOwner::sendingPayment(IntentJournal &owner)
{
    Intent intent;
    intent.key = IdempotencyKey::generate(QStringLiteral("pay")).value();
    intent.orderId = QStringLiteral("first-till");
    intent.amount = Money(4200, QStringLiteral("CNY"));
    intent.paymentMethod = QStringLiteral("tok_visa");
    const auto created = await<Intent>([&](auto reply) {
        owner.create(intent, this, reply);
    });
    if (!created)
        return std::nullopt;
    Intent sending = *created;
    sending.state = IntentState::Sending;
    sending.attempts = 1;
    const bool updated = await<bool>([&](auto reply) {
        owner.update(sending, IntentState::Queued, QStringLiteral("attempt 1"), std::nullopt, this, reply);
    }).value_or(false);
    return updated ? std::optional<Intent>(sending) : std::nullopt;
}

bool TestJournalOwner::refusedAsOurs(const Run &refused)
{
    const QByteArray expected = "in use by process " + QByteArray::number(QCoreApplication::applicationPid());
    const bool ok = refused.exitCode != 0 && refused.exitCode != -1 && refused.err.contains(expected)
        && refused.err.trimmed().count('\n') == 0 && refused.out.isEmpty();
    if (!ok)
        qWarning("not refused as this process's journal: exit %d, stderr: %s", refused.exitCode, refused.err.constData());
    return ok;
}

QTEST_GUILESS_MAIN(TestJournalOwner)
#include "tst_journalowner.moc"
