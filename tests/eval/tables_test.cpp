// Derived tables of the rybka1 profile against spec docs/eval-spec.md §17.2-17.5 and §3.
#include <gtest/gtest.h>

#include <vector>

#include "eval/material_table.h"
#include "eval/pawns.h"
#include "eval/phase.h"
#include "eval/profile.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::eval;

namespace {
const Profile& P() { return *find_profile("rybka1"); }
std::vector<int> arr(const std::array<int, 8>& a) { return std::vector<int>(a.begin(), a.end()); }
}  // namespace

// §17.2: arrays == RybkaQuad(min, max) of the seeds, without Fruit's +128 rounding.
TEST(EvalTables, PassedAndCandidateArrays) {
    const Weights& p = P().w;
    EXPECT_EQ(arr(p.passed_op), (std::vector<int>{0, 0, 0, 489, 1450, 2900, 4821, 4821}));
    EXPECT_EQ(arr(p.passed_eg), (std::vector<int>{146, 146, 146, 336, 709, 1273, 2020, 2020}));
    EXPECT_EQ(arr(p.unblocked_own), (std::vector<int>{0, 0, 0, 26, 78, 157, 262, 262}));  // §15 item 3: 157
    EXPECT_EQ(arr(p.unblocked_opp), (std::vector<int>{0, 0, 0, 133, 394, 788, 1311, 1311}));
    EXPECT_EQ(arr(p.passed_free), (std::vector<int>{0, 0, 0, 101, 300, 601, 1000, 1000}));
    EXPECT_EQ(arr(p.att_distance), (std::vector<int>{0, 0, 0, 66, 195, 391, 650, 650}));
    EXPECT_EQ(arr(p.def_distance), (std::vector<int>{0, 0, 0, 131, 389, 779, 1295, 1295}));
    EXPECT_EQ(arr(p.candidate_op), (std::vector<int>{0, 0, 0, 382, 1131, 2263, 3763, 3763}));
    EXPECT_EQ(arr(p.candidate_eg), (std::vector<int>{18, 18, 18, 181, 501, 985, 1626, 1626}));
    // Negative check: Fruit's rounding would give 490 / 710 / 158 / 102.
    EXPECT_NE(p.passed_op[3], 490);
    EXPECT_NE(p.passed_eg[4], 710);
    EXPECT_NE(p.unblocked_own[5], 158);
    EXPECT_NE(p.passed_free[3], 102);
}

