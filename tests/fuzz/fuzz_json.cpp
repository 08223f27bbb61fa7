// The strict JSON parser and the canonical form the request fingerprint is made of: never
// crashes, and the canonical form of anything accepted parses again to the same canonical form
// (a fingerprint that changed on a second reading would turn a retry into a 422).
#include "canonicaljson.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const OncePay::JsonParseResult parsed = OncePay::parseJson(bytes);
    if (!parsed.value)
        return 0;
    const QByteArray canonical = OncePay::canonicalJson(*parsed.value);
    const OncePay::JsonParseResult again = OncePay::parseJson(canonical);
    if (!again.value || OncePay::canonicalJson(*again.value) != canonical)
        std::abort();
    return 0;
}
