// Evaluation profiles: every weight of the evaluation in one struct, plus the tables derived from it.
// Units: "internal units" = 1/32 centipawn (one pawn of material = 3399), as in Rybka 1.0 (spec docs/eval-spec.md §1).
// Section numbers (§x.y) refer to docs/eval-spec.md; "seed 00n" to the seeds listed in docs/eval-spec.md.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace quince::eval {

// W[65][2]: linear, the three-section shape guess for Rybka 1.0 (§3.2), or an explicit table
// (phase_table_eg; a tuned profile).
enum class PhaseCurve { Linear, ThreeSection, Table };
// Where the piece-square tables come from: the §4.1 generator (Fruit shapes x weights; rybka1,
// fruit21) or explicit tables in the profile (pst_*_op/eg): the Rybka 2.3.2a tables of seed 003 §3
// (§4.2 right blocks; no generator reproduces them, §4.1 last paragraph), or tuned tables.
enum class PstSource { Generator, Table };
// The evaluation's code path for a profile. Fast: the switches beyond the Rybka 1.0 set (and the weights
// only they use) are fixed at their 1.0 values at compile time, fewer instructions; General: read from
// the profile. Which one a profile takes follows from its values (eval/weights.h fast_path_holds).
enum class Path { Fast, General };

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
    int mat_value_limit;       // 0 = int32 (1.0); 32767 = 2.3.2a's 16-bit table (values saturate, §2.5)
    int pawn_endgame_extra;    // eg only, per pawn of the difference (Fruit: P 80 op / 90 eg); 0 in Rybka

    // ---- Phase / interpolation (§3) ----
    int phase_minor, phase_rook, phase_queen, phase_total;  // Fruit's KnightPhase=BishopPhase, RookPhase, ...
    PhaseCurve phase_curve;
    std::array<int, 65> phase_table_eg;  // W[phase][1] when phase_curve == Table (W[phase][0] = 256 - it)

    // ---- PST generator (§4.1) ----
    PstSource pst_source;
    int pawn_file_opening, pawn_file_endgame, pawn_centre_d5e5_opening;
    int pawn_centre_d3e3_opening, pawn_centre_d4e4_opening;  // Fruit's other centre squares (0 in Rybka)
    int knight_centre_opening, knight_centre_endgame, knight_rank_opening, knight_back_rank_opening, knight_trapped;
    int bishop_centre_opening, bishop_centre_endgame, bishop_back_rank_opening, bishop_diagonal_opening;
    int rook_file_opening;
    int queen_centre_opening, queen_centre_endgame, queen_back_rank_opening;
    int king_centre_endgame, king_file_opening, king_rank_opening;
    // Explicit tables (pst_source == Table): [piece type PAWN..KING][square], White's view, a1 = 0.
    std::array<std::array<int, 64>, 7> pst_table_op, pst_table_eg;

    // ---- Pawn structure (§5.3) ----
    int doubled_op, doubled_eg;
    int isolated_open_op, isolated_op, isolated_open_eg, isolated_eg;  // "open": no pawn in front (1.0: eg equal)
    int backward_open_op, backward_op, backward_open_eg, backward_eg;
    std::array<int, 8> candidate_op, candidate_eg;  // by relative rank (1.0: RybkaQuad (min, max), §10.4)
    bool passer_base_in_pawn_entry;  // 2.3.2a: PassedOpening/Endgame scored in the pawn evaluation (§5.3)
    int pawn_blocked_op, pawn_blocked_eg;  // 2.3.2a pawn "anti-mobility": per pawn whose push square is occupied (§13.1)
    // 2.3.2a drawishness (§13.2): byte per colour from its pawn files b..g, applied to the final score.
    // Indexed by the number of occupied files among b..g (the table itself is [unknown]; see profile.cpp).
    std::array<int, 7> drawish_by_files;
    int drawish_mul, drawish_div, drawish_cap;  // k = d * mul / div; s -= (min(s, cap) * k) >> 8

    // ---- Shelter / storm (§7.2) ----
    std::array<int, 5> shelter_value;  // d = 0 (none) .. 4 (own nearest pawn on rel. rank 5)
    std::array<int, 5> storm_value;
    int weak_back_rank;                // shelter when every file has its pawn on rank 2 (sum 0)
    bool shelter_castling;             // 1.0: average with the best wing the king may castle to; 2.3.2a: own wing only

    // ---- King attack (§7.1) ----
    int king_attack_unit_knight, king_attack_unit_bishop, king_attack_unit_rook, king_attack_unit_queen;
    std::array<int, 16> king_attack_weight;  // by attacker count (pawns together count once)
    bool king_attack_pawns;                  // pawns count as one attacker (Rybka); Fruit does not count pawns
    // Quince (beyond the seeds): safe checking squares add attack units, per checking piece type. A
    // square is safe when the defender attacks it with nothing (pawn, piece or king) and it is free of
    // the attacker's own pieces.
    bool king_safe_checks;
    int king_check_unit_knight, king_check_unit_bishop, king_check_unit_rook, king_check_unit_queen;
    // With king_safe_checks: units per square next to the king that a knight, bishop, rook or queen of
    // the attacker reaches and the defender covers with nothing but its king or queen (a weak square).
    int king_weak_unit;

    // ---- King danger (Quince, Ethereal 12 / Stockfish form; replaces the king attack above when on) ----
    // A danger count against the enemy king (eval/king_danger.h): attackers x their weights, attacks on the
    // 3x4 zone, weak zone squares, the defender's pawns in the zone, its shelter penalty, no attacking
    // queen, safe checks by piece, a constant; opening count^2 / 2048, endgame count * king_danger_eg / 512.
    bool king_danger;
    int king_danger_attacker_knight, king_danger_attacker_bishop, king_danger_attacker_rook, king_danger_attacker_queen;
    int king_danger_zone_attack;  // per attack of a knight, bishop, rook or queen on a zone square
    int king_danger_weak;         // per weak zone square (attacked, defended at most once, by king or queen only)
    int king_danger_pawn;         // per defending pawn in the zone on a square that is not weak
    int king_danger_shelter;      // per centipawn of the defender's shelter/storm penalty (§7.2 tables)
    int king_danger_no_queen;     // the attacker has no queen
    int king_danger_check_knight, king_danger_check_bishop, king_danger_check_rook, king_danger_check_queen;
    int king_danger_adjust;       // constant
    int king_danger_eg;           // endgame part: count * this / 512

    // ---- Threats (Quince, beyond the seeds): per enemy piece so attacked ----
    bool threats;
    int threat_pawn_op, threat_pawn_eg;        // a knight, bishop, rook or queen attacked by a pawn
    int threat_minor_op, threat_minor_eg;      // a rook or queen attacked by a knight or bishop
    int threat_rook_op, threat_rook_eg;        // a queen attacked by a rook
    int threat_hanging_op, threat_hanging_eg;  // a piece (not pawn, not king) attacked and not defended

    // ---- Mobility (§8), per attacked square not occupied by an own piece ----
    int mob_knight_op, mob_knight_eg, mob_bishop_op, mob_bishop_eg;
    int mob_rook_op, mob_rook_eg, mob_queen_op, mob_queen_eg;
    // Subtracted from each piece's square count (Fruit's KnightUnit 4, BishopUnit 6, RookUnit 7,
    // QueenUnit 13); 0 in Rybka (it folds the constant into material, §8).
    int mob_knight_offset, mob_bishop_offset, mob_rook_offset, mob_queen_offset;

    // ---- Rooks and queens (§9) ----
    bool rook_file_whole;                      // Fruit: pawns on the whole file count (Rybka: in front only)
    int rook_file_base_op, rook_file_base_eg;  // every rook (Fruit: -RookOpenFile/2); 0 in Rybka
    int rook_semi_open_op, rook_semi_open_eg;  // no own pawn in front
    int rook_open_op, rook_open_eg;            // increment when no enemy pawn in front either
    int rook_king_zone_op;                     // forward file meets the enemy king zone (needs king-safety flag)
    int rook_king_file_op;                     // increment: enemy king on the forward file
    bool rook_king_needs_flag;                 // king-file bonuses only when the king-safety flag is set (1.0)
    bool rook_king_file_needs_zone;            // king-file bonus nested in the zone test (1.0); 2.3.2a: file only
    bool seventh_king_on_seventh;              // 2.3.2a: enemy king on the 7th also qualifies (§9.2)
    int rook_seventh_op, rook_seventh_eg;
    int queen_seventh_op, queen_seventh_eg;

    // ---- Passed pawns (§10), by relative rank (1.0: RybkaQuad (min, max) of seed 001, §10.4) ----
    std::array<int, 8> passed_op, passed_eg;
    std::array<int, 8> unblocked_own, unblocked_opp, passed_free;
    std::array<int, 8> att_distance, def_distance;
    std::array<int, 8> unstoppable_passer;  // also the king-passer bonus (one bonus, §15 item 10)
    bool unstoppable_pure_pawn_ending;      // 2.3.2a: only when neither side has pieces (§13.3 stand-in)

    // ---- 2.3.2a pawn-ending evaluator (§13.3; its values are [unknown], see eval/pawn_ending.h) ----
    bool pawn_ending_evaluator;             // kings and pawns only: the evaluator below replaces the unstoppable test
    int pawn_ending_kpk_win;                // K+P v K won by the table (a lost KPK is a draw: score 0)
    std::array<int, 8> key_square_passer;   // own king on a key square of the passer, by relative rank
    std::array<int, 8> protected_passer;    // passer defended by an own pawn
    int outside_passer;                     // per file of distance beyond one from the nearest enemy pawn (max 3)

    // ---- Patterns (§11) ----
    int trapped_bishop_op, trapped_bishop_eg, blocked_bishop_op, blocked_rook_op;
    bool trapped_bishop_per_bishop;                  // 2.3.2a / Fruit: each trapped bishop (1.0: once)
    int trapped_bishop_6th_op, trapped_bishop_6th_eg;  // per-bishop mode: a6/b5, h6/g5 (Fruit: half)

    // ---- Final (§1, §12) ----
    int tempo;            // centipawns, after interpolation
    int lazy_margin;      // pawn units (D) around the window, §12.3
    bool lazy_window;     // root-window lazy test of 1.0 (§12.3); off: only the material entry's lazy bit
    bool ocb_halving;     // opposite-coloured bishops halve op and eg (§12.1)
    bool ocb_after_interpolation;  // 2.3.2a / Fruit: halve the interpolated score instead
    bool ocb_pawn_wrap;   // 2.3.2a: 3-bit field 2 + WP - BP also accepts |WP - BP| >= 6 (§12.1)
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
    int mob_offset[7];               // subtracted from the square count by piece type (Fruit)
    int interp[65][2];  // W[phase][0] (op), W[phase][1] (eg)
    int cand_op[8], cand_eg[8];
    std::uint8_t drawish[256];  // by file byte (bit f = a pawn on file f), §13.2
    bool drawish_on;            // any non-zero entry
    // General when some weight differs from the value the fast path fixes for it (WeightDesc::fast);
    // otherwise Fast (same results, fewer instructions).
    Path path;
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

// Profile names usable for Evaluator::set_profile and the UCI option EvalProfile (the default is
// default_profile(), `quince`, declared in evaluate.h).
std::vector<std::string> profile_names();
// nullptr for an unknown name. Built-in profiles are parsed and built on first use (thread-safe) and
// live forever.
const Profile* find_profile(const std::string& name);
std::shared_ptr<const Profile> find_profile_shared(const std::string& name);
// The weights of a built-in profile; false for an unknown name.
bool builtin_weights(const std::string& name, Weights& out);
// A profile from weights (derived tables built), e.g. a tuner's current weights.
std::shared_ptr<const Profile> build_profile(const Weights& w);
// A profile from the text of a weight file (format: eval/weights.h) or from a file; nullptr and *error
// ("FILE:LINE: what") when it does not parse.
std::shared_ptr<const Profile> profile_from_text(const std::string& text, const std::string& source, std::string* error);
std::shared_ptr<const Profile> load_profile_file(const std::string& path, std::string* error);

}  // namespace quince::eval
