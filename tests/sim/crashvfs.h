#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

struct sqlite3_vfs;

namespace OncePay::Sim {

// A disk for the deterministic simulator (issue 22): an SQLite VFS whose files live in memory
// and which can crash the way a machine does. Debian's SQLite has no crash-test VFS, so this is
// one, modelled on SQLite's own crash tests (src/test6.c):
// - every write and truncate since a file's last sync is pending; a sync makes the file as it
//   is durable;
// - crash() decides, from a seed, the fate of each pending change: written, lost, or torn
//   (a random subset of its 512-byte sectors written, the rest not), either in order (a prefix
//   written, one torn, the rest lost) or each on its own (a disk that reorders);
// - the WAL index (shared memory) does not survive a crash; file creation and deletion do
//   (as with a synced directory);
// - the device claims nothing (no atomic writes, no safe append, no powersafe overwrite), so
//   SQLite takes every precaution it has.
// Handles open at the crash belong to the dead process: every call on them fails with an I/O
// error and changes nothing, and closing them is allowed. A capacity makes the disk full.
//
// Opened through a URI: QSqlDatabase with the connect option QSQLITE_OPEN_URI and the
// database name uri(path). Thread-safe (one mutex), though the simulator runs on one thread.
class CrashVfs final
{
public:
    // Registers a VFS named `name` with SQLite (never the default one). `seed` makes the
    // randomness SQLite asks of it (temporary file names) reproducible.
    explicit CrashVfs(const QString &name, std::uint64_t seed = 1);
    ~CrashVfs();   // unregisters; every connection on it must be closed
    CrashVfs(const CrashVfs &) = delete;
    CrashVfs &operator=(const CrashVfs &) = delete;

    QString name() const { return m_name; }
    // "file:PATH?vfs=NAME", for QSqlDatabase::setDatabaseName with QSQLITE_OPEN_URI.
    QString uri(const QString &path) const;

    // The machine dies: pending changes are written, lost or torn as the seed decides, the
    // shared memory is gone, open handles are dead. Returns how many pending changes there were.
    int crash(std::uint64_t seed);

    // SQLite's own random numbers (the WAL's salts, temporary names) are one generator per
    // process, seeded from the default VFS: this seeds it, so that the same run writes the
    // same bytes. Process-wide; the simulator calls it once per seed.
    static void seedSqliteRandomness(std::uint32_t seed);

    // Bytes all files may hold together; a write past it fails with SQLITE_FULL. 0: no limit.
    void setCapacity(std::int64_t bytes);
    std::int64_t bytesUsed() const;

    // The durable content of a file (what a crash now would keep if every pending change were
    // lost), and whether it exists; for tests and the simulator's trace hash.
    QByteArray durableContent(const QString &path) const;
    bool exists(const QString &path) const;
    int syncCount() const;

    struct Shm;
    struct FileData;
    struct Handle;

private:
    struct State;
    static CrashVfs *self(sqlite3_vfs *vfs);
    friend struct CrashVfsCalls;

    QString m_name;
    std::string m_nameUtf8;
    std::unique_ptr<sqlite3_vfs> m_vfs;
    std::unique_ptr<State> m_state;
};

}   // namespace OncePay::Sim
