// Upcoming repetitions (Position::has_game_cycle, board/cuckoo.h) against a brute-force search over every
// legal move: they must agree on every position of many shuffling playouts, so that the cuckoo test never
// claims a draw that no move reaches and never misses one.
#include <gtest/gtest.h>

#include <random>

#include "board/cuckoo.h"
#include "board/movegen.h"
#include "core/bitboard.h"
#include "core/zobrist.h"
#include "support/test_positions.h"

using namespace quince;

namespace {

// Is there a legal move after which is_repetition (as the search calls it, one ply deeper) says draw?
bool brute_force_cycle(Position& pos, int ply) {
    for (const auto& sm : MoveList<LEGAL>(pos)) {
        pos.do_move(sm.move);
        const bool draw = pos.is_repetition(ply + 1);
        pos.undo_move(sm.move);
        if (draw) return true;
    }
    return false;
}

bool reversible(const Position& pos, Move m) {
    return m.type() == NORMAL && !pos.is_capture(m) && type_of(pos.moved_piece(m)) != PAWN;
}

struct Tally {
    int positions = 0, cycles = 0, before_root = 0;
};

// A playout that shuffles pieces: mostly reversible moves, often the move that takes our last moved piece
// back, so that positions recur, with a pawn move or capture now and then to reset the counters. At every
// position both tests run for several distances to the root.
void check_playout(Position pos, std::mt19937_64& rng, int plies, Tally* tally) {
    std::vector<Move> played;
    for (int p = 0; p < plies; ++p) {
        for (int ply : {0, 1, 2, 3, 4, 5, 7, 9, 12, 1000}) {
            const bool cycle = pos.has_game_cycle(ply);
            ASSERT_EQ(cycle, brute_force_cycle(pos, ply)) << pos.fen() << " ply " << ply << " after " << p << " plies";
            ++tally->positions;
            tally->cycles += cycle;
            tally->before_root += cycle && ply == 1000;
        }
        MoveList<LEGAL> moves(pos);
        if (moves.size() == 0 || pos.rule50() >= 100) return;
        std::vector<Move> quiet;
        Move back = Move::none();
        for (const auto& sm : moves) {
            if (!reversible(pos, sm.move)) continue;
            quiet.push_back(sm.move);
            if (played.size() >= 2 && sm.move.from() == played[played.size() - 2].to() &&
                sm.move.to() == played[played.size() - 2].from())
                back = sm.move;
        }
        const unsigned roll = unsigned(rng() % 100);
        Move m;
        if (back && roll < 40) m = back;
        else if (!quiet.empty() && roll < 92) m = quiet[rng() % quiet.size()];
        else m = moves.begin()[rng() % moves.size()].move;
        pos.do_move(m);
        played.push_back(m);
    }
}

}  // namespace

TEST(GameCycle, CuckooTableHoldsEveryReversibleMove) {
    Position pos;  // initialises the tables
    EXPECT_EQ(cuckoo::stored_moves(), cuckoo::MOVE_COUNT);
    for (Color c : {WHITE, BLACK})
        for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN, KING})
            for (int a = 0; a < SQUARE_NB; ++a)
                for (int b = 0; b < SQUARE_NB; ++b) {
                    const Piece pc = make_piece(c, pt);
                    const Key diff = zobrist::psq[pc][a] ^ zobrist::psq[pc][b] ^ zobrist::side;
                    const bool move = a != b && (attacks::pseudo_attacks[pt][a] & Square(b));
                    const Move found = cuckoo::lookup(diff);
                    if (move) EXPECT_EQ(found, Move(Square(std::min(a, b)), Square(std::max(a, b))));
                    else EXPECT_EQ(found, Move::none());
                }
}

// A knight shuffle: after Nf3 Nf6 Ng1 the knight on f6 can go back to g8, repeating the start position.
TEST(GameCycle, KnightShuffle) {
    Position pos;
    for (Move m : {Move(SQ_G1, SQ_F3), Move(SQ_G8, SQ_F6), Move(SQ_F3, SQ_G1)}) {
        EXPECT_FALSE(pos.has_game_cycle(10));
        pos.do_move(m);
    }
    EXPECT_TRUE(pos.has_game_cycle(10));  // ...Ng8 repeats the start position inside the tree
    EXPECT_FALSE(pos.has_game_cycle(3));  // the start position is before the root: one occurrence is no draw
    for (Move m : {Move(SQ_F6, SQ_G8), Move(SQ_G1, SQ_F3), Move(SQ_G8, SQ_F6), Move(SQ_F3, SQ_G1)}) pos.do_move(m);
    EXPECT_TRUE(pos.has_game_cycle(3));   // ...Ng8 now brings the start position a third time
}

// The position three plies back differs by one rook move, but the knight that came back stands in the way.
TEST(GameCycle, BlockedWayBackIsNoCycle) {
    Position pos;
    ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/n7/R3K3 b - - 0 1"));
    const Key start = pos.key();
    for (Move m : {Move(SQ_A2, SQ_B4), Move(SQ_A1, SQ_A5), Move(SQ_B4, SQ_A2)}) pos.do_move(m);
    EXPECT_NE(cuckoo::lookup(pos.key() ^ start), Move::none());  // the key difference is a rook move
    EXPECT_FALSE(pos.has_game_cycle(10));
    EXPECT_FALSE(brute_force_cycle(pos, 10));
}

TEST(GameCycle, AgreesWithBruteForceOnShufflingPlayouts) {
    std::mt19937_64 rng(20261127);
    Tally tally;
    std::vector<Position> starts = test::suite_positions("perft.epd");
    for (const Position& p : test::random_game_positions(7, 40, 120, 90)) starts.push_back(p);
    for (const Position& start : starts) {
        for (int run = 0; run < 2; ++run) {
            check_playout(start, rng, 60, &tally);
            if (HasFatalFailure()) return;
        }
    }
    // The playouts must have produced both answers, inside the tree and before the root, to test anything.
    EXPECT_GT(tally.positions, 50000);
    EXPECT_GT(tally.cycles, 2000);
    EXPECT_GT(tally.before_root, 100);
    EXPECT_LT(tally.cycles, tally.positions / 2);
}
