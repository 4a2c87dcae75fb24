// Whether the tests run in a sanitizer build: scripts/test.sh sets QUINCE_SANITIZED there. Those builds run
// the engine 5-30x slower, so a few tests search or sample less; what they check stays the same.
#pragma once

#include <cstdlib>

// Compiled with ThreadSanitizer or AddressSanitizer: GCC defines __SANITIZE_THREAD__ and
// __SANITIZE_ADDRESS__, clang answers __has_feature. Timing watchdogs stretch by either.
#if defined(__SANITIZE_THREAD__)
#define QUINCE_TEST_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define QUINCE_TEST_THREAD_SANITIZER 1
#endif
#endif
#if defined(QUINCE_TEST_THREAD_SANITIZER) || defined(__SANITIZE_ADDRESS__)
#define QUINCE_TEST_SANITIZER_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define QUINCE_TEST_SANITIZER_BUILD 1
#endif
#endif

namespace quince::test {

inline bool sanitized() { return std::getenv("QUINCE_SANITIZED") != nullptr; }

// The ThreadSanitizer build: a test that starts no thread in a file whose other tests do skips itself
// there (nothing for ThreadSanitizer to see; the Release and ASan+UBSan builds run it).
#ifdef QUINCE_TEST_THREAD_SANITIZER
constexpr bool thread_sanitizer = true;
#else
constexpr bool thread_sanitizer = false;
#endif
// What such a test says when it skips itself: no process it runs starts a thread (measured with strace -f).
inline constexpr const char* NO_THREAD =
    "starts no thread: nothing for ThreadSanitizer to see (the Release and ASan+UBSan builds run it)";

}  // namespace quince::test
