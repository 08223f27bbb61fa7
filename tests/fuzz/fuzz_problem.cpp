// The problem+json parser the till's client reads the gateway's errors with: never crashes on
// what a broken or hostile gateway (or a proxy's error page) sends.
#include "problem.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    if (const std::optional<OncePay::Problem> p = OncePay::Problem::fromJson(bytes))
        (void)p->toJson();
    return 0;
}
