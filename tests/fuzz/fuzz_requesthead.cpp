// The gateway guard's request parsing (Boost.Beast and the framing rules) on arbitrary bytes:
// never crashes, a head it accepts has one consistent framing, and a chunked request's end is
// found the same however its bytes are cut (the first input byte picks the cut), never past
// the bytes given, and a verdict once reached does not change.
#include "requesthead.h"

#include <cstdlib>

using OncePay::Gateway::ChunkedRequest;
using OncePay::Gateway::RequestHead;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const qsizetype headEnd = bytes.indexOf("\r\n\r\n");
    const QByteArray head = headEnd < 0 ? bytes : bytes.left(headEnd + 4);
    const RequestHead parsed = RequestHead::parse(head, 64 * 1024);
    if (parsed.verdict == RequestHead::Verdict::Ok) {
        if (parsed.chunked && parsed.contentLength >= 0)
            std::abort();   // both framings at once is exactly what must never pass
        if (parsed.contentLength > 64 * 1024)
            std::abort();
    }
    if (parsed.httpStatus() < 200 || parsed.httpStatus() > 599)
        std::abort();
    if (parsed.verdict != RequestHead::Verdict::Ok || !parsed.chunked)
        return 0;

    ChunkedRequest whole(64 * 1024);
    const ChunkedRequest::State once = whole.feed(bytes);
    ChunkedRequest cut(64 * 1024);
    const qsizetype at = head.size() + (size > 0 ? data[0] : 0) % (bytes.size() - head.size() + 1);
    cut.feed(bytes.left(at));
    const ChunkedRequest::State twice = cut.state() == ChunkedRequest::State::NeedMore ? cut.feed(bytes.mid(at))
                                                                                        : cut.state();
    if (once != twice)
        std::abort();
    if (once == ChunkedRequest::State::Done && (whole.requestBytes() != cut.requestBytes()
                                                || whole.requestBytes() > bytes.size()
                                                || whole.requestBytes() < head.size()))
        std::abort();
    if (whole.feed("0\r\n\r\n") != once && once != ChunkedRequest::State::NeedMore)
        std::abort();
    return 0;
}
