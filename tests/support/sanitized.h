// Whether the tests run in a sanitizer build: scripts/test.sh sets QUINCE_SANITIZED there. Those builds run
// the engine 5-30x slower, so a few tests search or sample less; what they check stays the same.
#pragma once

#include <cstdlib>

// Compiled with AddressSanitizer or ThreadSanitizer: GCC defines __SANITIZE_ADDRESS__ and
// __SANITIZE_THREAD__, clang answers __has_feature. Timing watchdogs stretch by this.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define QUINCE_TEST_SANITIZER_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define QUINCE_TEST_SANITIZER_BUILD 1
#endif
#endif

namespace quince::test {

inline bool sanitized() { return std::getenv("QUINCE_SANITIZED") != nullptr; }

}  // namespace quince::test
