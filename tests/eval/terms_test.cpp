// Hand-checked positions, one per term, expected values worked out from the spec's numbers
// (spec docs/eval-spec.md; the trace is the evaluation's own code path with the trace switch on).
#include <gtest/gtest.h>

#include "support/test_profiles.h"
#include "support/test_positions.h"
#include "eval/evaluate.h"
#include "eval/pawns.h"
#include "eval/score.h"
#include "eval/terms.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::eval;

namespace {

Trace trace_of(const std::string& fen, Value* score = nullptr) {
    Position pos;
    EXPECT_TRUE(pos.set_fen(fen)) << fen;
    Evaluator ev("rybka1");
    Trace t;
    Value v = ev.evaluate_traced(pos, t);
    if (score) *score = v;
    return t;
}
// (op, eg) of a term for one colour, in that colour's own view.
std::pair<int, int> term(const Trace& t, Term term, Color c) { return {t.v[term][c][0], t.v[term][c][1]}; }
using P = std::pair<int, int>;

PawnEntry pawn_entry(const std::string& fen) {
    Position pos;
    EXPECT_TRUE(pos.set_fen(fen)) << fen;
    PawnEntry e{};
    compute_pawn_entry(*find_profile("rybka1"), pos, e);
    return e;
}

}  // namespace

TEST(EvalTerms, MaterialAndImbalance) {
    // K+R v K: material 5 * 3399 = 16995; imbalance: rook_extra 0 + (0 - 5) pawns * -425 = +2125.
    Trace t = trace_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    EXPECT_EQ(term(t, T_MATERIAL, WHITE), P(16995, 16995));
    EXPECT_EQ(term(t, T_MATERIAL, BLACK), P(0, 0));
    EXPECT_EQ(term(t, T_IMBALANCE, WHITE), P(2125, 2125));
    EXPECT_EQ(t.mat.value, 2125);
}

TEST(EvalTerms, PieceSquare) {
    // White knight e4: op (1+1)*347 + 1*358 = 1052, eg (1+1)*56 = 112. Black knight a1 counts as
    // PST[a8] for Black: -5618 / -448 in Black's own view (§17.1).
    Trace t = trace_of("4k3/8/8/8/4N3/8/8/n3K3 w - - 0 1");
    EXPECT_EQ(term(t, T_PST_KNIGHT, WHITE), P(1052, 112));
    EXPECT_EQ(term(t, T_PST_KNIGHT, BLACK), P(-5618, -448));
    // Kings: White e1 op KingFile[e]*469 = 0, eg (1 + -3)*401 = -802; Black e8 mirrors to e1: same.
    EXPECT_EQ(term(t, T_PST_KING, WHITE), P(0, -802));
    EXPECT_EQ(term(t, T_PST_KING, BLACK), P(0, -802));
}

// §17.6 pawn structure (op, eg White minus Black; passed files).
TEST(EvalTerms, PawnStructure) {
    struct Case { const char* fen; int op, eg, wfiles, bfiles; } cases[] = {
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0, 0, 0, 0},
        {"7k/8/8/8/8/8/P1P5/7K w - - 0 1", -1846, -648, 0b101, 0},     // a2, c2 isolated on open files
        {"7k/8/8/4p3/4P3/3P4/8/7K w - - 0 1", -793, 27, 0, 0},        // d3 backward open, e5 isolated closed
        {"7k/8/8/3p4/3P4/8/8/7K w - - 0 1", 0, 0, 0, 0},              // both isolated, closed
        {"7k/8/8/8/8/2P5/2PP4/7K w - - 0 1", 0, -158, 0b1100, 0},     // c2 doubled (looks ahead)
        {"7k/8/2p5/8/1P6/P7/8/7K w - - 0 1", 1305, 505, 0b1, 0},      // b4 candidate, c6 isolated, a3 passed
    };
    for (auto& c : cases) {
        PawnEntry e = pawn_entry(c.fen);
        EXPECT_EQ(e.op[WHITE] - e.op[BLACK], c.op) << c.fen;
        EXPECT_EQ(e.eg[WHITE] - e.eg[BLACK], c.eg) << c.fen;
        EXPECT_EQ(e.passed_files[WHITE], c.wfiles) << c.fen;
        EXPECT_EQ(e.passed_files[BLACK], c.bfiles) << c.fen;
    }
    // Backward only through the Rybka rule: a white pawn on d3 with e4 beside-ahead and a black pawn
    // on e5 guarding d4 -> attacked stop square, no protector on c/e files at ranks <= 3 -> backward.
    PawnEntry e = pawn_entry("7k/8/8/4p3/4P3/3P4/8/7K w - - 0 1");
    EXPECT_EQ(e.op[WHITE], -872);  // open file d: -872 / -297
    EXPECT_EQ(e.eg[WHITE], -297);
}

// §17.4 positions: wing values cached in the pawn entry.
TEST(EvalTerms, ShelterAndStormInPawnEntry) {
    PawnEntry s = pawn_entry("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for (int w = 0; w < 3; ++w) {
        EXPECT_EQ(s.shelter[WHITE][w], 794);
        EXPECT_EQ(s.shelter[BLACK][w], 794);
    }
    // Kg1, pawns f2 g3 h2, no black pawns on f-h ranks 2-5: 2 * 214 = 428.
    EXPECT_EQ(pawn_entry("7k/8/8/8/8/6P1/5P1P/6K1 w - - 0 1").shelter[WHITE][2], 428);
    // Kg1, f2 g2 h3, black g4: shelter 214 (h3) + storm 653 (g4 is rank 4 -> d = 3) = 867.
    EXPECT_EQ(pawn_entry("7k/8/8/8/6p1/7P/5PP1/6K1 w - - 0 1").shelter[WHITE][2], 867);
}

