// Profile registry and the Rybka 1.0 Beta weights. Each number cites the spec section (docs/eval-spec.md) that
// transcribes it from the seeds; values not in the seeds are marked "not in seeds".
#include "eval/profile.h"

#include <bit>
#include <memory>
#include <mutex>

#include "eval/material_table.h"
#include "eval/pawns.h"
#include "eval/phase.h"
#include "eval/pst.h"

namespace quince::eval {

std::array<int, 8> rybka_quad(const std::array<int, 8>& bonus, int min, int max) {
    std::array<int, 8> out{};
    for (int r = 0; r < 8; ++r) out[r] = min + ((max - min) * bonus[r]) / 256;
    return out;
}

std::array<int, 8> fruit_quad(const std::array<int, 8>& bonus, int min, int max) {
    std::array<int, 8> out{};
    for (int r = 0; r < 8; ++r) out[r] = min + ((max - min) * bonus[r] + 128) / 256;
    return out;
}

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
    w.mat_value_limit = 0;           // 32-bit mat_value (§2.2)
    w.pawn_endgame_extra = 0;        // one pawn = 3399 in op and eg (§1)

    // §3.2: Rybka 1.0's table is unknown; linear (2.3.2a's shape) is the fully specified choice.
    w.phase_curve = PhaseCurve::Linear;
    // §3.1: Fruit's phase weights (pawns 0), copied by Rybka; the result is divided by 4 (0..64).
    w.phase_minor = 1;
    w.phase_rook = 2;
    w.phase_queen = 4;
    w.phase_total = 24;

    // §4.1 PST weights (seed 001/003; reproduce all 768 values of seed 003 §3).
    w.pst_source = PstSource::Generator;
    w.pawn_file_opening = 181;
    w.pawn_file_endgame = -97;
    w.pawn_centre_d5e5_opening = 74;
    w.pawn_centre_d3e3_opening = 0;  // Rybka keeps only the D5/E5 bonus
    w.pawn_centre_d4e4_opening = 0;
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
    w.isolated_open_eg = 324;
    w.isolated_eg = 324;
    w.backward_open_op = 872;
    w.backward_op = 406;
    w.backward_open_eg = 297;
    w.backward_eg = 297;
    const std::array<int, 8> bonus = {0, 0, 0, 26, 77, 154, 256, 256};  // §10.4 (rank-8 entry 256, unused)
    w.candidate_op = rybka_quad(bonus, 0, 3763);  // §5.3 / seed 001 min..max
    w.candidate_eg = rybka_quad(bonus, 18, 1626);
    w.passer_base_in_pawn_entry = false;  // 1.0: in eval_passer (§10.2)
    w.pawn_blocked_op = w.pawn_blocked_eg = 0;  // 2.3.2a only
    w.drawish_by_files = {0, 0, 0, 0, 0, 0, 0};  // 2.3.2a only
    w.drawish_mul = 156;
    w.drawish_div = 240;
    w.drawish_cap = 100;

    // §7.2 shelter / storm per file; 794 weak back rank.
    w.shelter_value = {1121, 0, 214, 749, 915};
    w.storm_value = {0, 0, 2334, 653, 310};
    w.weak_back_rank = 794;
    w.shelter_castling = true;

    // §7.1 king attack units and weights ({0, -1, 37, 71, 100, ...}, saturating at 100 [§16]).
    w.king_attack_unit_knight = 941;
    w.king_attack_unit_bishop = 418;
    w.king_attack_unit_rook = 666;
    w.king_attack_unit_queen = 532;
    w.king_attack_weight = {0, -1, 37, 71, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100};
    w.king_attack_pawns = true;

    // §8 mobility (op, eg) by register flow (§15 item 4).
    w.mob_knight_op = 14;
    w.mob_knight_eg = 121;
    w.mob_bishop_op = 149;
    w.mob_bishop_eg = 116;
    w.mob_rook_op = 84;
    w.mob_rook_eg = 79;
    w.mob_queen_op = 54;
    w.mob_queen_eg = 37;
    w.mob_knight_offset = w.mob_bishop_offset = w.mob_rook_offset = w.mob_queen_offset = 0;

