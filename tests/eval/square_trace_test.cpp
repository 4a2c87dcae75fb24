// Per-square attribution (eval::SquareTrace, the workbench's picture): recorded by the evaluation's own
// traced code path, its squares add up to every term's total, and the untraced evaluation is unchanged.
#include <gtest/gtest.h>

#include <fstream>

#include "eval/evaluate.h"
#include "eval/profile.h"
#include "eval/terms.h"
#include "eval/trace.h"
#include "support/test_positions.h"
#include "support/test_profiles.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::eval;

namespace {

std::vector<Position> test_positions() {
    std::vector<Position> out;
    for (const char* file : {"/eval/reference_positions.epd", "/eval/profile_positions.epd"}) {
        std::ifstream in(std::string(QUINCE_TEST_DATA_DIR) + "/.." + file);
        for (std::string line; std::getline(in, line);) {
            Position pos;
            if (!line.empty() && pos.set_fen(line)) out.push_back(pos);
        }
    }
    for (const Position& p : test::random_game_positions(11, 8, 400, 120)) out.push_back(p);
    return out;
}

// Every built-in profile with terms, and the tests' profiles with Quince's groups switched on (their own paths).
std::vector<std::shared_ptr<const Profile>> profiles() {
    std::vector<std::shared_ptr<const Profile>> out;
    for (const std::string& n : handcrafted_profile_names())
        if (!find_profile(n)->simple) out.push_back(find_profile_shared(n));
    for (const std::string& n : test::test_profile_names()) out.push_back(test::test_profile(n));
    return out;
}

}  // namespace

TEST(SquareTrace, SquaresSumToEveryTermAndMaterialIsOnNoSquare) {
    const auto positions = test_positions();
    ASSERT_GT(positions.size(), 300u);
    for (const auto& prof : profiles()) {
        Evaluator plain, traced;
        plain.set_profile(prof);
        traced.set_profile(prof);
        int king_attacks = 0, passers = 0;
        for (const Position& pos : positions) {
            SquareTrace sq;
            Trace t;
            t.squares = &sq;
            const Value v = traced.evaluate_traced(pos, t);
            ASSERT_EQ(v, plain.evaluate(pos)) << prof->w.name << " " << pos.fen();
            if (t.lazy) continue;
            for (int term = 0; term < TERM_NB; ++term)
                for (int k = 0; k < 2; ++k) {
                    int sum = 0;
                    for (int s = 0; s < 64; ++s) sum += sq.v[term][s][k];
                    const bool board_level = term == T_MATERIAL || term == T_IMBALANCE;
                    const int total = board_level ? 0 : t.v[term][WHITE][k] - t.v[term][BLACK][k];
                    ASSERT_EQ(sum, total) << prof->w.name << " " << TERM_NAMES[term] << (k ? " eg " : " mg ") << pos.fen();
                }
            // Credit sits on occupied squares only (threats: the attacked piece; shelter: the king), but
            // threats2's restricted squares, which are credited on the (usually empty) square itself.
            for (int term = 0; term < TERM_NB; ++term)
                for (int s = 0; s < 64; ++s) {
                    if (term == T_THREATS && prof->w.threats2) continue;
                    if (sq.v[term][s][0] || sq.v[term][s][1]) {
                        ASSERT_NE(pos.piece_on(Square(s)), NO_PIECE) << TERM_NAMES[term] << " " << s << " " << pos.fen();
                    }
                }
            EXPECT_EQ(sq.passers & ~pos.pieces(PAWN), 0u);
            king_attacks += t.v[T_KING_ATTACK][WHITE][0] != 0 || t.v[T_KING_ATTACK][BLACK][0] != 0;
            passers += sq.passers != 0;
        }
        // The positions exercise the shared-out terms.
        EXPECT_GT(king_attacks, 2) << prof->w.name;
        EXPECT_GT(passers, 10) << prof->w.name;
    }
}

TEST(SquareTrace, APieceCarriesItsOwnPstAndMobility) {
    // White knight f3 (relative f3) and a black knight f6 (relative f3 too): the same credit, opposite signs.
    Position pos;
    ASSERT_TRUE(pos.set_fen("k7/8/5n2/8/8/5N2/8/K7 w - - 0 1"));
    const Profile& p = *find_profile("rybka1");
    Evaluator ev("rybka1");
    SquareTrace sq;
    Trace t;
    t.squares = &sq;
    ev.evaluate_traced(pos, t);
    EXPECT_EQ(sq.v[T_PST_KNIGHT][SQ_F3][0], p.pst_op[KNIGHT][SQ_F3]);
    EXPECT_EQ(sq.v[T_PST_KNIGHT][SQ_F3][1], p.pst_eg[KNIGHT][SQ_F3]);
    EXPECT_EQ(sq.v[T_PST_KNIGHT][SQ_F6][0], -p.pst_op[KNIGHT][SQ_F3]);
    // 8 knight moves from f3 and f6 on this board, all free: 8 * the weight each.
    EXPECT_EQ(sq.v[T_MOBILITY][SQ_F3][0], 8 * p.w.mob_knight_op);
    EXPECT_EQ(sq.v[T_MOBILITY][SQ_F6][1], -8 * p.w.mob_knight_eg);
    EXPECT_EQ(sq.v[T_PST_KING][SQ_A1][0], p.pst_op[KING][SQ_A1]);
    // An untraced Trace (no SquareTrace attached) leaves the squares alone: the pointer is the switch.
    SquareTrace untouched;
    Trace plain;
    ev.evaluate_traced(pos, plain);
    EXPECT_EQ(plain.squares, nullptr);
    EXPECT_EQ(untouched.v[T_PST_KNIGHT][SQ_F3][0], 0);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
