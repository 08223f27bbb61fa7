#include "crashvfs.h"

#include <sqlite3.h>

#include <QtGlobal>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <new>
#include <vector>

namespace OncePay::Sim {

namespace {

constexpr int kSectorSize = 512;
constexpr int kShmSlots = SQLITE_SHM_NLOCK;

enum class Lock {
    None = SQLITE_LOCK_NONE,
    Shared = SQLITE_LOCK_SHARED,
    Reserved = SQLITE_LOCK_RESERVED,
    Pending = SQLITE_LOCK_PENDING,
    Exclusive = SQLITE_LOCK_EXCLUSIVE
};

// splitmix64: small, fast and the same everywhere, so a seed means the same crash on every machine.
std::uint64_t nextRandom(std::uint64_t &state)
{
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// A file's bytes as blocks, each an implicitly shared QByteArray: a sync keeps the current blocks
// as the durable ones by reference, and the next write copies only the block it touches. A whole
// QByteArray per file would copy the file (a WAL of up to 4 MB) at the first write after every
// sync, that is once per commit.
class Blocks
{
public:
    static constexpr qint64 kBlock = 4096;

    qint64 size() const { return m_size; }

    void write(qint64 offset, const char *data, qint64 size)
    {
        if (offset + size > m_size)
            resize(offset + size);
        while (size > 0) {
            const qint64 in = offset % kBlock;
            const qint64 n = std::min(size, kBlock - in);
            markDirty(size_t(offset / kBlock));
            std::memcpy(m_blocks[size_t(offset / kBlock)].data() + in, data, size_t(n));
            offset += n;
            data += n;
            size -= n;
        }
    }

    // Copies what exists of [offset, offset + size) into `out`; returns how many bytes that was.
    qint64 read(qint64 offset, char *out, qint64 size) const
    {
        const qint64 available = std::clamp<qint64>(m_size - offset, 0, size);
        for (qint64 done = 0; done < available;) {
            const qint64 at = offset + done;
            const qint64 in = at % kBlock;
            const qint64 n = std::min(available - done, kBlock - in);
            std::memcpy(out + done, m_blocks[size_t(at / kBlock)].constData() + in, size_t(n));
            done += n;
        }
        return available;
    }

    // Grows with zeros, or shrinks (the bytes past the end are zeroed, so growing again reads zeros).
    void resize(qint64 size)
    {
        const size_t blocks = size_t((size + kBlock - 1) / kBlock);
        if (size < m_size && size % kBlock != 0 && blocks <= m_blocks.size()) {
            markDirty(blocks - 1);
            QByteArray &last = m_blocks[blocks - 1];
            std::memset(last.data() + size % kBlock, 0, size_t(kBlock - size % kBlock));
        }
        const size_t before = m_blocks.size();
        m_blocks.resize(blocks, QByteArray(kBlock, '\0'));
        m_dirty.resize(blocks, false);
        for (size_t i = before; i < blocks; ++i)
            markDirty(i);
        m_size = size;
    }

    // A sync: this (the durable blocks) becomes `current` by taking over the blocks written
    // since the last sync, by reference: the cost is the blocks touched, not the file's size.
    void syncFrom(Blocks &current)
    {
        m_blocks.resize(current.m_blocks.size());
        for (size_t i : current.m_dirtyList) {
            if (i < m_blocks.size())
                m_blocks[i] = current.m_blocks[i];
        }
        m_size = current.m_size;
        current.clearDirty();
    }

    // Whole copies (a crash's reconstruction) start clean.
    void clearDirty()
    {
        for (size_t i : m_dirtyList) {
            if (i < m_dirty.size())
                m_dirty[i] = false;
        }
        m_dirtyList.clear();
    }

    QByteArray toByteArray() const
    {
        QByteArray out(m_size, Qt::Uninitialized);
        read(0, out.data(), m_size);
        return out;
    }

private:
    void markDirty(size_t block)
    {
        if (block >= m_dirty.size())
            m_dirty.resize(block + 1, false);
        if (!m_dirty[block]) {
            m_dirty[block] = true;
            m_dirtyList.push_back(block);
        }
    }

    std::vector<QByteArray> m_blocks;   // each kBlock long
    qint64 m_size = 0;
    std::vector<bool> m_dirty;   // written since the last sync
    std::vector<size_t> m_dirtyList;
};

}   // namespace

// The WAL index of one file: lives in memory only, shared by the handles that map it.
struct CrashVfs::Shm
{
    std::vector<std::unique_ptr<char[]>> regions;
    std::array<int, kShmSlots> shared{};
    std::array<const Handle *, kShmSlots> exclusive{};
};

struct CrashVfs::FileData
{
    struct Change
    {
        qint64 offset = 0;   // a write of data at offset, or a truncate (truncatedTo >= 0)
        QByteArray data;
        qint64 truncatedTo = -1;
    };
    Blocks durable;   // as of the last sync
    Blocks current;   // what readers see
    std::vector<Change> pending;   // since the last sync, in order
    std::shared_ptr<Shm> shm = std::make_shared<Shm>();
    int sharedLocks = 0;
    const Handle *reserved = nullptr;
    const Handle *pendingLock = nullptr;
    const Handle *exclusive = nullptr;
};

// What SQLite allocates per open file (szOsFile): sqlite3_file first, then ours.
struct CrashVfs::Handle
{
    sqlite3_file base;
    CrashVfs *vfs = nullptr;
    std::string path;
    std::shared_ptr<FileData> file;
    std::shared_ptr<Shm> shm;   // mapped: the file's WAL index when mapped (the old one after a crash)
    std::uint32_t shmShared = 0;   // bit per slot
    std::uint32_t shmExclusive = 0;
    int generation = 0;   // the world it was opened in; a crash starts a new one
    Lock lock = Lock::None;
    bool deleteOnClose = false;
};

struct CrashVfs::State
{
    mutable std::mutex mutex;
    std::map<std::string, std::shared_ptr<FileData>> files;
    std::int64_t capacity = 0;
    std::uint64_t random = 0;
    int generation = 0;
    int syncs = 0;
    int tempFiles = 0;

