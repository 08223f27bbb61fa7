// oncepay-officeload: events applied per second by an oncepay-office (BENCHMARKS.md). Each
// --token is one till on its own keep-alive connection, sending batches of --events events
// (default 500, OFFICE.md's most) one after another from the till's position on, each a
// realistic mix of sales (lines, tenders, totals), cash movements and staff events. Checks every
// answer (200, all applied) and prints events/s and the batches' latency. Plain C++ and POSIX
// like oncepay-loadgen, so that the office, not the client, is what is measured.
#include "bench_util.h"
#include "http_response.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

const char *const kUsage = "usage: oncepay-officeload --url http://HOST:PORT --token TOKEN:TILL [--token ...]\n"
                           "                          [--batches N] [--events N]\n"
                           "  --token TOKEN:TILL  a till token and its till (repeat: one connection each)\n"
                           "  --batches N         batches per till (default 100)\n"
                           "  --events N          events per batch, 1-500 (default 500)\n";

struct Options
{
    bench::HttpUrl url;
    std::vector<std::pair<std::string, std::string>> tills;
    int batches = 100;
    int events = 500;
};

struct Result
{
    long long applied = 0;
    std::vector<bench::Nanos> latencies;
    std::string error;
};

int connectTo(const bench::HttpUrl &url)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *res = nullptr;
    if (getaddrinfo(url.host.c_str(), url.port.c_str(), &hints, &res) != 0)
        return -1;
    const int fd = ::socket(res->ai_family, res->ai_socktype, res->ai_protocol);
    if (fd >= 0 && ::connect(fd, res->ai_addr, res->ai_addrlen) != 0) {
        ::close(fd);
        freeaddrinfo(res);
        return -1;
    }
    freeaddrinfo(res);
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

bool sendAll(int fd, const std::string &data)
{
    std::size_t sent = 0;
    while (sent < data.size()) {
        const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        sent += std::size_t(n);
    }
    return true;
}

// One request and its answer on a blocking socket; the body in `body`.
int exchange(int fd, const std::string &request, std::string &body)
{
    if (!sendAll(fd, request))
        return 0;
    std::string in;
    char buf[65536];
    for (;;) {
        loadgen::Response response;
        std::size_t consumed = 0;
        const loadgen::Parse p = loadgen::parseResponse(in, false, response, consumed);
        if (p == loadgen::Parse::Bad)
            return 0;
        if (p == loadgen::Parse::Done) {
            body = in.substr(response.bodyOffset, consumed - response.bodyOffset);
            return response.status;
        }
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        in.append(buf, std::size_t(n));
    }
}

std::string request(const Options &o, const char *method, const std::string &path, const std::string &token,
    const std::string &body)
{
    std::string r;
    bench::appendf(r, "%s %s%s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n", method, o.url.basePath.c_str(),
        path.c_str(), o.url.hostHeader.c_str(), token.c_str());
    if (!body.empty())
        bench::appendf(r, "Content-Type: application/json\r\nContent-Length: %zu\r\n", body.size());
    r += "\r\n";
    r += body;
    return r;
}

long long jsonInteger(const std::string &body, const char *name)
{
    const std::string key = std::string("\"") + name + "\":";
    const auto at = body.find(key);
    return at == std::string::npos ? -1 : std::atoll(body.c_str() + at + key.size());
}

void appendEvent(std::string &out, const std::string &till, long long seq)
{
    const long long total = 1000 + seq % 5000;
    const char *at = "2026-12-07T10:15:02.113Z";
    switch (seq % 4) {
    case 0:
        bench::appendf(out, R"({"seq":%lld,"kind":"cash","at":"%s","data":{"amount":%lld,"reason":"float","staff":"Li Wei"}})", seq, at, total);
        break;
    case 1:
        bench::appendf(out, R"({"seq":%lld,"kind":"staff","at":"%s","data":{"who":"Li Wei","what":"sign-in"}})", seq, at);
        break;
    default:
        bench::appendf(out,
            R"({"seq":%lld,"kind":"sale","at":"%s","data":{"number":"%s-%06lld","state":"paid","currency":"CNY","staff":"Li Wei",)"
            R"("lines":[{"code":"6901234567892","name":"Green tea","name_zh":"绿茶","category":"drinks","quantity":2,"unit_price":%lld,"amount":%lld,"vat":1300},)"
            R"({"code":"6920152400012","name":"Apples","category":"fruit","weight":0.532,"unit_price":1280,"amount":681,"vat":900}],)"
            R"("tenders":[{"kind":"card","brand":"visa","amount":%lld,"state":"succeeded","key":"pay-%s-%lld"}],)"
            R"("totals":{"subtotal":%lld,"discounts":0,"tax":%lld,"total":%lld}}})",
            seq, at, till.c_str(), seq, total / 2, total - 681, total, till.c_str(), seq, total, total * 1300 / 11300, total);
    }
}

