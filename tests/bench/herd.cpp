// oncepay-herd: the "thundering herd" benchmark. N simulated tills, each with a queue of Q
// payments taken offline, reconnect at the same instant and drain their queues into one or
// several gateway instances, answering exactly as a till does (see app/core/intentpolicy.cpp
// and syncengine.cpp): oldest first, at most C requests in flight per till, every retry with
// the same key, backoff with full jitter (base 500 ms, cap 30 s) with the gateway's
// Retry-After as a floor, 202 resolved by asking by key. Reports the time until every queue
// is empty, every answer by status, the retries and the latency percentiles.
//
// Plain C++17 + POSIX sockets + epoll on one thread, like oncepay-loadgen: the client shares
// the machine with the gateway, so a request costs a few small strings and a few syscalls.

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <queue>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench_util.h"
#include "http_response.h"

namespace {

using namespace bench;
using loadgen::Parse;
using loadgen::Response;

constexpr Nanos kTick = 10'000'000;   // housekeeping period (timeouts)
constexpr Nanos kMilli = 1'000'000;
constexpr Nanos kBackoffBase = 500 * kMilli;   // the till's defaults (SyncEngine::Config)
constexpr Nanos kBackoffCap = 30'000 * kMilli;

volatile std::sig_atomic_t g_interrupted = 0;

// ---------------------------------------------------------------------------------
// Options

struct Target
{
    std::string url;
    HttpUrl u;
    sockaddr_storage addr{};
    socklen_t addrLen = 0;
};

struct Options
{
    std::vector<Target> targets;
    int tills = 1000;
    int queue = 20;
    int concurrency = 2;
    std::vector<std::string> tokens{"sk_test_demo_till1"};
    std::string tokensFile;
    std::string paymentMethod = "tok_visa";
    double timeout = 30;
    double maxTime = 600;
    bool json = false;
};

const char kUsage[] =
    "usage: oncepay-herd --url http://HOST:PORT[,http://HOST:PORT...] [options]\n"
    "All tills reconnect at the same instant and drain their queues as a till does.\n"
    "  --url URL[,URL...]     gateway instances; tills are spread over them round robin and\n"
    "                         move to the next one when a connection is refused\n"
    "  --tills N              simulated tills (default 1000)\n"
    "  --queue Q              queued payments per till (default 20)\n"
    "  --concurrency C        requests in flight per till (default 2)\n"
    "  --tokens FILE          \"TOKEN MERCHANT TERMINAL\" lines; till i uses line i mod count\n"
    "  --token T              one bearer token for every till (default sk_test_demo_till1)\n"
    "  --payment-method TOK   test card token of every payment (default tok_visa)\n"
    "  --timeout SECONDS      per request; a timeout is retried like a lost connection (default 30)\n"
    "  --max-time SECONDS     give up (and fail) after this long (default 600)\n"
    "  --json                 print the results as one JSON object\n"
    "exit status: 0 every payment final and no 5xx answer, 1 otherwise, 2 bad options\n";

std::vector<std::string> readTokens(const std::string &path)
{
    std::ifstream f(path);
    if (!f)
        badOption("cannot read --tokens file '" + path + "'");
    std::vector<std::string> tokens;
    std::string line;
    while (std::getline(f, line)) {   // the gateway's format: '#' starts a comment
        line.resize(std::min(line.size(), line.find('#')));
        std::istringstream words(line);
        std::string token, merchant, terminal, extra;
        if (!(words >> token))
            continue;
        if (!(words >> merchant >> terminal) || (words >> extra))
            badOption("--tokens: line " + std::to_string(tokens.size() + 1) + " is not \"TOKEN MERCHANT TERMINAL\"");
        tokens.push_back(token);
    }
    if (tokens.empty())
        badOption("--tokens file '" + path + "' has no token");
    return tokens;
}

Options parseOptions(int argc, char **argv)
{
    Options o;
    std::string urls;
    bool haveToken = false;
    forEachOption(argc, argv, kUsage, [&](const std::string &arg, const auto &next, bool inlineValue) {
        if (arg == "--url") {
            urls = next();
        } else if (arg == "--tills") {
            o.tills = parseValue(arg, next(), 1, 1'000'000);
        } else if (arg == "--queue") {
            o.queue = parseValue(arg, next(), 1, 1'000'000);
        } else if (arg == "--concurrency") {
            o.concurrency = parseValue(arg, next(), 1, 1024);
        } else if (arg == "--tokens") {
            o.tokensFile = next();
        } else if (arg == "--token") {
            o.tokens = {next()};
            haveToken = true;
        } else if (arg == "--payment-method") {
            o.paymentMethod = next();
            if (o.paymentMethod.rfind("tok_", 0) != 0 || o.paymentMethod.find_first_of("\"\\\r\n ") != std::string::npos)
                badOption("invalid --payment-method (a test token tok_...)");
        } else if (arg == "--timeout") {
            o.timeout = parseValue<double>(arg, next(), 0.001, 3600);
        } else if (arg == "--max-time") {
            o.maxTime = parseValue<double>(arg, next(), 0.001, 86400 * 7);
        } else if (arg == "--json" && !inlineValue) {
            o.json = true;
        } else {
            return false;
        }
        return true;
    });
    if (urls.empty())
        badOption("--url is required");
    for (std::size_t p = 0; p <= urls.size();) {
        const auto comma = std::min(urls.find(',', p), urls.size());
        Target t;
        t.url = urls.substr(p, comma - p);
        if (t.url.empty())
            badOption("--url has an empty entry");
        t.u = parseHttpUrl(t.url);
        o.targets.push_back(std::move(t));
        p = comma + 1;
    }
    if (!o.tokensFile.empty() && haveToken)
        badOption("--token and --tokens are mutually exclusive");
    if (!o.tokensFile.empty())
        o.tokens = readTokens(o.tokensFile);
    for (const std::string &t : o.tokens)
        if (t.empty() || t.find_first_of("\r\n \t") != std::string::npos)
            badOption("invalid token '" + t + "'");
    return o;
}

// ---------------------------------------------------------------------------------
// The herd

enum class Kind : std::uint8_t {
    Post,
    Lookup
};
enum class Outcome : std::uint8_t {
    Pending,
    Succeeded,
    Declined,
    Failed
};

struct Payment
{
    Kind kind = Kind::Post;
    Outcome outcome = Outcome::Pending;
    int failures = 0;   // consecutive non-final answers, for the backoff
};

struct Slot
{   // one of a till's C keep-alive connections, one request at a time
    int fd = -1;
    std::uint32_t generation = 0;   // tags epoll events so a stale one is ignored
    bool connecting = false, wantWrite = false;
    int target = -1;
    std::string out, in;
    std::size_t outPos = 0;
    int payment = -1;   // the request in flight, -1 idle
    Kind kind = Kind::Post;
    Nanos sentAt = 0;
    Nanos connectAt = 0;
};

struct Till
{
    int target = 0;
    int refusals = 0;   // refused connections since the last answer (moves to the next URL)
    int inFlight = 0;
    int remaining = 0;
    Nanos drainedAt = 0;
    std::vector<Payment> payments;
    std::priority_queue<int, std::vector<int>, std::greater<int>> ready;   // oldest first
};

struct Timer
{
    Nanos due;
    int till, payment;
    bool operator>(const Timer &o) const { return due > o.due; }
};

class Herd
{
public:
    explicit Herd(Options o)
        : opt_(std::move(o)) {}
    int run();

private:
    bool resolve();
    void raiseFdLimit() const;
    std::string key(int till, int payment) const;
    void dispatch(int till, int slot, int payment, Nanos now);
    void open(Slot &s, std::size_t index, int target, Nanos now);
    void closeSlot(Slot &s);
    void pump(int till, Nanos now);
    void flush(Slot &s, std::size_t index, Nanos now);
    void updateEvents(Slot &s, std::size_t index, bool force = false);
    void onEvent(std::size_t index, std::uint32_t events);
    void handleEvent(std::size_t index, std::uint32_t events, Nanos now);
    void transportError(std::size_t index, const std::string &why, bool refused, Nanos now);
    void answer(std::size_t index, const Response &r, std::string_view body, Nanos now);
    void retryLater(int till, int payment, long long retryAfterSeconds, Nanos now);
    void finish(int till, int payment, Outcome outcome, Nanos now);
    Slot &slot(std::size_t index) { return slots_[index]; }
    int tillOf(std::size_t index) const { return int(index / std::size_t(opt_.concurrency)); }
    int report() const;