namespace {
struct MatCase {
    const char* fen;
    MaterialCounts c;
    int index, D, phase, flags, cflags;
};
// §17.3 (positions built so that the counts match the table row).
const MatCase MAT_CASES[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {1, 1, 2, 2, 2, 2, 2, 2, 8, 8}, 236195, 0, 0, 0, 0x88},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0, 0, 64, 0, 0},
    {"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", {1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 1, 10, 53, 0, 0},
    {"3qk3/8/8/8/8/8/8/4K3 w - - 0 1", {0, 1, 0, 0, 0, 0, 0, 0, 0, 0}, 2, -10, 53, 0, 0},
    {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", {0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, 4, 5, 58, 0, 0},
    {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", {0, 0, 0, 0, 0, 0, 0, 0, 1, 0}, 2916, 1, 64, 0, 0},
    {"4k3/4p3/8/8/8/8/8/4K3 w - - 0 1", {0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 26244, -1, 64, 0, 0},
    {"3qk1n1/8/8/8/8/8/8/R3K2R w - - 0 1", {0, 1, 2, 0, 0, 0, 0, 1, 0, 0}, 982, -3, 40, 0, 0x08},
    {"4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1", {0, 0, 0, 0, 0, 0, 2, 0, 0, 0}, 648, 6, 58, 0, 0},
    {"4kb2/ppp5/8/8/8/8/PPPP4/2B1K3 w - - 0 1", {0, 0, 0, 0, 1, 1, 0, 0, 4, 3}, 90540, 1, 58, 0x80, 0},
    {"4kb2/pp6/8/8/8/8/PPPPP3/2B1K3 w - - 0 1", {0, 0, 0, 0, 1, 1, 0, 0, 5, 2}, 67212, 3, 58, 0, 0},
    {"3qk2r/8/8/8/8/8/8/R2QK3 w - - 0 1", {1, 1, 1, 1, 0, 0, 0, 0, 0, 0}, 19, 0, 32, 0, 0x88},
    {"1b2k2r/pppppppp/8/8/8/8/PPPPPPPP/3QK3 w - - 0 1", {1, 0, 0, 1, 0, 1, 0, 0, 8, 8}, 233401, 2, 45, 0, 0},
    {"r1b1kbnr/pppppppp/2n5/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1", {0, 0, 2, 2, 2, 2, 2, 2, 8, 8}, 236192, 0, 21, 0, 0},
    {"1bbqk1nn/8/8/8/8/8/PPPPP3/R1BQK3 w - - 0 1", {1, 1, 1, 0, 1, 2, 0, 2, 5, 0}, 16783, 1, 24, 0, 0x88},
    {"r1b1k1n1/pppppp2/8/8/8/8/PPPPPP2/R1B1K1N1 w - - 0 1", {0, 0, 1, 1, 1, 1, 1, 1, 6, 6}, 176416, 0, 42, 0, 0},
};
}  // namespace

TEST(EvalMaterial, IndexPhaseFlags) {
    for (const MatCase& m : MAT_CASES) {
        Position pos;
        ASSERT_TRUE(pos.set_fen(m.fen)) << m.fen;
        EXPECT_EQ(material_index_of(m.c), m.index) << m.fen;
        EXPECT_EQ(pos.material_index(), m.index) << m.fen;
        EXPECT_TRUE(pos.material_in_table());
        EXPECT_EQ(pos.material_balance(), m.D) << m.fen;
        const MatEntry& e = P().material[m.index];
        EXPECT_EQ(int(e.phase), m.phase) << m.fen;
        EXPECT_EQ(int(e.flags), m.flags) << m.fen;
        EXPECT_EQ(int(e.cflags), m.cflags) << m.fen;
        EXPECT_EQ(int(e.lazy), 0);
        // The table entry equals the on-the-fly generator.
        const MatEntry c = compute_material_entry(P().w, material_counts(pos));
        EXPECT_EQ(c.value, e.value);
        EXPECT_EQ(c.phase, e.phase);
    }
}

TEST(EvalMaterial, OverLimitComputedNotAliased) {
    // Two white queens v queen: index 4 aliases K+R v K (phase 58, no flags); the computed entry is
    // phase 32 with Black's king-safety flag (§2.4, §17.3).
    Position pos;
    ASSERT_TRUE(pos.set_fen("3qk3/8/8/8/8/8/8/2QQK3 w - - 0 1"));
    EXPECT_FALSE(pos.material_in_table());
    const MatEntry e = material_entry(P(), pos);
    EXPECT_EQ(int(e.phase), 32);
    EXPECT_EQ(int(e.cflags), 0x80);
    EXPECT_EQ(int(e.flags), 0);
    EXPECT_EQ(pos.material_balance(), 10);
    EXPECT_EQ(int(P().material[4].phase), 58);  // what a blind read would have used
    // Three white knights: index carries into a black knight; computed entry sees 3 knights.
    ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/8/1NN1K1N1 w - - 0 1"));
    EXPECT_FALSE(pos.material_in_table());
    EXPECT_EQ(int(material_entry(P(), pos).phase), material_phase(P().w, 3, 0, 0));
    EXPECT_EQ(material_index_of({0, 0, 0, 0, 0, 0, 3, 0, 0, 0}), material_index_of({0, 0, 0, 0, 0, 0, 0, 1, 0, 0}));
    EXPECT_EQ(material_index_of({0, 0, 0, 0, 0, 0, 0, 3, 8, 8}), 236196);  // outside the table
}

TEST(EvalMaterial, ImbalanceModelAntisymmetric) {
    // mat_value(config) == -mat_value(colour-swapped config) over the whole table.
    const Profile& p = P();
    int checked = 0;
    for (int idx = 0; idx < int(p.material.size()); idx += 7) {
        int r = idx;
        MaterialCounts c;
        c.wq = r % 2, r /= 2; c.bq = r % 2, r /= 2; c.wr = r % 3, r /= 3; c.br = r % 3, r /= 3;
        c.wb = r % 3, r /= 3; c.bb = r % 3, r /= 3; c.wn = r % 3, r /= 3; c.bn = r % 3, r /= 3;
        c.wp = r % 9, r /= 9; c.bp = r;
        ASSERT_EQ(material_index_of(c), idx);
        MaterialCounts s{c.bq, c.wq, c.br, c.wr, c.bb, c.wb, c.bn, c.wn, c.bp, c.wp};
        const MatEntry& a = p.material[idx];
        const MatEntry& b = p.material[material_index_of(s)];
        ASSERT_EQ(a.value, -b.value) << idx;
        ASSERT_EQ(a.phase, b.phase);
        ASSERT_EQ(a.flags, b.flags);
        ASSERT_EQ(int(a.cflags), ((b.cflags & 0x08) << 4) | ((b.cflags & 0x80) >> 4));
        ++checked;
    }
    EXPECT_GT(checked, 30000);
    // Kaufman model sanity: bishop pair worth 1700, two bishops v two knights with 8 pawns each.
    EXPECT_EQ(imbalance_side(p.w, 0, 0, 2, 0, 8) - imbalance_side(p.w, 0, 0, 0, 2, 8),
              1700 + 2 * 850 - 2 * (850 + 212 * 3));
}

TEST(EvalPhase, FruitFormulaDividedByFour) {
    // §3.1 table: p = 0..24 -> phase.
    const int want[25] = {0, 2, 5, 8, 10, 13, 16, 18, 21, 24, 26, 29, 32, 34, 37, 40, 42, 45, 48, 50, 53, 56, 58, 61, 64};
    for (int p = 0; p <= 24; ++p) EXPECT_EQ(material_phase(P().w, 24 - p, 0, 0), want[p]) << p;
    EXPECT_EQ(material_phase(P().w, 8, 8, 4), 0);  // negative raw phase clamps to 0
    EXPECT_EQ(material_phase(P().w, 0, 2, 2), 32);  // p = 24 - 2*2 - 4*2 = 12 -> 128 / 4
}

TEST(EvalPhase, InterpolationTables) {
    int W[65][2];
    Weights w = P().w;
    w.phase_curve = PhaseCurve::Linear;
    build_interpolation(w, W);
    for (int x = 0; x <= 64; ++x) {
        EXPECT_EQ(W[x][0], 256 - 4 * x);
        EXPECT_EQ(W[x][1], 4 * x);
    }
    w.phase_curve = PhaseCurve::ThreeSection;
    build_interpolation(w, W);
    // §3.2 table (curve columns) at the reachable phases.
    const int ph[25] = {0, 2, 5, 8, 10, 13, 16, 18, 21, 24, 26, 29, 32, 34, 37, 40, 42, 45, 48, 50, 53, 56, 58, 61, 64};
    const int w1[25] = {0, 1, 5, 13, 21, 34, 49, 59, 74, 89, 98, 113, 128, 138, 153, 167, 177, 192, 207, 217, 231, 243, 249, 254, 256};
    for (int i = 0; i < 25; ++i) {
        EXPECT_EQ(W[ph[i]][1], w1[i]) << ph[i];
        EXPECT_EQ(W[ph[i]][0], 256 - w1[i]) << ph[i];
    }
}

// §17.4 shelter / storm table entries.
TEST(EvalKing, ShelterStormTables) {
    const Profile& p = P();
    struct { int m, shelter, storm; } cases[] = {
        {0x000, 4484, 0}, {0x007, 794, 0},  {0x002, 2242, 0}, {0x005, 2242, 0}, {0x010, 2670, 2334},
        {0x038, 856, 7002}, {0x1C0, 2996, 1959}, {0xE00, 3660, 930}, {0x03A, 428, 4668}, {0xFFF, 794, 0}};
    for (auto& c : cases) {
        EXPECT_EQ(p.shelter_table[c.m], c.shelter) << std::hex << c.m;
        EXPECT_EQ(p.storm_table[c.m], c.storm) << std::hex << c.m;
    }
    // Rectangle bits: wing 2 (f-h), rank 2 -> bits 0..2, rank 3 centre (g3) -> bit 4.
    EXPECT_EQ(wing_mask(square_bb(SQ_F2) | square_bb(SQ_G3) | square_bb(SQ_H2), 2), 0x015);
    EXPECT_EQ(wing_mask(square_bb(SQ_A2) | square_bb(SQ_B5), 0), 0x001 | 0x400);
    EXPECT_EQ(wing_mask(square_bb(SQ_D2) | square_bb(SQ_E2) | square_bb(SQ_F2), 1), 0x007);
    EXPECT_EQ(wing_mask(square_bb(SQ_G6) | square_bb(SQ_G1), 2), 0);  // outside ranks 2-5
}

// §17.5 king-attack formula with the profile's units and weights.
TEST(EvalKing, AttackFormula) {
    const Weights& w = P().w;
    auto v = [&](int n, int weight) { return (w.king_attack_weight[n] * weight) >> 5; };
    EXPECT_EQ(v(1, w.king_attack_unit_knight), -30);  // floor of -29.4
    EXPECT_EQ(v(2, w.king_attack_unit_bishop + w.king_attack_unit_rook), 1253);
    EXPECT_EQ(v(3, w.king_attack_unit_knight + w.king_attack_unit_queen), 3268);
    EXPECT_EQ(v(8, 2 * 941 + 2 * 418 + 2 * 666 + 532), 14318);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
