// Where the till's journal may live (JournalLocation): a missing folder is created when asked,
// 0700, and every place that cannot hold a journal is refused with the problem named, a folder
// other accounts may write among them. Each row fails for root as well (a file in the way, a
// folder given as the file, /proc, permission bits read rather than tried). The till's files
// are its account's alone (issue 35): the journal, the staff, catalog and print databases and
// their -wal and -shm are 0600. And the till's own folder is ~/.local/share/OncePay, as the
// README says, unless an older till's journal is in ~/.local/share/OncePay/OncePay.
#include "catalogstore.h"
#include "intentjournal.h"
#include "journallocation.h"
#include "printqueue.h"
#include "staffstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace OncePay;

namespace {

// The permission bits of `path` (the sticky bit included), -1 when it is not there.
int modeOf(const QString &path)
{
    struct stat st = {};
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}

// One of the till's databases beside the journal `journal`, opened; `*path` is its file.
std::unique_ptr<QObject> openStore(const QString &store, const QString &journal, QString *path, QString *error)
{
    if (store == QLatin1String("journal")) {
        *path = journal;
        auto j = std::make_unique<IntentJournal>(IntentJournal::Options{journal});
        TillError why;
        if (!j->open(&why)) {
            *error = why.text();
            return nullptr;
        }
        return j;
    }
    const auto opened = [error](auto s) -> std::unique_ptr<QObject> {
        if (!s->open(error))
            return nullptr;
        return s;
    };
    if (store == QLatin1String("staff"))
        return opened(std::make_unique<StaffStore>(*path = StaffStore::pathBeside(journal)));
    if (store == QLatin1String("catalog"))
        return opened(std::make_unique<CatalogStore>(*path = CatalogStore::pathBeside(journal)));
    return opened(std::make_unique<PrintQueue>(*path = PrintQueue::pathBeside(journal)));
}

}   // namespace

class TestJournalLocation final : public QObject
{
    Q_OBJECT

private slots:
    void missingFolderIsCreated();
    void missingFolderMustExistForOthers();
    void refused_data();
    void refused();
    void sharedFolderIsRefusedByTheJournal();
    void filesAreTheOwnersOnly_data();
    void filesAreTheOwnersOnly();
    void olderFilesAreNarrowedAnotherProgramsAreNot();
    void defaultFolder_data();
    void defaultFolder();
};

void TestJournalLocation::missingFolderIsCreated()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("shop/till/till-journal.db"));
    TillError error;
    QVERIFY2(JournalLocation::prepare(path, JournalLocation::Folder::CreateWhenMissing, &error), qPrintable(error.text()));
    QVERIFY(QFileInfo(dir.filePath(QStringLiteral("shop/till"))).isDir());
    // Each folder made for it is the till's account's alone, whatever the umask.
    QCOMPARE(modeOf(dir.filePath(QStringLiteral("shop"))), 0700);
    QCOMPARE(modeOf(dir.filePath(QStringLiteral("shop/till"))), 0700);
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
    // Another account could replace the journal there, or make its -wal before SQLite does.
    QTest::newRow("a folder every account may write") << QStringLiteral("0777") << TillError::Kind::JournalFolderShared << QStringLiteral("shared");
    QTest::newRow("a folder the group may write") << QStringLiteral("0770") << TillError::Kind::JournalFolderShared << QStringLiteral("shared");
    QTest::newRow("a sticky folder every account may write") << QStringLiteral("1777") << TillError::Kind::JournalFolderShared << QStringLiteral("shared");
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
    } else if (how.startsWith(QLatin1Char('0')) || how.startsWith(QLatin1Char('1'))) {
        const QString shared = dir.filePath(QStringLiteral("shared"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("shared")));
        QVERIFY(::chmod(QFile::encodeName(shared).constData(), mode_t(how.toInt(nullptr, 8))) == 0);
        path = shared + QStringLiteral("/till-journal.db");
    }
    TillError error;
    QVERIFY(!JournalLocation::prepare(path, JournalLocation::Folder::CreateWhenMissing, &error));
    QCOMPARE(error.kind(), kind);
    QVERIFY2(error.args().value(error.args().size() - 1).endsWith(lastArg), qPrintable(error.text()));
    QVERIFY2(!error.text().isEmpty(), "a refusal without words");
}

void TestJournalLocation::sharedFolderIsRefusedByTheJournal()
{
    // oncepay-ctl opens the journal without JournalLocation::prepare(): the journal refuses too,
    // before it makes or locks anything there.
    QTemporaryDir dir;
    QVERIFY(::chmod(QFile::encodeName(dir.path()).constData(), 0777) == 0);
    IntentJournal journal(IntentJournal::Options{dir.filePath(QStringLiteral("till-journal.db"))});
    TillError error;
    QVERIFY(!journal.open(&error));
    QCOMPARE(error.kind(), TillError::Kind::JournalFolderShared);
    QCOMPARE(error.args(), QStringList{QDir::toNativeSeparators(dir.path())});
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
}