    Options opt_;
    int epfd_ = -1;
    std::vector<Till> tills_;
    std::vector<Slot> slots_;   // till i owns [i*C, (i+1)*C)
    std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> timers_;
    std::mt19937_64 rng_;
    std::string runId_;
    std::vector<std::string> requestHeads_;   // per (target, token): the constant part of a POST
    Nanos start_ = 0, end_ = 0;
    long long remaining_ = 0;
    bool gaveUp_ = false;

    std::map<int, long long> postStatus_, getStatus_, failedStatus_;
    std::map<std::string, long long> transport_;
    long long posts_ = 0, lookups_ = 0, retries_ = 0, connects_ = 0, moves_ = 0;
    long long succeeded_ = 0, declined_ = 0, failed_ = 0;
    long long retryAfterSeen_ = 0, retryableWithoutRetryAfter_ = 0;
    std::vector<Nanos> postLatency_, toFinal_, connectLatency_;
};

bool Herd::resolve()
{
    for (Target &t : opt_.targets) {
        addrinfo hints{};
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        addrinfo *res = nullptr;
        if (const int rc = getaddrinfo(t.u.host.c_str(), t.u.port.c_str(), &hints, &res); rc != 0) {
            std::fprintf(stderr, "oncepay-herd: cannot resolve %s: %s\n", t.u.host.c_str(), gai_strerror(rc));
            return false;
        }
        std::memcpy(&t.addr, res->ai_addr, res->ai_addrlen);
        t.addrLen = res->ai_addrlen;
        freeaddrinfo(res);
    }
    return true;
}

// Every till holds C connections at once: 1000 x 2 is past the usual soft limit of 1024.
void Herd::raiseFdLimit() const
{
    const rlim_t needed = rlim_t(opt_.tills) * rlim_t(opt_.concurrency) + 64;
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return;
    if (rl.rlim_cur < rl.rlim_max && rl.rlim_cur < needed) {
        rl.rlim_cur = rl.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &rl);
        ::getrlimit(RLIMIT_NOFILE, &rl);
    }
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < needed)
        std::fprintf(stderr,
            "oncepay-herd: WARNING: %d tills x %d connections need about %llu file descriptors but the "
            "limit is %llu (hard limit %llu): connections past it fail with EMFILE and are retried, "
            "which distorts the result. Raise it (ulimit -Hn, /etc/security/limits.conf) or use fewer tills.\n",
            opt_.tills, opt_.concurrency, (unsigned long long)needed, (unsigned long long)rl.rlim_cur,
            (unsigned long long)rl.rlim_max);
}

