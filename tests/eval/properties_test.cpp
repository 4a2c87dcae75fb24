// Whole-evaluation properties: colour symmetry, pawn-hash consistency, trace == evaluation,
// lazy evaluation never changing a score it must not change, profile switching.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "board/movegen.h"
#include "eval/evaluate.h"
#include "eval/nnue/network.h"
#include "eval/pawns.h"
#include "eval/profile.h"
#include "eval/terms.h"
#include "support/test_positions.h"
#include "support/test_profiles.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::eval;

namespace {

std::vector<Position> perft_positions() { return test::suite_positions("perft.epd"); }

const std::vector<Position>& random_positions() {
    static const std::vector<Position> v = test::random_game_positions(0x5157494E4345ULL, 40, 4000, 200);
    return v;
}

}  // namespace

TEST(EvalProperties, ColourSymmetryPerftSuite) {
    Evaluator ev("rybka1");
    int n = 0;
    for (const Position& p : perft_positions()) {
        ASSERT_EQ(ev.evaluate(p), ev.evaluate(p.flipped())) << p.fen();
        ++n;
    }
    EXPECT_GE(n, 170);
}

TEST(EvalProperties, ColourSymmetryRandomPlay) {
    const auto& positions = random_positions();
    ASSERT_GE(positions.size(), 3000u);
    Evaluator ev("rybka1"), curve("rybka1-curve");
    int out_of_table = 0;
    for (const Position& p : positions) {
        const Position f = p.flipped();
        ASSERT_EQ(ev.evaluate(p), ev.evaluate(f)) << p.fen();
        ASSERT_EQ(curve.evaluate(p), curve.evaluate(f)) << p.fen();
        out_of_table += !p.material_in_table();
    }
    RecordProperty("out_of_table", out_of_table);
    // quince with the switch that reads the double-attack maps (threats2): symmetric too.
    Evaluator threats2;
    threats2.set_profile(test::test_profile("quince+threats2"));
    for (const Position& p : positions) {
        const Position f = p.flipped();
        ASSERT_EQ(threats2.evaluate(p), threats2.evaluate(f)) << p.fen();
    }
    std::printf("random positions: %zu, outside the material table: %d\n", positions.size(), out_of_table);
}

TEST(EvalProperties, PawnHashHitEqualsFreshComputation) {
    const Profile& prof = *find_profile("rybka1");
    PawnHash small(4);  // 16 entries: many replacements and hits
    int hits = 0;
    for (const Position& p : random_positions()) {
        PawnEntry fresh{};
        compute_pawn_entry(prof, p, fresh);
        const PawnEntry& e = small.probe(prof, p);
        ASSERT_EQ(e.key, fresh.key);
        for (Color c : {WHITE, BLACK}) {
            ASSERT_EQ(e.op[c], fresh.op[c]);
            ASSERT_EQ(e.eg[c], fresh.eg[c]);
            ASSERT_EQ(e.pst_op[c], fresh.pst_op[c]);
            ASSERT_EQ(e.pst_eg[c], fresh.pst_eg[c]);
            ASSERT_EQ(e.passed_files[c], fresh.passed_files[c]);
            for (int w = 0; w < 3; ++w) ASSERT_EQ(e.shelter[c][w], fresh.shelter[c][w]);
        }
        const PawnEntry& again = small.probe(prof, p);  // certainly a hit now
        ASSERT_EQ(&again, &e);
        ++hits;
    }
    // The evaluation itself: one long-lived evaluator (warm hash) == a fresh one per position.
    Evaluator warm("rybka1");
    for (const Position& p : random_positions()) warm.evaluate(p);
    int i = 0;
    for (const Position& p : random_positions()) {
        if (i++ % 10) continue;
        Evaluator fresh("rybka1");
        ASSERT_EQ(warm.evaluate(p), fresh.evaluate(p)) << p.fen();
    }
    EXPECT_GT(hits, 0);
}