    std::int64_t used() const
    {
        std::int64_t bytes = 0;
        for (const auto &entry : files)
            bytes += entry.second->current.size();
        return bytes;
    }
};

// The C entry points SQLite calls; each takes the VFS's one mutex.
struct CrashVfsCalls
{
    using Handle = CrashVfs::Handle;
    using FileData = CrashVfs::FileData;

    static Handle *handle(sqlite3_file *f) { return reinterpret_cast<Handle *>(f); }
    static CrashVfs::State &state(const Handle *h) { return *h->vfs->m_state; }
    static bool stale(const Handle *h) { return h->generation != state(h).generation; }

    static void releaseShm(Handle *h)
    {
        if (!h->shm)
            return;
        for (int i = 0; i < kShmSlots; ++i) {
            if (h->shmShared & (1u << i))
                --h->shm->shared[size_t(i)];
            if (h->shm->exclusive[size_t(i)] == h)
                h->shm->exclusive[size_t(i)] = nullptr;
        }
        h->shmShared = h->shmExclusive = 0;
    }

    static void releaseLocks(Handle *h, Lock to)
    {
        FileData &f = *h->file;
        if (h->lock > Lock::Shared) {
            if (f.reserved == h)
                f.reserved = nullptr;
            if (f.pendingLock == h)
                f.pendingLock = nullptr;
            if (f.exclusive == h)
                f.exclusive = nullptr;
        }
        if (to == Lock::None && h->lock >= Lock::Shared)
            --f.sharedLocks;
        h->lock = to;
    }

    static int close(sqlite3_file *file)
    {
        Handle *h = handle(file);
        {
            std::lock_guard<std::mutex> lock(state(h).mutex);
            releaseShm(h);   // an old WAL index after a crash: only this handle's marks on it
            if (!stale(h)) {
                releaseLocks(h, Lock::None);
                if (h->deleteOnClose) {
                    auto it = state(h).files.find(h->path);
                    if (it != state(h).files.end() && it->second == h->file)
                        state(h).files.erase(it);
                }
            }
        }
        h->~Handle();
        return SQLITE_OK;
    }

    static int read(sqlite3_file *file, void *out, int amount, sqlite3_int64 offset)
    {
        Handle *h = handle(file);
        std::lock_guard<std::mutex> lock(state(h).mutex);
        if (stale(h))
            return SQLITE_IOERR_READ;
        const qint64 available = h->file->current.read(offset, static_cast<char *>(out), amount);
        if (available < amount) {
            std::memset(static_cast<char *>(out) + available, 0, size_t(amount - available));
            return SQLITE_IOERR_SHORT_READ;
        }
        return SQLITE_OK;
    }

