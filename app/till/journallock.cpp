#include "journallock.h"

#include <QCoreApplication>
#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace OncePay {

JournalLock::~JournalLock()
{
    ::close(m_fd);   // releases the flock
}

std::unique_ptr<JournalLock> JournalLock::acquire(const QString &journalPath, QString *owner, QString *error)
{
    const QString name = journalPath + QStringLiteral(".lock");
    const int fd = ::open(QFile::encodeName(name).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        *error = QString::fromLocal8Bit(std::strerror(errno));
        return nullptr;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int why = errno;
        if (why == EWOULDBLOCK) {
            char text[256] = {};
            const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
            *owner = n > 0 ? QString::fromUtf8(text, int(n)).trimmed() : QStringLiteral("?");
        } else {
            *error = QString::fromLocal8Bit(std::strerror(why));
        }
        ::close(fd);
        return nullptr;
    }
    // Ours: say who we are, for the message the next process gets.
    const QByteArray me = QByteArray::number(QCoreApplication::applicationPid()) + " ("
        + QCoreApplication::applicationName().toUtf8() + ")\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, me.constData(), size_t(me.size()), 0) != me.size()) {
        // The lock holds without the note; only the message of a second process is poorer.
    }
    return std::unique_ptr<JournalLock>(new JournalLock(fd, name));
}

}   // namespace OncePay
