// oncepay-loadgen: closed-loop HTTP/1.1 load generator for POST /v1/payments.
//
// Deliberately plain C++17 + POSIX sockets + epoll on a single thread: the point is
// to measure the gateway, so the client must spend as little CPU per request as
// possible (no Qt event loop, no QNetworkAccessManager; a request is a few small
// strings and a handful of syscalls). Each connection keeps `--pipeline` requests (default 1)
// outstanding and sends the next one as soon as a response has been parsed.
//
// Duplicates re-send the exact bytes of an earlier request whose response has
// already arrived, i.e. a retry of a *finished* key, which the contract says must
// replay (201 + `Idempotent-Replayed: true`) and never execute twice.

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <random>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench_util.h"
#include "http_response.h"

namespace {

using namespace bench;
using namespace loadgen;

constexpr Nanos kTick = 10'000'000;   // housekeeping period (reconnects, timeouts)
constexpr Nanos kReconnectDelay = 100'000'000;   // after a failure, so a dead server is not a busy loop

volatile std::sig_atomic_t g_interrupted = 0;

// ---------------------------------------------------------------------------------
// Options

struct Options
{
    std::string url, host, port = "80", basePath, hostHeader;
    int connections = 32;
    long long requests = 0;   // > 0: fixed number of measured requests
    double duration = 10;   // used when requests == 0
    double warmup = 1;
    double duplicatePct = 0;
    std::string token = "sk_test_demo_till1";
    bool json = false;
    bool seedGiven = false;
    std::uint64_t seed = 0;
    int pipeline = 1;
    double timeout = 30;
    bool wallet = false;   // wallet payments (issue 26): a payment code of its own per key
};

const char kUsage[] =
    "usage: oncepay-loadgen --url http://HOST:PORT [options]\n"
    "  --connections N    concurrent keep-alive connections (default 32)\n"
    "  --requests TOTAL   measured requests to send (excludes warm-up), or\n"
    "  --duration SECONDS measured time (default 10)\n"
    "  --duplicates PCT   share of requests that retry an already finished key (default 0)\n"
    "  --wallet           wallet payments: each key its own payment code, approved at once\n"
    "  --token T          bearer token (default sk_test_demo_till1)\n"
    "  --warmup SECONDS   warm-up whose results are discarded (default 1)\n"
    "  --pipeline N       requests outstanding per connection (default 1)\n"
    "  --timeout SECONDS  per-request timeout, counted as an error (default 30)\n"
    "  --seed N           seed of the duplicate choice (the key prefix stays random)\n"
    "  --json             print the results as one JSON object\n"
    "exit status: 0 ok, 1 error share above 1% or no response, 2 bad options\n";

void parseUrl(Options &o)
{
    const HttpUrl u = parseHttpUrl(o.url);
    o.host = u.host;
    o.port = u.port;
    o.basePath = u.basePath;
    o.hostHeader = u.hostHeader;
}

Options parseOptions(int argc, char **argv)
{
    Options o;
    bool haveRequests = false, haveDuration = false;
    forEachOption(argc, argv, kUsage, [&](const std::string &arg, const auto &next, bool inlineValue) {
        if (arg == "--url") {
            o.url = next();
        } else if (arg == "--connections") {
            o.connections = parseValue(arg, next(), 1, 100000);
        } else if (arg == "--requests") {
            o.requests = parseValue<long long>(arg, next(), 1, 1'000'000'000'000LL);
            haveRequests = true;
        } else if (arg == "--duration") {
            o.duration = parseValue<double>(arg, next(), 0.001, 86400);
            haveDuration = true;
        } else if (arg == "--duplicates") {
            o.duplicatePct = parseValue<double>(arg, next(), 0, 100);
        } else if (arg == "--token") {
            o.token = next();
            if (o.token.empty() || o.token.find_first_of("\r\n ") != std::string::npos)
                badOption("invalid --token");
        } else if (arg == "--warmup") {
            o.warmup = parseValue<double>(arg, next(), 0, 3600);
        } else if (arg == "--pipeline") {
            o.pipeline = parseValue(arg, next(), 1, 1024);
        } else if (arg == "--timeout") {
            o.timeout = parseValue<double>(arg, next(), 0.001, 3600);
        } else if (arg == "--seed") {
            o.seed = std::uint64_t(parseValue<long long>(arg, next(), 0, INT64_MAX));
            o.seedGiven = true;
        } else if (arg == "--json" && !inlineValue) {
            o.json = true;
        } else if (arg == "--wallet" && !inlineValue) {
            o.wallet = true;
        } else {
            return false;
        }
        return true;
    });
    if (o.url.empty())
        badOption("--url is required");
    if (haveRequests && haveDuration)
        badOption("--requests and --duration are mutually exclusive");
    parseUrl(o);
    return o;
}

// ---------------------------------------------------------------------------------
// The load generator

struct Pending
{
    std::uint64_t counter;   // identifies key and body: both are derived from it
    bool duplicate;
    bool measured;   // sent after the warm-up
    Nanos sentAt;
};

struct Conn
{
    int fd = -1;
    std::uint32_t generation = 0;   // tags epoll events so a stale one is ignored
    bool connecting = false;
    bool wantWrite = false;
    std::string out, in;
    std::size_t outPos = 0;
    std::deque<Pending> pending;
    Nanos retryAt = 0;
};

class LoadGen
{
public:
    explicit LoadGen(Options o)
        : opt_(std::move(o)) {}
    int run();

private:
    bool resolve();
    void open(Conn &c, std::size_t index, Nanos now);
    void drop(Conn &c, const char *why, Nanos retryAt);
    void fill(Conn &c, Nanos now);
    void flush(Conn &c);
    void updateEvents(Conn &c, std::size_t index, bool force = false);
    void onEvent(std::size_t index, std::uint32_t events);
    void complete(const Pending &p, const Response &r, Nanos now);
    void error(const std::string &kind, bool measured)
    {
        if (measured)
            ++errors_[kind];
    }
    bool mayIssue(Nanos now) const;
    std::string buildRequest(std::uint64_t counter) const;
    int report() const;