    static int write(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset)
    {
        Handle *h = handle(file);
        CrashVfs::State &s = state(h);
        std::lock_guard<std::mutex> lock(s.mutex);
        if (stale(h))
            return SQLITE_IOERR_WRITE;
        FileData &f = *h->file;
        const qint64 grows = std::max<qint64>(0, offset + amount - f.current.size());
        if (s.capacity > 0 && s.used() + grows > s.capacity)
            return SQLITE_FULL;
        f.current.write(offset, static_cast<const char *>(data), amount);
        f.pending.push_back({offset, QByteArray(static_cast<const char *>(data), amount), -1});
        return SQLITE_OK;
    }

    static int truncate(sqlite3_file *file, sqlite3_int64 size)
    {
        Handle *h = handle(file);
        std::lock_guard<std::mutex> lock(state(h).mutex);
        if (stale(h))
            return SQLITE_IOERR_TRUNCATE;
        FileData &f = *h->file;
        f.current.resize(size);
        f.pending.push_back({0, QByteArray(), size});
        return SQLITE_OK;
    }

    static int sync(sqlite3_file *file, int)
    {
        Handle *h = handle(file);
        std::lock_guard<std::mutex> lock(state(h).mutex);
        if (stale(h))
            return SQLITE_IOERR_FSYNC;
        FileData &f = *h->file;
        f.durable.syncFrom(f.current);   // blocks shared until a write detaches one
        f.pending.clear();
        ++state(h).syncs;
        return SQLITE_OK;
    }

    static int fileSize(sqlite3_file *file, sqlite3_int64 *size)
    {
        Handle *h = handle(file);
        std::lock_guard<std::mutex> lock(state(h).mutex);
        if (stale(h))
            return SQLITE_IOERR_FSTAT;
        *size = h->file->current.size();
        return SQLITE_OK;
    }

    static int lock(sqlite3_file *file, int level)
    {
        Handle *h = handle(file);
        std::lock_guard<std::mutex> guard(state(h).mutex);
        if (stale(h))
            return SQLITE_IOERR_LOCK;
        const auto want = Lock(level);
        if (h->lock >= want)
            return SQLITE_OK;
        FileData &f = *h->file;
        switch (want) {
        case Lock::Shared:
            if (f.pendingLock || (f.exclusive && f.exclusive != h))
                return SQLITE_BUSY;
            ++f.sharedLocks;
            h->lock = Lock::Shared;
            return SQLITE_OK;
        case Lock::Reserved:
            if (f.reserved && f.reserved != h)
                return SQLITE_BUSY;
            f.reserved = h;
            h->lock = Lock::Reserved;
            return SQLITE_OK;
        case Lock::Pending:
        case Lock::Exclusive:
            if ((f.pendingLock && f.pendingLock != h) || (f.exclusive && f.exclusive != h))
                return SQLITE_BUSY;
            f.pendingLock = h;   // no new reader from now on
            h->lock = Lock::Pending;
            if (want == Lock::Pending)
                return SQLITE_OK;
            if (f.sharedLocks > 1)
                return SQLITE_BUSY;   // readers are still in: SQLite asks again
            f.exclusive = h;
            h->lock = Lock::Exclusive;
            return SQLITE_OK;
        case Lock::None:
            break;
        }
        return SQLITE_OK;
    }

    static int unlock(sqlite3_file *file, int level)
    {
        Handle *h = handle(file);
        std::lock_guard<std::mutex> guard(state(h).mutex);
        if (stale(h))
            return SQLITE_OK;   // the crash dropped every lock already
        if (h->lock > Lock(level))
            releaseLocks(h, Lock(level));
        return SQLITE_OK;
    }

    static int checkReservedLock(sqlite3_file *file, int *out)
    {
        Handle *h = handle(file);
        std::lock_guard<std::mutex> guard(state(h).mutex);
        if (stale(h))
            return SQLITE_IOERR_CHECKRESERVEDLOCK;
        const FileData &f = *h->file;
        *out = (f.reserved || f.pendingLock || f.exclusive) ? 1 : 0;
        return SQLITE_OK;
    }

