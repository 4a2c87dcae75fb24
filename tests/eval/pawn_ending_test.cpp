// The 2.3.2a pawn-ending evaluator (eval/pawn_ending.h): its KPK verdict against the Syzygy KPvK table
// on every legal position, and hand-checked terms.
#include <gtest/gtest.h>

#include <cstdlib>

#include "eval/evaluate.h"
#include "eval/kpk.h"
#include "eval/pawn_ending.h"
#include "eval/terms.h"
#include "search/syzygy.h"
#include "support/sanitized.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::eval;

namespace {

const std::string TB_DIR = std::string(QUINCE_TEST_DATA_DIR) + "/syzygy";

Trace trace_of(const std::string& profile, const std::string& fen, Value* score = nullptr) {
    Position pos;
    EXPECT_TRUE(pos.set_fen(fen)) << fen;
    Evaluator ev(profile);
    Trace t;
    const Value v = ev.evaluate_traced(pos, t);
    if (score) *score = v;
    return t;
}

}  // namespace

// Every legal K+P v K position with either colour holding the pawn and either side to move: the table
// agrees with Syzygy on win/draw, and rybka232's score has the same verdict (a draw is exactly 0, a win
// is positive for the pawn's side).
TEST(PawnEnding, KpkAgreesWithTheSyzygyTableEverywhere) {
#if defined(QUINCE_NO_SYZYGY)
    GTEST_SKIP() << "built without Syzygy tablebases (no Fathom)";
#endif
    const std::string message = syzygy::init(TB_DIR);
    ASSERT_GE(syzygy::max_pieces(), 3) << message;
    attacks::init();  // distance() below runs before any Position exists
    Evaluator ev("rybka232");
    // Sanitizer builds: every third defending-king square (still about 200,000 positions).
    const int step = test::sanitized() ? 3 : 1;
    long checked = 0, wins = 0;
    for (Color strong : {WHITE, BLACK})
        for (int p = SQ_A2; p <= SQ_H7; ++p)
            for (int sk = 0; sk < 64; ++sk)
                for (int wk = 0; wk < 64; wk += step)
                    for (Color stm : {WHITE, BLACK}) {
                        if (sk == wk || sk == p || wk == p || distance(Square(sk), Square(wk)) <= 1) continue;
                        std::string board;
                        for (int r = 7; r >= 0; --r) {
                            int empty = 0;
                            for (int f = 0; f < 8; ++f) {
                                const int s = r * 8 + f;
                                const char c = s == p ? 'P' : s == sk ? 'K' : s == wk ? 'k' : 0;
                                if (!c) { ++empty; continue; }
                                if (empty) board += char('0' + empty), empty = 0;
                                board += strong == WHITE ? c : char(c == 'P' ? 'p' : c == 'K' ? 'k' : 'K');
                            }
                            if (empty) board += char('0' + empty);
                            if (r) board += '/';
                        }
                        // The pawn of Black: the same pattern mirrored through the middle rank.
                        Position pos;
                        std::string fen = board + (stm == WHITE ? " w - - 0 1" : " b - - 0 1");
                        if (strong == BLACK) {
                            // Mirror ranks so that a Black pawn stands on a legal rank (2..7 from Black's side).
                            std::string rows[8];
                            int i = 0;
                            for (char c : board) (c == '/') ? void(++i) : void(rows[i] += c);
                            fen.clear();
                            for (int r = 7; r >= 0; --r) fen += rows[r] + (r ? "/" : "");
                            fen += stm == WHITE ? " w - - 0 1" : " b - - 0 1";
                        }
                        if (!pos.set_fen(fen)) continue;  // the side not to move in check
                        syzygy::Wdl wdl;
                        ASSERT_TRUE(syzygy::probe_wdl(pos, &wdl)) << fen;
                        const bool win = wdl == syzygy::Wdl::WIN || wdl == syzygy::Wdl::LOSS;
                        ASSERT_NE(wdl, syzygy::Wdl::CURSED_WIN) << fen;
                        ASSERT_NE(wdl, syzygy::Wdl::BLESSED_LOSS) << fen;
                        const Color pawn_side = pos.pieces(WHITE, PAWN) ? WHITE : BLACK;
                        ASSERT_EQ(kpk_win(pawn_side, pos.king_square(pawn_side), lsb(pos.pieces(PAWN)),
                                          pos.king_square(~pawn_side), pos.side_to_move()),
                                  win)
                            << fen;
                        const Value v = ev.evaluate(pos);
                        if (win) {
                            ASSERT_GT(pos.side_to_move() == pawn_side ? v : -v, 0) << fen;
                            ++wins;
                        } else {
                            ASSERT_EQ(v, 0) << fen;
                        }
                        ++checked;
                    }
    syzygy::init("");
    // 2 colours x 2 sides to move x (48 pawn squares x about 3,600 king pairs), less illegal ones.
    EXPECT_EQ(checked, step == 1 ? 662704 : checked);  // every legal position (counted independently)
    EXPECT_GT(checked, 600000 / step);
    EXPECT_GT(wins, checked / 2);
}

