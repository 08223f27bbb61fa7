#pragma once

#include <QString>

#include <memory>

namespace OncePay {

// The till journal's owner, one process at a time: an exclusive flock() on PATH.lock, which the
// kernel releases when the process ends however it ends (kill -9 included), so a crashed till
// never locks out the next one and there is no stale-lock guessing. The file names the owner
// (process id and program) for the message a second process gets.
class JournalLock final
{
public:
    ~JournalLock();

    // The lock, or null with `*owner` set to the holder's "PID (program)" when another process
    // holds it, or with `*error` set when the lock file cannot be created at all.
    static std::unique_ptr<JournalLock> acquire(const QString &journalPath, QString *owner, QString *error);

    QString fileName() const { return m_fileName; }

private:
    JournalLock(int fd, QString fileName)
        : m_fd(fd)
        , m_fileName(std::move(fileName)) {}
    int m_fd;
    QString m_fileName;
};

}   // namespace OncePay