    static int fileControl(sqlite3_file *, int, void *) { return SQLITE_NOTFOUND; }
    static int sectorSize(sqlite3_file *) { return kSectorSize; }
    // Nothing promised: no atomic writes, no safe append, no powersafe overwrite.
    static int deviceCharacteristics(sqlite3_file *) { return 0; }

    static int shmMap(sqlite3_file *file, int region, int regionSize, int extend, void volatile **out)
    {
        Handle *h = handle(file);
        std::lock_guard<std::mutex> guard(state(h).mutex);
        *out = nullptr;
        if (stale(h))
            return SQLITE_IOERR_SHMMAP;
        if (!h->shm)
            h->shm = h->file->shm;
        auto &regions = h->shm->regions;
        if (size_t(region) >= regions.size()) {
            if (!extend)
                return SQLITE_OK;
            while (regions.size() <= size_t(region)) {
                regions.push_back(std::make_unique<char[]>(size_t(regionSize)));   // zeroed
            }
        }
        *out = regions[size_t(region)].get();
        return SQLITE_OK;
    }

    static int shmLock(sqlite3_file *file, int offset, int n, int flags)
    {
        Handle *h = handle(file);
        std::lock_guard<std::mutex> guard(state(h).mutex);
        const bool unlocking = flags & SQLITE_SHM_UNLOCK;
        if (!h->shm)
            return unlocking ? SQLITE_OK : SQLITE_IOERR_SHMLOCK;
        if (stale(h) && !unlocking)
            return SQLITE_IOERR_SHMLOCK;
        CrashVfs::Shm &shm = *h->shm;
        const bool exclusive = flags & SQLITE_SHM_EXCLUSIVE;
        if (unlocking) {
            for (int i = offset; i < offset + n; ++i) {
                const std::uint32_t bit = 1u << i;
                if (h->shmShared & bit) {
                    --shm.shared[size_t(i)];
                    h->shmShared &= ~bit;
                }
                if (shm.exclusive[size_t(i)] == h) {
                    shm.exclusive[size_t(i)] = nullptr;
                    h->shmExclusive &= ~bit;
                }
            }
            return SQLITE_OK;
        }
        for (int i = offset; i < offset + n; ++i) {
            const bool mine = h->shmShared & (1u << i);
            if (shm.exclusive[size_t(i)] && shm.exclusive[size_t(i)] != h)
                return SQLITE_BUSY;
            if (exclusive && shm.shared[size_t(i)] - (mine ? 1 : 0) > 0)
                return SQLITE_BUSY;
        }
        for (int i = offset; i < offset + n; ++i) {
            const std::uint32_t bit = 1u << i;
            if (exclusive) {
                shm.exclusive[size_t(i)] = h;
                h->shmExclusive |= bit;
            } else if (!(h->shmShared & bit)) {
                ++shm.shared[size_t(i)];
                h->shmShared |= bit;
            }
        }
        return SQLITE_OK;
    }

    static void shmBarrier(sqlite3_file *file)
    {
        Handle *h = handle(file);
        std::lock_guard<std::mutex> guard(state(h).mutex);   // a full fence, as the mutex is one
    }

    static int shmUnmap(sqlite3_file *file, int deleteIndex)
    {
        Handle *h = handle(file);
        std::lock_guard<std::mutex> guard(state(h).mutex);
        if (!h->shm)
            return SQLITE_OK;
        releaseShm(h);
        if (deleteIndex && !stale(h) && h->file->shm == h->shm)
            h->file->shm = std::make_shared<CrashVfs::Shm>();
        h->shm.reset();
        return SQLITE_OK;
    }

    static const sqlite3_io_methods *ioMethods()
    {
        static const sqlite3_io_methods methods = {
            2,   // with the shared-memory calls (WAL), without memory mapping
            &close, &read, &write, &truncate, &sync, &fileSize, &lock, &unlock, &checkReservedLock,
            &fileControl, &sectorSize, &deviceCharacteristics, &shmMap, &shmLock, &shmBarrier, &shmUnmap,
            nullptr, nullptr};
        return &methods;
    }