    // §9 rooks and queens (§15 items 1, 2: increments as in the asm).
    w.rook_file_whole = false;
    w.rook_file_base_op = w.rook_file_base_eg = 0;
    w.rook_semi_open_op = 64;
    w.rook_semi_open_eg = 256;
    w.rook_open_op = 971;
    w.rook_open_eg = 172;
    w.rook_king_zone_op = 121;
    w.rook_king_file_op = 853;
    w.rook_king_needs_flag = true;
    w.rook_king_file_needs_zone = true;
    w.seventh_king_on_seventh = false;
    w.rook_seventh_op = 246;
    w.rook_seventh_eg = 1026;
    w.queen_seventh_op = 0;
    w.queen_seventh_eg = 1420;

    // §10.3 passers as RybkaQuad (min, max) (seed 001); §15 item 3: UnblockedOwn[5] = 157.
    w.passed_op = rybka_quad(bonus, 0, 4821);
    w.passed_eg = rybka_quad(bonus, 146, 2020);
    w.unblocked_own = rybka_quad(bonus, 0, 262);
    w.unblocked_opp = rybka_quad(bonus, 0, 1311);
    w.passed_free = rybka_quad(bonus, 0, 1000);
    w.att_distance = rybka_quad(bonus, 0, 650);
    w.def_distance = rybka_quad(bonus, 0, 1295);
    w.unstoppable_passer.fill(25600);  // 800 cp * 32, any rank
    w.unstoppable_pure_pawn_ending = false;

    // §11 patterns.
    w.trapped_bishop_op = 1802;
    w.trapped_bishop_eg = 1802;
    w.blocked_bishop_op = 1920;
    w.blocked_rook_op = 1920;
    w.trapped_bishop_per_bishop = false;  // once, even with two trapped bishops
    w.trapped_bishop_6th_op = w.trapped_bishop_6th_eg = 0;  // unused in the "once" mode

    // §1, §12.
    w.tempo = 3;
    w.lazy_margin = 3;  // [inferred] in the spec from the two documented outcomes
    w.lazy_window = true;
    w.ocb_halving = true;
    w.ocb_after_interpolation = false;
    w.ocb_pawn_wrap = false;
    return w;
}

void copy8(const std::array<int, 8>& a, int out[8]) {
    for (int r = 0; r < 8; ++r) out[r] = a[r];
}

