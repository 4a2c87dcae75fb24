// The other evaluation profiles: rybka232 (Rybka 2.3.2a as far as seed 003 documents it) and fruit21
// (Fruit 2.1 values in Quince's machinery). Expected values are worked out in the comments from the
// spec's numbers (spec docs/eval-spec.md; "2.3.2a" columns and † Fruit values); Fruit values are centipawns
// times 32 (Quince's internal unit).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "board/movegen.h"
#include "eval/evaluate.h"
#include "eval/pawns.h"
#include "eval/nnue/network.h"
#include "eval/profile.h"
#include "eval/score.h"
#include "eval/terms.h"
#include "support/test_positions.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::eval;

namespace {

const char* const NEW_PROFILES[] = {"rybka232", "fruit21"};

Trace trace_of(const std::string& profile, const std::string& fen, Value* score = nullptr) {
    Position pos;
    EXPECT_TRUE(pos.set_fen(fen)) << fen;
    Evaluator ev(profile);
    EXPECT_EQ(ev.profile(), profile);
    Trace t;
    const Value v = ev.evaluate_traced(pos, t);
    if (score) *score = v;
    return t;
}
using P = std::pair<int, int>;
P term(const Trace& t, Term term, Color c) { return {t.v[term][c][0], t.v[term][c][1]}; }

std::vector<Position> perft_positions() { return test::suite_positions("perft.epd"); }

const std::vector<Position>& random_positions() {
    static const std::vector<Position> v = test::random_game_positions(0x50524F46494CULL, 30, 3000, 220);
    return v;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Registry and switching

TEST(EvalProfiles, NamesListEveryProfile) {
    const std::vector<std::string> want = {"rybka1", "rybka1-curve", "rybka232", "fruit21", "quince", "simple"};
    EXPECT_EQ(handcrafted_profile_names(), want);
    std::vector<std::string> listed = want;
    if (nnue::embedded_network()) listed.push_back("nnue");  // the network embedded in the build, if any
    EXPECT_EQ(profile_names(), listed);  // the order of UCI's EvalProfile choices
    for (const auto& n : want) EXPECT_NE(find_profile(n), nullptr) << n;
    EXPECT_EQ(find_profile("rybka2"), nullptr);
}

TEST(EvalProfiles, SetProfileRoundTrip) {
    Position p;
    ASSERT_TRUE(p.set_fen("r1bqk2r/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQkq - 0 7"));
    Evaluator ev("rybka1");
    const Value r1 = ev.evaluate(p);
    for (const std::string& name : profile_names()) {
        ASSERT_TRUE(ev.set_profile(name)) << name;
        EXPECT_EQ(ev.profile(), name);
        Evaluator fresh(name);
        EXPECT_EQ(ev.evaluate(p), fresh.evaluate(p)) << name;  // pawn hash cleared on switch
    }
    EXPECT_FALSE(ev.set_profile("Fruit21"));  // names are exact
    EXPECT_EQ(ev.profile(), profile_names().back());
    ASSERT_TRUE(ev.set_profile("rybka1"));
    EXPECT_EQ(ev.evaluate(p), r1);
    // The profiles really differ here (different weights, no tempo).
    EXPECT_NE(Evaluator("rybka232").evaluate(p), r1);
    EXPECT_NE(Evaluator("fruit21").evaluate(p), r1);
}

// ---------------------------------------------------------------------------------------------
// Whole-evaluation properties for each new profile

TEST(EvalProfiles, ColourSymmetryPerftAndRandomPlay) {
    const auto perft = perft_positions();
    ASSERT_GE(perft.size(), 170u);
    ASSERT_GE(random_positions().size(), 2500u);
    for (const char* name : NEW_PROFILES) {
        Evaluator ev(name);
        for (const Position& p : perft) ASSERT_EQ(ev.evaluate(p), ev.evaluate(p.flipped())) << name << " " << p.fen();
        for (const Position& p : random_positions())
            ASSERT_EQ(ev.evaluate(p), ev.evaluate(p.flipped())) << name << " " << p.fen();
    }
}

// Trace terms sum to op/eg, and op/eg -> halving -> interpolation -> halving -> drawishness -> tempo
// reproduces the returned score, for every profile (rybka1 included).
TEST(EvalProfiles, TraceTermsSumToFinalScore) {
    for (const std::string& name : std::vector<std::string>{"rybka1", "rybka1-curve", "rybka232", "fruit21"}) {
        Evaluator ev(name), tr_ev(name);
        const Weights& w = find_profile(name)->w;
        int ocb_after = 0, drawish = 0;
        for (const Position& p : random_positions()) {
            Trace t;
            const Value v = tr_ev.evaluate_traced(p, t);
            ASSERT_EQ(v, ev.evaluate(p)) << name << " " << p.fen();
            ASSERT_FALSE(t.lazy);
            int op = 0, eg = 0;
            for (int i = 0; i < TERM_NB; ++i) {
                op += t.v[i][WHITE][0] - t.v[i][BLACK][0];
                eg += t.v[i][WHITE][1] - t.v[i][BLACK][1];
            }
            ASSERT_EQ(op, t.op_before_scale) << name << " " << p.fen();
            ASSERT_EQ(eg, t.eg_before_scale) << name << " " << p.fen();
            const bool before = t.ocb && !t.ocb_after;
            ASSERT_EQ(t.op, before ? op / 2 : op);
            ASSERT_EQ(t.eg, before ? eg / 2 : eg);
            const Color stm = p.side_to_move();
            const int sign = stm == WHITE ? 1 : -1;
            if (t.known_draw) {  // 2.3.2a's drawn K+P v K: 0 whatever the terms say
                ASSERT_EQ(name, "rybka232");
                ASSERT_EQ(t.white_cp, 0);
                ASSERT_EQ(t.final_cp, 0);
                continue;
            }
            int s = interpolate_stm(t.op, t.eg, t.w0, t.w1, stm);
            if (t.ocb_after) s /= 2, ++ocb_after;
            ASSERT_EQ(t.white_cp, sign * s + t.drawish_cp) << name << " " << p.fen();
            ASSERT_EQ(t.profile_cp, sign * t.white_cp + w.tempo) << name << " " << p.fen();
            ASSERT_EQ(t.final_cp, finish_score(p, t.profile_cp)) << name << " " << p.fen();
            drawish += t.drawish_cp != 0;
            // The material terms are D units * pawn_unit (op) and the table value.
            ASSERT_EQ(t.v[T_MATERIAL][WHITE][0] - t.v[T_MATERIAL][BLACK][0], w.pawn_unit * p.material_balance());
            ASSERT_EQ(t.v[T_IMBALANCE][WHITE][0] - t.v[T_IMBALANCE][BLACK][0], t.mat.value);
        }
        if (name == "rybka232") {
            EXPECT_GT(drawish, 0);
        }
        if (name == "rybka232" || name == "fruit21") {
            EXPECT_GT(ocb_after, 0) << name;
        } else {
            EXPECT_EQ(ocb_after + drawish, 0) << name;
        }
    }
}

TEST(EvalProfiles, PawnHashHitEqualsFreshComputation) {
    for (const char* name : NEW_PROFILES) {
        const Profile& prof = *find_profile(name);
        PawnHash small(4);
        for (const Position& p : random_positions()) {
            PawnEntry fresh{};
            compute_pawn_entry(prof, p, fresh);
            const PawnEntry& e = small.probe(prof, p);
            for (Color c : {WHITE, BLACK}) {
                ASSERT_EQ(e.op[c], fresh.op[c]);
                ASSERT_EQ(e.eg[c], fresh.eg[c]);
                ASSERT_EQ(e.drawish[c], fresh.drawish[c]);
                ASSERT_EQ(e.passed_files[c], fresh.passed_files[c]);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// rybka232: values and conditions that differ from rybka1

TEST(EvalRybka232, PieceSquareTablesAreSeedData) {
    const Profile& p = *find_profile("rybka232");
    // §4.2 right blocks (first printed row = rank 8).
    EXPECT_EQ(p.pst_op[KNIGHT][SQ_A8], -4582);
    EXPECT_EQ(p.pst_op[KNIGHT][SQ_A1], -2845);
    EXPECT_EQ(p.pst_eg[KNIGHT][SQ_A1], -836);
    EXPECT_EQ(p.pst_op[PAWN][SQ_E4], 235);
    EXPECT_EQ(p.pst_op[PAWN][SQ_A2], -613);
    EXPECT_EQ(p.pst_eg[PAWN][SQ_A6], 257);  // 257 on rank 6, 258 on rank 7, as printed
    EXPECT_EQ(p.pst_eg[PAWN][SQ_A7], 258);
    EXPECT_EQ(p.pst_op[PAWN][SQ_E8], 0);
    EXPECT_EQ(p.pst_op[BISHOP][SQ_D1], -1097);
    EXPECT_EQ(p.pst_op[QUEEN][SQ_D4], -1146);
    EXPECT_EQ(p.pst_op[KING][SQ_G1], 1531);
    EXPECT_EQ(p.pst_eg[KING][SQ_A8], -2220);
    // Rook (§4.1 note): op = 85 * RookFile - 522 exactly, eg = -522 everywhere.
    constexpr int RookFile[8] = {-2, -1, 0, 1, 1, 0, -1, -2};
    for (int sq = 0; sq < 64; ++sq) {
        EXPECT_EQ(p.pst_op[ROOK][sq], 85 * RookFile[sq & 7] - 522) << sq;
        EXPECT_EQ(p.pst_eg[ROOK][sq], -522) << sq;
    }
    // Left-right symmetric like every seed table.
    for (int pt = PAWN; pt <= KING; ++pt)
        for (int sq = 0; sq < 64; ++sq) {
            EXPECT_EQ(p.pst_op[pt][sq], p.pst_op[pt][sq ^ 7]);
            EXPECT_EQ(p.pst_eg[pt][sq], p.pst_eg[pt][sq ^ 7]);
        }
    // Black knight on a1 = PST[a8] subtracted (§17.1): -(-4582) = +4582 in White's sum.
    Trace t = trace_of("rybka232", "4k3/8/8/8/8/8/8/n3K3 w - - 0 1");
    EXPECT_EQ(term(t, T_PST_KNIGHT, BLACK), P(-4582, -810));
}

TEST(EvalRybka232, PawnStructureAndPasserBaseInPawnEntry) {
    // Lone white pawn e3 (r = 2) v lone black king: isolated on an open file (522, 670) and passed:
    // the base {60, 60} is now static in the pawn entry. rybka1: isolated open (923, 324), base in
    // the passer term.
    const char* fen = "4k3/8/8/8/8/4P3/8/4K3 b - - 0 1";
    Trace t = trace_of("rybka232", fen);
    EXPECT_EQ(term(t, T_PAWNS, WHITE), P(60 - 522, 60 - 670));
    Trace r = trace_of("rybka1", fen);
    EXPECT_EQ(term(r, T_PAWNS, WHITE), P(-923, -324));
    // Doubled d-pawns (d2, d3; the d2 pawn has one ahead) + isolated open/closed: d3 isolated open,
    // d2 isolated closed (d3 in front): op -(78) -522 -156, eg -(165) -670 -201; base for d3 only.
    t = trace_of("rybka232", "4k3/8/8/8/8/3P4/3P4/4K3 w - - 0 1");
    EXPECT_EQ(term(t, T_PAWNS, WHITE), P(-78 - 522 - 156 + 60, -165 - 670 - 201 + 60));
}

TEST(EvalRybka232, PawnAntiMobility) {
    // §13.1: (42, 339) per pawn whose square in front is occupied. White: e4 (by e5) and a2 (by its
    // own knight a3) = 2; Black: e5 (by e4) = 1. rybka1 has no such term.
    const char* fen = "4k3/8/8/4p3/4P3/N7/P7/4K3 w - - 0 1";
    Trace t = trace_of("rybka232", fen);
    EXPECT_EQ(term(t, T_PAWN_MOBILITY, WHITE), P(-84, -678));
    EXPECT_EQ(term(t, T_PAWN_MOBILITY, BLACK), P(-42, -339));
    EXPECT_EQ(term(trace_of("rybka1", fen), T_PAWN_MOBILITY, WHITE), P(0, 0));
}

TEST(EvalRybka232, Mobility) {
    // Knight mobility removed; bishop (121, 121) per square. White Nb1 (3 squares: a3, c3, d2) and
    // Bf1 on an empty board (7 squares: e2 d3 c4 b5 a6 g2 h3).
    const char* fen = "4k3/8/8/8/8/8/8/1N2KB2 w - - 0 1";
    EXPECT_EQ(term(trace_of("rybka232", fen), T_MOBILITY, WHITE), P(7 * 121, 7 * 121));
    EXPECT_EQ(term(trace_of("rybka1", fen), T_MOBILITY, WHITE), P(3 * 14 + 7 * 149, 3 * 121 + 7 * 116));
    // Ra1: a2..a8 and b1..d1 = 10 squares (e1 is its own king) -> (68, 82) each; Qd4 on an otherwise
    // empty board: 27 squares -> (44, 38) each.
    EXPECT_EQ(term(trace_of("rybka232", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), T_MOBILITY, WHITE), P(680, 820));
    EXPECT_EQ(term(trace_of("rybka232", "8/7k/8/8/3Q4/8/K7/8 w - - 0 1"), T_MOBILITY, WHITE), P(27 * 44, 27 * 38));
}

TEST(EvalRybka232, RookFilesAndSeventh) {
    // Rook e1 on an open file, black king e8 on it, no queen (no king-safety flag).
    // 2.3.2a: semi (104, 268) + open (627, 180) + king file (795, 0), no material condition.
    // rybka1: (64 + 971, 256 + 172), the king-file bonus needs the flag.
    const char* fen = "4k3/8/8/8/8/8/8/4RK2 b - - 0 1";
    EXPECT_EQ(term(trace_of("rybka232", fen), T_ROOK_FILE, WHITE), P(104 + 627 + 795, 268 + 180));
    EXPECT_EQ(term(trace_of("rybka1", fen), T_ROOK_FILE, WHITE), P(1035, 428));
    // Rook g7, black king e7 on the 7th, no black pawns: 2.3.2a (200, 1072); rybka1 needs the king on
    // the 8th: nothing.
    const char* fen7 = "8/4k1R1/8/8/8/8/8/4K3 b - - 0 1";
    EXPECT_EQ(term(trace_of("rybka232", fen7), T_SEVENTH, WHITE), P(200, 1072));
    EXPECT_EQ(term(trace_of("rybka1", fen7), T_SEVENTH, WHITE), P(0, 0));
    // Queen on the 7th with the king on the 8th: 2.3.2a (0, 1486), rybka1 (0, 1420).
    const char* fq = "4k3/1Q6/8/8/8/8/8/4K3 w - - 0 1";
    EXPECT_EQ(term(trace_of("rybka232", fq), T_SEVENTH, WHITE), P(0, 1486));
    EXPECT_EQ(term(trace_of("rybka1", fq), T_SEVENTH, WHITE), P(0, 1420));
}

TEST(EvalRybka232, KingAttack) {
    // Black Kg8 (zone f8 h8 f7 g7 h7); White Ne6 (f8, g7) and Qa1 (diagonal up to g7): count 2,
    // weight 941 + 532 = 1473. 2.3.2a: (30 * 1473) >> 5 = 1380; rybka1: (37 * 1473) >> 5 = 1703.
    const char* fen = "6k1/5ppp/4N3/8/8/8/8/Q5K1 w - - 0 1";
    EXPECT_EQ(term(trace_of("rybka232", fen), T_KING_ATTACK, WHITE), P(1380, 0));
    EXPECT_EQ(term(trace_of("rybka1", fen), T_KING_ATTACK, WHITE), P(1703, 0));
    // A lone attacker (Ne6 only; Qa2 is blocked by it): 2.3.2a Weight[1] = 0, rybka1 -1 (-941 >> 5 = -30).
    const char* one = "6k1/5ppp/4N3/8/8/8/Q7/6K1 w - - 0 1";
    EXPECT_EQ(term(trace_of("rybka232", one), T_KING_ATTACK, WHITE), P(0, 0));
    EXPECT_EQ(term(trace_of("rybka1", one), T_KING_ATTACK, WHITE), P(-30, 0));
}

TEST(EvalRybka232, ShelterIgnoresCastlingRights) {
    // White Ke1 with both castling rights; own pawns f2 g2 h2 only. Wing 1 (d-f): d, e empty
    // (1121 each), f on rank 2 (0): shelter 2*1121 + 1121 + 0 = 3363. Wing 2 (f-h): 794 (all on
    // rank 2). Wing 0 (a-c): empty 4484. No black pawns: storm 0. Black has Q + R (flag for White).
    // rybka1: p1 = 3363, p2 = min(3363, 794, 4484) = 794 -> (3363 + 794) >> 1 = 2078.
    // 2.3.2a: own wing only -> 3363.
    const char* fen = "q3k2r/8/8/8/8/8/5PPP/4K2R w K - 0 1";
    EXPECT_EQ(term(trace_of("rybka232", fen), T_SHELTER, WHITE), P(-3363, 0));
    EXPECT_EQ(term(trace_of("rybka1", fen), T_SHELTER, WHITE), P(-2078, 0));
}

TEST(EvalRybka232, Patterns) {
    // Two trapped white bishops (a7 by b6, h7 by g6): 2.3.2a 2 x 1471; rybka1 once 1802.
    const char* fen = "4k3/B6B/1p4p1/8/8/8/8/4K3 w - - 0 1";
    EXPECT_EQ(term(trace_of("rybka232", fen), T_PATTERNS, WHITE), P(-2942, -2942));
    EXPECT_EQ(term(trace_of("rybka1", fen), T_PATTERNS, WHITE), P(-1802, -1802));
    // Blocked bishop c1 (d2 pawn, d3 occupied) removed in 2.3.2a; blocked rook 1561 (Kb1, Ra1).
    const char* fb = "4k3/8/8/8/8/3p4/3P4/RKB5 w - - 0 1";
    EXPECT_EQ(term(trace_of("rybka232", fb), T_PATTERNS, WHITE), P(-1561, 0));
    EXPECT_EQ(term(trace_of("rybka1", fb), T_PATTERNS, WHITE), P(-1920 - 1920, 0));
}

TEST(EvalRybka232, PassersAndPawnEndings) {
    // §17.7 pawn ending: White a6 (r = 5), Black Kh8, White Ke1, White to move; unstoppable.
    // 2.3.2a: base in the pawn entry (not here); the pawn-ending evaluator: a KPK win 25600, the
    // unstoppable passer 25600 (Black has none to race), + 7 * DefDistance 815 - 6 * AttDistance 409
    // = 54451. rybka1: op 2900, eg 1273 + 25600 + 7 * 779 - 6 * 391 = 29980.
    const char* fen = "7k/8/P7/8/8/8/8/4K3 w - - 0 1";
    EXPECT_EQ(term(trace_of("rybka232", fen), T_PASSERS, WHITE), P(0, 25600 + 25600 + 5705 - 2454));
    EXPECT_EQ(term(trace_of("rybka1", fen), T_PASSERS, WHITE), P(2900, 29980));
    // Add a white knight h1: the defender still has no pieces (rybka1: unstoppable), but the board
    // is no pure pawn ending, so 2.3.2a scores the path: own 164 + opp 825 + free 629 (a7, a8 not
    // attacked by Black) + 5705 - 2454 = 4869.
    const char* fn = "7k/8/P7/8/8/8/8/4K2N w - - 0 1";
    EXPECT_EQ(term(trace_of("rybka232", fn), T_PASSERS, WHITE), P(0, 164 + 825 + 629 + 5705 - 2454));
    EXPECT_EQ(term(trace_of("rybka1", fn), T_PASSERS, WHITE), P(2900, 29980));
}

TEST(EvalRybka232, NoTempoAndLinearW) {
    // Start position: everything cancels; rybka1 returns the tempo 3, 2.3.2a 0.
    Position p;
    Evaluator r232("rybka232"), r1("rybka1");
    EXPECT_EQ(r232.evaluate(p), 0);
    EXPECT_EQ(r1.evaluate(p), 3);
    const Profile& prof = *find_profile("rybka232");
    for (int ph = 0; ph <= 64; ++ph) EXPECT_EQ(prof.interp[ph][1], 4 * ph);
    // No lazy window in 2.3.2a (its lazy test is not reproducible): a far window changes nothing.
    Position q;
    ASSERT_TRUE(q.set_fen("4k3/8/8/8/8/8/PPP5/RNBQK3 w Q - 0 1"));
    EXPECT_EQ(r232.evaluate(q, LazyWindow::around(-2000)), r232.evaluate(q));
}

TEST(EvalRybka232, OppositeBishopsAfterInterpolationWithWrap) {
    // Flag: 2.3.2a's 3-bit field 2 + WP - BP accepts |WP - BP| <= 2 and >= 6 (§12.1).
    const Profile& a = *find_profile("rybka232");
    const Profile& r = *find_profile("rybka1");
    for (int dp = -8; dp <= 8; ++dp) {
        const int wp = dp >= 0 ? dp : 0, bp = dp >= 0 ? 0 : -dp;
        const bool want232 = (dp >= -2 && dp <= 2) || dp >= 6 || dp <= -6;
        EXPECT_EQ(a.compute_material(0, 0, 0, 0, 1, 1, 0, 0, wp, bp).flags == DRAW_BISHOP_FLAG, want232) << dp;
        EXPECT_EQ(r.compute_material(0, 0, 0, 0, 1, 1, 0, 0, wp, bp).flags == DRAW_BISHOP_FLAG, dp >= -2 && dp <= 2);
    }
    // KB+6P v KB, opposite colours: halved after interpolation.
    Trace t = trace_of("rybka232", "3bk3/8/8/8/8/8/PPPPPP2/4KB2 w - - 0 1");
    EXPECT_TRUE(t.ocb);
    EXPECT_TRUE(t.ocb_after);
    EXPECT_EQ(t.op, t.op_before_scale);  // op/eg untouched
    const int s = interpolate_stm(t.op, t.eg, t.w0, t.w1, WHITE) / 2;
    EXPECT_EQ(t.white_cp, s + t.drawish_cp);
}

TEST(EvalRybka232, DrawishnessVector) {
    // §17.10: d = 100 -> k = 100 * 156 / 240 = 65; s = 80 -> 80 - (80 * 65 >> 8) = 60;
    // s = 300 -> 300 - (100 * 65 >> 8) = 275. Mirrored for the side behind.
    EXPECT_EQ(drawish_adjust(80, 100, 0, 156, 240, 100), 60);
    EXPECT_EQ(drawish_adjust(300, 100, 0, 156, 240, 100), 275);
    EXPECT_EQ(drawish_adjust(-80, 0, 100, 156, 240, 100), -60);
    EXPECT_EQ(drawish_adjust(-300, 0, 100, 156, 240, 100), -275);
    EXPECT_EQ(drawish_adjust(0, 255, 255, 156, 240, 100), 0);
    // In the evaluation: White K+R+a-pawn v K: White's pawn files b..g empty -> d = 240 (chosen
    // table), k = 156, s >= 100 -> reduction (100 * 156) >> 8 = 60 cp, White's view.
    Value v;
    Trace t = trace_of("rybka232", "4k3/8/8/8/8/8/P7/4K2R w - - 0 1", &v);
    EXPECT_EQ(t.drawish_cp, -60);
    Value vb;
    Trace tb = trace_of("rybka232", "4k3/8/8/8/8/8/P7/4K2R b - - 0 1", &vb);
    EXPECT_EQ(tb.drawish_cp, -60);
    EXPECT_NEAR(vb, -v, 1);  // the floor is taken in the side to move's view (§1)
    // Pawns on b..g files (3 files: d = 0): no change.
    EXPECT_EQ(trace_of("rybka232", "4k3/8/8/8/8/8/2PPP3/4K2R w - - 0 1").drawish_cp, 0);
    EXPECT_EQ(trace_of("rybka1", "4k3/8/8/8/8/8/P7/4K2R w - - 0 1").drawish_cp, 0);
}

TEST(EvalRybka232, MaterialTableFitsSixteenBits) {
    const Profile& p = *find_profile("rybka232");
    for (const MatEntry& e : p.material) {
        ASSERT_LE(e.value, 32767);
        ASSERT_GE(e.value, -32767);
    }
    // Minor = 3 units + 0.5 pawn (chosen for Kaufman's "3.5 pawns"): K+N v K with 0 pawns:
    // 1700 + 212 * (0 - 5) = 640 (rybka1: 850 - 1060 = -210).
    EXPECT_EQ(p.compute_material(0, 0, 0, 0, 0, 0, 1, 0, 0, 0).value, 640);
    EXPECT_EQ(find_profile("rybka1")->compute_material(0, 0, 0, 0, 0, 0, 1, 0, 0, 0).value, -210);
}

// ---------------------------------------------------------------------------------------------
// fruit21: Fruit 2.1 values (cp x 32)

TEST(EvalFruit21, MaterialAndPst) {
    // K+N v K: 3 units of 80 cp = 7680 + knight_extra 85 cp = 2720 -> 10400 = 325 cp x 32.
    Trace t = trace_of("fruit21", "4k3/8/8/8/8/8/8/3NK3 w - - 0 1");
    EXPECT_EQ(term(t, T_MATERIAL, WHITE).first + term(t, T_IMBALANCE, WHITE).first, 325 * 32);
    // K+P v K: 80 cp op, 90 cp eg.
    t = trace_of("fruit21", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    EXPECT_EQ(term(t, T_MATERIAL, WHITE), P(80 * 32, 90 * 32));
    // Queen 1000, rook 500, bishop pair 50.
    const Profile& f = *find_profile("fruit21");
    EXPECT_EQ(f.compute_material(1, 0, 0, 0, 0, 0, 0, 0, 0, 0).value + 10 * 2560, 1000 * 32);
    EXPECT_EQ(f.compute_material(0, 0, 1, 0, 0, 0, 0, 0, 0, 0).value + 5 * 2560, 500 * 32);
    EXPECT_EQ(f.compute_material(0, 0, 0, 0, 2, 0, 0, 0, 0, 0).value + 6 * 2560, (650 + 50) * 32);
    // PST (Fruit weights in the §4.1 generator): pawn e4 op PawnFile 1 x 5 + centre 20 = 25 cp;
    // d3 5 + 10; knight a8 op (-4 - 4) x 5 + 1 x 5 - 100 = -135 cp; king g1 op 4 x 10 + 1 x 10 = 50.
    EXPECT_EQ(f.pst_op[PAWN][SQ_E4], 25 * 32);
    EXPECT_EQ(f.pst_op[PAWN][SQ_D3], 15 * 32);
    EXPECT_EQ(f.pst_op[PAWN][SQ_E5], 15 * 32);
    EXPECT_EQ(f.pst_eg[PAWN][SQ_E5], 0);
    EXPECT_EQ(f.pst_op[KNIGHT][SQ_A8], -135 * 32);
    EXPECT_EQ(f.pst_op[KING][SQ_G1], 50 * 32);
    EXPECT_EQ(f.pst_eg[KING][SQ_A1], -6 * 12 * 32);
    EXPECT_EQ(f.pst_op[BISHOP][SQ_A1], (-6 * 2 - 10 + 4) * 32);
}

TEST(EvalFruit21, MobilityWithOffsets) {
    // Lone Na1: 2 squares, (2 - 4) x (4, 4) cp; Bf1 on an empty board: (7 - 6) x (5, 5).
    EXPECT_EQ(term(trace_of("fruit21", "4k3/8/8/8/8/8/8/N3K3 w - - 0 1"), T_MOBILITY, WHITE), P(-8 * 32, -8 * 32));
    EXPECT_EQ(term(trace_of("fruit21", "4k3/8/8/8/8/8/8/4KB2 w - - 0 1"), T_MOBILITY, WHITE), P(5 * 32, 5 * 32));
}

TEST(EvalFruit21, RookFileWholeFile) {
    // Re4 with its own pawn e2 behind it: Fruit looks at the whole file -> not semi-open, only the
    // constant -RookOpenFile/2 = (-10, -10). rybka1 (pawns in front only): open (1035, 428).
    const char* fen = "4k3/8/8/8/4R3/8/4P3/5K2 b - - 0 1";
    EXPECT_EQ(term(trace_of("fruit21", fen), T_ROOK_FILE, WHITE), P(-10 * 32, -10 * 32));
    EXPECT_EQ(term(trace_of("rybka1", fen), T_ROOK_FILE, WHITE), P(1035, 428));
    // Open d-file next to the black king e8, White has Q + R (flag): -10 + 20 open + 10 adjacent.
    const char* adj = "4k3/8/8/8/8/8/8/3RK2Q w - - 0 1";
    EXPECT_EQ(term(trace_of("fruit21", adj), T_ROOK_FILE, WHITE), P((-10 + 20 + 10) * 32, (-10 + 20) * 32));
}

TEST(EvalFruit21, KingAttackAndPatterns) {
    // Same attack as EvalRybka232.KingAttack: units N 1 + Q 4 = 5, Weight[2] = 128:
    // 5 x 20 x 128 / 256 = 50 cp (Fruit), i.e. (128 x 400) >> 5 = 1600 internal.
    EXPECT_EQ(term(trace_of("fruit21", "6k1/5ppp/4N3/8/8/8/8/Q5K1 w - - 0 1"), T_KING_ATTACK, WHITE), P(1600, 0));
    // Pawns do not count in Fruit: Rh1 (h7, h8) is the only attacker besides pawn g6 (f7, h7):
    // count 1 -> Weight[1] = 0. (Counting the pawns would give (128 x 160) >> 5 = 640.)
    EXPECT_EQ(term(trace_of("fruit21", "6k1/8/6P1/8/8/8/8/1Q4KR w - - 0 1"), T_KING_ATTACK, WHITE), P(0, 0));
    // Trapped bishops: a7/b6 and h7/g6 100 each; a6/b5 50.
    EXPECT_EQ(term(trace_of("fruit21", "4k3/B6B/1p4p1/8/8/8/8/4K3 w - - 0 1"), T_PATTERNS, WHITE), P(-6400, -6400));
    EXPECT_EQ(term(trace_of("fruit21", "4k3/8/B7/1p6/8/8/8/4K3 w - - 0 1"), T_PATTERNS, WHITE), P(-1600, -1600));
    EXPECT_EQ(term(trace_of("rybka1", "4k3/8/B7/1p6/8/8/8/4K3 w - - 0 1"), T_PATTERNS, WHITE), P(-1802, -1802));
}

TEST(EvalFruit21, PawnsAndPassers) {
    // Lone e3 pawn: isolated on an open file (20, 20) cp.
    EXPECT_EQ(term(trace_of("fruit21", "4k3/8/8/8/8/4P3/8/4K3 b - - 0 1"), T_PAWNS, WHITE), P(-640, -640));
    // §17.7 pawn ending with Fruit numbers: a6 (r = 5, Bonus 154), Kh8, Ke1, White to move.
    // op 32 x quad(10, 70) = 32 x (10 + (60 x 154 + 128) / 256) = 32 x 46 = 1472.
    // eg 32 x quad(20, 140) = 32 x 92 = 2944; unstoppable 32 x quad(0, 800) = 32 x 481 = 15392;
    // defender distance 7 x (640 x 154 + 128) / 256 = 7 x 385; attacker 6 x (160 x 154 + 128) / 256 = 6 x 96.
    EXPECT_EQ(term(trace_of("fruit21", "7k/8/P7/8/8/8/8/4K3 w - - 0 1"), T_PASSERS, WHITE),
              P(1472, 2944 + 15392 + 7 * 385 - 6 * 96));
}

TEST(EvalFruit21, NoTempoOppositeBishopsAfterInterpolation) {
    Position p;
    EXPECT_EQ(Evaluator("fruit21").evaluate(p), 0);
    // KB+P v KB opposite colours: Fruit's mul 8/16 on the interpolated score.
    Trace t = trace_of("fruit21", "3bk3/8/8/8/8/8/4P3/4KB2 w - - 0 1");
    EXPECT_TRUE(t.ocb && t.ocb_after);
    EXPECT_EQ(t.white_cp, interpolate_stm(t.op, t.eg, t.w0, t.w1, WHITE) / 2);
}

TEST(EvalFruit21, SeventhRank) {
    // Ra7 with the black king on the 8th: (20, 40) cp; queen on the 7th: (10, 20) cp.
    EXPECT_EQ(term(trace_of("fruit21", "4k3/R7/8/8/8/8/8/4K3 b - - 0 1"), T_SEVENTH, WHITE), P(640, 1280));
    EXPECT_EQ(term(trace_of("fruit21", "4k3/1Q6/8/8/8/8/8/4K3 w - - 0 1"), T_SEVENTH, WHITE), P(320, 640));
}

TEST(EvalProfiles, GeneralPathOnlyWhenNeeded) {
    // Profiles using only Rybka 1.0 switches run the compile-time specialised path.
    EXPECT_EQ(find_profile("rybka1")->path, Path::Fast);
    EXPECT_EQ(find_profile("rybka1-curve")->path, Path::Fast);
    EXPECT_EQ(find_profile("rybka232")->path, Path::General);
    EXPECT_EQ(find_profile("fruit21")->path, Path::General);
    EXPECT_EQ(find_profile("quince")->path, Path::General);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
