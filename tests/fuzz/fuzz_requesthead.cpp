// The gateway's one HTTP parser (HttpRequestParser: Boost.Beast's request_parser and the
// framing rules) on arbitrary bytes: never crashes; a head it accepts has one framing; its
// acceptance, its end and its body are the same however the bytes are cut (the first input
// byte picks the cut); it never takes bytes past the request's end; a verdict once reached stays.
// (Found so: Beast takes a head line by line, so obs-fold and the head's size are judged on
// each piece it takes; seed corpus `fold-split`.)
#include "http/httprequestparser.h"

#include <cstdlib>

using OncePay::Http::HttpRequestParser;

namespace {
constexpr HttpRequestParser::Limits kLimits{32 * 1024, 64 * 1024};
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));

    HttpRequestParser whole(kLimits);
    QByteArray rest = bytes;
    const HttpRequestParser::State once = whole.feed(rest);

    HttpRequestParser cut(kLimits);
    const qsizetype at = size > 0 ? data[0] % (bytes.size() + 1) : 0;
    QByteArray pieces = bytes.left(at);
    cut.feed(pieces);
    pieces += bytes.mid(at);
    const HttpRequestParser::State twice = cut.feed(pieces);

    // A request accepted (its head, or all of it) one way is accepted the other way, alike. Not
    // accepted may differ in how: Beast 1.74 refuses a head with a bare LF at once when it comes
    // whole, but once an earlier read left it waiting it looks for CRLFCRLF first and waits on
    // (to the head's time or size limit). Either way nothing runs. Seed `bare-lf-head`.
    const auto accepted = [](HttpRequestParser::State s) {
        return s == HttpRequestParser::State::Body || s == HttpRequestParser::State::Complete;
    };
    if ((accepted(once) || accepted(twice)) && once != twice)
        std::abort();
    // Where a complete request ends must not depend on the cut. (How far Beast has taken an
    // unfinished head, or a refused request, may: nothing after a refusal is read, and an
    // unfinished request is judged again on its next bytes.)
    if (once == HttpRequestParser::State::Complete && (rest != pieces || whole.consumed() != cut.consumed()))
        std::abort();
    if (whole.consumed() + rest.size() != bytes.size())
        std::abort();   // bytes taken are the front of the input, the rest untouched
    if (once == HttpRequestParser::State::Refused) {
        const int status = whole.refusal().status();
        if (status < 400 || status > 599 || whole.refusal().detail.isEmpty())
            std::abort();
        QByteArray more("0\r\n\r\n");
        if (whole.feed(more) != HttpRequestParser::State::Refused)
            std::abort();
        return 0;
    }
    if (once != HttpRequestParser::State::Head) {
        if (whole.chunked() && whole.contentLength() >= 0)
            std::abort();   // both framings at once is exactly what must never pass
        if (whole.contentLength() > kLimits.maxBodyBytes)
            std::abort();
    }
    if (once == HttpRequestParser::State::Complete) {
        const QByteArray a = whole.takeRequest().body;
        const QByteArray b = cut.takeRequest().body;
        if (a != b || a.size() > kLimits.maxBodyBytes)
            std::abort();
        if (!whole.chunked() && a.size() != qMax<qint64>(0, whole.contentLength()))
            std::abort();
    }
    return 0;
}
