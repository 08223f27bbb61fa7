#include "journallocation.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>

namespace OncePay {

bool JournalLocation::prepare(const QString &path, Folder folder, QString *error)
{
    if (path.trimmed().isEmpty()) {
        *error = tr("No journal file was given.");
        return false;
    }
    const QFileInfo file(path);
    if (file.isDir()) {
        *error = tr("%1 is a folder, not a journal file: give a file name, such as %2.")
                     .arg(QDir::toNativeSeparators(path), QDir::toNativeSeparators(QDir(path).filePath(QStringLiteral("till-journal.db"))));
        return false;
    }
    const QString dir = file.absolutePath();
    if (!QFileInfo(dir).isDir()) {
        // The nearest part of the path that exists tells why the folder cannot be there.
        QString existing = dir;
        while (!QFileInfo::exists(existing) && QFileInfo(existing).absolutePath() != existing)
            existing = QFileInfo(existing).absolutePath();
        if (QFileInfo(existing).exists() && !QFileInfo(existing).isDir()) {
            *error = tr("The journal's folder %1 cannot be made: %2 is a file, not a folder.")
                         .arg(QDir::toNativeSeparators(dir), QDir::toNativeSeparators(existing));
            return false;
        }
        if (folder == Folder::MustExist) {
            *error = tr("The journal's folder %1 does not exist.").arg(QDir::toNativeSeparators(dir));
            return false;
        }
        if (!QDir().mkpath(dir)) {
            *error = tr("The journal's folder %1 cannot be created: %2 is not writable.")
                         .arg(QDir::toNativeSeparators(dir), QDir::toNativeSeparators(existing));
            return false;
        }
    }
    // Tried, not guessed from permission bits (root, read-only mounts): the journal needs its
    // own file and, beside it, its lock file and SQLite's write-ahead log.
    QTemporaryFile probe(QDir(dir).filePath(QStringLiteral(".oncepay-write-check-XXXXXX")));
    if (!probe.open()) {
        *error = tr("The journal's folder %1 is not writable: the till cannot keep its journal there.")
                     .arg(QDir::toNativeSeparators(dir));
        return false;
    }
    probe.close();
    if (file.exists()) {
        QFile f(path);
        if (!f.open(QIODevice::ReadWrite)) {
            *error = tr("The journal %1 is read-only: the till needs to write it.").arg(QDir::toNativeSeparators(path));
            return false;
        }
    }
    return true;
}

}   // namespace OncePay