TEST(EvalTerms, KingShelterCastlingRule) {
    // White Ke1 with both castling rights: wing 1 (d2 e2 f2) = 794, wing 2 (f2 g3 h2) = 428,
    // wing 0 (a2 b2 c2) = 794; p1 = 794, p2 = min(794, 428, 794) = 428 -> (794 + 428) >> 1 = 611.
    // Black has Q + N so White's king safety is evaluated (flag 0x08).
    Trace t = trace_of("1n1qk3/8/8/8/8/6P1/PPPPPP1P/R3K2R w KQ - 0 1");
    EXPECT_EQ(t.mat.cflags & 0x08, 0x08);
    EXPECT_EQ(term(t, T_SHELTER, WHITE), P(-611, 0));
    // Without castling rights only the king's wing counts: 794.
    Trace u = trace_of("1n1qk3/8/8/8/8/6P1/PPPPPP1P/R3K2R w - - 0 1");
    EXPECT_EQ(term(u, T_SHELTER, WHITE), P(-794, 0));
    // White has no queen: Black's king safety is not evaluated at all.
    EXPECT_EQ(term(t, T_SHELTER, BLACK), P(0, 0));
}

TEST(EvalTerms, KingAttack) {
    // Black Kg8, zone f8 h8 f7 g7 h7. Nf5 hits g7 (941), Qa1 hits g7/h8 along the diagonal (532):
    // count 2, weight 1473 -> (37 * 1473) >> 5 = 1703. Black king shelter: empty rectangle 4484.
    Trace t = trace_of("6k1/8/8/5N2/8/8/8/Q3K3 w - - 0 1");
    EXPECT_EQ(t.mat.cflags, 0x80);
    EXPECT_EQ(term(t, T_KING_ATTACK, WHITE), P(1703, 0));
    EXPECT_EQ(term(t, T_SHELTER, BLACK), P(-4484, 0));
    // A lone attacker scores KAW[1] = -1: knight only -> -941 >> 5 = -30 (Qc1 misses the zone).
    Trace u = trace_of("6k1/8/8/5N2/8/8/8/2Q1K3 w - - 0 1");
    EXPECT_EQ(term(u, T_KING_ATTACK, WHITE), P(-30, 0));
}

TEST(EvalTerms, KingAttackSafeChecks) {
    // Quince's switch on rybka1's weights. Same attack as above (count 2, units 1473). Safe checking
    // squares: knight e7 and h6 (f6 is not reached), queen a2 and a8 (h8 and g7 are covered by the
    // king): 1473 + 2 * 310 + 2 * 260 = 2613 units -> (37 * 2613) >> 5 = 3021.
    Weights w = find_profile("rybka1")->w;
    w.king_safe_checks = true;
    w.king_check_unit_knight = 310, w.king_check_unit_bishop = 170, w.king_check_unit_rook = 420;
    w.king_check_unit_queen = 260;
    Evaluator ev;
    ev.set_profile(build_profile(w));
    Position pos;
    ASSERT_TRUE(pos.set_fen("6k1/8/8/5N2/8/8/8/Q3K3 w - - 0 1"));
    Trace t;
    ev.evaluate_traced(pos, t);
    EXPECT_EQ(term(t, T_KING_ATTACK, WHITE), P(3021, 0));
    // A check square the defender covers is not safe: a black pawn on g7 covers h6 (and f6); the
    // queen's diagonal now stops at g7: a2, a8 remain -> 1473 + 310 + 520 = 2303 -> 2662.
    ASSERT_TRUE(pos.set_fen("6k1/6p1/8/5N2/8/8/8/Q3K3 w - - 0 1"));
    ev.evaluate_traced(pos, t);
    EXPECT_EQ(term(t, T_KING_ATTACK, WHITE), P((37 * 2303) >> 5, 0));
    // Weak squares of the zone (king_weak_unit): reached by White, covered by no black pawn, minor or
    // rook. Without the g7 pawn: g7 (knight, queen) and h8 (queen through g7) -> 2613 + 2 * 100 units.
    w.king_weak_unit = 100;
    ev.set_profile(build_profile(w));
    ASSERT_TRUE(pos.set_fen("6k1/8/8/5N2/8/8/8/Q3K3 w - - 0 1"));
    ev.evaluate_traced(pos, t);
    EXPECT_EQ(term(t, T_KING_ATTACK, WHITE), P((37 * 2813) >> 5, 0));
    // The g7 pawn covers f6 and h6 but not g7 itself, and stops the queen before h8: one weak square.
    ASSERT_TRUE(pos.set_fen("6k1/6p1/8/5N2/8/8/8/Q3K3 w - - 0 1"));
    ev.evaluate_traced(pos, t);
    EXPECT_EQ(term(t, T_KING_ATTACK, WHITE), P((37 * 2403) >> 5, 0));
    // A black knight on e8 covers g7: no weak square left. It also blocks the queen's check from a8;
    // the safe checks left are the knight's e7 and the queen's a2: 1473 + 310 + 260 = 2043 units.
    ASSERT_TRUE(pos.set_fen("4n1k1/6p1/8/5N2/8/8/8/Q3K3 w - - 0 1"));
    ev.evaluate_traced(pos, t);
    EXPECT_EQ(term(t, T_KING_ATTACK, WHITE), P((37 * 2043) >> 5, 0));
    w.king_weak_unit = 0;
    ASSERT_TRUE(pos.set_fen("6k1/6p1/8/5N2/8/8/8/Q3K3 w - - 0 1"));
    // Switch off: the units are ignored and the evaluation is rybka1's.
    w.king_safe_checks = false;
    ev.set_profile(build_profile(w));
    ev.evaluate_traced(pos, t);
    EXPECT_EQ(t.final_cp, trace_of("6k1/6p1/8/5N2/8/8/8/Q3K3 w - - 0 1").final_cp);
}

