#include "privatefiles.h"

#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace OncePay {

namespace {

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

}   // namespace

bool PrivateFiles::makeFolder(const QString &dir, bool narrow, QString *error)
{
    const QString absolute = QFileInfo(dir).absoluteFilePath();
    // The missing folders, outermost first.
    QStringList missing;
    for (QString at = absolute; !QFileInfo::exists(at); at = QFileInfo(at).absolutePath()) {
        missing.prepend(at);
        if (QFileInfo(at).absolutePath() == at)
            break;
    }
    for (const QString &folder : std::as_const(missing)) {
        if (::mkdir(QFile::encodeName(folder).constData(), 0700) != 0 && errno != EEXIST) {
            *error = QStringLiteral("%1: %2").arg(folder, systemError());
            return false;
        }
    }
    if (!QFileInfo(absolute).isDir()) {
        *error = QStringLiteral("%1: not a folder").arg(absolute);
        return false;
    }
    if (narrow && missing.isEmpty()) {
        struct stat st = {};
        const QByteArray name = QFile::encodeName(absolute);
        if (::stat(name.constData(), &st) == 0 && (st.st_mode & 077) != 0 && ::chmod(name.constData(), 0700) != 0) {
            *error = QStringLiteral("%1: %2").arg(absolute, systemError());
            return false;
        }
    }
    return true;
}

bool PrivateFiles::createFile(const QString &path, QString *error)
{
    // O_RDONLY with O_CREAT: made when missing, and an existing file needs no write permission
    // here (whether it may be written is SQLite's to say, in its own words).
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        *error = systemError();
        return false;
    }
    ::close(fd);
    return true;
}

void PrivateFiles::narrowDatabase(const QString &path)
{
    // SQLite names its side files after the file a symlink leads to.
    const QString real = QFileInfo(path).canonicalFilePath();
    if (real.isEmpty())
        return;
    for (const char *suffix : {"", "-wal", "-shm", "-journal"}) {
        // Never through a symlink: one planted as a side file must not turn a chmod onto its target.
        const int fd = ::open(QFile::encodeName(real + QLatin1String(suffix)).constData(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
            continue;
        struct stat st = {};
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 077) != 0)
            (void)::fchmod(fd, st.st_mode & 0700);   // fails, harmlessly, for another account's file
        ::close(fd);
    }
}

bool PrivateFiles::othersMayWrite(const QString &dir)
{
    struct stat st = {};
    if (::stat(QFile::encodeName(dir).constData(), &st) != 0)
        return false;   // not there: whoever makes it decides (makeFolder: 0700)
    return (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
}

}   // namespace OncePay
