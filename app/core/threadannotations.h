#pragma once

// Happens-before edges for ThreadSanitizer (preset tsan) where they pass through Qt: Debian's
// Qt is not built with TSan, so the locks inside QCoreApplication::postEvent and QThread (futex
// based, not pthread) are invisible to it, and every queued call between threads would read as a
// data race. The poster marks the edge before posting (ONCEPAY_POSTING), the receiver as the first
// thing it does (ONCEPAY_RECEIVED): on one global address, so that the receiver needs to read
// nothing (not even its own captures) before the edge. Without TSan they compile to nothing.
#if defined(__SANITIZE_THREAD__)
#define ONCEPAY_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ONCEPAY_TSAN 1
#endif
#endif

#ifdef ONCEPAY_TSAN
#include <sanitizer/tsan_interface.h>
namespace OncePay::Tsan {
inline char queueEdge;
}
#define ONCEPAY_POSTING() __tsan_release(&OncePay::Tsan::queueEdge)
#define ONCEPAY_RECEIVED() __tsan_acquire(&OncePay::Tsan::queueEdge)
#else
#define ONCEPAY_POSTING() static_cast<void>(0)
#define ONCEPAY_RECEIVED() static_cast<void>(0)
#endif
