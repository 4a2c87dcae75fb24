// Profile registry and the Rybka 1.0 Beta weights. Each number cites the spec section (eval.md) that
// transcribes it from the seeds; values not in the seeds are marked "not in seeds".
#include "eval/profile.h"

#include <memory>
#include <mutex>

#include "eval/material_table.h"
#include "eval/pawns.h"
#include "eval/phase.h"
#include "eval/pst.h"

namespace quince::eval {

namespace {

Weights make_rybka1() {
    Weights w{};
    w.name = "rybka1";
    // §1: one unit of D = 3399 internal units (asm imul 0xd47).
    w.pawn_unit = 3399;
    // §2.3/§16: mat_value is not in the seeds. Kaufman (1999) "The Evaluation of Material Imbalances",
    // pawn units P 1, N 3.25, B 3.25, R 5, Q 9.75, bishop pair 0.5, knight +1/16 per own pawn above 5,
    // rook -1/8 per own pawn above 5; redundancy of majors (second rook, queen with rook) chosen here:
    // -1/4 and -1/8 pawn. Converted with 1 pawn = 3399 and rounded.
    w.knight_extra = 850;   // 0.25 pawn over the 3 of D
    w.bishop_extra = 850;   // 0.25
    w.rook_extra = 0;       // 5 = D's 5
    w.queen_extra = -850;   // 9.75 - 10
    w.bishop_pair = 1700;   // 0.5
    w.knight_pawn_adjust = 212;   // 1/16 pawn
    w.rook_pawn_adjust = -425;    // -1/8 pawn
    w.knight_pawn_base = 5;
    w.rook_pawn_base = 5;
    w.rook_redundancy = -850;        // not in seeds (Kaufman's redundancy idea, size chosen here)
    w.queen_rook_redundancy = -425;  // not in seeds

    // §3.2: Rybka 1.0's table is unknown; linear (2.3.2a's shape) is the fully specified choice.
    w.phase_curve = PhaseCurve::Linear;
    // §3.1: Fruit's phase weights (pawns 0), copied by Rybka; the result is divided by 4 (0..64).
    w.phase_minor = 1;
    w.phase_rook = 2;
    w.phase_queen = 4;
    w.phase_total = 24;

    // §4.1 PST weights (seed 001/003; reproduce all 768 values of seed 003 §3).
    w.pawn_file_opening = 181;
    w.pawn_file_endgame = -97;
    w.pawn_centre_d5e5_opening = 74;
    w.knight_centre_opening = 347;
    w.knight_centre_endgame = 56;
    w.knight_rank_opening = 358;
    w.knight_back_rank_opening = 0;
    w.knight_trapped = 3200;
    w.bishop_centre_opening = 147;
    w.bishop_centre_endgame = 49;
    w.bishop_back_rank_opening = 251;
    w.bishop_diagonal_opening = 378;
    w.rook_file_opening = 104;
    w.queen_centre_opening = 98;
    w.queen_centre_endgame = 108;
    w.queen_back_rank_opening = 201;
    w.king_centre_endgame = 401;
    w.king_file_opening = 469;
    w.king_rank_opening = 0;

    // §5.3 pawn structure (seed 003 asm; §15 item 5 for the summary's mis-pairing).
    w.doubled_op = 0;
    w.doubled_eg = 158;
    w.isolated_open_op = 923;
    w.isolated_op = 79;
    w.isolated_eg = 324;
    w.backward_open_op = 872;
    w.backward_op = 406;
    w.backward_eg = 297;
    w.candidate_op_minmax = {0, 3763};   // §5.3 / seed 001 min..max
    w.candidate_eg_minmax = {18, 1626};

    // §7.2 shelter / storm per file; 794 weak back rank.
    w.shelter_value = {1121, 0, 214, 749, 915};
    w.storm_value = {0, 0, 2334, 653, 310};
    w.weak_back_rank = 794;

    // §7.1 king attack units and weights ({0, -1, 37, 71, 100, ...}, saturating at 100 [§16]).
    w.king_attack_unit_knight = 941;
    w.king_attack_unit_bishop = 418;
    w.king_attack_unit_rook = 666;
    w.king_attack_unit_queen = 532;
    w.king_attack_weight = {0, -1, 37, 71, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100};

    // §8 mobility (op, eg) by register flow (§15 item 4).
    w.mob_knight_op = 14;
    w.mob_knight_eg = 121;
    w.mob_bishop_op = 149;
    w.mob_bishop_eg = 116;
    w.mob_rook_op = 84;
    w.mob_rook_eg = 79;
    w.mob_queen_op = 54;
    w.mob_queen_eg = 37;

    // §9 rooks and queens (§15 items 1, 2: increments as in the asm).
    w.rook_semi_open_op = 64;
    w.rook_semi_open_eg = 256;
    w.rook_open_op = 971;
    w.rook_open_eg = 172;
    w.rook_king_zone_op = 121;
    w.rook_king_file_op = 853;
    w.rook_seventh_op = 246;
    w.rook_seventh_eg = 1026;
    w.queen_seventh_op = 0;
    w.queen_seventh_eg = 1420;

    // §10.3 passers as RybkaQuad (min, max) (seed 001); §15 item 3: UnblockedOwn[5] = 157.
    w.passed_op_minmax = {0, 4821};
    w.passed_eg_minmax = {146, 2020};
    w.unblocked_own_minmax = {0, 262};
    w.unblocked_opp_minmax = {0, 1311};
    w.passed_free_minmax = {0, 1000};
    w.att_distance_minmax = {0, 650};
    w.def_distance_minmax = {0, 1295};
    w.passer_bonus = {0, 0, 0, 26, 77, 154, 256, 256};  // §10.4 (rank-8 entry 256, unused)
    w.unstoppable_passer = 25600;  // 800 cp * 32

    // §11 patterns.
    w.trapped_bishop_op = 1802;
    w.trapped_bishop_eg = 1802;
    w.blocked_bishop_op = 1920;
    w.blocked_rook_op = 1920;

    // §1, §12.
    w.tempo = 3;
    w.lazy_margin = 3;  // [inferred] in the spec from the two documented outcomes
    w.ocb_halving = true;
    return w;
}

// Rybka's precomputed passer arrays: min + ((max - min) * Bonus[r]) / 256, no +128 rounding (§10.4).
void rybka_quad(const std::array<int, 8>& bonus, const std::array<int, 2>& mm, int out[8]) {
    for (int r = 0; r < 8; ++r) out[r] = mm[0] + ((mm[1] - mm[0]) * bonus[r]) / 256;
}

std::unique_ptr<Profile> build(const Weights& w, bool simple) {
    auto p = std::make_unique<Profile>();
    p->w = w;
    p->simple = simple;
    build_pst(w, p->pst_op, p->pst_eg);
    for (int pt = 0; pt < 7; ++pt)
        for (int sq = 0; sq < 64; ++sq) p->pst_packed[pt][sq] = pack(p->pst_op[pt][sq], p->pst_eg[pt][sq]);
    for (int pt = 0; pt < 7; ++pt) p->mob_packed[pt] = 0;
    p->mob_packed[2] = pack(w.mob_knight_op, w.mob_knight_eg);
    p->mob_packed[3] = pack(w.mob_bishop_op, w.mob_bishop_eg);
    p->mob_packed[4] = pack(w.mob_rook_op, w.mob_rook_eg);
    p->mob_packed[5] = pack(w.mob_queen_op, w.mob_queen_eg);
    build_interpolation(w.phase_curve, p->interp);
    rybka_quad(w.passer_bonus, w.candidate_op_minmax, p->cand_op);
    rybka_quad(w.passer_bonus, w.candidate_eg_minmax, p->cand_eg);
    rybka_quad(w.passer_bonus, w.passed_op_minmax, p->passed_op);
    rybka_quad(w.passer_bonus, w.passed_eg_minmax, p->passed_eg);
    rybka_quad(w.passer_bonus, w.unblocked_own_minmax, p->unblocked_own);
    rybka_quad(w.passer_bonus, w.unblocked_opp_minmax, p->unblocked_opp);
    rybka_quad(w.passer_bonus, w.passed_free_minmax, p->passed_free);
    rybka_quad(w.passer_bonus, w.att_distance_minmax, p->att_dist);
    rybka_quad(w.passer_bonus, w.def_distance_minmax, p->def_dist);
    build_shelter_storm(w, p->shelter_table, p->storm_table);
    build_material_table(w, p->material);
    return p;
}

struct Registry {
    const char* name;
    Weights (*make)();
    bool simple;
    std::once_flag once;
    std::unique_ptr<Profile> profile;
};

Weights make_rybka1_curve() {
    Weights w = make_rybka1();
    w.name = "rybka1-curve";
    w.phase_curve = PhaseCurve::ThreeSection;  // experimental shape of Rybka 1.0's non-linear W (§3.2)
    return w;
}

Weights make_simple() {
    Weights w = make_rybka1();  // tables unused; the baseline evaluation has its own constants
    w.name = "simple";
    return w;
}

Registry registry[] = {
    {"rybka1", make_rybka1, false, {}, nullptr},
    {"rybka1-curve", make_rybka1_curve, false, {}, nullptr},
    {"simple", make_simple, true, {}, nullptr},
};

}  // namespace

const Weights& rybka1_weights() {
    static const Weights w = make_rybka1();
    return w;
}

std::vector<std::string> profile_names() {
    std::vector<std::string> v;
    for (auto& r : registry) v.push_back(r.name);
    return v;
}

const Profile* find_profile(const std::string& name) {
    for (auto& r : registry)
        if (name == r.name) {
            std::call_once(r.once, [&r] { r.profile = build(r.make(), r.simple); });
            return r.profile.get();
        }
    return nullptr;
}

MatEntry Profile::compute_material(int wq, int bq, int wr, int br, int wb, int bb, int wn, int bn, int wp,
                                   int bp) const {
    return compute_material_entry(w, MaterialCounts{wq, bq, wr, br, wb, bb, wn, bn, wp, bp});
}

}  // namespace quince::eval
