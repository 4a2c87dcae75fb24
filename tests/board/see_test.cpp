// Static exchange evaluation on hand-checked positions (values P 100, N 325, B 325, R 500, Q 1000).
#include <gtest/gtest.h>

#include "board/notation.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;

namespace {
// Largest threshold t (in the tested range) with see_ge(m, t): the exchange's value.
int see_value(const char* fen, const char* uci) {
    Position pos;
    EXPECT_TRUE(pos.set_fen(fen));
    Move m = uci_to_move(pos, uci);
    EXPECT_TRUE(m) << uci;
    int best = -2000;
    for (int t = -2000; t <= 2000; ++t)
        if (pos.see_ge(m, t)) best = t;
    return best;
}
}  // namespace

TEST(See, UndefendedPawn) { EXPECT_EQ(see_value("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"), 100); }

TEST(See, KnightTakesPawnDefendedByPawn) {
    // NxP, pxN: 100 - 325.
    EXPECT_EQ(see_value("4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1", "f3e5"), -225);
}

TEST(See, PawnTakesUndefendedQueen) { EXPECT_EQ(see_value("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 1000); }

TEST(See, XRayRookBehindRook) {
    // RxP, RxR, RxR: 100 - 500 + 500 = +100 only if the second white rook is seen through the first.
    EXPECT_EQ(see_value("4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "e2e5"), 100);
}

TEST(See, DefenderStopsWhenRecapturingLoses) {
    // QxP defended by a pawn: 100 - 1000.
    EXPECT_EQ(see_value("4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1", "e1e5"), -900);
}

TEST(See, PinnedDefenderCannotRecapture) {
    // The knight on c7 is pinned to its king on d8 by the bishop on a5.
    EXPECT_EQ(see_value("3k4/2n5/8/B2p4/8/8/8/3RK3 w - - 0 1", "d1d5"), 100);
    // Without the pin the rook is lost for a pawn.
    EXPECT_EQ(see_value("3k4/2n5/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), -400);
}

TEST(See, KingCannotRecaptureADefendedPiece) {
    // Rxf7 defended only by the king, but White's bishop also covers f7: the king may not take.
    EXPECT_EQ(see_value("6k1/5p2/8/8/2B5/8/8/5RK1 w - - 0 1", "f1f7"), 100);
}

TEST(See, QuietMoveToAnAttackedSquare) {
    // Moving the knight to a square attacked by a pawn loses it.
    EXPECT_EQ(see_value("4k3/8/3p4/8/8/5N2/8/4K3 w - - 0 1", "f3e5"), -325);
}

// After a move, the piece's move back to the square it left (the other side to move) asks whether it
// would have been lost there: the exchange is seen from the moving piece's side, not the side to move.
TEST(See, MoveBackAfterDoMoveTellsAnEscape) {
    auto back_is_safe = [](const char* fen, Move m) {
        Position pos;
        EXPECT_TRUE(pos.set_fen(fen));
        pos.do_move(m);
        return pos.see_ge(Move(m.to(), m.from()));
    };
    // The knight on d4 was attacked by the e5 pawn: Nf3 escapes.
    EXPECT_FALSE(back_is_safe("4k3/8/8/4p3/3N4/8/8/4K3 w - - 0 1", Move(SQ_D4, SQ_F3)));
    // Nothing attacked it.
    EXPECT_TRUE(back_is_safe("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1", Move(SQ_D4, SQ_F3)));
    // The rook attacked it, but the c3 pawn defended it: Rxd4 cxd4 loses the rook.
    EXPECT_TRUE(back_is_safe("4k3/8/8/8/r2N4/2P5/8/4K3 w - - 0 1", Move(SQ_D4, SQ_F3)));
    // The same for Black: the bishop on c5 was attacked by the b4 pawn.
    EXPECT_FALSE(back_is_safe("4k3/8/8/2b5/1P6/8/8/4K3 b - - 0 1", Move(SQ_C5, SQ_E7)));
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
