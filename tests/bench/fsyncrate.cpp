// oncepay-fsyncrate: how many fdatasync calls per second can this disk do?
//
// Every durable commit of the gateway's store ends in an fsync-class call, so the
// disk's own sync rate is the ceiling for unique payments per second (unless commits
// are grouped). Running this next to oncepay-loadgen tells whether a benchmark result
// is limited by the gateway or by the disk.
//
// Each round writes 4 KiB with pwrite and then calls fdatasync, like a log append.
// By default the file grows (the size change must be made durable too, as for a
// growing WAL); --overwrite rewrites the same block, the cheapest case.

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "bench_util.h"

namespace {

using namespace bench;

constexpr std::size_t kBlock = 4096;
constexpr long kTmpfsMagic = 0x01021994;   // linux/magic.h TMPFS_MAGIC

const char kUsage[] =
    "usage: oncepay-fsyncrate [--dir PATH] [--count N] [--overwrite] [--json]\n"
    "  --dir PATH    directory on the disk to measure (default: current directory)\n"
    "  --count N     pwrite(4 KiB) + fdatasync rounds (default 2000)\n"
    "  --overwrite   rewrite the same block instead of appending\n"
    "  --json        print the result as one JSON object\n";

}   // namespace

int main(int argc, char **argv)
{
    std::string dir = ".";
    long count = 2000;
    bool json = false, overwrite = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc)
                badOption("missing value for " + arg);
            return argv[++i];
        };
        if (arg == "--help" || arg == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (arg == "--dir") {
            dir = next();
        } else if (arg == "--count") {
            count = parseValue(arg, next(), 1L, 10'000'000L);
        } else if (arg == "--overwrite") {
            overwrite = true;
        } else if (arg == "--json") {
            json = true;
        } else {
            badOption("unknown option '" + arg + "'");
        }
    }

    std::string path = dir + "/.oncepay-fsyncrate-XXXXXX";
    const int fd = ::mkostemp(path.data(), O_CLOEXEC);
    if (fd < 0) {
        std::fprintf(stderr, "oncepay-fsyncrate: cannot create a file in %s: %s\n", dir.c_str(),
            std::strerror(errno));
        return 1;
    }
    ::unlink(path.c_str());   // the open descriptor keeps it; nothing is left behind on a crash

    struct statfs fs
    {};
    const bool tmpfs = ::fstatfs(fd, &fs) == 0 && long(fs.f_type) == kTmpfsMagic;
    if (tmpfs)
        std::fprintf(stderr, "oncepay-fsyncrate: warning: %s is tmpfs, fdatasync is a no-op there\n",
            dir.c_str());

    std::vector<char> block(kBlock, 'x');
    std::vector<Nanos> samples;
    samples.reserve(std::size_t(count));
    const Nanos start = nowNs();
    for (long i = 0; i < count; ++i) {
        const off_t offset = overwrite ? 0 : off_t(i) * off_t(kBlock);
        block[0] = char('a' + i % 26);   // a real change each time, not a no-op rewrite
        if (::pwrite(fd, block.data(), kBlock, offset) != ssize_t(kBlock)) {
            std::fprintf(stderr, "oncepay-fsyncrate: pwrite: %s\n", std::strerror(errno));
            ::close(fd);
            return 1;
        }
        const Nanos t0 = nowNs();
        if (::fdatasync(fd) != 0) {
            std::fprintf(stderr, "oncepay-fsyncrate: fdatasync: %s\n", std::strerror(errno));
            ::close(fd);
            return 1;
        }
        samples.push_back(nowNs() - t0);
    }
    // The rate covers the whole round (pwrite + fdatasync): what a commit costs.
    const double secs = double(std::max<Nanos>(1, nowNs() - start)) / 1e9;
    ::close(fd);

    std::sort(samples.begin(), samples.end());
    const double rate = double(count) / secs;
    auto us = [&](double p) {
        return double(percentile(samples, p)) / 1e3;
    };
    const double p50 = us(0.5), p99 = us(0.99), max = us(1.0);
    if (json) {
        std::printf("{\"dir\":\"%s\",\"mode\":\"%s\",\"tmpfs\":%s,\"calls\":%ld,\"elapsed_s\":%.3f,"
                    "\"per_second\":%.1f,\"p50_us\":%.1f,\"p99_us\":%.1f,\"max_us\":%.1f}\n",
            jsonEscape(dir).c_str(), overwrite ? "overwrite" : "append", tmpfs ? "true" : "false",
            count, secs, rate, p50, p99, max);
    } else {
        std::printf("fdatasync: %ld calls, %.0f per second, p50 %.0f us, p99 %.0f us\n", count, rate, p50, p99);
    }
    return 0;
}