TEST(EvalTerms, Threats) {
    // Quince's switch on rybka1's weights, distinct values per kind to tell them apart.
    Weights w = find_profile("rybka1")->w;
    w.threats = true;
    w.threat_pawn_op = 1, w.threat_pawn_eg = 2, w.threat_minor_op = 10, w.threat_minor_eg = 20;
    w.threat_rook_op = 100, w.threat_rook_eg = 200, w.threat_hanging_op = 1000, w.threat_hanging_eg = 2000;
    Evaluator ev;
    ev.set_profile(build_profile(w));
    Position pos;
    // White: pawn e4 attacks Nd5 and Bf5 (2 pawn threats); Nf3 attacks Rg5 (a minor threat). Black
    // defends Nd5 (Qa8 on the long diagonal) and Bf5 (Rg5 along the rank), not Rg5: 1 hanging.
    ASSERT_TRUE(pos.set_fen("q3k3/8/8/3n1br1/4P3/5N2/8/4K3 w - - 0 1"));
    Trace t;
    ev.evaluate_traced(pos, t);
    EXPECT_EQ(term(t, T_THREATS, WHITE), P(2 * 1 + 10 + 1000, 2 * 2 + 20 + 2000));
    // Black attacks none of White's pieces (e4 blocks Bf5's diagonal to f3; the queen's stops at d5).
    EXPECT_EQ(term(t, T_THREATS, BLACK), P(0, 0));
    // Switch off: no term.
    w.threats = false;
    ev.set_profile(build_profile(w));
    ev.evaluate_traced(pos, t);
    EXPECT_EQ(term(t, T_THREATS, WHITE), P(0, 0));
}

TEST(EvalTerms, Threats2) {
    // Quince's threats from double attacks (eval/threats.h) on rybka1's weights: the tuner's coefficients
    // give each kind's count for each attacker.
    Weights w = find_profile("rybka1")->w;
    quince::test::set_threats2_start(w);
    Evaluator ev;
    ev.set_profile(build_profile(w));
    const auto counts = [&](const std::string& fen, PairRef r) {
        Position pos;
        EXPECT_TRUE(pos.set_fen(fen)) << fen;
        CoefTrace ct;
        Trace t;
        t.coef = &ct;
        ev.evaluate_traced(pos, t);
        return std::pair<int, int>{int(ct.c[WHITE][std::size_t(r.index)]), int(ct.c[BLACK][std::size_t(r.index)])};
    };
    // Nc3 and Rd1 both attack Bd5, which nothing defends: a minor attacked by a minor, and (poorly
    // defended) by a major. Nc3 attacks Qa4 too. Black's queen attacks Rd1, defended twice: not overloaded.
    const std::string a = "4k3/8/8/3b4/q7/2N5/8/3RK3 w - - 0 1";
    EXPECT_EQ(counts(a, WI::threat_minor_by_minor), std::make_pair(1, 0));
    EXPECT_EQ(counts(a, WI::threat_minor_by_major), std::make_pair(1, 0));
    EXPECT_EQ(counts(a, WI::threat_queen_by_any), std::make_pair(1, 0));
    EXPECT_EQ(counts(a, WI::threat_overloaded), std::make_pair(0, 0));
    // Ke4 attacks the undefended Nd5 and Rf3.
    const std::string b = "7k/8/8/3n4/4K3/5r2/8/8 w - - 0 1";
    EXPECT_EQ(counts(b, WI::threat_minor_by_king), std::make_pair(1, 0));
    EXPECT_EQ(counts(b, WI::threat_rook_by_king), std::make_pair(1, 0));
    // Bb6 attacks Nd4, defended once (Ke3): overloaded; and a minor attacked by a minor, not a weak one.
    const std::string c = "7k/8/1b6/8/3N4/4K3/8/8 w - - 0 1";
    EXPECT_EQ(counts(c, WI::threat_overloaded), std::make_pair(0, 1));
    EXPECT_EQ(counts(c, WI::threat_minor_by_minor), std::make_pair(0, 1));
    EXPECT_EQ(counts(c, WI::threat_minor_by_major), std::make_pair(0, 0));
    // e4-e5 is safe (nothing attacks e5) and forks Nd6 and Nf6; both knights attack the undefended e4
    // pawn: a weak pawn for Black.
    const std::string d = "k7/8/3n1n2/8/4P3/8/8/4K3 w - - 0 1";
    EXPECT_EQ(counts(d, WI::threat_pawn_push), std::make_pair(2, 0));
    EXPECT_EQ(counts(d, WI::threat_weak_pawn), std::make_pair(0, 1));
    // The double push d2-d4 (d4 attacked by Be5, defended by Ke3) attacks Be5; d3 attacks nothing.
    EXPECT_EQ(counts("k7/8/8/4b3/8/4K3/3P4/8 w - - 0 1", WI::threat_pawn_push), std::make_pair(1, 0));
    // ... not when a black pawn guards d4 (c5xd4).
    EXPECT_EQ(counts("k7/8/8/2p1b3/8/4K3/3P4/8 w - - 0 1", WI::threat_pawn_push), std::make_pair(0, 0));
    // Ne3 and Rd1 attack d5 twice: weak when nothing defends it, not when the c6 pawn does (a pawn's
    // defence holds against a double attack).
    EXPECT_EQ(counts("k7/8/8/3p4/8/4N3/8/3RK3 w - - 0 1", WI::threat_weak_pawn), std::make_pair(1, 0));
    EXPECT_EQ(counts("k7/8/2p5/3p4/8/4N3/8/3RK3 w - - 0 1", WI::threat_weak_pawn), std::make_pair(0, 0));
    // Restricted squares: Kd3 and Kd5 both attack c4, d4, e4, none strongly protected.
    EXPECT_EQ(counts("8/8/8/3k4/8/3K4/8/8 w - - 0 1", WI::threat_restricted), std::make_pair(3, 3));
    // A black pawn on c5 strongly protects d4 for Black.
    EXPECT_EQ(counts("8/8/8/2pk4/8/3K4/8/8 w - - 0 1", WI::threat_restricted), std::make_pair(2, 3));
    // Switch off: no coefficient and rybka1's evaluation.
    w.threats2 = false;
    ev.set_profile(build_profile(w));
    EXPECT_EQ(counts(a, WI::threat_minor_by_minor), std::make_pair(0, 0));
    EXPECT_EQ(trace_of(a).final_cp, [&] {
        Position pos;
        EXPECT_TRUE(pos.set_fen(a));
        return ev.evaluate(pos);
    }());
}

