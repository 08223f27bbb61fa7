#include "journallocation.h"

#include "privatefiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryFile>

namespace OncePay {

bool JournalLocation::prepare(const QString &path, Folder folder, TillError *error)
{
    using K = TillError::Kind;
    const auto native = [](const QString &p) {
        return QDir::toNativeSeparators(p);
    };
    if (path.trimmed().isEmpty()) {
        *error = TillError(K::JournalPathEmpty);
        return false;
    }
    const QFileInfo file(path);
    if (file.isDir()) {
        *error = TillError(K::JournalPathIsFolder, {native(path), native(QDir(path).filePath(QStringLiteral("till-journal.db")))});
        return false;
    }
    const QString dir = file.absolutePath();
    if (!QFileInfo(dir).isDir()) {
        // The nearest part of the path that exists tells why the folder cannot be there.
        QString existing = dir;
        while (!QFileInfo::exists(existing) && QFileInfo(existing).absolutePath() != existing)
            existing = QFileInfo(existing).absolutePath();
        if (QFileInfo::exists(existing) && !QFileInfo(existing).isDir()) {
            *error = TillError(K::JournalFolderBlocked, {native(dir), native(existing)});
            return false;
        }
        if (folder == Folder::MustExist) {
            *error = TillError(K::JournalFolderMissing, {native(dir)});
            return false;
        }
        // Made 0700: the journal, the staff's PIN hashes and the demo's databases are the shop's.
        if (QString why; !PrivateFiles::makeFolder(dir, false, &why)) {
            *error = TillError(K::JournalFolderNotCreatable, {native(dir), native(existing)});
            return false;
        }
    }
    if (const TillError shared = sharedFolderRefusal(path); shared.isError()) {
        *error = shared;
        return false;
    }
    // Tried, not guessed from permission bits (root, read-only mounts): the journal needs its
    // own file and, beside it, its lock file and SQLite's write-ahead log.
    QTemporaryFile probe(QDir(dir).filePath(QStringLiteral(".oncepay-write-check-XXXXXX")));
    if (!probe.open()) {
        *error = TillError(K::JournalFolderNotWritable, {native(dir)});
        return false;
    }
    probe.close();
    if (file.exists()) {
        QFile f(path);
        if (!f.open(QIODevice::ReadWrite)) {
            *error = TillError(K::JournalReadOnly, {native(path)});
            return false;
        }
    }
    return true;
}

TillError JournalLocation::sharedFolderRefusal(const QString &path)
{
    const QString dir = QFileInfo(path).absolutePath();
    if (!PrivateFiles::othersMayWrite(dir))
        return {};
    return TillError(TillError::Kind::JournalFolderShared, {QDir::toNativeSeparators(dir)});
}

QString JournalLocation::defaultFolder()
{
    QString folder = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/OncePay");
    const QString journal = QStringLiteral("till-journal.db");
    QString before = folder + QStringLiteral("/OncePay");
    if (QFileInfo::exists(QDir(before).filePath(journal)) && !QFileInfo::exists(QDir(folder).filePath(journal)))
        return before;
    return folder;
}

}   // namespace OncePay
