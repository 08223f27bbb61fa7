// Minimal HTTP/1.1 response framing for oncepay-loadgen and oncepay-herd.
//
// Stateless over the unconsumed part of the input buffer: responses are small, so
// re-scanning an incomplete one on the next read is cheaper than carrying a state
// machine, and it trivially handles a response split across reads as well as
// several responses arriving in one read. Handles Content-Length, chunked transfer
// coding, bodies delimited by connection close, bodiless statuses and 1xx interim
// responses; anything it cannot frame with certainty is Bad, never guessed.

#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string_view>

namespace loadgen {

constexpr std::size_t kMaxResponseBytes = 1 << 20;

struct Response
{
    int status = 0;
    bool replayed = false;   // Idempotent-Replayed: true
    bool close = false;   // the server will close the connection after this response
    long long retryAfterSeconds = -1;   // Retry-After as delta-seconds; -1 absent (an HTTP-date is ignored)
    std::size_t bodyOffset = 0;   // where the body starts in the response's bytes
};

enum class Parse {
    NeedMore,
    Done,
    Bad
};

inline bool iequals(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    });
}

inline std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

inline bool containsToken(std::string_view list, std::string_view token)
{
    while (!list.empty()) {
        const auto comma = list.find(',');
        if (iequals(trim(list.substr(0, comma)), token))
            return true;
        if (comma == std::string_view::npos)
            break;
        list.remove_prefix(comma + 1);
    }
    return false;
}

// Walks a chunked body starting at `p`; returns the offset just past it, or npos.
inline std::size_t chunkedEnd(std::string_view in, std::size_t p, bool &bad)
{
    for (;;) {
        const auto eol = in.find("\r\n", p);
        if (eol == std::string_view::npos)
            return eol;
        std::size_t size = 0;
        std::size_t digits = 0;
        for (std::size_t i = p; i < eol && std::isxdigit(static_cast<unsigned char>(in[i])); ++i, ++digits) {
            const char h = char(std::tolower(static_cast<unsigned char>(in[i])));
            size = size * 16 + std::size_t(h <= '9' ? h - '0' : h - 'a' + 10);
            if (size > kMaxResponseBytes) {
                bad = true;
                return std::string_view::npos;
            }
        }
        if (digits == 0) {
            bad = true;
            return std::string_view::npos;
        }
        p = eol + 2;
        if (size == 0) {   // trailer section, ends with an empty line
            for (;;) {
                const auto end = in.find("\r\n", p);
                if (end == std::string_view::npos)
                    return end;
                if (end == p)
                    return p + 2;
                p = end + 2;
            }
        }
        if (in.size() < p + size + 2)
            return std::string_view::npos;
        p += size + 2;
    }
}

// Parses one response from `in`. On Done, `consumed` is its length. `eof` says the
// peer has closed, which completes a response delimited by connection close.
inline Parse parseResponse(std::string_view in, bool eof, Response &out, std::size_t &consumed)
{
    const auto headEnd = in.find("\r\n\r\n");
    if (headEnd == std::string_view::npos)
        return in.size() > kMaxResponseBytes ? Parse::Bad : Parse::NeedMore;
    std::string_view head = in.substr(0, headEnd + 2);
    const auto lineEnd = head.find("\r\n");
    const std::string_view statusLine = head.substr(0, lineEnd);
    // "HTTP/1.1 201 Created": version, one space, exactly three digits.
    if (statusLine.size() < 12 || statusLine.compare(0, 7, "HTTP/1.") != 0 || statusLine[8] != ' ' || (statusLine.size() > 12 && statusLine[12] != ' '))
        return Parse::Bad;
    int status = 0;
    for (int i = 9; i < 12; ++i) {
        if (!std::isdigit(static_cast<unsigned char>(statusLine[std::size_t(i)])))
            return Parse::Bad;
        status = status * 10 + (statusLine[std::size_t(i)] - '0');
    }
    out = Response{};
    out.status = status;
    out.close = statusLine[7] == '0';   // HTTP/1.0 closes unless it says keep-alive
    long long contentLength = -1;
    bool chunked = false;
    for (std::size_t p = lineEnd + 2; p < head.size();) {
        const auto e = head.find("\r\n", p);
        const std::string_view line = head.substr(p, e - p);
        p = e + 2;
        const auto colon = line.find(':');
        if (colon == std::string_view::npos)
            return Parse::Bad;
        const std::string_view name = line.substr(0, colon), value = trim(line.substr(colon + 1));
        if (iequals(name, "content-length")) {
            long long n = 0;
            if (value.empty() || value.size() > 10)
                return Parse::Bad;
            for (char c : value) {
                if (!std::isdigit(static_cast<unsigned char>(c)))
                    return Parse::Bad;
                n = n * 10 + (c - '0');
            }
            if (contentLength >= 0 && contentLength != n)
                return Parse::Bad;   // conflicting lengths: a framing error, never guess
            contentLength = n;
        } else if (iequals(name, "transfer-encoding")) {
            chunked = containsToken(value, "chunked");
        } else if (iequals(name, "connection")) {
            if (containsToken(value, "close"))
                out.close = true;
            else if (containsToken(value, "keep-alive"))
                out.close = false;
        } else if (iequals(name, "idempotent-replayed")) {
            out.replayed = iequals(value, "true");
        } else if (iequals(name, "retry-after")) {
            long long n = value.empty() || value.size() > 9 ? -1 : 0;
            for (std::size_t i = 0; i < value.size() && n >= 0; ++i)
                n = std::isdigit(static_cast<unsigned char>(value[i])) ? n * 10 + (value[i] - '0') : -1;
            out.retryAfterSeconds = n;
        }
    }
    const std::size_t bodyStart = headEnd + 4;
    out.bodyOffset = bodyStart;
    if (status / 100 == 1 || status == 204 || status == 304) {
        consumed = bodyStart;
    } else if (chunked) {
        bool bad = false;
        const auto end = chunkedEnd(in, bodyStart, bad);
        if (bad)
            return Parse::Bad;
        if (end == std::string_view::npos)
            return Parse::NeedMore;
        consumed = end;
    } else if (contentLength >= 0) {
        if (std::size_t(contentLength) > kMaxResponseBytes)
            return Parse::Bad;
        if (in.size() < bodyStart + std::size_t(contentLength))
            return Parse::NeedMore;
        consumed = bodyStart + std::size_t(contentLength);
    } else {   // delimited by connection close
        if (!eof)
            return in.size() > kMaxResponseBytes ? Parse::Bad : Parse::NeedMore;
        out.close = true;
        consumed = in.size();
    }
    return Parse::Done;
}

}   // namespace loadgen