// Weights of the pieces2 switch, each a distinct power of two (opening) or multiple of 100 (endgame,
// closedness), so that a sum tells which fired.
Weights with_pieces2(Weights w) {
    w.pieces2 = true;
    w.outpost_knight_op = {1, 2, 4, 8}, w.outpost_bishop_op = {16, 32, 64, 128};
    w.knight_behind_pawn_op = 256, w.bishop_behind_pawn_op = 512;
    w.knight_far_from_kings_op = {1024, 2048, 4096, 8192};
    w.bishop_rammed_pawns_op = 16384, w.bishop_long_diagonal_op = 32768;
    for (int b = 0; b < 9; ++b) w.closed_knight_eg[b] = 100 * (b + 1), w.closed_rook_eg[b] = 1000 * (b + 1);
    return w;
}

TEST(EvalTerms, Pieces2) {
    const Weights off = find_profile("rybka1")->w, on = with_pieces2(off);
    Evaluator ev_off, ev_on;
    ev_off.set_profile(build_profile(off)), ev_on.set_profile(build_profile(on));
    // The patterns row with the switch on minus without (Rybka's trapped/blocked patterns cancel out).
    const auto added = [&](const std::string& fen, Color c) {
        Position pos;
        EXPECT_TRUE(pos.set_fen(fen)) << fen;
        Trace a, b;
        ev_on.evaluate_traced(pos, a), ev_off.evaluate_traced(pos, b);
        return P(a.v[T_PATTERNS][c][0] - b.v[T_PATTERNS][c][0], a.v[T_PATTERNS][c][1] - b.v[T_PATTERNS][c][1]);
    };
    // Na5: outpost on the a-file, undefended (element 2); nearer king e8 at distance 4 (far element 0).
    // Nd5: outpost defended by e4 (element 1); kings at 3 and 4. Bg2: behind the g3 pawn, on the light
    // squares with the rammed e4 pawn (1); its diagonal stops at e4 (one centre square). Bb2: on the
    // long diagonal, sees d4 and e5 (two centre squares). Closedness: 4 pawns + 3 * 1 rammed - 4 * 5
    // open files < 0: bucket 0 for both knights and the rook.
    const std::string a = "4k3/p7/8/N2Np3/4P3/6P1/1B4B1/3R2K1 w - - 0 1";
    EXPECT_EQ(added(a, WHITE), P(4 + 2 + 1024 + 512 + 16384 + 32768, 2 * 100 + 1000));
    EXPECT_EQ(added(a, BLACK), P(0, 0));
    // Eight rammed pairs, no open file: 16 + 24 = 40, / 3 = 13, capped at bucket 8. Nc3 behind c4.
    const std::string b = "4k2r/8/8/pppppppp/PPPPPPPP/2N5/8/4K3 w - - 0 1";
    EXPECT_EQ(added(b, WHITE), P(256, 900));
    EXPECT_EQ(added(b, BLACK), P(0, 9000));
    // A black knight on d4 is no outpost when a white pawn can still come to attack it (c2 -> c3).
    EXPECT_EQ(added("4k3/8/8/8/3n4/8/2P5/4K3 w - - 0 1", BLACK), P(0, 100));
    EXPECT_EQ(added("4k3/8/8/8/3n4/8/8/4K3 w - - 0 1", BLACK), P(1, 100));  // no pawn at all: outpost element 0
}

TEST(EvalTerms, Pieces2ColourSymmetry) {
    Evaluator ev;
    ev.set_profile(build_profile(with_pieces2(find_profile("quince")->w)));
    std::vector<Position> v = test::suite_positions("perft.epd");
    for (const Position& p : test::random_game_positions(77, 20, 1500, 160)) v.push_back(p);
    for (const Position& p : v) ASSERT_EQ(ev.evaluate(p), ev.evaluate(p.flipped())) << p.fen();
}