std::unique_ptr<Profile> build(const Weights& w, bool simple) {
    auto p = std::make_unique<Profile>();
    p->w = w;
    p->simple = simple;
    if (w.pst_source == PstSource::Rybka232Data) rybka232_pst(p->pst_op, p->pst_eg);
    else build_pst(w, p->pst_op, p->pst_eg);
    for (int pt = 0; pt < 7; ++pt)
        for (int sq = 0; sq < 64; ++sq) p->pst_packed[pt][sq] = pack(p->pst_op[pt][sq], p->pst_eg[pt][sq]);
    for (int pt = 0; pt < 7; ++pt) p->mob_packed[pt] = 0;
    p->mob_packed[2] = pack(w.mob_knight_op, w.mob_knight_eg);
    p->mob_packed[3] = pack(w.mob_bishop_op, w.mob_bishop_eg);
    p->mob_packed[4] = pack(w.mob_rook_op, w.mob_rook_eg);
    p->mob_packed[5] = pack(w.mob_queen_op, w.mob_queen_eg);
    for (int pt = 0; pt < 7; ++pt) p->mob_offset[pt] = 0;
    p->mob_offset[2] = w.mob_knight_offset;
    p->mob_offset[3] = w.mob_bishop_offset;
    p->mob_offset[4] = w.mob_rook_offset;
    p->mob_offset[5] = w.mob_queen_offset;
    build_interpolation(w.phase_curve, p->interp);
    p->extended = w.pawn_endgame_extra != 0 || w.passer_base_in_pawn_entry || w.pawn_blocked_op != 0 ||
                  w.pawn_blocked_eg != 0 || !w.shelter_castling || !w.king_attack_pawns || w.mob_knight_offset != 0 ||
                  w.mob_bishop_offset != 0 || w.mob_rook_offset != 0 || w.mob_queen_offset != 0 ||
                  w.rook_file_whole || w.rook_file_base_op != 0 || w.rook_file_base_eg != 0 ||
                  !w.rook_king_needs_flag || !w.rook_king_file_needs_zone || w.seventh_king_on_seventh ||
                  w.unstoppable_pure_pawn_ending || w.trapped_bishop_per_bishop || w.ocb_after_interpolation ||
                  !w.lazy_window;
    copy8(w.candidate_op, p->cand_op);
    copy8(w.candidate_eg, p->cand_eg);
    copy8(w.passed_op, p->passed_op);
    copy8(w.passed_eg, p->passed_eg);
    copy8(w.unblocked_own, p->unblocked_own);
    copy8(w.unblocked_opp, p->unblocked_opp);
    copy8(w.passed_free, p->passed_free);
    copy8(w.att_distance, p->att_dist);
    copy8(w.def_distance, p->def_dist);
    // §13.2: the byte is the OR of the pawn ranks; only files b..g matter (rook pawns never count).
    p->drawish_on = false;
    for (int byte = 0; byte < 256; ++byte) {
        p->drawish[byte] = std::uint8_t(w.drawish_by_files[std::popcount(unsigned(byte) & 0x7Eu)]);
        p->drawish_on |= p->drawish[byte] != 0;
    }
    p->extended |= p->drawish_on;
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

// ---------------------------------------------------------------------------------------------
// Rybka 2.3.2a (seed 003 right column; spec "2.3.2a" columns, §4.2, §5.3, §7, §8, §9, §10.3, §11,
// §12, §13). Starts from rybka1 and changes every value/condition the seeds give for 2.3.2a.
// Same internal unit (1/32 cp; 3399 -> cp is `sar 5`, §1).
Weights make_rybka232() {
    Weights w = make_rybka1();
    w.name = "rybka232";
    // §2.5: mat16 values are not in the seeds; Kaufman adjusted them for 2.3.2 so that a knight /
    // unpaired bishop is about 3.5 pawns in the middlegame [unknown -> chosen]: 3 units of D + 0.5 pawn
    // (3399 / 2 = 1699.5, rounded up). Everything else of the imbalance model as rybka1.
    w.knight_extra = 1700;
    w.bishop_extra = 1700;
    w.mat_value_limit = 32767;  // int16 table (movswl, §2.5)
    // §3.2 / §13.4: linear W (already rybka1's choice).
    w.phase_curve = PhaseCurve::Linear;
    // §4.2 right blocks: data.
    w.pst_source = PstSource::Rybka232Data;
    // §5.3 2.3.2a column (asm values; §15 item 5 for the summary's mis-pairing).
    w.doubled_op = 78;
    w.doubled_eg = 165;
    w.isolated_open_op = 522;
    w.isolated_op = 156;
    w.isolated_open_eg = 670;
    w.isolated_eg = 201;
    w.backward_open_op = 418;
    w.backward_op = 130;
    w.backward_open_eg = 536;
    w.backward_eg = 167;
    // Candidates as listed; the eg half is printed identical to op (§15 item 15: unverified, used as given).
    w.candidate_op = {0, 8, 8, 224, 653, 1306, 0, 0};
    w.candidate_eg = {0, 8, 8, 224, 653, 1306, 0, 0};
    // Passer base moved into the pawn evaluation, frontmost pawn of the file (§5.3, §13.4).
    w.passer_base_in_pawn_entry = true;
    w.passed_op = {0, 60, 60, 318, 822, 1593, 2613, 0};
    w.passed_eg = {0, 60, 60, 318, 822, 1592, 2612, 0};
    // §13.1 pawn anti-mobility.
    w.pawn_blocked_op = 42;
    w.pawn_blocked_eg = 339;
    // §13.2 drawishness: the 256-byte table is [unknown]. Chosen: a side whose pawns occupy few of
    // the files b..g is drawish when it is ahead (rook pawns and few pawn files are the classic
    // drawing cases): 0 files 240, 1 file 160, 2 files 80, 3+ files 0. With mul 156 / div 240 the
    // largest reduction is (100 * 156) >> 8 = 60 cp (k = 156). Multipliers are the asm's (§13.2).
    w.drawish_by_files = {240, 160, 80, 0, 0, 0, 0};
    // §7.2: shelter/storm values "changed a bit" [unknown] -> rybka1's; castling rights ignored.
    w.shelter_castling = false;
    // §7.1 2.3.2a column.
    w.king_attack_weight = {0, 0, 30, 57, 81, 81, 81, 81, 81, 81, 81, 81, 81, 81, 81, 81};
    // §8: knight mobility removed; (op, eg) from the packed immediates (op = high half): B 0x790079,
    // R 0x440052, Q 0x2c0026.
    w.mob_knight_op = w.mob_knight_eg = 0;
    w.mob_bishop_op = 121;
    w.mob_bishop_eg = 121;
    w.mob_rook_op = 68;
    w.mob_rook_eg = 82;
    w.mob_queen_op = 44;
    w.mob_queen_eg = 38;
    // §9: files, king file without material condition and without the adjacent-file bonus, 7th rank.
    w.rook_semi_open_op = 104;
    w.rook_semi_open_eg = 268;
    w.rook_open_op = 627;
    w.rook_open_eg = 180;
    w.rook_king_zone_op = 0;
    w.rook_king_file_op = 795;
    w.rook_king_needs_flag = false;
    w.rook_king_file_needs_zone = false;
    w.rook_seventh_op = 200;
    w.rook_seventh_eg = 1072;
    w.queen_seventh_op = 0;
    w.queen_seventh_eg = 1486;
    w.seventh_king_on_seventh = true;
    // §10.3 2.3.2a column (RybkaQuad reproduces them, §17.2).
    const std::array<int, 8> bonus = {0, 0, 0, 26, 77, 154, 256, 256};
    w.unblocked_own = rybka_quad(bonus, 0, 274);
    w.unblocked_opp = rybka_quad(bonus, 0, 1372);
    w.passed_free = rybka_quad(bonus, 0, 1046);
    w.att_distance = rybka_quad(bonus, 0, 680);
    w.def_distance = rybka_quad(bonus, 0, 1355);
    // §13.3: the unstoppable / king-passer logic moved into the K+P evaluator, whose code the seeds
    // omit. Stand-in: the 1.0 rule (25600) only where that evaluator runs (no pieces on the board);
    // with pieces, 2.3.2a's general code has no unstoppable bonus, so the path terms apply.
    w.unstoppable_pure_pawn_ending = true;
    // §11 2.3.2a column: per trapped bishop 1471 (same squares, so 6th = 7th), no blocked bishop.
    w.trapped_bishop_per_bishop = true;
    w.trapped_bishop_op = w.trapped_bishop_eg = 1471;
    w.trapped_bishop_6th_op = w.trapped_bishop_6th_eg = 1471;
    w.blocked_bishop_op = 0;
    w.blocked_rook_op = 1561;
    // §12: no tempo; lazy test of 2.3.2a uses the previous positional score and (alpha, beta)-like
    // bounds with [unknown] margins -> not reproduced: no lazy window (material lazy bits are all 0).
    w.tempo = 0;
    w.lazy_window = false;
    // §12.1: halve after interpolation; pawn field wraps (|WP - BP| <= 2 or >= 6).
    w.ocb_after_interpolation = true;
    w.ocb_pawn_wrap = true;
    return w;
}

// ---------------------------------------------------------------------------------------------
// Fruit 2.1 († values of the spec, Fruit columns). Fruit counts centipawns; Quince keeps 1/32 cp,
// so every Fruit value is multiplied by 32 (cp32). Fruit's mix (op (256 - ph) + eg ph) / 256 with
// ph = phase256 becomes Quince's (op W0 + eg W1) >> 13 with linear W = (256 - 4 p, 4 p), p = phase256/4:
// 32 cp * W / 8192 = cp * W / 256 — exact except that phase256 is quantised to multiples of 4 (up to
// 3/256 of the op-eg difference) and the division floors (Fruit truncates toward zero).
constexpr int cp32(int cp) { return 32 * cp; }

Weights make_fruit21() {
    Weights w = make_rybka1();
    w.name = "fruit21";
    // Material: P 80 op / 90 eg, N 325, B 325, R 500, Q 1000, bishop pair 50. One unit of D = 80 cp;
    // the other pieces' differences to D's 3/3/5/10 pawns go to the *_extra weights, the 10 cp eg
    // pawn difference to pawn_endgame_extra. No Kaufman terms.
    w.pawn_unit = cp32(80);
    w.pawn_endgame_extra = cp32(10);
    w.knight_extra = cp32(325 - 3 * 80);
    w.bishop_extra = cp32(325 - 3 * 80);
    w.rook_extra = cp32(500 - 5 * 80);
    w.queen_extra = cp32(1000 - 10 * 80);
    w.bishop_pair = cp32(50);
    w.knight_pawn_adjust = w.rook_pawn_adjust = 0;
    w.rook_redundancy = w.queen_rook_redundancy = 0;
    w.phase_curve = PhaseCurve::Linear;
    // PST: Fruit's own weights in the same generator (§4.1 Fruit column).
    w.pst_source = PstSource::Generator;
    w.pawn_file_opening = cp32(5);
    w.pawn_file_endgame = 0;
    w.pawn_centre_d3e3_opening = cp32(10);
    w.pawn_centre_d4e4_opening = cp32(20);
    w.pawn_centre_d5e5_opening = cp32(10);
    w.knight_centre_opening = cp32(5);
    w.knight_centre_endgame = cp32(5);
    w.knight_rank_opening = cp32(5);
    w.knight_back_rank_opening = 0;
    w.knight_trapped = cp32(100);
    w.bishop_centre_opening = cp32(2);
    w.bishop_centre_endgame = cp32(3);
    w.bishop_back_rank_opening = cp32(10);
    w.bishop_diagonal_opening = cp32(4);
    w.rook_file_opening = cp32(3);
    w.queen_centre_opening = 0;
    w.queen_centre_endgame = cp32(4);
    w.queen_back_rank_opening = cp32(5);
    w.king_centre_endgame = cp32(12);
    w.king_file_opening = cp32(10);
    w.king_rank_opening = cp32(10);
    // Pawn structure (§5.3 Fruit column). Rule approximation: Quince applies Rybka's backward and
    // candidate definitions (§5.2 lists Fruit's differences: double step from the 2nd rank only,
    // blocking piece, the extra "direct" candidate count) with Fruit's values.
    w.doubled_op = cp32(10);
    w.doubled_eg = cp32(20);
    w.isolated_open_op = cp32(20);
    w.isolated_op = cp32(10);
    w.isolated_open_eg = w.isolated_eg = cp32(20);
    w.backward_open_op = cp32(16);
    w.backward_op = cp32(8);
    w.backward_open_eg = w.backward_eg = cp32(10);
    // Fruit's Bonus[] (Rank4..Rank7 = 26, 77, 154, 256; rank 8 = 0) and its rounding quad().
    const std::array<int, 8> bonus = {0, 0, 0, 26, 77, 154, 256, 0};
    auto q32 = [&bonus](int min, int max) {
        std::array<int, 8> a = fruit_quad(bonus, min, max);
        for (int& x : a) x = cp32(x);
        return a;
    };
    w.candidate_op = q32(5, 55);
    w.candidate_eg = q32(10, 110);
    // King safety: shelter 36 - (8 - R)^2 per file (R = relative rank of the nearest own pawn),
    // weak back rank 11, storm 60/30/10 for an enemy pawn on our rank 3/4/5 (StormOpening 10).
    // Machinery limit: Quince evaluates the king's wing rectangle (files a-c / d-f / f-h, ranks 2-5)
    // instead of the king's own file +-1 from its rank up; pawns on ranks 6-7 count as "none" (36,
    // Fruit 32/35). B1/G1 castling squares are exactly wings 0/2.
    w.shelter_value = {cp32(36), cp32(0), cp32(11), cp32(20), cp32(27)};
    w.storm_value = {0, 0, cp32(60), cp32(30), cp32(10)};
    w.weak_back_rank = cp32(11);
    w.shelter_castling = true;
    // King attack: op -= tot * KingAttackOpening(20) * Weight[n] / 256 with units N 1, B 1, R 2, Q 4.
    // In 1/32 cp: 32 * 20 / 256 = 2.5 = 80 / 32, so units x 80 with Quince's (Weight * tot) >> 5.
    // Fruit counts no pawns; its piece_attack_king targets the king's neighbours, as Quince's zone.
    w.king_attack_unit_knight = 80;
    w.king_attack_unit_bishop = 80;
    w.king_attack_unit_rook = 160;
    w.king_attack_unit_queen = 320;
    w.king_attack_weight = {0, 0, 128, 192, 224, 240, 248, 252, 254, 255, 256, 256, 256, 256, 256, 256};
    w.king_attack_pawns = false;
    // Mobility (op, eg) per square with Fruit's unit offsets.
    w.mob_knight_op = cp32(4);
    w.mob_knight_eg = cp32(4);
    w.mob_bishop_op = cp32(5);
    w.mob_bishop_eg = cp32(5);
    w.mob_rook_op = cp32(2);
    w.mob_rook_eg = cp32(4);
    w.mob_queen_op = cp32(1);
    w.mob_queen_eg = cp32(2);
    w.mob_knight_offset = 4;
    w.mob_bishop_offset = 6;
    w.mob_rook_offset = 7;
    w.mob_queen_offset = 13;
    // Rook files: whole file (Fruit's pawn_file test), -RookOpenFile/2 on every rook, semi-open
    // (10, 10), open total (20, 20), king within one file +10, on the file +20 (needs MatKingFlag).
    // With the whole file, "file meets the king's neighbours" == |file - king file| <= 1: exact.
    w.rook_file_whole = true;
    w.rook_file_base_op = -cp32(10);
    w.rook_file_base_eg = -cp32(10);
    w.rook_semi_open_op = cp32(10);
    w.rook_semi_open_eg = cp32(10);
    w.rook_open_op = cp32(20 - 10);
    w.rook_open_eg = cp32(20 - 10);
    w.rook_king_zone_op = cp32(10);
    w.rook_king_file_op = cp32(20 - 10);
    w.rook_king_needs_flag = true;
    w.rook_king_file_needs_zone = true;
    w.rook_seventh_op = cp32(20);
    w.rook_seventh_eg = cp32(40);
    w.queen_seventh_op = cp32(10);
    w.queen_seventh_eg = cp32(20);
    w.seventh_king_on_seventh = false;
    // Passers: op quad(10, 70); eg = min 20 + quad(0, delta) with delta = 120 + UnstoppablePasser 800
    // (or FreePasser 60) - 5 * attacker distance + 20 * defender distance. Quince sums one quad per
    // component (equal up to rounding; Fruit's "delta > 0" clamp is not reproduced). Fruit's free
    // passer (stop square empty and SEE >= 0) is approximated by Quince's path test; Fruit has no
    // unblocked terms.
    w.passer_base_in_pawn_entry = false;
    w.passed_op = q32(10, 70);
    w.passed_eg = q32(20, 140);
    w.unblocked_own.fill(0);
    w.unblocked_opp.fill(0);
    w.passed_free = q32(0, 60);
    for (int r = 0; r < 8; ++r) {
        w.att_distance[r] = (cp32(5) * bonus[r] + 128) / 256;
        w.def_distance[r] = (cp32(20) * bonus[r] + 128) / 256;
    }
    w.unstoppable_passer = q32(0, 800);  // scaled by rank like the rest of delta
    w.unstoppable_pure_pawn_ending = false;
    // Patterns: trapped bishop 100 (a7/b6, b8/c7, h7/g6, g8/f7), 50 on a6/b5, h6/g5, each bishop
    // (Fruit: a7 and b8 together count once per wing; two same-coloured bishops there need a
    // promotion); blocked bishop 50, blocked rook 50 (same squares as Rybka).
    w.trapped_bishop_per_bishop = true;
    w.trapped_bishop_op = w.trapped_bishop_eg = cp32(100);
    w.trapped_bishop_6th_op = w.trapped_bishop_6th_eg = cp32(50);
    w.blocked_bishop_op = cp32(50);
    w.blocked_rook_op = cp32(50);
    // No tempo, no lazy evaluation; opposite bishops: mul 8/16 after interpolation.
    w.tempo = 0;
    w.lazy_window = false;
    w.ocb_after_interpolation = true;
    w.ocb_pawn_wrap = false;
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
    {"rybka232", make_rybka232, false, {}, nullptr},
    {"fruit21", make_fruit21, false, {}, nullptr},
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
