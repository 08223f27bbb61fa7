#include "journallock.h"

#include "privatefiles.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace OncePay {

namespace {

using K = TillError::Kind;

QString systemError(int why)
{
    return QString::fromLocal8Bit(std::strerror(why));
}

QString readNote(int fd)
{
    char text[256] = {};
    const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
    return n > 0 ? QString::fromUtf8(text, int(n)).trimmed() : QString();
}

// The process that holds an flock() on the file `st` describes, from the kernel's list of locks
// ("1: FLOCK  ADVISORY  WRITE 4242 fe:01:1311 0 EOF"; a waiter's line has "->" after the
// number): "PID (program)", or empty when none is seen there.
QString flockHolder(const struct stat &st)
{
    QFile locks(QStringLiteral("/proc/locks"));
    if (!locks.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    char id[64] = {};
    std::snprintf(id, sizeof id, "%02x:%02x:%lu", major(st.st_dev), minor(st.st_dev), static_cast<unsigned long>(st.st_ino));
    for (QByteArray line = locks.readLine(); !line.isEmpty(); line = locks.readLine()) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() < 6 || f.at(1) != "FLOCK" || f.at(5) != id)
            continue;
        const QByteArray &pid = f.at(4);
        QFile comm(QStringLiteral("/proc/%1/comm").arg(QString::fromLatin1(pid)));
        const QByteArray program = comm.open(QIODevice::ReadOnly) ? comm.readAll().trimmed() : QByteArray();
        return QString::fromUtf8(program.isEmpty() ? pid : pid + " (" + program + ")");
    }
    return {};
}

// Who holds the journal open as `journalFd`: the note, while its writer still holds it (only
// the journal's holder does); else, when the journal was reached by another name (a hard link)
// or the note cannot be read, the kernel's list of locks.
QString ownerOf(int journalFd, const QString &notePath)
{
    const int note = ::open(QFile::encodeName(notePath).constData(), O_RDONLY | O_CLOEXEC);
    if (note >= 0) {
        const bool held = ::flock(note, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
        QString text = held ? readNote(note) : QString();
        ::close(note);   // lets go of the shared lock, if it was free to take
        if (!text.isEmpty())
            return text;
    }
    struct stat st = {};
    const QString holder = ::fstat(journalFd, &st) == 0 ? flockHolder(st) : QString();
    return holder.isEmpty() ? QStringLiteral("?") : holder;
}

}   // namespace

JournalLock::~JournalLock()
{
    ::close(m_noteFd);   // each close releases its flock
    ::close(m_journalFd);
}

std::unique_ptr<JournalLock> JournalLock::acquire(const QString &journalPath, TillError *error)
{
    QString why;
    if (!PrivateFiles::createFile(journalPath, &why)) {
        *error = TillError(K::JournalUnusable, {journalPath}, why);
        return nullptr;
    }
    // flock() needs no write access: the descriptor is only ever locked.
    const int journal = ::open(QFile::encodeName(journalPath).constData(), O_RDONLY | O_CLOEXEC);
    if (journal < 0) {
        *error = TillError(K::JournalUnusable, {journalPath}, systemError(errno));
        return nullptr;
    }
    // Named after the file the path leads to, so that every way to it finds the same note.
    const QString note = QFileInfo(journalPath).canonicalFilePath() + QStringLiteral(".lock");
    if (::flock(journal, LOCK_EX | LOCK_NB) != 0) {
        const int code = errno;
        *error = code == EWOULDBLOCK ? TillError(K::JournalInUse, {journalPath, ownerOf(journal, note)})
                                     : TillError(K::JournalUnusable, {journalPath}, systemError(code));
        ::close(journal);
        return nullptr;
    }
    const int fd = ::open(QFile::encodeName(note).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        *error = TillError(K::JournalLockUnavailable, {note}, systemError(errno));
        ::close(journal);
        return nullptr;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        // A till from before the journal itself was locked, still running.
        const int code = errno;
        const QString owner = readNote(fd);
        *error = code == EWOULDBLOCK ? TillError(K::JournalInUse, {journalPath, owner.isEmpty() ? QStringLiteral("?") : owner})
                                     : TillError(K::JournalLockUnavailable, {note}, systemError(code));
        ::close(fd);
        ::close(journal);
        return nullptr;
    }
    (void)::fchmod(fd, 0600);   // a note an older till made 0644
    // Ours: say who we are, for the message the next process gets.
    const QByteArray me = QByteArray::number(QCoreApplication::applicationPid()) + " ("
        + QCoreApplication::applicationName().toUtf8() + ")\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, me.constData(), size_t(me.size()), 0) != me.size()) {
        // The lock holds without the note; only the message of a second process is poorer.
    }
    return std::unique_ptr<JournalLock>(new JournalLock(journal, fd, note));
}

}   // namespace OncePay