TEST(EvalTerms, Pawns2) {
    // Quince's second pawn group on rybka1's weights: the change of a row with the switch on is the group's
    // share. Values told apart by magnitude: connected (op) 1, 10, 100, ... by rank index; backward by rank
    // (eg) 1..6; a stacked passer (eg) 1000; passers: safe path (1, 2), own rook behind (10, 20), enemy
    // rook behind (100, 200).
    Weights w = find_profile("rybka1")->w;
    w.pawns2 = true;
    w.connected_op = {0, 1, 10, 100, 1000, 10000, 20000, 0};
    w.connected_eg.fill(0);
    w.backward_rank_op.fill(0);
    w.backward_rank_eg = {0, 1, 2, 3, 4, 5, 6, 0};
    w.passed_stacked_op = 0, w.passed_stacked_eg = 1000;
    w.passed_safe_path_op = 1, w.passed_safe_path_eg = 2;
    w.passed_rook_behind_op = 10, w.passed_rook_behind_eg = 20;
    w.passed_enemy_rook_behind_op = 100, w.passed_enemy_rook_behind_eg = 200;
    Weights off = w;
    off.pawns2 = false;
    Evaluator on_ev, off_ev;
    on_ev.set_profile(build_profile(w));
    off_ev.set_profile(build_profile(off));
    const auto share = [&](const std::string& fen, Term row, Color c) {
        Position pos;
        EXPECT_TRUE(pos.set_fen(fen)) << fen;
        Trace a, b;
        on_ev.evaluate_traced(pos, a);
        off_ev.evaluate_traced(pos, b);
        return P(a.v[row][c][0] - b.v[row][c][0], a.v[row][c][1] - b.v[row][c][1]);
    };
    // b3 supported by a2 (rank index 2), d4-e4 a phalanx (3, twice); a2 and h2 have no neighbour beside
    // or behind.
    EXPECT_EQ(share("4k3/8/8/8/3PP3/1P6/P6P/4K3 w - - 0 1", T_PAWNS, WHITE), P(10 + 100 + 100, 0));
    // d3 is backward (its stop square d4 is attacked by e5; rank index 2); e4 is supported by d3. Black's
    // e5 is isolated, so not backward, and not connected.
    EXPECT_EQ(share("4k3/8/8/4p3/4P3/3P4/8/4K3 w - - 0 1", T_PAWNS, WHITE), P(100, -2));
    EXPECT_EQ(share("4k3/8/8/4p3/4P3/3P4/8/4K3 w - - 0 1", T_PAWNS, BLACK), P(0, 0));
    // Black sees the same from its side (mirrored position, colours swapped).
    EXPECT_EQ(share("4k3/8/3p4/4p3/4P3/8/8/4K3 b - - 0 1", T_PAWNS, BLACK), P(100, -2));
    // Two passers on the b-file: the rear one (b3) is stacked; they are not connected (same file).
    EXPECT_EQ(share("4k3/8/8/8/1P6/1P6/8/4K3 w - - 0 1", T_PAWNS, WHITE), P(0, 1000));
    // b5's path b6-b8 holds no enemy piece and no square Black attacks: safe; the own rook b1 is behind.
    EXPECT_EQ(share("4k3/8/8/1P6/8/8/8/1R2K3 w - - 0 1", T_PASSERS, WHITE), P(1 + 10, 2 + 20));
    // An enemy rook behind.
    EXPECT_EQ(share("4k3/8/8/1P6/8/8/8/1r2K3 w - - 0 1", T_PASSERS, WHITE), P(1 + 100, 2 + 200));
    // A knight between the rook and the passer: no rook behind.
    EXPECT_EQ(share("4k3/8/8/1P6/8/1N6/8/1R2K3 w - - 0 1", T_PASSERS, WHITE), P(1, 2));
    // An enemy rook in front, on the path: not safe, not behind.
    EXPECT_EQ(share("1r2k3/8/8/1P6/8/8/8/4K3 w - - 0 1", T_PASSERS, WHITE), P(0, 0));
    // The path attacked by the enemy king (Kc8 attacks b7 and b8): not safe; the rook is still behind.
    EXPECT_EQ(share("2k5/8/8/1P6/8/8/8/1R2K3 w - - 0 1", T_PASSERS, WHITE), P(10, 20));
    // Black's passer b4 with its rook b8 behind it, safe path b3-b1.
    EXPECT_EQ(share("1r2k3/8/8/8/1p6/8/8/4K3 b - - 0 1", T_PASSERS, BLACK), P(1 + 10, 2 + 20));
}

TEST(EvalTerms, Pawns2ColourSymmetry) {
    // evaluate(p) == evaluate(flip(p)) with the group on (quince's weights, Ethereal-like starting values).
    Weights w = find_profile("quince")->w;
    quince::test::set_pawns2_start(w);
    Evaluator ev;
    ev.set_profile(build_profile(w));
    int n = 0;
    for (const Position& p : test::random_game_positions(77, 30, 3000, 200)) {
        ASSERT_EQ(ev.evaluate(p), ev.evaluate(p.flipped())) << p.fen();
        ++n;
    }
    EXPECT_GT(n, 1000);
}

TEST(EvalTerms, Mobility) {
    // Na1: b3, c2 -> 2 * (14, 121) = (28, 242).
    EXPECT_EQ(term(trace_of("7k/8/8/8/8/8/8/N6K w - - 0 1"), T_MOBILITY, WHITE), P(28, 242));
    // Bd4 with Kh8 (enemy, counts) and own Ka1 (does not) on its diagonal: 12 squares -> (1788, 1392).
    EXPECT_EQ(term(trace_of("7k/8/8/8/3B4/8/8/K7 b - - 0 1"), T_MOBILITY, WHITE), P(12 * 149, 12 * 116));
    // Ra1 with own Kb1: a2..a8 = 7 squares (b1 own) -> (588, 553).
    EXPECT_EQ(term(trace_of("7k/8/8/8/8/8/8/RK6 w - - 0 1"), T_MOBILITY, WHITE), P(7 * 84, 7 * 79));
    // Qa1 alone (Kh1 blocks the rank at h1): rank b1..g1 6, file a2..a8 7, diagonal b2..h8 7 (h8 = enemy
    // king) = 20 -> (1080, 740).
    EXPECT_EQ(term(trace_of("7k/8/8/8/8/8/8/Q6K b - - 0 1"), T_MOBILITY, WHITE), P(20 * 54, 20 * 37));
}