std::string Herd::key(int till, int payment) const
{
    return "hd-" + runId_ + "-" + std::to_string(till) + "-" + std::to_string(payment);
}

void Herd::dispatch(int till, int slotIndex, int payment, Nanos now)
{
    Till &t = tills_[std::size_t(till)];
    const std::size_t index = std::size_t(slotIndex);
    Slot &s = slot(index);
    Payment &p = t.payments[std::size_t(payment)];
    if (s.fd >= 0 && s.target != t.target)
        closeSlot(s);   // the till moved to another instance
    const Target &target = opt_.targets[std::size_t(t.target)];
    const std::string &token = opt_.tokens[std::size_t(till) % opt_.tokens.size()];
    const std::string k = key(till, payment);
    if (p.kind == Kind::Post) {
        const std::string body = R"({"amount":1999,"currency":"CNY","order_id":"hd-)" + std::to_string(till) + "-" + std::to_string(payment) + R"(","payment_method":")" + opt_.paymentMethod + "\"}";
        s.out += "POST " + target.u.basePath + "/v1/payments HTTP/1.1\r\nHost: " + target.u.hostHeader;
        s.out += "\r\nAuthorization: Bearer " + token;
        s.out += "\r\nContent-Type: application/json\r\nIdempotency-Key: \"" + k;
        s.out += "\"\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
        ++posts_;
    } else {
        s.out += "GET " + target.u.basePath + "/v1/payments?idempotency_key=" + k + " HTTP/1.1\r\nHost: " + target.u.hostHeader + "\r\nAuthorization: Bearer " + token + "\r\n\r\n";
        ++lookups_;
    }
    s.payment = payment;
    s.kind = p.kind;
    s.sentAt = now;
    ++t.inFlight;
    if (s.fd < 0) {
        open(s, index, t.target, now);   // sends once connected
        return;
    }
    flush(s, index, now);
}