TEST(PawnEnding, KeySquares) {
    EXPECT_EQ(key_squares(SQ_E4), square_bb(SQ_D6) | square_bb(SQ_E6) | square_bb(SQ_F6));
    EXPECT_EQ(key_squares(SQ_E2), square_bb(SQ_D4) | square_bb(SQ_E4) | square_bb(SQ_F4));
    EXPECT_EQ(key_squares(SQ_E5), square_bb(SQ_D6) | square_bb(SQ_E6) | square_bb(SQ_F6) | square_bb(SQ_D7) |
                                      square_bb(SQ_E7) | square_bb(SQ_F7));
    EXPECT_EQ(key_squares(SQ_E7), square_bb(SQ_D7) | square_bb(SQ_F7) | square_bb(SQ_D8) | square_bb(SQ_E8) |
                                      square_bb(SQ_F8));
    EXPECT_EQ(key_squares(SQ_A3), square_bb(SQ_B7) | square_bb(SQ_B8));
    EXPECT_EQ(key_squares(SQ_H6), square_bb(SQ_G7) | square_bb(SQ_G8));
}

TEST(PawnEnding, TermsOfTheEvaluator) {
    // rybka232's values (src/eval/profiles/rybka232.txt): key_square_passer[4] 3200, outside_passer 640,
    // unstoppable_passer 25600. Black Kc8 + a7, White Kd6 + e5, Black to move.
    // White e5: Kd6 on one of its key squares (d6 e6 f6 d7 e7 f7), not en prise: 3200; 4 files from a7:
    // outside min(3, 3) x 640. Neither pawn is unstoppable (Kc8 is in e5's square, Kd6 in a7's).
    Trace t = trace_of("rybka232", "2k5/p7/3K4/4P3/8/8/8/8 b - - 0 1");
    // Compare with the evaluator switched off: the difference is exactly the evaluator's terms.
    Weights w = find_profile("rybka232")->w;
    w.pawn_ending_evaluator = false;
    Evaluator off;
    off.set_profile(build_profile(w));
    Position pos;
    ASSERT_TRUE(pos.set_fen("2k5/p7/3K4/4P3/8/8/8/8 b - - 0 1"));
    Trace u;
    off.evaluate_traced(pos, u);
    EXPECT_EQ(t.v[T_PASSERS][WHITE][1] - u.v[T_PASSERS][WHITE][1], 3200 + 3 * 640);
    EXPECT_EQ(t.v[T_PASSERS][BLACK][1] - u.v[T_PASSERS][BLACK][1], 3 * 640);  // a7 vs e5: outside too

    // The race: White a6 (2 moves, White to move: 3 plies) against Black h3 (its 6th rank: 2 moves, 4
    // plies), both kings outside the other pawn's square: White is not two plies ahead, no bonus.
    Trace r = trace_of("rybka232", "8/8/P6k/8/8/7p/8/K7 w - - 0 1");
    Trace r0;
    ASSERT_TRUE(pos.set_fen("8/8/P6k/8/8/7p/8/K7 w - - 0 1"));
    off.evaluate_traced(pos, r0);
    const int extra_w = r.v[T_PASSERS][WHITE][1] - r0.v[T_PASSERS][WHITE][1];
    const int extra_b = r.v[T_PASSERS][BLACK][1] - r0.v[T_PASSERS][BLACK][1];
    // The switched-off evaluator gives both 1.0 bonuses (25600 each); the evaluator gives none, and the
    // outside term (7 files apart -> 3 x 640) to both.
    EXPECT_EQ(extra_w, 3 * 640 - 25600);
    EXPECT_EQ(extra_b, 3 * 640 - 25600);
    // Pawn a7 instead (1 move: 1 ply) against h3 (4 plies): White queens 3 plies sooner: bonus at rank 7.
    Trace q = trace_of("rybka232", "8/P7/7k/8/8/7p/8/K7 w - - 0 1");
    ASSERT_TRUE(pos.set_fen("8/P7/7k/8/8/7p/8/K7 w - - 0 1"));
    off.evaluate_traced(pos, r0);
    EXPECT_EQ(q.v[T_PASSERS][WHITE][1] - r0.v[T_PASSERS][WHITE][1], 3 * 640);  // both give White 25600
    EXPECT_EQ(q.v[T_PASSERS][BLACK][1] - r0.v[T_PASSERS][BLACK][1], 3 * 640 - 25600);
}

TEST(PawnEnding, OnlyInPurePawnEndingsAndNotTheLazyPath) {
    // A knight on the board: the general code (identical to the switched-off profile).
    Weights w = find_profile("rybka232")->w;
    w.pawn_ending_evaluator = false;
    Evaluator off, on("rybka232");
    off.set_profile(build_profile(w));
    for (const char* fen : {"2k5/p7/3K4/4P3/8/8/8/6N1 b - - 0 1", "r3k3/8/8/8/8/8/PP6/4K3 w - - 0 1"}) {
        Position pos;
        ASSERT_TRUE(pos.set_fen(fen));
        EXPECT_EQ(on.evaluate(pos), off.evaluate(pos)) << fen;
    }
    // A drawn KPK scores 0 (White Ke1, pawn a2, Black Kb8... rook pawn with the king in the corner).
    Value v = 1;
    Trace t = trace_of("rybka232", "k7/8/8/8/8/8/P7/4K3 w - - 0 1", &v);
    EXPECT_EQ(v, 0);
    EXPECT_TRUE(t.known_draw);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