    static int open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags)
    {
        CrashVfs *self = CrashVfs::self(vfs);
        CrashVfs::State &s = *self->m_state;
        std::lock_guard<std::mutex> guard(s.mutex);
        file->pMethods = nullptr;   // SQLite calls no close() on a file that did not open
        std::string path = name ? std::string(name) : "/tmp/crashvfs-temp-" + std::to_string(++s.tempFiles);
        auto it = s.files.find(path);
        if (it == s.files.end()) {
            if (!(flags & SQLITE_OPEN_CREATE))
                return SQLITE_CANTOPEN;
            it = s.files.emplace(path, std::make_shared<FileData>()).first;
        }
        auto *h = new (file) Handle;
        h->base.pMethods = ioMethods();
        h->vfs = self;
        h->path = std::move(path);
        h->file = it->second;
        h->generation = s.generation;
        h->deleteOnClose = !name || (flags & SQLITE_OPEN_DELETEONCLOSE);
        if (outFlags)
            *outFlags = flags;
        return SQLITE_OK;
    }

    static int remove(sqlite3_vfs *vfs, const char *name, int)
    {
        CrashVfs::State &s = *CrashVfs::self(vfs)->m_state;
        std::lock_guard<std::mutex> guard(s.mutex);
        return s.files.erase(name) ? SQLITE_OK : SQLITE_IOERR_DELETE_NOENT;
    }

    static int access(sqlite3_vfs *vfs, const char *name, int, int *out)
    {
        CrashVfs::State &s = *CrashVfs::self(vfs)->m_state;
        std::lock_guard<std::mutex> guard(s.mutex);
        *out = s.files.count(name) ? 1 : 0;
        return SQLITE_OK;
    }

    static int fullPathname(sqlite3_vfs *, const char *name, int size, char *out)
    {
        sqlite3_snprintf(size, out, name[0] == '/' ? "%s" : "/%s", name);
        return SQLITE_OK;
    }

    static void *dlOpen(sqlite3_vfs *, const char *) { return nullptr; }
    static void dlError(sqlite3_vfs *, int size, char *out) { sqlite3_snprintf(size, out, "no extensions on the simulated disk"); }
    static void (*dlSym(sqlite3_vfs *, void *, const char *))(void) { return nullptr; }
    static void dlClose(sqlite3_vfs *, void *) {}

    static int randomness(sqlite3_vfs *vfs, int size, char *out)
    {
        CrashVfs::State &s = *CrashVfs::self(vfs)->m_state;
        std::lock_guard<std::mutex> guard(s.mutex);
        for (int i = 0; i < size; ++i)
            out[i] = char(nextRandom(s.random) & 0xff);
        return size;
    }

    // No real sleeping: SQLite's busy handler counts the delays it asked for, so a busy
    // timeout ends after as many tries as on a real disk, at once.
    static int sleep(sqlite3_vfs *, int microseconds) { return microseconds; }

