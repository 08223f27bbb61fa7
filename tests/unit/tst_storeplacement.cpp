// Where a SQLite store may live (StorePlacement): the boot id is read, never made up, and
// network or user-space file systems are named so that the gateway refuses them.
#include "gateway/store/storeplacement.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace OncePay::Gateway;

class TestStorePlacement final : public QObject
{
    Q_OBJECT

private slots:
    void bootIdOfThisMachine();
    void bootIdMissingOrDamaged_data();
    void bootIdMissingOrDamaged();
    void remoteFileSystems_data();
    void remoteFileSystems();
    void localFolder();
};

void TestStorePlacement::bootIdOfThisMachine()
{
    QString error;
    const std::optional<QString> id = StorePlacement::readBootId(QString::fromLatin1(StorePlacement::kBootIdPath), &error);
    QVERIFY2(id, qPrintable(error));
    QCOMPARE(id->size(), 36);
    QCOMPARE(StorePlacement::bootId(), *id);
}

void TestStorePlacement::bootIdMissingOrDamaged_data()
{
    QTest::addColumn<QByteArray>("content");   // empty: no file at all
    QTest::newRow("missing") << QByteArray();
    QTest::newRow("empty") << QByteArray("\n");
    QTest::newRow("not a uuid") << QByteArray("boot\n");
    QTest::newRow("truncated") << QByteArray("aa5e7a04-47a8-4a55-b9b4\n");
}

void TestStorePlacement::bootIdMissingOrDamaged()
{
    QFETCH(QByteArray, content);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("boot_id"));
    if (!content.isEmpty()) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
    }
    QString error;
    QVERIFY(!StorePlacement::readBootId(path, &error));
    QVERIFY(error.contains(path));
}

void TestStorePlacement::remoteFileSystems_data()
{
    QTest::addColumn<qint64>("magic");
    QTest::addColumn<QString>("name");
    QTest::newRow("nfs") << qint64(0x6969) << QStringLiteral("NFS");
    QTest::newRow("smb") << qint64(0x517B) << QStringLiteral("SMB/CIFS");
    QTest::newRow("cifs") << qint64(0xFF534D42) << QStringLiteral("SMB/CIFS");
    QTest::newRow("smb2") << qint64(0xFE534D42) << QStringLiteral("SMB2");
    QTest::newRow("9p") << qint64(0x01021997) << QStringLiteral("9p");
    QTest::newRow("fuse") << qint64(0x65735546) << QStringLiteral("FUSE");
    QTest::newRow("ext4") << qint64(0xEF53) << QString();
    QTest::newRow("tmpfs") << qint64(0x01021994) << QString();
    QTest::newRow("xfs") << qint64(0x58465342) << QString();
    QTest::newRow("btrfs") << qint64(0x9123683E) << QString();
    QTest::newRow("overlay") << qint64(0x794C7630) << QString();
}

void TestStorePlacement::remoteFileSystems()
{
    QFETCH(qint64, magic);
    QFETCH(QString, name);
    QCOMPARE(StorePlacement::remoteFileSystemName(magic), name);
}

void TestStorePlacement::localFolder()
{
    QTemporaryDir dir;
    QString error;
    QVERIFY2(StorePlacement::checkLocalFolder(dir.path(), &error), qPrintable(error));
    // A folder still to be made is judged by the one that will hold it.
    QVERIFY2(StorePlacement::checkLocalFolder(dir.filePath(QStringLiteral("a/b/c")), &error), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestStorePlacement)
#include "tst_storeplacement.moc"
