// The disk's own durable-write latency, as oncepay-fsyncrate measures it (pwrite of 4 KiB
// appended to a file, then fdatasync), for benchmarks that print their figures next to it.
// Header-only and Qt-free like bench_util.h.

#pragma once

#include "bench_util.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/vfs.h>
#include <unistd.h>

namespace bench {

struct FsyncProbe
{
    bool ok = false;
    std::string error;
    bool tmpfs = false;   // fdatasync is a no-op there: the figure means nothing
    long calls = 0;
    double perSecond = 0;   // whole rounds (pwrite + fdatasync) per second
    Nanos p50 = 0, p99 = 0, max = 0;   // fdatasync alone
    std::vector<Nanos> samples;   // fdatasync alone, sorted
};

// `count` rounds in a hidden, already unlinked file in `dir`.
inline FsyncProbe probeFdatasync(const std::string &dir, long count)
{
    FsyncProbe r;
    std::string path = dir + "/.oncepay-fsyncprobe-XXXXXX";
    const int fd = ::mkostemp(path.data(), O_CLOEXEC);
    if (fd < 0) {
        r.error = "cannot create a file in " + dir + ": " + std::strerror(errno);
        return r;
    }
    ::unlink(path.c_str());
    struct statfs fs
    {};
    r.tmpfs = ::fstatfs(fd, &fs) == 0 && long(fs.f_type) == 0x01021994;   // TMPFS_MAGIC
    std::vector<char> block(4096, 'x');
    std::vector<Nanos> samples;
    samples.reserve(std::size_t(count));
    const Nanos start = nowNs();
    for (long i = 0; i < count; ++i) {
        block[0] = char('a' + i % 26);
        if (::pwrite(fd, block.data(), block.size(), off_t(i) * off_t(block.size())) != ssize_t(block.size())) {
            r.error = std::string("pwrite: ") + std::strerror(errno);
            ::close(fd);
            return r;
        }
        const Nanos t0 = nowNs();
        if (::fdatasync(fd) != 0) {
            r.error = std::string("fdatasync: ") + std::strerror(errno);
            ::close(fd);
            return r;
        }
        samples.push_back(nowNs() - t0);
    }
    const Nanos elapsed = std::max<Nanos>(1, nowNs() - start);
    ::close(fd);
    std::sort(samples.begin(), samples.end());
    r.ok = true;
    r.calls = count;
    r.perSecond = double(count) * double(kSecond) / double(elapsed);
    r.p50 = percentile(samples, 0.50);
    r.p99 = percentile(samples, 0.99);
    r.max = percentile(samples, 1.0);
    r.samples = std::move(samples);
    return r;
}

}   // namespace bench