void Herd::open(Slot &s, std::size_t index, int target, Nanos now)
{
    const Target &t = opt_.targets[std::size_t(target)];
    ++s.generation;
    s.target = target;
    s.in.clear();
    s.outPos = 0;
    ++connects_;
    s.fd = ::socket(t.addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (s.fd < 0) {
        transportError(index, std::string("socket: ") + std::strerror(errno), false, now);
        return;
    }
    const int one = 1;   // requests are written in one go; never wait for Nagle
    ::setsockopt(s.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (::connect(s.fd, reinterpret_cast<const sockaddr *>(&t.addr), t.addrLen) != 0 && errno != EINPROGRESS) {
        const int err = errno;
        transportError(index, std::string("connect: ") + std::strerror(err), err == ECONNREFUSED, now);
        return;
    }
    s.connecting = true;
    s.connectAt = now;
    epoll_event ev{};
    ev.events = EPOLLOUT;
    ev.data.u64 = (std::uint64_t(s.generation) << 32) | index;
    ::epoll_ctl(epfd_, EPOLL_CTL_ADD, s.fd, &ev);
    s.wantWrite = true;
}

void Herd::closeSlot(Slot &s)
{
    if (s.fd >= 0)
        ::close(s.fd);   // also removes it from the epoll set
    s.fd = -1;
    s.connecting = false;
    s.wantWrite = false;
    s.in.clear();
    s.out.clear();
    s.outPos = 0;
}

// Fills the till's free connections with its oldest ready payments.
void Herd::pump(int till, Nanos now)
{
    Till &t = tills_[std::size_t(till)];
    const int base = till * opt_.concurrency;
    for (int k = 0; k < opt_.concurrency && t.inFlight < opt_.concurrency && !t.ready.empty(); ++k) {
        if (slots_[std::size_t(base + k)].payment >= 0)
            continue;
        const int payment = t.ready.top();
        t.ready.pop();
        dispatch(till, base + k, payment, now);
    }
}

void Herd::flush(Slot &s, std::size_t index, Nanos now)
{
    while (s.outPos < s.out.size()) {
        const ssize_t n = ::send(s.fd, s.out.data() + s.outPos, s.out.size() - s.outPos, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                transportError(index, std::string("send: ") + std::strerror(errno), false, now);
            else
                updateEvents(s, index);
            return;
        }
        s.outPos += std::size_t(n);
    }
    s.out.clear();
    s.outPos = 0;
    updateEvents(s, index);
}

void Herd::updateEvents(Slot &s, std::size_t index, bool force)
{
    const bool write = s.outPos < s.out.size();
    if (s.fd < 0 || s.connecting || (write == s.wantWrite && !force))
        return;   // the common case: no epoll_ctl syscall per request
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP | (write ? EPOLLOUT : 0u);
    ev.data.u64 = (std::uint64_t(s.generation) << 32) | index;
    ::epoll_ctl(epfd_, EPOLL_CTL_MOD, s.fd, &ev);
    s.wantWrite = write;
}

// Full jitter, the till's rule (backoffDelayMs): uniform in [0, min(cap, base * 2^attempt)],
// with the gateway's Retry-After as a floor.
void Herd::retryLater(int till, int payment, long long retryAfterSeconds, Nanos now)
{
    Payment &p = tills_[std::size_t(till)].payments[std::size_t(payment)];
    const int attempt = std::clamp(p.failures++, 0, 30);
    const Nanos ceiling = std::min(kBackoffCap, kBackoffBase << std::min(attempt, 16));
    Nanos delay = std::uniform_int_distribution<Nanos>(0, ceiling)(rng_);
    if (retryAfterSeconds >= 0)
        delay = std::max(delay, Nanos(retryAfterSeconds) * kSecond);
    timers_.push({now + delay, till, payment});
}

void Herd::finish(int till, int payment, Outcome outcome, Nanos now)
{
    Till &t = tills_[std::size_t(till)];
    t.payments[std::size_t(payment)].outcome = outcome;
    (outcome == Outcome::Succeeded ? succeeded_ : outcome == Outcome::Declined ? declined_
                                                                               : failed_) += 1;
    toFinal_.push_back(now - start_);
    if (--t.remaining == 0)
        t.drainedAt = now;
    --remaining_;
}

// A request that got no answer: the same request goes again later, with the same key.
void Herd::transportError(std::size_t index, const std::string &why, bool refused, Nanos now)
{
    Slot &s = slot(index);
    const int till = tillOf(index);
    Till &t = tills_[std::size_t(till)];
    ++transport_[why];
    const int failedTarget = s.target;
    closeSlot(s);
    if (s.payment < 0)
        return;
    const int payment = std::exchange(s.payment, -1);
    --t.inFlight;
    const int targets = int(opt_.targets.size());
    if (refused && targets > 1 && failedTarget == t.target) {
        // As the real till: another instance is asked at once, until each was refused once.
        t.target = (t.target + 1) % targets;
        ++moves_;
        if (++t.refusals < targets) {
            timers_.push({now, till, payment});
            return;
        }
    }
    retryLater(till, payment, -1, now);
}

// The payment's own "status" string in a payment object, or a 402 problem's "payment".
std::string_view paymentStatus(std::string_view body)
{
    for (std::size_t p = body.find("\"status\""); p != std::string_view::npos; p = body.find("\"status\"", p + 1)) {
        std::size_t v = p + 8;
        while (v < body.size() && (body[v] == ' ' || body[v] == ':'))
            ++v;
        if (v >= body.size() || body[v] != '"')
            continue;   // a problem's numeric status
        const auto end = body.find('"', v + 1);
        if (end == std::string_view::npos)
            return {};
        return body.substr(v + 1, end - v - 1);
    }
    return {};
}

void Herd::answer(std::size_t index, const Response &r, std::string_view body, Nanos now)
{
    Slot &s = slot(index);
    const int till = tillOf(index);
    Till &t = tills_[std::size_t(till)];
    const int payment = std::exchange(s.payment, -1);
    --t.inFlight;
    t.refusals = 0;
    Payment &p = t.payments[std::size_t(payment)];
    const int st = r.status;
    const bool transient = st == 409 || st == 429 || st >= 500;
    if (transient)
        ++(r.retryAfterSeconds >= 0 ? retryAfterSeen_ : retryableWithoutRetryAfter_);
    if (s.kind == Kind::Post) {
        ++postStatus_[st];
        postLatency_.push_back(now - s.sentAt);
        if (st == 201 || st == 200 || st == 402 || st == 202) {
            const std::string_view ps = paymentStatus(body);
            if (st == 402 || ps == "declined") {
                finish(till, payment, Outcome::Declined, now);
            } else if (st == 202 || ps == "processing") {
                p.kind = Kind::Lookup;   // outcome not known yet: ask by key later
                retryLater(till, payment, r.retryAfterSeconds, now);
            } else {
                finish(till, payment, Outcome::Succeeded, now);
            }
        } else if (transient) {
            retryLater(till, payment, r.retryAfterSeconds, now);
        } else {
            ++failedStatus_[st];   // 400, 401, 404, 413, 415, 422...: a retry cannot fix it
            finish(till, payment, Outcome::Failed, now);
        }
        return;
    }
    ++getStatus_[st];
    if (st == 200) {
        const std::string_view ps = paymentStatus(body);
        if (ps == "succeeded" || ps == "refunded" || ps == "partially_refunded")
            finish(till, payment, Outcome::Succeeded, now);
        else if (ps == "declined")
            finish(till, payment, Outcome::Declined, now);
        else
            retryLater(till, payment, r.retryAfterSeconds, now);
    } else if (st == 404) {
        // The gateway never executed this key: sending it again is safe, and done at once.
        p.kind = Kind::Post;
        p.failures = 0;
        timers_.push({now, till, payment});
    } else if (st == 401 || (st >= 400 && st < 500 && st != 409 && st != 429)) {
        ++failedStatus_[st];
        finish(till, payment, Outcome::Failed, now);
    } else {
        retryLater(till, payment, r.retryAfterSeconds, now);
    }
}

void Herd::onEvent(std::size_t index, std::uint32_t events)
{
    const Nanos now = nowNs();
    handleEvent(index, events, now);
    pump(tillOf(index), now);   // a connection is free again: the till's next payment goes out
}

void Herd::handleEvent(std::size_t index, std::uint32_t events, Nanos now)
{
    Slot &s = slot(index);
    if (s.connecting) {
        int err = 0;
        socklen_t len = sizeof err;
        ::getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &err, &len);
        if (err != 0 || (events & (EPOLLERR | EPOLLHUP))) {
            err = err ? err : ECONNREFUSED;
            transportError(index, std::string("connect: ") + std::strerror(err), err == ECONNREFUSED, now);
            return;
        }
        s.connecting = false;
        // A full listen queue shows here: the kernel drops the SYN, the client retries after ~1 s.
        connectLatency_.push_back(now - s.connectAt);
        updateEvents(s, index, true);   // now also readable
        flush(s, index, now);
        return;
    }
    if (events & EPOLLOUT) {
        flush(s, index, now);
        if (s.fd < 0)
            return;
    }
    bool eof = false;
    if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
        if (const int err = recvAvailable(s.fd, s.in, eof)) {
            transportError(index, std::string("recv: ") + std::strerror(err), false, now);
            return;
        }
    }
    bool closeAfter = false;
    for (;;) {
        Response r;
        std::size_t used = 0;
        const Parse st = s.in.empty() ? Parse::NeedMore : loadgen::parseResponse(s.in, eof, r, used);
        if (st == Parse::NeedMore)
            break;
        if (st == Parse::Bad || s.payment < 0) {
            transportError(index, st == Parse::Bad ? "malformed response" : "unsolicited response", false, now);
            return;
        }
        if (r.status / 100 == 1) {   // interim response; the final one follows
            s.in.erase(0, used);
            continue;
        }
        answer(index, r, std::string_view(s.in).substr(r.bodyOffset, used - r.bodyOffset), now);
        s.in.erase(0, used);
        closeAfter = r.close;
        break;   // one request at a time per connection
    }
    if (closeAfter || eof) {
        if (s.payment >= 0)
            transportError(index, "connection closed before the answer", false, now);
        else
            closeSlot(s);   // an idle keep-alive connection closed: reopened when needed
    }
}