    Options opt_;
    sockaddr_storage addr_{};
    socklen_t addrLen_ = 0;
    int epfd_ = -1;
    std::vector<Conn> conns_;
    std::mt19937_64 rng_;
    std::string runId_;
    std::string walletRun_;   // three digits of the run in every wallet code
    std::uint64_t nextCounter_ = 0;
    std::vector<std::uint64_t> finished_;   // keys with a recorded outcome: retry candidates
    Nanos start_ = 0, measureStart_ = 0, stopAt_ = 0, end_ = 0;
    long long issuedMeasured_ = 0;
    std::vector<Nanos> unique_, replay_;   // latency of every successful measured response
    std::map<int, long long> statusCounts_;
    std::map<std::string, long long> errors_;
};

bool LoadGen::resolve()
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *res = nullptr;
    if (const int rc = getaddrinfo(opt_.host.c_str(), opt_.port.c_str(), &hints, &res); rc != 0) {
        std::fprintf(stderr, "oncepay-loadgen: cannot resolve %s: %s\n", opt_.host.c_str(), gai_strerror(rc));
        return false;
    }
    std::memcpy(&addr_, res->ai_addr, res->ai_addrlen);
    addrLen_ = res->ai_addrlen;
    freeaddrinfo(res);
    return true;
}