TEST(EvalTerms, MobilityTables) {
    // Quince's switch on rybka1's weights; each table's value is its index (the square count), the queen's
    // times 100, the endgame half 0, so the term's opening sum shows the counts.
    Weights w = find_profile("rybka1")->w;
    w.mob_tables = true;
    const auto index = [](auto& op, auto& eg, int k) {
        for (std::size_t n = 0; n < op.size(); ++n) op[n] = k * int(n), eg[n] = 0;
    };
    index(w.mob_knight_table_op, w.mob_knight_table_eg, 1);
    index(w.mob_bishop_table_op, w.mob_bishop_table_eg, 1);
    index(w.mob_rook_table_op, w.mob_rook_table_eg, 1);
    index(w.mob_queen_table_op, w.mob_queen_table_eg, 100);
    Evaluator ev;
    ev.set_profile(build_profile(w));
    const auto mobility = [&](const std::string& fen) {
        Position pos;
        EXPECT_TRUE(pos.set_fen(fen)) << fen;
        Trace t;
        ev.evaluate_traced(pos, t);
        return term(t, T_MOBILITY, WHITE);
    };
    // Nd4 reaches b3 b5 c2 c6 e2 e6 f3 f5; out of the area: c6 and e6 (attacked by the d7 pawn), e2 (own
    // king), b3 (own pawn blocked by b4). f3 is an own pawn that can advance: it counts. 4 squares (the
    // linear count would be 5: every square but own pieces).
    EXPECT_EQ(mobility("7k/3p4/8/8/1p1N4/1P3P2/4K3/8 w - - 0 1"), P(4, 0));
    // Bb2 sees through its own queen: a1, c3, d4, e5, f6, g7, h8, a3, c1 = 9. Qc3 sees through its own
    // bishop: rank 3 seven squares, c-file seven, a1-h8 seven (b2, a1, d4..h8), a5-e1 four = 25.
    EXPECT_EQ(mobility("8/7k/8/8/8/2Q5/1B6/6K1 w - - 0 1"), P(9 + 25 * 100, 0));
    // Doubled rooks see through each other: Ra1 a2..a8 and b1..h1 = 14; Ra2 a1, a3..a8 and b2..h2 = 14
    // less b2 and d2, attacked by the c3 pawn = 12.
    EXPECT_EQ(mobility("7k/8/8/8/8/2p4K/R7/R7 w - - 0 1"), P(14 + 12, 0));
    // Switch off: the linear weights are back (Nd4: 5 squares x rybka1's (14, 121)).
    w.mob_tables = false;
    ev.set_profile(build_profile(w));
    EXPECT_EQ(mobility("7k/3p4/8/8/1p1N4/1P3P2/4K3/8 w - - 0 1"), P(5 * 14, 5 * 121));
}

TEST(EvalTerms, RookFiles) {
    // Re1 (Qa1 gives the king-safety flag): open file (64+971, 256+172) = (1035, 428); file touches
    // the zone of Ke8 (+121) and holds the king (+853): op 2009.
    Trace t = trace_of("4k3/8/8/8/8/8/8/Q3RK2 b - - 0 1");
    EXPECT_EQ(term(t, T_ROOK_FILE, WHITE), P(2009, 428));
    // Same without the queen: no king-safety flag, only the open-file part.
    EXPECT_EQ(term(trace_of("4k3/8/8/8/8/8/8/4RK2 b - - 0 1"), T_ROOK_FILE, WHITE), P(1035, 428));
    // Semi-open: enemy pawn e6 in front -> (64, 256); own pawn behind (e2 below the rook) ignored.
    EXPECT_EQ(term(trace_of("7k/8/4p3/8/8/4R3/4P3/K7 w - - 0 1"), T_ROOK_FILE, WHITE), P(64, 256));
    // Own pawn in front: nothing.
    EXPECT_EQ(term(trace_of("7k/8/8/8/4P3/4R3/8/K7 w - - 0 1"), T_ROOK_FILE, WHITE), P(0, 0));
}

TEST(EvalTerms, SeventhRank) {
    // Ra7 with a black pawn on the 7th: (246, 1026).
    EXPECT_EQ(term(trace_of("7k/R6p/8/8/8/8/8/K7 w - - 0 1"), T_SEVENTH, WHITE), P(246, 1026));
    // Qb7 with the black king on the 8th: (0, 1420).
    EXPECT_EQ(term(trace_of("7k/1Q6/8/8/8/8/8/K7 w - - 0 1"), T_SEVENTH, WHITE), P(0, 1420));
    // Rook on 7th but black king on the 7th and no black pawn there: nothing (1.0 rule).
    EXPECT_EQ(term(trace_of("8/R6k/8/8/8/8/8/K7 b - - 0 1"), T_SEVENTH, WHITE), P(0, 0));
}