int Herd::run()
{
    if (!resolve())
        return 1;
    raiseFdLimit();
    std::random_device rd;
    rng_.seed(std::uint64_t(rd()) << 32 | rd());
    // A random key prefix: keys must be new on every run against a persistent database.
    char id[17];
    std::snprintf(id, sizeof id, "%08x%08x", rd(), unsigned(::getpid()) ^ unsigned(nowNs()));
    runId_ = id;

    epfd_ = ::epoll_create1(EPOLL_CLOEXEC);
    if (epfd_ < 0) {
        std::perror("oncepay-herd: epoll_create1");
        return 1;
    }
    tills_.resize(std::size_t(opt_.tills));
    slots_.resize(std::size_t(opt_.tills) * std::size_t(opt_.concurrency));
    remaining_ = (long long)opt_.tills * opt_.queue;
    postLatency_.reserve(std::size_t(remaining_));
    toFinal_.reserve(std::size_t(remaining_));
    for (int i = 0; i < opt_.tills; ++i) {
        Till &t = tills_[std::size_t(i)];
        t.target = i % int(opt_.targets.size());
        t.remaining = opt_.queue;
        t.payments.resize(std::size_t(opt_.queue));
        for (int q = 0; q < opt_.queue; ++q)
            t.ready.push(q);
    }

    // The herd: every till opens its connections and sends its oldest payments at once.
    start_ = nowNs();
    for (int i = 0; i < opt_.tills; ++i)
        pump(i, start_);

    const Nanos timeout = Nanos(opt_.timeout * double(kSecond));
    const Nanos giveUpAt = start_ + Nanos(opt_.maxTime * double(kSecond));
    std::vector<epoll_event> events(std::min<std::size_t>(slots_.size(), 4096));
    Nanos nextTick = start_ + kTick;
    std::vector<int> due;
    while (remaining_ > 0) {
        Nanos now = nowNs();
        if (g_interrupted || now >= giveUpAt) {
            gaveUp_ = true;
            break;
        }
        Nanos wake = nextTick;
        if (!timers_.empty())
            wake = std::min(wake, timers_.top().due);
        const int n = ::epoll_wait(epfd_, events.data(), int(events.size()),
            int(std::max<Nanos>(0, wake - now) / kMilli) + (wake > now ? 1 : 0));
        for (int i = 0; i < n; ++i) {
            const auto index = std::size_t(events[std::size_t(i)].data.u64 & 0xffffffffu);
            const auto gen = std::uint32_t(events[std::size_t(i)].data.u64 >> 32);
            if (slots_[index].fd >= 0 && slots_[index].generation == gen)
                onEvent(index, events[std::size_t(i)].events);
        }
        now = nowNs();
        due.clear();
        while (!timers_.empty() && timers_.top().due <= now) {
            const Timer t = timers_.top();
            timers_.pop();
            tills_[std::size_t(t.till)].ready.push(t.payment);
            due.push_back(t.till);
            ++retries_;   // every request after a payment's first one
        }
        for (const int till : due)
            pump(till, now);
        if (now < nextTick)
            continue;
        nextTick = now + kTick;
        for (std::size_t i = 0; i < slots_.size(); ++i) {
            Slot &s = slots_[i];
            if (s.payment >= 0 && now - s.sentAt > timeout) {
                transportError(i, "timeout", false, now);
                pump(tillOf(i), now);
            }
        }
    }
    end_ = nowNs();
    for (Slot &s : slots_)
        if (s.fd >= 0)
            ::close(s.fd);
    ::close(epfd_);
    return report();
}

