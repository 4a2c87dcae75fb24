// Evaluation profiles: every weight of the evaluation in one struct, plus the tables derived from it.
// Units: "internal units" = 1/32 centipawn (one pawn of material = 3399), as in Rybka 1.0 (spec eval.md §1).
// Section numbers (§x.y) refer to /work/shared/spec/eval.md; "seed 00n" to /work/shared/seeds/.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace quince::eval {

enum class PhaseCurve { Linear, ThreeSection };

struct Weights {
    std::string name;

    // ---- Material (§1, §2) ----
    int pawn_unit;  // value of one unit of D (D = 10dQ + 5dR + 3dB + 3dN + dP)
    // Imbalance model filling mat_value (§2.3, §16: values not in the seeds; Kaufman 1999 model).
    // All in internal units, per side, White minus Black.
    int knight_extra;          // knight = 3 units + this
    int bishop_extra;          // bishop = 3 units + this
    int rook_extra;            // rook = 5 units + this
    int queen_extra;           // queen = 10 units + this
    int bishop_pair;           // two bishops
    int knight_pawn_adjust;    // per own pawn above knight_pawn_base, per knight
    int rook_pawn_adjust;      // per own pawn above rook_pawn_base, per rook (negative: rooks lose value with pawns)
    int knight_pawn_base;
    int rook_pawn_base;
    int rook_redundancy;       // second rook
    int queen_rook_redundancy; // queen together with at least one rook

    // ---- Phase / interpolation (§3) ----
    int phase_minor, phase_rook, phase_queen, phase_total;  // Fruit's KnightPhase=BishopPhase, RookPhase, ...
    PhaseCurve phase_curve;

    // ---- PST generator (§4.1) ----
    int pawn_file_opening, pawn_file_endgame, pawn_centre_d5e5_opening;
    int knight_centre_opening, knight_centre_endgame, knight_rank_opening, knight_back_rank_opening, knight_trapped;
    int bishop_centre_opening, bishop_centre_endgame, bishop_back_rank_opening, bishop_diagonal_opening;
    int rook_file_opening;
    int queen_centre_opening, queen_centre_endgame, queen_back_rank_opening;
    int king_centre_endgame, king_file_opening, king_rank_opening;

    // ---- Pawn structure (§5.3) ----
    int doubled_op, doubled_eg;
    int isolated_open_op, isolated_op, isolated_eg;
    int backward_open_op, backward_op, backward_eg;
    std::array<int, 2> candidate_op_minmax, candidate_eg_minmax;  // RybkaQuad (min, max), §10.4

    // ---- Shelter / storm (§7.2) ----
    std::array<int, 5> shelter_value;  // d = 0 (none) .. 4 (own nearest pawn on rel. rank 5)
    std::array<int, 5> storm_value;
    int weak_back_rank;                // shelter when every file has its pawn on rank 2 (sum 0)

    // ---- King attack (§7.1) ----
    int king_attack_unit_knight, king_attack_unit_bishop, king_attack_unit_rook, king_attack_unit_queen;
    std::array<int, 16> king_attack_weight;  // by attacker count (pawns together count once)

    // ---- Mobility (§8), per attacked square not occupied by an own piece ----
    int mob_knight_op, mob_knight_eg, mob_bishop_op, mob_bishop_eg;
    int mob_rook_op, mob_rook_eg, mob_queen_op, mob_queen_eg;

    // ---- Rooks and queens (§9) ----
    int rook_semi_open_op, rook_semi_open_eg;  // no own pawn in front
    int rook_open_op, rook_open_eg;            // increment when no enemy pawn in front either
    int rook_king_zone_op;                     // forward file meets the enemy king zone (needs king-safety flag)
    int rook_king_file_op;                     // increment: enemy king on the forward file
    int rook_seventh_op, rook_seventh_eg;
    int queen_seventh_op, queen_seventh_eg;

    // ---- Passed pawns (§10), RybkaQuad (min, max) pairs ----
    std::array<int, 2> passed_op_minmax, passed_eg_minmax;
    std::array<int, 2> unblocked_own_minmax, unblocked_opp_minmax, passed_free_minmax;
    std::array<int, 2> att_distance_minmax, def_distance_minmax;
    std::array<int, 8> passer_bonus;  // Fruit's Bonus[] shape for quad(), by relative rank (§10.4)
    int unstoppable_passer;  // also the king-passer bonus (one bonus, §15 item 10)

    // ---- Patterns (§11) ----
    int trapped_bishop_op, trapped_bishop_eg, blocked_bishop_op, blocked_rook_op;

    // ---- Final (§1, §12) ----
    int tempo;            // centipawns, after interpolation
    int lazy_margin;      // pawn units (D) around the window, §12.3
    bool ocb_halving;     // opposite-coloured bishops halve op and eg (§12.1)
};

// Derived tables: built once per profile at first use.
struct MatEntry {
    std::uint8_t flags;   // DrawBishopFlag = 0x80
    std::uint8_t cflags;  // MatWhiteKingFlag 0x08, MatBlackKingFlag 0x80
    std::uint8_t phase;   // 0..64
    std::uint8_t lazy;    // 1 = always material-only (all 0 in rybka1; mechanism only)
    std::int32_t value;   // mat_value, internal units, White minus Black
};
static_assert(sizeof(MatEntry) == 8);

constexpr std::uint8_t DRAW_BISHOP_FLAG = 0x80;
constexpr std::uint8_t MAT_WHITE_KING_FLAG = 0x08;
constexpr std::uint8_t MAT_BLACK_KING_FLAG = 0x80;

struct Profile {
    Weights w;
    bool simple = false;  // profile "simple": the baseline simple_evaluate()

    // PST: [piece type 1..6][square], White's view; Black uses [sq ^ 56] and subtracts.
    int pst_op[7][64], pst_eg[7][64];
    std::int64_t pst_packed[7][64];  // same values packed as pack(op, eg) for the hot path
    std::int64_t mob_packed[7];      // per-square mobility weight pack(op, eg) by piece type
    int interp[65][2];  // W[phase][0] (op), W[phase][1] (eg)
    int cand_op[8], cand_eg[8];
    int passed_op[8], passed_eg[8], unblocked_own[8], unblocked_opp[8], passed_free[8], att_dist[8], def_dist[8];
    std::vector<std::uint16_t> shelter_table, storm_table;  // 4096 each
    std::vector<MatEntry> material;                          // 236 196 entries

    // Entry for arbitrary counts (also over the table limits), same generator as the table (§2.4).
    MatEntry compute_material(int wq, int bq, int wr, int br, int wb, int bb, int wn, int bn, int wp, int bp) const;
};

// Two 32-bit halves in one 64-bit integer so that op and eg are added (and multiplied by a count) in
// one instruction: value = op * 2^32 + eg (eg may be negative and borrows from the high half).
constexpr std::int64_t pack(int op, int eg) { return std::int64_t(std::uint64_t(std::int64_t(op)) << 32) + eg; }
constexpr int unpack_eg(std::int64_t s) { return int(std::int32_t(std::uint32_t(std::uint64_t(s)))); }
constexpr int unpack_op(std::int64_t s) { return int((s - unpack_eg(s)) >> 32); }

// Profile names usable for Evaluator::set_profile and the UCI option EvalProfile (first = default).
std::vector<std::string> profile_names();
// nullptr for an unknown name. Profiles are built on first use (thread-safe) and live forever.
const Profile* find_profile(const std::string& name);
const Weights& rybka1_weights();

}  // namespace quince::eval
