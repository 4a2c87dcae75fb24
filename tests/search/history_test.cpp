// The correction history: learns the sign and size of the search's verdict, per side, bounded.
#include <gtest/gtest.h>

#include "search/history.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::search;

TEST(CorrectionHistory, MovesTowardsTheSearchResultAndStaysBounded) {
    auto h = std::make_unique<CorrectionHistory>();
    h->clear();
    const std::uint64_t pawn_key = 0x1234567890abcdefULL;
    const int material = 12345;
    EXPECT_EQ(h->correction(WHITE, pawn_key, material), 0);
    // Repeated deep results 40 cp above the static evaluation: the correction approaches +40.
    for (int i = 0; i < 400; ++i) h->update(WHITE, pawn_key, material, 40, 20);
    EXPECT_GE(h->correction(WHITE, pawn_key, material), 38);
    EXPECT_LE(h->correction(WHITE, pawn_key, material), 40);
    // The other side to move and another structure are untouched.
    EXPECT_EQ(h->correction(BLACK, pawn_key, material), 0);
    EXPECT_EQ(h->correction(WHITE, pawn_key ^ 1, material + 1), 0);
    // A shallow result moves the entry less than a deep one.
    auto shallow = std::make_unique<CorrectionHistory>(*h), deep = std::make_unique<CorrectionHistory>(*h);
    shallow->update(WHITE, pawn_key, material, -200, 1);
    deep->update(WHITE, pawn_key, material, -200, 12);
    EXPECT_GT(shallow->correction(WHITE, pawn_key, material), deep->correction(WHITE, pawn_key, material));
    // Huge differences are clamped: never more than CORRECTION_MAX / GRAIN centipawns.
    for (int i = 0; i < 1000; ++i) h->update(BLACK, pawn_key, material, -30000, 30);
    // (The moving average truncates towards zero, so it ends within one centipawn of the bound.)
    EXPECT_GE(h->correction(BLACK, pawn_key, material), -CORRECTION_MAX / CORRECTION_GRAIN);
    EXPECT_LE(h->correction(BLACK, pawn_key, material), -CORRECTION_MAX / CORRECTION_GRAIN + 1);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
