// Quince's endgame scaling (eval/scaling.h): the complexity's inputs and clamp, the scale factor by
// material, both applied to the endgame part only, colour-symmetric, and the opposite-bishop halving
// replaced by the factor.
#include <gtest/gtest.h>

#include "eval/evaluate.h"
#include "eval/scaling.h"
#include "eval/terms.h"
#include "support/test_positions.h"
#include "support/test_profiles.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::eval;

namespace {

Position at(const std::string& fen) {
    Position pos;
    EXPECT_TRUE(pos.set_fen(fen)) << fen;
    return pos;
}

Weights scaling_weights() { return test::test_weights("quince+scaling"); }

}  // namespace

TEST(EvalScaling, ComplexityInputs) {
    // a7 (queen flank) and h2 (king flank), kings only besides: 2 pawns, both flanks, pawn ending.
    ComplexityInputs in = complexity_inputs(at("4k3/p7/8/8/8/8/7P/4K3 w - - 0 1"));
    EXPECT_EQ(in.n[0], 2);
    EXPECT_EQ(in.n[1], 1);
    EXPECT_EQ(in.n[2], 1);
    EXPECT_EQ(in.n[3], 1);
    // e2 alone (king flank) with bishops: one flank, not a pawn ending.
    in = complexity_inputs(at("2b1k3/8/8/8/8/8/4P3/2B1K3 w - - 0 1"));
    EXPECT_EQ(in.n[0], 1);
    EXPECT_EQ(in.n[1], 0);
    EXPECT_EQ(in.n[2], 0);
    const Weights w = scaling_weights();
    EXPECT_EQ(complexity_value(w, in), 256 - 5024);
}

TEST(EvalScaling, ComplexityClampNeverCrossesZero) {
    EXPECT_EQ(complexity_adjustment(1000, -300), -300);
    EXPECT_EQ(complexity_adjustment(1000, -2000), -1000);  // pulled to 0, not across
    EXPECT_EQ(complexity_adjustment(-1000, 200), -200);    // a positive complexity widens the lead
    EXPECT_EQ(complexity_adjustment(-1000, -5000), 1000);
    EXPECT_EQ(complexity_adjustment(0, 500), 0);
}

TEST(EvalScaling, ScaleFactorByMaterial) {
    const Weights w = scaling_weights();
    // Opposite bishops c1 (dark) / c8 (light) only; with one knight each; with one rook each.
    EXPECT_EQ(scale_factor(w, at("2b1k3/8/8/8/8/8/4P3/2B1K3 w - - 0 1"), WHITE), 64);
    EXPECT_EQ(scale_factor(w, at("2b1k1n1/8/8/8/8/8/4P3/2B1K1N1 w - - 0 1"), WHITE), 106);
    EXPECT_EQ(scale_factor(w, at("r1b1k3/8/8/8/8/8/4P3/R1B1K3 w - - 0 1"), WHITE), 96);
    // Same-coloured bishops: by pawns, 96 + 8 x 1.
    EXPECT_EQ(scale_factor(w, at("4kb2/8/8/8/8/8/4P3/2B1K3 w - - 0 1"), WHITE), 104);
    // White's lone queen against knight and bishop; Black as the stronger side: by pawns (none).
    EXPECT_EQ(scale_factor(w, at("4k3/8/8/8/8/2nb4/8/3QK3 w - - 0 1"), WHITE), 88);
    EXPECT_EQ(scale_factor(w, at("4k3/8/8/8/8/2nb4/8/3QK3 w - - 0 1"), BLACK), 96);
    // A lone bishop without pawns wins nothing.
    EXPECT_EQ(scale_factor(w, at("4k3/pp6/8/8/8/8/8/2B1K3 w - - 0 1"), WHITE), 0);
    // Four pawns up, no pieces: scaled up; three pawns against four: 96 + 24, four: capped at 128.
    EXPECT_EQ(scale_factor(w, at("4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1"), WHITE), 144);
    EXPECT_EQ(scale_factor(w, at("4k3/pppp4/8/8/8/8/PPP5/4K3 w - - 0 1"), WHITE), 120);
    EXPECT_EQ(scale_factor(w, at("4k3/pppp4/8/8/8/8/PPP5/4K3 w - - 0 1"), BLACK), 128);
}

TEST(EvalScaling, EndgamePartOnlyAndHalvingReplaced) {
    const Weights w = scaling_weights();
    Evaluator ev;
    ev.set_profile(build_profile(w));
    const Position pos = at("2b1k3/8/8/8/8/8/4P3/2B1K3 w - - 0 1");
    Trace t;
    ev.evaluate_traced(pos, t);
    EXPECT_FALSE(t.ocb);  // the factor replaces the halving
    EXPECT_EQ(t.op, t.op_before_scale);
    const int adj = complexity_adjustment(t.eg_before_scale, 256 - 5024);
    EXPECT_EQ(t.complexity_eg, adj);
    const int eg = t.eg_before_scale + adj;
    EXPECT_EQ(t.scale, scale_factor(w, pos, eg >= 0 ? WHITE : BLACK));
    EXPECT_EQ(t.eg, scale_eg(eg, t.scale));
    // Both switches off: the quince profile's halving again, no complexity.
    Weights off = w;
    off.complexity = off.scale_factors = false;
    ev.set_profile(build_profile(off));
    ev.evaluate_traced(pos, t);
    EXPECT_TRUE(t.ocb);
    EXPECT_EQ(t.complexity_eg, 0);
    EXPECT_EQ(t.eg, t.eg_before_scale / 2);
}

TEST(EvalScaling, ColourSymmetry) {
    Evaluator ev;
    ev.set_profile(build_profile(scaling_weights()));
    std::vector<Position> pos = test::suite_positions("perft.epd");
    for (const Position& p : test::random_game_positions(77, 60, 1500, 200)) pos.push_back(p);
    for (const char* fen : {"2b1k3/8/8/8/8/8/4P3/2B1K3 w - - 0 1", "4k3/8/8/8/8/2nb4/8/3QK3 b - - 0 1",
                                   "4k3/pppp4/8/8/8/8/PPP5/4K3 w - - 0 1", "r1b1k3/8/8/8/8/8/4P3/R1B1K3 b - - 0 1"})
        pos.push_back(at(fen));
    for (const Position& p : pos) ASSERT_EQ(ev.evaluate(p), ev.evaluate(p.flipped())) << p.fen();
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