// §17.7.
TEST(EvalTerms, PassedPawns) {
    // e6 (r = 5), Black Rh8 attacks e8, Ka8; White Ke1; e8 not defended by White:
    // op 2900; eg 1273 + 157 + 788 + 0 (not free) + 4*779 (dist a8-e7) - 6*391 (dist e1-e7) = 2988.
    Trace t = trace_of("k6r/8/4P3/8/8/8/8/4K3 w - - 0 1");
    EXPECT_EQ(term(t, T_PASSERS, WHITE), P(2900, 2988));
    // Pawn ending, a6, Black Kh8, White to move: moves 2 < dist(h8, a8) = 7 -> +25600;
    // eg 1273 + 25600 + 7*779 (dist h8-a7) - 6*391 (dist a1-a7) = 29980.
    EXPECT_EQ(term(trace_of("7k/8/P7/8/8/8/8/K7 w - - 0 1"), T_PASSERS, WHITE), P(2900, 29980));
    // Black to move and king on c7... in the square: dist(c7, a8) = 2 <= 2 + 1: no bonus;
    // eg 1273 + 1*779 (dist c7-a7 = 2? no: c7-a7 = 2) -> 1273 + 2*779 - 6*391 = 485.
    EXPECT_EQ(term(trace_of("8/2k5/P7/8/8/8/8/K7 b - - 0 1"), T_PASSERS, WHITE), P(2900, 485));
    // Free path: e8 defended by the white Ra1? No: use Re1 behind the pawn: path e7, e8 attacked by
    // Rh8 (e8) but the white rook defends e7/e8 through the pawn? (x-rays are not counted) -> not free.
    // Instead a white Qa8... keep a clean case: no black pieces attack the path, Black has a knight a1.
    // eg 1273 + 157 + 788 + 601 + dist(h1? ) ... computed below with king distances.
    Trace f = trace_of("8/8/4P3/8/8/8/8/n3K2k w - - 0 1");
    // Black Kh1: dist(h1, e7) = 6 -> 6*779 = 4674; White Ke1: dist(e1, e7) = 6 -> 6*391 = 2346.
    EXPECT_EQ(term(f, T_PASSERS, WHITE), P(2900, 1273 + 157 + 788 + 601 + 4674 - 2346));
}

TEST(EvalTerms, KingPasser) {
    // Pawn ending, White Kd7 escorts c7? Use b6 pawn with Kc7 (not on the pawn's file): distance to b8
    // and to b6 both 1 -> king passer 25600. Black Ka... far (Kh1), White to move... the pawn on b6 is
    // also unstoppable (dist(h1, b8) = 7 > 2): one bonus only (§15 item 10).
    Trace t = trace_of("8/2K5/1P6/8/8/8/8/7k w - - 0 1");
    // eg 1273 + 25600 + dist(h1, b7) 6*779 - dist(c7, b7) 1*391 = 31156.
    EXPECT_EQ(term(t, T_PASSERS, WHITE), P(2900, 1273 + 25600 + 6 * 779 - 391));
    // King passer without the square rule: Black Ke8, dist(e8, b8) = 3, not > 2 moves + 1 (Black to
    // move) -> stoppable; White Kc7 next to b6 and b8, not on the b-file -> king passer +25600.
    Trace u = trace_of("4k3/2K5/1P6/8/8/8/8/8 b - - 0 1");
    // eg 1273 + 25600 + dist(e8, b7) 3*779 - dist(c7, b7) 1*391.
    EXPECT_EQ(term(u, T_PASSERS, WHITE), P(2900, 1273 + 25600 + 3 * 779 - 391));
    // Same with the king on the b-file (b7 is in front; use Kb... a-file rule only for a/h pawns):
    // h-pawn h6 with Kh7 on its own file: no king passer; Black Kf8 is in the square (dist(f8, h8) = 2).
    Trace v = trace_of("5k2/7K/7P/8/8/8/8/8 b - - 0 1");
    // eg 1273 + dist(f8, h7) 2*779 - dist(h7, h7) 0.
    EXPECT_EQ(term(v, T_PASSERS, WHITE), P(2900, 1273 + 2 * 779));
}

TEST(EvalTerms, Patterns) {
    // Trapped bishop a7 by b6: (-1802, -1802).
    EXPECT_EQ(term(trace_of("4k3/B7/1p6/8/8/8/8/4K3 w - - 0 1"), T_PATTERNS, WHITE), P(-1802, -1802));
    // Two trapped bishops (a7/b6, h7/g6) are counted once.
    EXPECT_EQ(term(trace_of("4k3/B6B/1p4p1/8/8/8/8/4K3 w - - 0 1"), T_PATTERNS, WHITE), P(-1802, -1802));
    // Black mirror: bishop a2 shut in by b3.
    EXPECT_EQ(term(trace_of("4k3/8/8/8/8/1P6/b7/4K3 w - - 0 1"), T_PATTERNS, BLACK), P(-1802, -1802));
    // Blocked bishop c1 / d2 / d3 occupied: (-1920, 0).
    EXPECT_EQ(term(trace_of("4k3/8/8/8/8/3N4/3P4/2B1K3 w - - 0 1"), T_PATTERNS, WHITE), P(-1920, 0));
    // Blocked rook h1 by Kg1: (-1920, 0).
    EXPECT_EQ(term(trace_of("4k3/8/8/8/8/8/8/6KR w - - 0 1"), T_PATTERNS, WHITE), P(-1920, 0));
    // Black: Ra8 with Kb8.
    EXPECT_EQ(term(trace_of("rk6/8/8/8/8/8/8/4K3 w - - 0 1"), T_PATTERNS, BLACK), P(-1920, 0));
}

