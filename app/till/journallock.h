#pragma once

#include "tillerror.h"

#include <QString>

#include <memory>

namespace OncePay {

// The till journal's owner, one process at a time, whatever path reaches the journal (a
// symlink, "a/../a/j.db", a hard link): an exclusive flock() on the journal file itself, which
// the kernel ties to the file, not to its name, and releases when the process ends however it
// ends (kill -9 included), so a crashed till never locks out the next one and there is no
// stale-lock guessing. Beside it, a second flock on CANONICAL-PATH.lock, a file that names the
// owner (process id and program) for the message a second process gets; it is also the lock
// that tills before this one took, so an older till still running keeps a newer one out.
// SQLite's own locks are POSIX locks, which flock() neither sees nor disturbs.
class JournalLock final
{
public:
    ~JournalLock();

    // The lock, or null with `*error` set: JournalInUse with the holder's "PID (program)" when
    // another process holds it, JournalUnusable when the journal cannot be made, or
    // JournalLockUnavailable when the note beside it cannot. A journal not there yet is made
    // (empty, 0600: PrivateFiles) to be locked, and SQLite makes its -wal and -shm 0600 too.
    static std::unique_ptr<JournalLock> acquire(const QString &journalPath, TillError *error);

    QString fileName() const { return m_fileName; }

private:
    JournalLock(int journalFd, int noteFd, QString fileName)
        : m_journalFd(journalFd)
        , m_noteFd(noteFd)
        , m_fileName(std::move(fileName)) {}
    int m_journalFd;
    int m_noteFd;
    QString m_fileName;
};

}   // namespace OncePay
