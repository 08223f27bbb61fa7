// Where the till's journal may live (JournalLocation): a missing folder is created when asked,
// and every place that cannot hold a journal is refused with the problem named. Each row fails
// for root as well (a file in the way, a folder given as the file, /proc).
#include "journallocation.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace OncePay;

class TestJournalLocation final : public QObject
{
    Q_OBJECT

private slots:
    void missingFolderIsCreated();
    void missingFolderMustExistForOthers();
    void refused_data();
    void refused();
};

void TestJournalLocation::missingFolderIsCreated()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("shop/till/till-journal.db"));
    TillError error;
    QVERIFY2(JournalLocation::prepare(path, JournalLocation::Folder::CreateWhenMissing, &error), qPrintable(error.text()));
    QVERIFY(QFileInfo(dir.filePath(QStringLiteral("shop/till"))).isDir());
    QVERIFY(!QFileInfo::exists(path));   // the journal itself is IntentJournal's to create
    // Nothing left behind by the write check.
    QCOMPARE(QDir(dir.filePath(QStringLiteral("shop/till"))).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).size(), 0);
}

void TestJournalLocation::missingFolderMustExistForOthers()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("typo/till-journal.db"));
    TillError error;
    QVERIFY(!JournalLocation::prepare(path, JournalLocation::Folder::MustExist, &error));
    QCOMPARE(error.kind(), TillError::Kind::JournalFolderMissing);
    QCOMPARE(error.args(), QStringList{QDir::toNativeSeparators(dir.filePath(QStringLiteral("typo")))});
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("typo"))));
}

void TestJournalLocation::refused_data()
{
    QTest::addColumn<QString>("how");
    QTest::addColumn<TillError::Kind>("kind");
    QTest::addColumn<QString>("lastArg");   // the part of the path the refusal names last
    QTest::newRow("a folder given as the file") << QStringLiteral("folder") << TillError::Kind::JournalPathIsFolder << QStringLiteral("till-journal.db");
    QTest::newRow("a file where a folder should be") << QStringLiteral("file-parent") << TillError::Kind::JournalFolderBlocked << QStringLiteral("not-a-folder");
    QTest::newRow("a folder nobody may write") << QStringLiteral("proc") << TillError::Kind::JournalFolderNotWritable << QStringLiteral("/proc");
    QTest::newRow("a folder that cannot be made") << QStringLiteral("proc-sub") << TillError::Kind::JournalFolderNotCreatable << QStringLiteral("/proc");
    QTest::newRow("nothing given") << QString() << TillError::Kind::JournalPathEmpty << QString();
}

void TestJournalLocation::refused()
{
    QFETCH(QString, how);
    QFETCH(TillError::Kind, kind);
    QFETCH(QString, lastArg);
    QTemporaryDir dir;
    QString path;
    if (how == QLatin1String("folder")) {
        path = dir.path();
    } else if (how == QLatin1String("file-parent")) {
        QFile f(dir.filePath(QStringLiteral("not-a-folder")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        path = f.fileName() + QStringLiteral("/more/till-journal.db");
    } else if (how == QLatin1String("proc")) {
        path = QStringLiteral("/proc/till-journal.db");
    } else if (how == QLatin1String("proc-sub")) {
        path = QStringLiteral("/proc/oncepay-no-such/till-journal.db");
    }
    TillError error;
    QVERIFY(!JournalLocation::prepare(path, JournalLocation::Folder::CreateWhenMissing, &error));
    QCOMPARE(error.kind(), kind);
    QVERIFY2(error.args().value(error.args().size() - 1).endsWith(lastArg), qPrintable(error.text()));
    QVERIFY2(!error.text().isEmpty(), "a refusal without words");
}

QTEST_GUILESS_MAIN(TestJournalLocation)
#include "tst_journallocation.moc"
