// The Idempotency-Key header parser (RFC 8941 string or bare token) on arbitrary header values:
// never crashes, and whatever it accepts is a valid key that survives its own round trip.
#include "idempotencykey.h"

#include <cstdlib>

using OncePay::IdempotencyKey;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    // One header value, or several when the input holds a NUL (a request repeating the header).
    const IdempotencyKey::ParseResult r = IdempotencyKey::fromHeaderValues(bytes.split('\0'));
    if (r.error == IdempotencyKey::Error::None) {
        if (!r.key || !IdempotencyKey::isValidKey(r.key->value()))
            std::abort();
        const IdempotencyKey::ParseResult again = IdempotencyKey::fromHeaderValue(r.key->toHeaderValue());
        if (again.error != IdempotencyKey::Error::None || !again.key || !(*again.key == *r.key))
            std::abort();
    }
    IdempotencyKey::isValidKey(QString::fromUtf8(bytes));
    return 0;
}