void TestJournalLocation::filesAreTheOwnersOnly_data()
{
    QTest::addColumn<QString>("store");
    QTest::newRow("the journal") << QStringLiteral("journal");
    QTest::newRow("the staff and their PIN hashes") << QStringLiteral("staff");
    QTest::newRow("the catalog") << QStringLiteral("catalog");
    QTest::newRow("the print queue") << QStringLiteral("print");
}

void TestJournalLocation::filesAreTheOwnersOnly()
{
    QFETCH(QString, store);
    QTemporaryDir dir;
    const QString journal = dir.filePath(QStringLiteral("shop/till-journal.db"));
    TillError where;
    QVERIFY2(JournalLocation::prepare(journal, JournalLocation::Folder::CreateWhenMissing, &where), qPrintable(where.text()));
    QString path;
    QString error;
    const auto open = openStore(store, journal, &path, &error);
    QVERIFY2(open, qPrintable(error));
    QCOMPARE(modeOf(dir.filePath(QStringLiteral("shop"))), 0700);
    // Open in WAL mode: SQLite's side files are there, made with the main file's mode.
    QStringList files{path, path + QStringLiteral("-wal"), path + QStringLiteral("-shm")};
    if (store == QLatin1String("journal"))
        files << path + QStringLiteral(".lock");
    for (const QString &file : std::as_const(files))
        QVERIFY2(modeOf(file) == 0600, qPrintable(QStringLiteral("%1: %2").arg(file).arg(modeOf(file), 0, 8)));
}

void TestJournalLocation::olderFilesAreNarrowedAnotherProgramsAreNot()
{
    QTemporaryDir dir;
    const QString journal = dir.filePath(QStringLiteral("till-journal.db"));
    QString path;
    QString error;
    QVERIFY2(openStore(QStringLiteral("journal"), journal, &path, &error), qPrintable(error));
    // As an older till left them: 0644.
    for (const QString &file : {journal, journal + QStringLiteral(".lock")})
        QVERIFY(::chmod(QFile::encodeName(file).constData(), 0644) == 0);
    {
        const auto again = openStore(QStringLiteral("journal"), journal, &path, &error);
        QVERIFY2(again, qPrintable(error));
        for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm"), QStringLiteral(".lock")})
            QVERIFY2(modeOf(journal + suffix) == 0600, qPrintable(journal + suffix));
    }
    // A file that proves to be another program's is left as it is, its permissions too.
    const QString foreign = dir.filePath(QStringLiteral("other.db"));
    {
        QFile f(foreign);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a database, and not the till's");
    }
    QVERIFY(::chmod(QFile::encodeName(foreign).constData(), 0644) == 0);
    QVERIFY(!openStore(QStringLiteral("journal"), foreign, &path, &error));
    QCOMPARE(modeOf(foreign), 0644);
}

void TestJournalLocation::defaultFolder_data()
{
    QTest::addColumn<bool>("olderJournal");   // in ~/.local/share/OncePay/OncePay
    QTest::addColumn<bool>("newerJournal");   // in ~/.local/share/OncePay
    QTest::addColumn<QString>("used");
    QTest::newRow("a new till") << false << false << QStringLiteral("OncePay");
    QTest::newRow("an older till's journal") << true << false << QStringLiteral("OncePay/OncePay");
    QTest::newRow("both: the one the README names") << true << true << QStringLiteral("OncePay");
    QTest::newRow("the new one") << false << true << QStringLiteral("OncePay");
}

void TestJournalLocation::defaultFolder()
{
    QFETCH(bool, olderJournal);
    QFETCH(bool, newerJournal);
    QFETCH(QString, used);
    QTemporaryDir home;
    const QByteArray saved = qgetenv("XDG_DATA_HOME");
    qputenv("XDG_DATA_HOME", QFile::encodeName(home.path()));
    const auto restore = qScopeGuard([&] {
        if (saved.isNull())
            qunsetenv("XDG_DATA_HOME");
        else
            qputenv("XDG_DATA_HOME", saved);
    });
    QVERIFY(QDir(home.path()).mkpath(QStringLiteral("OncePay/OncePay")));   // an older till ran here
    for (const auto &[there, folder] : {std::pair{olderJournal, QStringLiteral("OncePay/OncePay")}, std::pair{newerJournal, QStringLiteral("OncePay")}}) {
        QFile f(home.filePath(folder + QStringLiteral("/till-journal.db")));
        QVERIFY(!there || f.open(QIODevice::WriteOnly));
    }
    QCOMPARE(JournalLocation::defaultFolder(), home.filePath(used));
}

QTEST_GUILESS_MAIN(TestJournalLocation)
#include "tst_journallocation.moc"
