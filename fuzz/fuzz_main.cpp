// One libFuzzer target: QUINCE_FUZZ_TARGET names the harness (fuzz/harness.h). A failed invariant
// aborts, which libFuzzer records as a crash with its input.
#include <cstdlib>

#include "harness.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (!quince::fuzz::QUINCE_FUZZ_TARGET(data, size)) std::abort();
    return 0;
}
