#include "core/random.h"

#include <gtest/gtest.h>

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;

// The reference sequence of SplitMix64 for seed 0 (Vigna's splitmix64.c): Zobrist keys, genfens openings
// and Skill Level's choices depend on it, so a change here would change every bench signature.
TEST(SplitMix64, FollowsTheReferenceSequence) {
    SplitMix64 rng(0);
    EXPECT_EQ(rng.next(), 0xE220A8397B1DCDAFULL);
    EXPECT_EQ(rng.next(), 0x6E789E6AA1B965F4ULL);
}

TEST(SplitMix64, BelowStaysInRange) {
    SplitMix64 rng(7);
    EXPECT_EQ(rng.below(0), 0u);
    for (int i = 0; i < 1000; ++i) EXPECT_LT(rng.below(13), 13u);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