    static int currentTime(sqlite3_vfs *, double *out)
    {
        sqlite3_vfs *real = sqlite3_vfs_find(nullptr);
        return real->xCurrentTime(real, out);
    }
    static int currentTimeInt64(sqlite3_vfs *, sqlite3_int64 *out)
    {
        sqlite3_vfs *real = sqlite3_vfs_find(nullptr);
        return real->iVersion >= 2 && real->xCurrentTimeInt64 ? real->xCurrentTimeInt64(real, out) : SQLITE_ERROR;
    }
    static int lastError(sqlite3_vfs *, int, char *) { return 0; }
};

CrashVfs::CrashVfs(const QString &name, std::uint64_t seed)
    : m_name(name)
    , m_nameUtf8(name.toStdString())
    , m_vfs(std::make_unique<sqlite3_vfs>())
    , m_state(std::make_unique<State>())
{
    m_state->random = seed;
    sqlite3_vfs &v = *m_vfs;
    v.iVersion = 2;
    v.szOsFile = int(sizeof(Handle));
    v.mxPathname = 512;
    v.zName = m_nameUtf8.c_str();
    v.pAppData = this;
    v.xOpen = &CrashVfsCalls::open;
    v.xDelete = &CrashVfsCalls::remove;
    v.xAccess = &CrashVfsCalls::access;
    v.xFullPathname = &CrashVfsCalls::fullPathname;
    v.xDlOpen = &CrashVfsCalls::dlOpen;
    v.xDlError = &CrashVfsCalls::dlError;
    v.xDlSym = &CrashVfsCalls::dlSym;
    v.xDlClose = &CrashVfsCalls::dlClose;
    v.xRandomness = &CrashVfsCalls::randomness;
    v.xSleep = &CrashVfsCalls::sleep;
    v.xCurrentTime = &CrashVfsCalls::currentTime;
    v.xGetLastError = &CrashVfsCalls::lastError;
    v.xCurrentTimeInt64 = &CrashVfsCalls::currentTimeInt64;
    sqlite3_vfs_register(m_vfs.get(), 0);
}

CrashVfs::~CrashVfs()
{
    sqlite3_vfs_unregister(m_vfs.get());
}

CrashVfs *CrashVfs::self(sqlite3_vfs *vfs)
{
    return static_cast<CrashVfs *>(vfs->pAppData);
}

QString CrashVfs::uri(const QString &path) const
{
    return QStringLiteral("file:%1?vfs=%2").arg(path, m_name);
}

int CrashVfs::crash(std::uint64_t seed)
{
    std::lock_guard<std::mutex> guard(m_state->mutex);
    std::uint64_t random = seed;
    int changes = 0;
    // Half the crashes cut each file's pending changes in order (the disk wrote them as they
    // came until the power went: a prefix written, one torn, the rest lost); the other half
    // scramble them (each written, lost or torn on its own, as a disk that reorders does).
    const bool inOrder = nextRandom(random) % 2 == 0;
    for (auto &entry : m_state->files) {   // in name order: the same seed, the same crash
        FileData &f = *entry.second;
        Blocks kept = f.durable;
        const size_t cut = size_t(nextRandom(random) % (f.pending.size() + 1));
        for (size_t i = 0; i < f.pending.size(); ++i) {
            const FileData::Change &c = f.pending[i];
            ++changes;
            enum {
                Written,
                Lost,
                Torn
            };
            const int fate = inOrder ? (i < cut ? Written : i == cut ? Torn
                                                                     : Lost)
                                     : int(nextRandom(random) % 3);
            if (fate == Lost)
                continue;
            if (c.truncatedTo >= 0) {
                if (fate == Written || nextRandom(random) % 2)
                    kept.resize(c.truncatedTo);
                continue;
            }
            if (fate == Written) {
                kept.write(c.offset, c.data.constData(), c.data.size());
                continue;
            }
            // Torn: each sector the write touches is written or not.
            qint64 at = c.offset;
            const qint64 end = c.offset + c.data.size();
            while (at < end) {
                const qint64 sectorEnd = std::min(end, (at / kSectorSize + 1) * kSectorSize);
                if (nextRandom(random) % 2)
                    kept.write(at, c.data.constData() + (at - c.offset), sectorEnd - at);
                at = sectorEnd;
            }
        }
        kept.clearDirty();
        f.durable = kept;
        f.current = kept;
        f.pending.clear();
        f.shm = std::make_shared<Shm>();   // the WAL index was memory
        f.sharedLocks = 0;
        f.reserved = f.pendingLock = f.exclusive = nullptr;
    }
    ++m_state->generation;   // every open handle now belongs to the dead process
    return changes;
}

void CrashVfs::seedSqliteRandomness(std::uint32_t seed)
{
    sqlite3_test_control(SQLITE_TESTCTRL_PRNG_SEED, int(seed | 1u), static_cast<sqlite3 *>(nullptr));
}

void CrashVfs::setCapacity(std::int64_t bytes)
{
    std::lock_guard<std::mutex> guard(m_state->mutex);
    m_state->capacity = bytes;
}

std::int64_t CrashVfs::bytesUsed() const
{
    std::lock_guard<std::mutex> guard(m_state->mutex);
    return m_state->used();
}

QByteArray CrashVfs::durableContent(const QString &path) const
{
    std::lock_guard<std::mutex> guard(m_state->mutex);
    const auto it = m_state->files.find(path.toStdString());
    return it == m_state->files.end() ? QByteArray() : it->second->durable.toByteArray();
}

bool CrashVfs::exists(const QString &path) const
{
    std::lock_guard<std::mutex> guard(m_state->mutex);
    return m_state->files.count(path.toStdString()) > 0;
}

int CrashVfs::syncCount() const
{
    std::lock_guard<std::mutex> guard(m_state->mutex);
    return m_state->syncs;
}

}   // namespace OncePay::Sim