int Herd::report() const
{
    const long long total = (long long)opt_.tills * opt_.queue;
    std::vector<Nanos> drained;
    for (const Till &t : tills_)
        if (t.remaining == 0)
            drained.push_back(t.drainedAt - start_);
    std::vector<Nanos> lat = postLatency_, fin = toFinal_, con = connectLatency_;
    std::sort(lat.begin(), lat.end());
    std::sort(con.begin(), con.end());
    std::sort(fin.begin(), fin.end());
    std::sort(drained.begin(), drained.end());
    // From the herd's start until the last queue emptied (or until it gave up).
    const Nanos last = remaining_ == 0 && !fin.empty() ? fin.back() : end_ - start_;
    const double wall = double(std::max<Nanos>(1, last)) / 1e9;
    long long fiveXX = 0, transport = 0;
    for (const auto *m : {&postStatus_, &getStatus_})
        for (const auto &[st, n] : *m)
            fiveXX += st >= 500 ? n : 0;
    for (const auto &[k, n] : transport_)
        transport += n;
    const bool ok = remaining_ == 0 && failed_ == 0 && fiveXX == 0;
    auto ms = [](const std::vector<Nanos> &sorted, double p) {
        return double(percentile(sorted, p)) / 1e6;
    };
    std::string urls;
    for (const Target &t : opt_.targets)
        urls += (urls.empty() ? "" : ",") + t.url;

    if (opt_.json) {
        std::string j;
        appendf(j, "{\"urls\":\"%s\",\"tills\":%d,\"queue\":%d,\"concurrency\":%d,\"tokens\":%zu,\"payments\":%lld,"
                   "\"drain_s\":%.3f,\"payments_per_s\":%.1f,\"complete\":%s,\"gave_up\":%s,"
                   "\"succeeded\":%lld,\"declined\":%lld,\"failed\":%lld,\"not_final\":%lld,"
                   "\"posts\":%lld,\"lookups\":%lld,\"retries\":%lld,\"connects\":%lld,\"url_moves\":%lld,"
                   "\"retryable_with_retry_after\":%lld,\"retryable_without_retry_after\":%lld",
            jsonEscape(urls).c_str(), opt_.tills, opt_.queue, opt_.concurrency, opt_.tokens.size(), total, wall,
            double(total - remaining_) / wall, remaining_ == 0 ? "true" : "false", gaveUp_ ? "true" : "false",
            succeeded_, declined_, failed_, remaining_, posts_, lookups_, retries_, connects_, moves_,
            retryAfterSeen_, retryableWithoutRetryAfter_);
        for (const auto &[name, m] : {std::pair{"post_status", &postStatus_}, std::pair{"get_status", &getStatus_},
                 std::pair{"failed_status", &failedStatus_}}) {
            const char *sep = "";
            appendf(j, ",\"%s\":{", name);
            for (const auto &[st, n] : *m)
                appendf(j, "%s\"%d\":%lld", std::exchange(sep, ","), st, n);
            j += "}";
        }
        const char *sep = "";
        j += ",\"transport_errors\":{";
        for (const auto &[kind, n] : transport_)
            appendf(j, "%s\"%s\":%lld", std::exchange(sep, ","), jsonEscape(kind).c_str(), n);
        j += "}";
        for (const auto &[name, s] : {std::pair{"post_latency", &lat}, std::pair{"queued_to_final", &fin},
                 std::pair{"till_drained", &drained}, std::pair{"connect", &con}})
            appendf(j, ",\"%s\":{\"count\":%zu,\"p50_ms\":%.3f,\"p90_ms\":%.3f,\"p99_ms\":%.3f,\"max_ms\":%.3f}", name,
                s->size(), ms(*s, 0.5), ms(*s, 0.9), ms(*s, 0.99), ms(*s, 1.0));
        appendf(j, ",\"ok\":%s}", ok ? "true" : "false");
        std::puts(j.c_str());
    } else {
        std::printf("oncepay-herd: %d tills x %d queued = %lld payments, %d in flight per till, %zu token(s), %s\n",
            opt_.tills, opt_.queue, total, opt_.concurrency, opt_.tokens.size(), urls.c_str());
        std::printf("drained: %s in %.3f s = %.1f payments/s\n",
            remaining_ == 0 ? "every queue" : "NOT every queue", wall, double(total - remaining_) / wall);
        std::printf("payments: %lld succeeded, %lld declined, %lld failed (4xx), %lld not final\n", succeeded_,
            declined_, failed_, remaining_);
        std::printf("requests: %lld POST, %lld GET by key, %lld retries, %lld connections opened, %lld moves to "
                    "another URL\n",
            posts_, lookups_, retries_, connects_, moves_);
        for (const auto &[name, m] : {std::pair{"POST answers", &postStatus_}, std::pair{"GET answers", &getStatus_}}) {
            std::printf("%s:", name);
            for (const auto &[st, n] : *m)
                std::printf(" %d x %lld", st, n);
            std::printf("%s\n", m->empty() ? " none" : "");
        }
        std::printf("retryable answers (409/429/5xx): %lld with Retry-After, %lld without\n", retryAfterSeen_,
            retryableWithoutRetryAfter_);
        std::printf("no answer: %lld", transport);
        const char *sep = " (";
        for (const auto &[kind, n] : transport_)
            std::printf("%s%s x %lld", std::exchange(sep, "; "), kind.c_str(), n);
        std::printf("%s\n", transport_.empty() ? "" : ")");
        for (const auto &[name, s] : {std::pair{"POST latency", &lat}, std::pair{"queued -> final", &fin},
                 std::pair{"till drained", &drained}, std::pair{"connect", &con}})
            std::printf("%s ms: p50 %.1f p90 %.1f p99 %.1f max %.1f (%zu)\n", name, ms(*s, 0.5), ms(*s, 0.9),
                ms(*s, 0.99), ms(*s, 1.0), s->size());
    }
    if (!ok) {
        std::string why;
        if (remaining_ > 0)
            why += std::to_string(remaining_) + " payment(s) not final" + (gaveUp_ ? " (gave up)" : "") + "; ";
        if (failed_ > 0)
            why += std::to_string(failed_) + " payment(s) failed with a 4xx a retry cannot fix (a bug); ";
        if (fiveXX > 0)
            why += std::to_string(fiveXX) + " 5xx answer(s); ";
        why.resize(why.size() - 2);
        std::fprintf(stderr, "oncepay-herd: FAILED: %s\n", why.c_str());
    }
    return ok ? 0 : 1;
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
    };   // Ctrl-C: stop and still report
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
    return Herd(std::move(opt)).run();
}