std::string LoadGen::buildRequest(std::uint64_t counter) const
{
    // Everything is a function of the counter, so a duplicate is byte-for-byte the
    // original request without storing it.
    const std::string n = std::to_string(counter);
    std::string method = R"("payment_method":"tok_visa")";
    if (opt_.wallet) {
        // 18 digits, WeChat-style prefix, last digit 0 (approved at once): the run's own three
        // digits and the counter, so that no two keys present the same single-use code.
        std::string digits = std::to_string(counter % 1'000'000'000'000ULL);
        digits.insert(0, 12 - digits.size(), '0');
        method = R"("payment_method":"wallet","wallet_code":"13)" + walletRun_ + digits + R"(0")";
    }
    const std::string body = R"({"amount":1999,"currency":"CNY","order_id":"lg-)" + n + R"(",)" + method + "}";
    std::string r;
    r.reserve(256 + body.size());
    r += "POST " + opt_.basePath + "/v1/payments HTTP/1.1\r\nHost: " + opt_.hostHeader;
    r += "\r\nAuthorization: Bearer " + opt_.token;
    r += "\r\nContent-Type: application/json\r\nIdempotency-Key: \"lg-" + runId_ + "-" + n;
    r += "\"\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    return r;
}

bool LoadGen::mayIssue(Nanos now) const
{
    if (g_interrupted)
        return false;
    if (now < measureStart_)
        return true;   // warm-up
    return opt_.requests > 0 ? issuedMeasured_ < opt_.requests : now < stopAt_;
}

void LoadGen::open(Conn &c, std::size_t index, Nanos now)
{
    const std::uint32_t generation = c.generation + 1;
    c = Conn{};
    c.generation = generation;
    c.fd = ::socket(addr_.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c.fd < 0) {
        error(std::string("socket: ") + std::strerror(errno), now >= measureStart_);
        c.retryAt = now + kReconnectDelay;
        return;
    }
    const int one = 1;   // requests are written in one go; never wait for Nagle
    ::setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (::connect(c.fd, reinterpret_cast<const sockaddr *>(&addr_), addrLen_) != 0 && errno != EINPROGRESS) {
        const std::string why = std::string("connect: ") + std::strerror(errno);
        drop(c, why.c_str(), now + kReconnectDelay);
        error(why, now >= measureStart_);
        return;
    }
    c.connecting = true;
    epoll_event ev{};
    ev.events = EPOLLOUT;
    ev.data.u64 = (std::uint64_t(c.generation) << 32) | index;
    ::epoll_ctl(epfd_, EPOLL_CTL_ADD, c.fd, &ev);
    c.wantWrite = true;
}

// Closes the connection; requests still outstanding on it failed with `why`.
void LoadGen::drop(Conn &c, const char *why, Nanos retryAt)
{
    for (const Pending &p : c.pending)
        error(why, p.measured);
    if (c.fd >= 0)
        ::close(c.fd);   // also removes it from the epoll set
    c.fd = -1;
    c.pending.clear();
    c.retryAt = retryAt;
}

void LoadGen::fill(Conn &c, Nanos now)
{
    if (c.fd < 0)
        return;
    while (int(c.pending.size()) < opt_.pipeline && mayIssue(now)) {
        const bool measured = now >= measureStart_;
        const bool dup = opt_.duplicatePct > 0 && !finished_.empty() && std::uniform_real_distribution<double>(0, 100)(rng_) < opt_.duplicatePct;
        const std::uint64_t counter =
            dup ? finished_[std::uniform_int_distribution<std::size_t>(0, finished_.size() - 1)(rng_)]
                : nextCounter_++;
        c.out += buildRequest(counter);
        c.pending.push_back({counter, dup, measured, now});
        issuedMeasured_ += measured;
    }
    if (!c.connecting)
        flush(c);
}

void LoadGen::flush(Conn &c)
{
    while (c.outPos < c.out.size()) {
        const ssize_t n = ::send(c.fd, c.out.data() + c.outPos, c.out.size() - c.outPos, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                const std::string why = std::string("send: ") + std::strerror(errno);
                drop(c, why.c_str(), nowNs());
            }
            return;
        }
        c.outPos += std::size_t(n);
    }
    c.out.clear();
    c.outPos = 0;
}