void runTill(const Options &o, const std::string &token, const std::string &till, Result &result)
{
    const int fd = connectTo(o.url);
    if (fd < 0) {
        result.error = "cannot connect";
        return;
    }
    std::string body;
    if (exchange(fd, request(o, "GET", "/v1/tills/" + till + "/position", token, {}), body) != 200) {
        result.error = "position: " + body;
        ::close(fd);
        return;
    }
    long long next = jsonInteger(body, "last_seq") + 1;
    for (int b = 0; b < o.batches; ++b) {
        std::string batch = "{\"till\":\"" + till + "\",\"events\":[";
        for (int i = 0; i < o.events; ++i) {
            if (i)
                batch += ',';
            appendEvent(batch, till, next + i);
        }
        batch += "]}";
        const bench::Nanos start = bench::nowNs();
        const int status = exchange(fd, request(o, "POST", "/v1/events", token, batch), body);
        result.latencies.push_back(bench::nowNs() - start);
        if (status != 200 || jsonInteger(body, "applied") != o.events) {
            result.error = "batch answered " + std::to_string(status) + ": " + body;
            break;
        }
        result.applied += o.events;
        next += o.events;
    }
    ::close(fd);
}

}   // namespace

int main(int argc, char **argv)
{
    Options o;
    bool haveUrl = false;
    bench::forEachOption(argc, argv, kUsage, [&](const std::string &arg, auto next, bool) {
        if (arg == "--url") {
            o.url = bench::parseHttpUrl(next());
            haveUrl = true;
        } else if (arg == "--token") {
            const std::string v = next();
            const auto colon = v.rfind(':');
            if (colon == std::string::npos || colon == 0 || colon + 1 == v.size())
                bench::badOption("--token expects TOKEN:TILL");
            o.tills.emplace_back(v.substr(0, colon), v.substr(colon + 1));
        } else if (arg == "--batches") {
            o.batches = bench::parseValue(arg, next(), 1, 1000000);
        } else if (arg == "--events") {
            o.events = bench::parseValue(arg, next(), 1, 500);
        } else {
            return false;
        }
        return true;
    });
    if (!haveUrl || o.tills.empty())
        bench::badOption("--url and at least one --token are required");

    std::vector<Result> results(o.tills.size());
    std::vector<std::thread> threads;
    const bench::Nanos start = bench::nowNs();
    for (std::size_t i = 0; i < o.tills.size(); ++i)
        threads.emplace_back(runTill, std::cref(o), o.tills[i].first, o.tills[i].second, std::ref(results[i]));
    for (auto &t : threads)
        t.join();
    const double seconds = double(bench::nowNs() - start) / bench::kSecond;
    long long applied = 0;
    std::vector<bench::Nanos> latencies;
    int failed = 0;
    for (std::size_t i = 0; i < results.size(); ++i) {
        applied += results[i].applied;
        latencies.insert(latencies.end(), results[i].latencies.begin(), results[i].latencies.end());
        if (!results[i].error.empty()) {
            ++failed;
            std::fprintf(stderr, "till %s: %s\n", o.tills[i].second.c_str(), results[i].error.c_str());
        }
    }
    std::sort(latencies.begin(), latencies.end());
    std::printf("{\"tills\": %zu, \"events_per_batch\": %d, \"events_applied\": %lld, \"seconds\": %.3f, "
                "\"events_per_second\": %.0f, \"batch_p50_ms\": %.1f, \"batch_p99_ms\": %.1f}\n",
        o.tills.size(), o.events, applied, seconds, applied / seconds, bench::percentile(latencies, 0.50) / 1e6,
        bench::percentile(latencies, 0.99) / 1e6);
    return failed ? 1 : 0;
}
