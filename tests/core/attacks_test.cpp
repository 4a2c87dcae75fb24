// Slider attacks (magic or PEXT, whichever this build uses) against the slow ray-walking reference.
#include <gtest/gtest.h>

#include <random>

#include "core/bitboard.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;

TEST(Attacks, SlidersMatchReferenceForManyOccupancies) {
    attacks::init();
    std::mt19937_64 rng(12345);
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        for (int i = 0; i < 3000; ++i) {
            // Mix sparse and dense occupancies.
            Bitboard occ = rng() & rng();
            if (i % 3 == 0) occ &= rng();
            if (i % 5 == 0) occ |= rng();
            ASSERT_EQ(rook_attacks(s, occ), attacks::sliding_attacks_reference(ROOK, s, occ)) << int(s);
            ASSERT_EQ(bishop_attacks(s, occ), attacks::sliding_attacks_reference(BISHOP, s, occ)) << int(s);
            ASSERT_EQ(queen_attacks(s, occ), attacks::sliding_attacks_reference(ROOK, s, occ) |
                                                 attacks::sliding_attacks_reference(BISHOP, s, occ));
        }
    }
}

TEST(Attacks, EveryRelevantSubsetOfTheMask) {
    attacks::init();
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        for (PieceType pt : {ROOK, BISHOP}) {
            const attacks::Magic& m = pt == ROOK ? attacks::rook_magics[s] : attacks::bishop_magics[s];
            Bitboard b = 0;
            int n = 0;
            do {
                ASSERT_EQ(attacks_bb(pt, s, b), attacks::sliding_attacks_reference(pt, s, b));
                b = (b - m.mask) & m.mask;
                ++n;
            } while (b);
            EXPECT_EQ(n, 1 << popcount(m.mask));
        }
    }
}

TEST(Attacks, LeapersAndPawns) {
    attacks::init();
    EXPECT_EQ(knight_attacks(SQ_A1), square_bb(SQ_B3) | SQ_C2);
    EXPECT_EQ(popcount(knight_attacks(SQ_D4)), 8);
    EXPECT_EQ(king_attacks(SQ_H8), square_bb(SQ_G8) | SQ_G7 | SQ_H7);
    EXPECT_EQ(pawn_attacks(WHITE, SQ_A2), square_bb(SQ_B3));
    EXPECT_EQ(pawn_attacks(BLACK, SQ_E5), square_bb(SQ_D4) | SQ_F4);
    EXPECT_EQ(pawn_attacks(WHITE, SQ_H8), 0u);
}

TEST(Attacks, BetweenLineDistance) {
    attacks::init();
    EXPECT_EQ(between_bb(SQ_A1, SQ_D4), square_bb(SQ_B2) | SQ_C3 | SQ_D4);
    EXPECT_EQ(between_bb(SQ_A1, SQ_B3), square_bb(SQ_B3));  // not aligned: only the target
    EXPECT_EQ(line_bb(SQ_A1, SQ_C3), 0x8040201008040201ULL);
    EXPECT_EQ(line_bb(SQ_A1, SQ_B3), 0u);
    EXPECT_TRUE(aligned(SQ_A1, SQ_E5, SQ_H8));
    EXPECT_EQ(distance(SQ_A1, SQ_H8), 7);
    EXPECT_EQ(distance(SQ_E4, SQ_F6), 2);
}

TEST(Bitboard, Helpers) {
    EXPECT_EQ(popcount(0xF0F0ULL), 8);
    EXPECT_EQ(lsb(0x100ULL), SQ_A2);
    EXPECT_EQ(msb(0x8000000000000001ULL), SQ_H8);
    Bitboard b = 0x11;
    EXPECT_EQ(pop_lsb(b), SQ_A1);
    EXPECT_EQ(b, 0x10u);
    EXPECT_EQ(shift<EAST>(FILE_H_BB), 0u);
    EXPECT_EQ(shift<NORTH>(RANK_8_BB), 0u);
    EXPECT_EQ(shift<NORTH_EAST>(square_bb(SQ_A1)), square_bb(SQ_B2));
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