// Waits for writability only while output is pending; `force` after connecting, when
// the socket was registered for EPOLLOUT alone.
void LoadGen::updateEvents(Conn &c, std::size_t index, bool force)
{
    const bool write = c.outPos < c.out.size();
    if (c.fd < 0 || c.connecting || (write == c.wantWrite && !force))
        return;   // the common case: no epoll_ctl syscall per request
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP | (write ? EPOLLOUT : 0u);
    ev.data.u64 = (std::uint64_t(c.generation) << 32) | index;
    ::epoll_ctl(epfd_, EPOLL_CTL_MOD, c.fd, &ev);
    c.wantWrite = write;
}

void LoadGen::complete(const Pending &p, const Response &r, Nanos now)
{
    // Outcomes the gateway records (and must replay) make a key eligible for a retry.
    if (!p.duplicate && (r.status == 201 || r.status == 202 || r.status == 402))
        finished_.push_back(p.counter);
    if (!p.measured)
        return;
    ++statusCounts_[r.status];
    if (r.status != 201) {
        error("HTTP " + std::to_string(r.status) + (r.replayed ? " (replayed)" : ""), true);
    } else if (p.duplicate != r.replayed) {
        // A retry of a finished key that is not a replay may have executed twice;
        // a fresh key that replays means a key collision. Both break the contract.
        error(p.duplicate ? "201 without Idempotent-Replayed for a retried key"
                          : "201 replayed for a fresh key",
            true);
    } else {
        (r.replayed ? replay_ : unique_).push_back(now - p.sentAt);
    }
}

void LoadGen::onEvent(std::size_t index, std::uint32_t events)
{
    Conn &c = conns_[index];
    const Nanos now = nowNs();
    if (c.connecting) {
        int err = 0;
        socklen_t len = sizeof err;
        ::getsockopt(c.fd, SOL_SOCKET, SO_ERROR, &err, &len);
        if (err != 0 || (events & (EPOLLERR | EPOLLHUP))) {
            const std::string why = std::string("connect: ") + std::strerror(err ? err : ECONNREFUSED);
            // Nothing was sent on it, so the queued requests are not lost: count the
            // connect failure once and let them be re-issued after the delay.
            error(why, now >= measureStart_);
            issuedMeasured_ -= std::count_if(c.pending.begin(), c.pending.end(),
                [](const Pending &p) {
                    return p.measured;
                });
            c.pending.clear();
            drop(c, why.c_str(), now + kReconnectDelay);
            return;
        }
        c.connecting = false;
        fill(c, now);
        updateEvents(c, index, true);   // now also readable
        return;
    }
    if (events & EPOLLOUT) {
        flush(c);
        if (c.fd < 0) {   // send failed and dropped the connection
            open(c, index, now);
            return;
        }
    }
    bool eof = false;
    if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
        if (const int err = recvAvailable(c.fd, c.in, eof)) {
            const std::string why = std::string("recv: ") + std::strerror(err);
            drop(c, why.c_str(), now + kReconnectDelay);
            open(c, index, now);
            return;
        }
    }
    std::size_t pos = 0;
    bool closeAfter = false;
    while (pos < c.in.size() && !closeAfter) {
        Response r;
        std::size_t used = 0;
        const Parse st = parseResponse(std::string_view(c.in).substr(pos), eof, r, used);
        if (st == Parse::NeedMore)
            break;
        if (st == Parse::Bad || c.pending.empty()) {
            drop(c, st == Parse::Bad ? "malformed response" : "unsolicited response", now);
            open(c, index, now);
            return;
        }
        pos += used;
        if (r.status / 100 == 1)
            continue;   // interim response; the final one follows
        const Pending p = c.pending.front();
        c.pending.pop_front();
        complete(p, r, now);
        closeAfter = r.close;
    }
    c.in.erase(0, pos);
    if (eof || closeAfter) {
        // An idle keep-alive connection closed by the server is not an error; a
        // connection closed under an outstanding request is.
        drop(c, "connection closed with a request outstanding", now);
        open(c, index, now);
        return;
    }
    fill(c, now);
    updateEvents(c, index);
}

