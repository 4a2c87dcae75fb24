// Evaluation profiles: every weight of the evaluation in one struct, plus the tables derived from it.
// Units: "internal units" = 1/32 centipawn (one pawn of material = 3399), as in Rybka 1.0 (spec docs/eval-spec.md §1).
// Section numbers (§x.y) refer to docs/eval-spec.md; "seed 00n" to the seeds listed in docs/eval-spec.md.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "eval/weight_list.h"

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

// Every weight and switch, generated from the list in eval/weight_list.h (which documents each one):
// `int name` for a scalar, `int name_op, name_eg` for an op/eg pair, `std::array<int, N>` for arrays,
// `bool` switches (a term group's too) and the enumerations above.
struct Weights {
    std::string name;
#define QUINCE_W_INT(name, ...) int name;
#define QUINCE_W_PAIR(name, ...) int name##_op, name##_eg;
#define QUINCE_W_ARRAY(name, n, ...) std::array<int, n> name;
#define QUINCE_W_PAIR_ARRAY(name, n, ...) std::array<int, n> name##_op, name##_eg;
#define QUINCE_W_BOOL(name, ...) bool name;
#define QUINCE_W_ENUM(name, type, ...) type name;
#define QUINCE_W_TABLE(...)
#define QUINCE_W_GROUP(name, ...) bool name;
    QUINCE_WEIGHTS(QUINCE_W_INT, QUINCE_W_PAIR, QUINCE_W_ARRAY, QUINCE_W_PAIR_ARRAY, QUINCE_W_BOOL, QUINCE_W_ENUM,
                   QUINCE_W_TABLE, QUINCE_W_GROUP)
#undef QUINCE_W_INT
#undef QUINCE_W_PAIR
#undef QUINCE_W_ARRAY
#undef QUINCE_W_PAIR_ARRAY
#undef QUINCE_W_BOOL
#undef QUINCE_W_ENUM
#undef QUINCE_W_TABLE
#undef QUINCE_W_GROUP
    // Explicit piece-square tables (pst_source == Table; the list's T lines are their rows):
    // [piece type PAWN..KING][square], White's view, a1 = 0.
    std::array<std::array<int, 64>, 7> pst_table_op, pst_table_eg;
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
    // The baseline's profile (build_simple_profile): weights its evaluation does not read, marked so that
    // code given only a Profile (the trace, the tuner, `quince weights`) tells it from a hand-crafted one.
    // What evaluates is decided by the evaluation's kind (eval/evaluation.h EvalKind), not by this.
    bool simple = false;

    // PST: [piece type 1..6][square], White's view; Black uses [sq ^ 56] and subtracts.
    int pst_op[7][64], pst_eg[7][64];
    std::int64_t pst_packed[7][64];  // same values packed as pack(op, eg) for the hot path
    std::int64_t mob_packed[7];      // per-square mobility weight pack(op, eg) by piece type
    int mob_offset[7];               // subtracted from the square count by piece type (Fruit)
    std::int64_t mob_table_packed[4][28];  // mob_tables: pack(op, eg) by [knight..queen][square count]
    int interp[65][2];  // W[phase][0] (op), W[phase][1] (eg)
    std::uint8_t drawish[256];  // by file byte (bit f = a pawn on file f), §13.2
    bool drawish_on;            // any non-zero entry
    // General when some weight differs from the value the fast path fixes for it (WeightDesc::fast);
    // otherwise Fast (same results, fewer instructions).
    Path path;
    std::vector<std::uint16_t> shelter_table, storm_table;  // 4096 each
    std::vector<MatEntry> material;                          // 236 196 entries

    // Entry for arbitrary counts (also over the table limits), same generator as the table (§2.4).
    MatEntry compute_material(int wq, int bq, int wr, int br, int wb, int bb, int wn, int bn, int wp, int bp) const;

    std::int64_t threats2_packed[9];  // threats2: pack(op, eg) of each kind in eval/threats.h THREATS2's order
};

// Two 32-bit halves in one 64-bit integer so that op and eg are added (and multiplied by a count) in
// one instruction: value = op * 2^32 + eg (eg may be negative and borrows from the high half).
constexpr std::int64_t pack(int op, int eg) { return std::int64_t(std::uint64_t(std::int64_t(op)) << 32) + eg; }
constexpr int unpack_eg(std::int64_t s) { return int(std::int32_t(std::uint32_t(std::uint64_t(s)))); }
constexpr int unpack_op(std::int64_t s) { return int((s - unpack_eg(s)) >> 32); }

// The built-in profiles by name (find_profile, builtin_weights, profile_names) are the registry's,
// eval/evaluation.h, included below for the code that names them.

// A profile from weights (derived tables built), e.g. a tuner's current weights.
std::shared_ptr<const Profile> build_profile(const Weights& w);
// The same marked as the baseline's (Profile::simple): only the registry makes one.
std::shared_ptr<const Profile> build_simple_profile(const Weights& w);
// A profile from the text of a weight file (format: eval/weights.h) or from a file; nullptr and *error
// ("FILE:LINE: what") when it does not parse.
std::shared_ptr<const Profile> profile_from_text(const std::string& text, const std::string& source, std::string* error);
std::shared_ptr<const Profile> load_profile_file(const std::string& path, std::string* error);

}  // namespace quince::eval

#include "eval/evaluation.h"  // the registry of built-in profiles (it names Profile only as a pointer)
