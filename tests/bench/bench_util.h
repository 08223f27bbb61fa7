// Small helpers shared by the benchmark tools (oncepay-loadgen, oncepay-herd, oncepay-fsyncrate).
// Header-only and dependency-free on purpose: the tools must stay cheap and build
// without Qt.

#pragma once

#include <sys/socket.h>
#include <sys/types.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace bench {

using Nanos = std::int64_t;
constexpr Nanos kSecond = 1'000'000'000;

inline Nanos nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Nearest-rank percentile over all samples (sorted ascending): no histogram buckets,
// so p99 and max are exact.
inline Nanos percentile(const std::vector<Nanos> &sorted, double p)
{
    if (sorted.empty())
        return 0;
    const auto rank = std::clamp<std::size_t>(std::size_t(std::ceil(p * double(sorted.size()))), 1, sorted.size());
    return sorted[rank - 1];
}

// printf into a std::string: keeps the JSON reports readable without a JSON library.
__attribute__((format(printf, 2, 3))) inline void appendf(std::string &out, const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    const std::size_t old = out.size(), n = std::size_t(std::max(0, std::vsnprintf(nullptr, 0, fmt, ap)));
    out.resize(old + n + 1);
    std::vsnprintf(&out[old], n + 1, fmt, again);
    out.resize(old + n);
    va_end(again);
    va_end(ap);
}

inline std::string jsonEscape(std::string_view s)
{
    std::string r;
    for (const char c : s) {
        if (c == '"' || c == '\\')
            r += '\\';
        if (static_cast<unsigned char>(c) < 0x20)
            appendf(r, "\\u%04x", unsigned(c));
        else
            r += c;
    }
    return r;
}

// Reads everything a non-blocking socket holds into `in` (one recv per 64 KiB: fewer
// epoll_wait round trips under load). Sets `eof` when the peer closed. Returns 0, or the errno
// of a failed recv (the connection is then broken).
inline int recvAvailable(int fd, std::string &in, bool &eof)
{
    char buf[65536];
    for (;;) {
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n > 0) {
            in.append(buf, std::size_t(n));
            if (std::size_t(n) < sizeof buf)
                return 0;
        } else if (n == 0) {
            eof = true;
            return 0;
        } else if (errno == EINTR) {
            continue;
        } else {
            return (errno == EAGAIN || errno == EWOULDBLOCK) ? 0 : errno;
        }
    }
}

// A bad command line is one line on stderr and exit status 2, as scripts expect.
[[noreturn]] inline void badOption(const std::string &msg)
{
    std::fprintf(stderr, "%s: %s (see --help)\n", program_invocation_short_name, msg.c_str());
    std::exit(2);
}

// Walks a command line of "--name value", "--name=value" and flags. For each argument calls
// handle(name, next, hasInlineValue), where next() returns the option's value (or exits 2 when
// it is missing); handle returns false for an unknown option (exit 2). --help / -h print
// `usage` and exit 0.
template <typename Handle>
void forEachOption(int argc, char **argv, const char *usage, Handle handle)
{
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i], value;
        bool inlineValue = false;
        if (const auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = arg.substr(eq + 1);
            arg.resize(eq);
            inlineValue = true;
        }
        auto next = [&]() -> std::string {
            if (inlineValue)
                return value;
            if (i + 1 >= argc)
                badOption("missing value for " + arg);
            return argv[++i];
        };
        if (arg == "--help" || arg == "-h") {
            std::fputs(usage, stdout);
            std::exit(0);
        }
        if (!handle(arg, next, inlineValue))
            badOption("unknown option '" + std::string(argv[i]) + "'");
    }
}

// The whole string, in [lo, hi], or exit 2: a typo must never silently become a default.
template <typename T>
T parseValue(const std::string &opt, const std::string &v, T lo, T hi)
{
    using Wide = std::conditional_t<std::is_integral_v<T>, long long, double>;   // range-check before narrowing
    char *end = nullptr;
    errno = 0;
    Wide n{};
    if constexpr (std::is_integral_v<T>)
        n = std::strtoll(v.c_str(), &end, 10);
    else
        n = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0' || errno != 0 || !(n >= Wide(lo) && n <= Wide(hi)))
        badOption("invalid value '" + v + "' for " + opt);
    return T(n);
}

// A plain http:// base URL. Only plain http: TLS belongs to the reverse proxy, and measuring
// it here would make the client the bottleneck. An optional path prefix is kept for gateways
// behind one (without its trailing slashes).
struct HttpUrl
{
    std::string host, port = "80", basePath, hostHeader;
};

inline HttpUrl parseHttpUrl(const std::string &url, const std::string &opt = "--url")
{
    const std::string scheme = "http://";
    if (url.compare(0, scheme.size(), scheme) != 0)
        badOption(opt + " must start with http://");
    HttpUrl u;
    const std::string rest = url.substr(scheme.size());
    const auto slash = rest.find('/');
    const std::string authority = rest.substr(0, slash);
    u.basePath = slash == std::string::npos ? "" : rest.substr(slash);
    while (!u.basePath.empty() && u.basePath.back() == '/')
        u.basePath.pop_back();
    u.hostHeader = authority;
    const auto colon = authority.rfind(':');
    u.host = authority.substr(0, colon);
    if (colon != std::string::npos)
        u.port = authority.substr(colon + 1);
    if (u.host.empty())
        badOption(opt + " has no host");
    parseValue<long long>(opt + " port", u.port, 1, 65535);
    return u;
}

}   // namespace bench
