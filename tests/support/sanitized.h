// Whether the tests run in a sanitizer build: scripts/test.sh sets QUINCE_SANITIZED there. Those builds run
// the engine 5-30x slower, so a few tests search or sample less; what they check stays the same.
#pragma once

#include <cstdlib>

namespace quince::test {

inline bool sanitized() { return std::getenv("QUINCE_SANITIZED") != nullptr; }

}  // namespace quince::test
