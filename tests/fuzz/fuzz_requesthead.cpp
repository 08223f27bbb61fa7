// The gateway guard's request-head parser (Boost.Beast and the framing rules) on arbitrary
// bytes: never crashes, and a head it accepts has one consistent framing.
#include "requesthead.h"

#include <cstdlib>

using OncePay::Gateway::RequestHead;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const RequestHead head = RequestHead::parse(bytes, 64 * 1024);
    if (head.verdict == RequestHead::Verdict::Ok) {
        if (head.chunked && head.contentLength >= 0)
            std::abort();   // both framings at once is exactly what must never pass
        if (head.contentLength > 64 * 1024)
            std::abort();
    }
    if (head.httpStatus() < 200 || head.httpStatus() > 599)
        std::abort();
    return 0;
}