TEST(EvalProperties, TraceTermsSumToTotal) {
    Evaluator ev("rybka1"), tr_ev("rybka1");
    for (const Position& p : random_positions()) {
        Trace t;
        const Value traced = tr_ev.evaluate_traced(p, t);
        ASSERT_EQ(traced, ev.evaluate(p)) << p.fen();
        ASSERT_EQ(t.final_cp, traced);
        int op = 0, eg = 0;
        for (int i = 0; i < TERM_NB; ++i) {
            op += t.v[i][WHITE][0] - t.v[i][BLACK][0];
            eg += t.v[i][WHITE][1] - t.v[i][BLACK][1];
        }
        ASSERT_EQ(op, t.op_before_scale) << p.fen();
        ASSERT_EQ(eg, t.eg_before_scale) << p.fen();
        // Material + imbalance terms reproduce 3399*D + mat_value.
        ASSERT_EQ(t.v[T_IMBALANCE][WHITE][0] - t.v[T_IMBALANCE][BLACK][0], t.mat.value);
        ASSERT_EQ(t.v[T_MATERIAL][WHITE][0] - t.v[T_MATERIAL][BLACK][0], 3399 * p.material_balance());
        // The profile's score: side to move's view of the interpolated score plus tempo; the final one
        // after the known-ending scale.
        ASSERT_EQ(t.profile_cp, (p.side_to_move() == WHITE ? t.white_cp : -t.white_cp) + 3);
        ASSERT_EQ(t.final_cp, finish_score(p, t.profile_cp));
    }
}

TEST(EvalProperties, TraceJsonFinalMatches) {
    Position p;
    ASSERT_TRUE(p.set_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"));
    Evaluator ev("rybka1");
    const std::string js = trace_json(p, "rybka1");
    EXPECT_NE(js.find("\"final_cp\": " + std::to_string(ev.evaluate(p))), std::string::npos) << js;
    EXPECT_NE(js.find("\"material_index\": " + std::to_string(p.material_index())), std::string::npos);
    EXPECT_NE(js.find("\"final_cp_white_view\": " + std::to_string(p.side_to_move() == WHITE ? ev.evaluate(p) : -ev.evaluate(p))), std::string::npos);
    const std::string txt = trace_text(p, "rybka1");
    EXPECT_NE(txt.find("final score: " + std::to_string(ev.evaluate(p)) + " cp"), std::string::npos) << txt;
    EXPECT_NE(trace_json(p, "nope").find("error"), std::string::npos);
}

TEST(EvalProperties, LazyNeverChangesScoreInsideItsBounds) {
    Evaluator full("rybka1"), lazy("rybka1");
    int triggered = 0, checked = 0;
    for (const Position& p : random_positions()) {
        const Value s = full.evaluate(p);
        const Value s_white = p.side_to_move() == WHITE ? s : -s;
        // Window = the full score itself: lazy may only fire when the material count is at least
        // the margin (3 pawns) away from it (linear W: q = 32 * S / 3399).
        const Value v = lazy.evaluate(p, LazyWindow::around(s));
        const double q = 32.0 * s_white / 3399.0;
        const int D = p.material_balance();
        if (D > q - 2.0 && D < q + 2.0) {
            ASSERT_EQ(v, s) << p.fen();
            ++checked;
        }
        // Any window containing the score with D well inside: unchanged too.
        const Value w = lazy.evaluate(p, LazyWindow{s - 50, s + 50});
        if (D > q - 2.0 && D < q + 2.0) {
            ASSERT_EQ(w, s) << p.fen();
        }
        // Far window: material-only value whenever D is outside it.
        const Value far_white = D >= 0 ? -2000 : 2000;
        const LazyWindow far_win = LazyWindow::from_root(far_white, WHITE, p.side_to_move());
        const Value far = lazy.evaluate(p, far_win);
        if (far != s) ++triggered;
        // Lazy evaluation is colour-symmetric as well (the window is in the side to move's view).
        ASSERT_EQ(far, lazy.evaluate(p.flipped(), far_win));
    }
    EXPECT_GT(checked, 1000);
    EXPECT_GT(triggered, 100);
}

TEST(EvalProperties, ProfilesSelectable) {
    const auto names = profile_names();
    ASSERT_GE(names.size(), 2u);
    EXPECT_EQ(names.front(), "rybka1");
    Evaluator ev;
    EXPECT_EQ(ev.profile(), default_profile());  // the net when the build embeds one, else `quince`
    EXPECT_EQ(default_profile(), nnue::embedded_network() ? "nnue" : "quince");
    EXPECT_EQ(default_handcrafted_profile(), "quince");
    EXPECT_FALSE(ev.set_profile("no-such-profile"));
    EXPECT_EQ(ev.profile(), default_profile());
    ASSERT_TRUE(ev.set_profile("simple"));
    Position p;
    ASSERT_TRUE(p.set_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"));
    EXPECT_EQ(ev.evaluate(p), finish_score(p, simple_evaluate(p)));  // the fifty-move counter (2) damps it
    ASSERT_TRUE(ev.set_profile("rybka1"));
    Evaluator r("rybka1");
    EXPECT_EQ(ev.evaluate(p), r.evaluate(p));
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