TEST(EvalTerms, OppositeBishopsHalving) {
    // KB+P v KB, bishops c1 (dark) and c8 (light), |WP - BP| = 1: op and eg halved (truncation).
    Trace t = trace_of("2b1k3/8/8/8/8/8/4P3/2B1K3 w - - 0 1");
    EXPECT_EQ(t.mat.flags, 0x80);
    EXPECT_TRUE(t.ocb);
    EXPECT_EQ(t.op, t.op_before_scale / 2);
    EXPECT_EQ(t.eg, t.eg_before_scale / 2);
    // Same-coloured bishops (c1, f8 both dark): no halving.
    Trace u = trace_of("4kb2/8/8/8/8/8/4P3/2B1K3 w - - 0 1");
    EXPECT_FALSE(u.ocb);
}

TEST(EvalTerms, TempoAndSideToMove) {
    Value w, b;
    trace_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &w);
    trace_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", &b);
    EXPECT_EQ(w, 3);
    EXPECT_EQ(b, 3);
}

// §17.8.
TEST(EvalScore, ScaleRoundingFinal) {
    EXPECT_EQ(interpolate_stm(3399, 3399, 128, 128, WHITE), 106);
    EXPECT_EQ(interpolate_stm(-1, -1, 128, 128, WHITE), -1);  // floor, not 0
    EXPECT_EQ(ocb_halve(-7), -3);
    // White to move, s = 50 -> 53; Black to move with White's s = 50 -> -47.
    EXPECT_EQ(interpolate_stm(50 * 32, 50 * 32, 128, 128, WHITE) + 3, 53);
    EXPECT_EQ(interpolate_stm(50 * 32, 50 * 32, 128, 128, BLACK) + 3, -47);
    // Quince's symmetric rounding: Black to move with op = eg = 1 returns 2, as does the flipped twin.
    EXPECT_EQ(interpolate_stm(1, 1, 128, 128, BLACK) + 3, 2);
    EXPECT_EQ(interpolate_stm(-1, -1, 128, 128, WHITE) + 3, 2);
}

// §17.9 (linear W: S_int = 32 * S_cp).
TEST(EvalScore, LazyBounds) {
    auto b = [](Value s) { return lazy_bounds(s, s, 256, 3399, 3); };
    EXPECT_EQ(b(25).lo, -3);
    EXPECT_EQ(b(25).hi, 4);
    EXPECT_EQ(b(400).lo, 0);
    EXPECT_EQ(b(400).hi, 7);
    EXPECT_EQ(b(-150).lo, -5);
    EXPECT_EQ(b(-150).hi, 2);
    EXPECT_EQ(b(0).lo, -3);
    EXPECT_EQ(b(0).hi, 3);
    EXPECT_EQ(lazy_bounds(-VALUE_INFINITE, VALUE_INFINITE, 256, 3399, 3).lo, LAZY_OFF_LO);
    EXPECT_EQ(lazy_bounds(-VALUE_INFINITE, VALUE_INFINITE, 256, 3399, 3).hi, LAZY_OFF_HI);

    // Node with D = +5 (White up a rook): lazy at root score +25, full evaluation at +400.
    Position pos;
    ASSERT_TRUE(pos.set_fen("4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1"));
    ASSERT_EQ(pos.material_balance(), 5);
    Evaluator ev("rybka1");
    const Value full = ev.evaluate(pos);
    const Value lazy = ev.evaluate(pos, LazyWindow::around(25));
    // Material only: (3399*5 + mat_value) >> 5, + tempo.
    const int mat_value = find_profile("rybka1")->material[pos.material_index()].value;
    EXPECT_EQ(lazy, ((3399 * 5 + mat_value) >> 5) + 3);
    EXPECT_NE(lazy, full);
    EXPECT_EQ(ev.evaluate(pos, LazyWindow::around(400)), full);
    // The same node with Black to move: the window is in the side to move's view (root +25 for White
    // = -25 for Black); material-only value seen from Black, floor in Black's view.
    Position bp;
    ASSERT_TRUE(bp.set_fen("4k3/pppp4/8/8/8/8/PPPP4/R3K3 b - - 0 1"));
    EXPECT_EQ(ev.evaluate(bp, LazyWindow::from_root(25, WHITE, BLACK)), ((-(3399 * 5 + mat_value)) >> 5) + 3);
    EXPECT_EQ(ev.evaluate(bp, LazyWindow::from_root(400, WHITE, BLACK)), ev.evaluate(bp));
    ev.set_lazy(false);
    EXPECT_EQ(ev.evaluate(pos, LazyWindow::around(25)), full);
}

TEST(EvalScore, FullEvaluationByHand) {
    // K+P v K, e2, White to move. Material 3399, mat_value 0. PST pawn e2 (181, -97); kings cancel.
    // e2 isolated on an open file (-923, -324); passed, r = 1: (0, 146); pawn ending: not
    // unstoppable (Black Ke8 in the square), no king passer; distance terms are 0 at r = 1.
    // op = 3399 + 181 - 923 = 2657; eg = 3399 - 97 - 324 + 146 = 3124; phase 64, W = (0, 256):
    // (3124 * 256) >> 13 = 97; + 3 tempo = 100. Black to move: floor(-97.62) = -98, + 3 = -95.
    // K+P v K by the table: won with White to move (the score stays), drawn with Black to move, which the
    // known-ending scale (eval/endgame.h) makes 0.
    Value w, b;
    Trace t = trace_of("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", &w);
    EXPECT_EQ(t.op, 2657);
    EXPECT_EQ(t.eg, 3124);
    EXPECT_EQ(int(t.mat.phase), 64);
    EXPECT_EQ(t.profile_cp, 100);
    EXPECT_EQ(w, 100);
    EXPECT_EQ(trace_of("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", &b).profile_cp, -95);
    EXPECT_EQ(b, 0);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