int LoadGen::run()
{
    if (!resolve())
        return 1;
    std::random_device rd;
    rng_.seed(opt_.seedGiven ? opt_.seed : (std::uint64_t(rd()) << 32 | rd()));
    // The key prefix is random even with --seed: keys must be new on every run
    // against a persistent database, or the first executions would replay.
    char id[17];
    std::snprintf(id, sizeof id, "%08x%08x", rd(), unsigned(::getpid()) ^ unsigned(nowNs()));
    runId_ = id;
    walletRun_ = std::to_string(100 + std::hash<std::string>{}(id) % 900);

    epfd_ = ::epoll_create1(EPOLL_CLOEXEC);
    if (epfd_ < 0) {
        std::perror("oncepay-loadgen: epoll_create1");
        return 1;
    }
    start_ = nowNs();
    measureStart_ = start_ + Nanos(opt_.warmup * double(kSecond));
    stopAt_ = measureStart_ + Nanos(opt_.duration * double(kSecond));
    const Nanos timeout = Nanos(opt_.timeout * double(kSecond));
    conns_.resize(std::size_t(opt_.connections));
    for (std::size_t i = 0; i < conns_.size(); ++i) {
        open(conns_[i], i, start_);
        fill(conns_[i], start_);
    }

    std::vector<epoll_event> events(conns_.size());
    Nanos nextTick = start_ + kTick;
    for (;;) {
        Nanos now = nowNs();
        if (!mayIssue(now) && std::none_of(conns_.begin(), conns_.end(), [](const Conn &c) {
                return !c.pending.empty();
            }))
            break;   // done issuing and drained
        const int n = ::epoll_wait(epfd_, events.data(), int(events.size()),
            int(std::max<Nanos>(0, nextTick - now) / 1'000'000) + 1);
        for (int i = 0; i < n; ++i) {
            const auto index = std::size_t(events[std::size_t(i)].data.u64 & 0xffffffffu);
            const auto gen = std::uint32_t(events[std::size_t(i)].data.u64 >> 32);
            if (conns_[index].fd >= 0 && conns_[index].generation == gen)
                onEvent(index, events[std::size_t(i)].events);
        }
        now = nowNs();
        if (now < nextTick)
            continue;
        nextTick = now + kTick;
        for (std::size_t i = 0; i < conns_.size(); ++i) {   // housekeeping
            Conn &c = conns_[i];
            if (!c.pending.empty() && now - c.pending.front().sentAt > timeout) {
                drop(c, "timeout", now);
                open(c, i, now);
            } else if (c.fd < 0 && now >= c.retryAt && mayIssue(now)) {
                open(c, i, now);
            }
            if (c.fd >= 0 && !c.connecting && c.pending.empty()) {
                fill(c, now);   // e.g. a connection that waited for the pool to refill
                updateEvents(c, i);
            }
        }
    }
    end_ = nowNs();
    for (Conn &c : conns_)
        if (c.fd >= 0)
            ::close(c.fd);
    ::close(epfd_);
    return report();
}

int LoadGen::report() const
{
    auto ms = [](const std::vector<Nanos> &sorted, double p) {
        return double(percentile(sorted, p)) / 1e6;
    };
    // The measured window runs until the last outstanding request was answered (or failed).
    const double secs = double(std::max<Nanos>(1, end_ - measureStart_)) / 1e9;
    std::vector<Nanos> u = unique_, r = replay_;
    std::sort(u.begin(), u.end());
    std::sort(r.begin(), r.end());
    long long errors = 0;
    for (const auto &e : errors_)
        errors += e.second;
    const long long ok = (long long)(u.size() + r.size());
    const double errorShare = ok + errors > 0 ? double(errors) / double(ok + errors) : 0;
    const int rc = (ok == 0 || errorShare > 0.01) ? 1 : 0;
    char mode[64];
    if (opt_.requests > 0)
        std::snprintf(mode, sizeof mode, "%lld requests", opt_.requests);
    else
        std::snprintf(mode, sizeof mode, "%g s", opt_.duration);

    if (opt_.json) {
        std::string j;
        appendf(j, "{\"url\":\"%s\",\"connections\":%d,\"pipeline\":%d,\"duplicates_pct\":%g,\"warmup_s\":%g,"
                   "\"elapsed_s\":%.3f",
            jsonEscape(opt_.url).c_str(), opt_.connections, opt_.pipeline,
            opt_.duplicatePct, opt_.warmup, secs);
        for (const auto &[name, s] : {std::pair{"unique", &u}, std::pair{"replay", &r}})
            appendf(j, ",\"%s\":{\"count\":%zu,\"rps\":%.1f,\"p50_ms\":%.3f,\"p90_ms\":%.3f,\"p99_ms\":%.3f,"
                       "\"max_ms\":%.3f}",
                name, s->size(), double(s->size()) / secs, ms(*s, 0.5),
                ms(*s, 0.9), ms(*s, 0.99), ms(*s, 1.0));
        const char *sep = "";
        j += ",\"status\":{";
        for (const auto &[status, n] : statusCounts_)
            appendf(j, "%s\"%d\":%lld", std::exchange(sep, ","), status, n);
        appendf(j, "},\"errors\":{\"count\":%lld,\"share\":%.6f,\"by_kind\":{", errors, errorShare);
        sep = "";
        for (const auto &[kind, n] : errors_)
            appendf(j, "%s\"%s\":%lld", std::exchange(sep, ","), jsonEscape(kind).c_str(), n);
        appendf(j, "}},\"ok\":%s}", rc == 0 ? "true" : "false");
        std::puts(j.c_str());
        return rc;
    }

    std::printf("oncepay-loadgen: %s, %d connections x %d, %s after %g s warm-up, duplicates %g%%\n",
        opt_.url.c_str(), opt_.connections, opt_.pipeline, mode, opt_.warmup,
        opt_.duplicatePct);
    for (const auto &[name, s] : {std::pair{"unique", &u}, std::pair{"replay", &r}}) {
        std::printf("%s: %zu req in %.2f s = %.0f req/s", name, s->size(), secs, double(s->size()) / secs);
        if (!s->empty())
            std::printf(", latency ms p50 %.1f p90 %.1f p99 %.1f max %.1f", ms(*s, 0.5),
                ms(*s, 0.9), ms(*s, 0.99), ms(*s, 1.0));
        std::printf("\n");
    }
    std::printf("status:");
    for (const auto &s : statusCounts_)
        std::printf(" %d x %lld", s.first, s.second);
    std::printf("%s\n", statusCounts_.empty() ? " none" : "");
    std::printf("errors: %lld", errors);
    if (errors > 0) {
        std::printf(" (%.2f%%):", errorShare * 100);
        for (const auto &e : errors_)
            std::printf(" %s x %lld;", e.first.c_str(), e.second);
    }
    std::printf("\n");
    if (rc != 0)
        std::fprintf(stderr, "oncepay-loadgen: FAILED: %s\n",
            ok == 0 ? "no successful response" : "error share above 1%");
    return rc;
}

}   // namespace

int main(int argc, char **argv)
{
    Options opt = parseOptions(argc, argv);
    std::signal(SIGPIPE, SIG_IGN);
    struct sigaction sa
    {};
    sa.sa_handler = [](int) {
        g_interrupted = 1;
    };   // Ctrl-C: stop, drain, still report
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
    return LoadGen(std::move(opt)).run();
}
