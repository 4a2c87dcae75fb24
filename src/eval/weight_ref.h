// Compile-time handles of the weights of eval/weight_list.h: `WI::name` knows the weight's field in
// Weights and its flat index in the tuner's parameter vector (eval/weights.h weight_index), so a term
// reads the value, records the tuner's coefficient and credits the trace with one typed call
// (Acc::term in eval/terms.h) and no name is looked up at run time.
//
// Flat numbering: every integer of the list in list order; a scalar takes one index, a pair two (op,
// then eg), an array N, a pair of arrays 2N (the op array, then the eg array), an explicit PST row 128
// (op squares, then eg squares); switches, groups and enumerations none.
#pragma once

#include "core/types.h"
#include "eval/profile.h"

namespace quince::eval {

// Which sum a scalar or array weight enters (the list's role column; eval/weights.h Role).
enum class Role : std::uint8_t {
    Fixed,   // not tunable: a structural integer (bases, offsets, divisors, limits)
    Op,      // added to the opening sum (internal units)
    Eg,      // added to the endgame sum
    Both,    // added to both sums (material)
    Cp,      // added after interpolation, centipawns (tempo)
    KingAttackUnit,    // (king_attack_weight[count] * sum of units) >> 5, opening: non-linear, chain rule
    KingAttackWeight,
    PhaseEg,           // W[phase][1] (W[phase][0] = 256 - it)
    Complexity,        // eg += sign(eg) * max(complexity, -|eg|) (eval/scaling.h): non-linear, chain rule
};

// One int (Role says which sum it enters).
struct IntRef {
    int index;
    int Weights::*field;
    Role role;
    int value(const Weights& w) const { return w.*field; }
};
// An op/eg pair: `name_op` at index, `name_eg` at index + 1.
struct PairRef {
    int index;
    int Weights::*op;
    int Weights::*eg;
};
// An array of N (element e at index + e).
template <int N>
struct ArrayRef {
    static constexpr int size = N;
    int index;
    std::array<int, N> Weights::*field;
    Role role;
    int value(const Weights& w, int e) const { return (w.*field)[std::size_t(e)]; }
};
// A pair of arrays: op element e at index + e, eg element e at index + N + e.
template <int N>
struct PairArrayRef {
    static constexpr int size = N;
    int index;
    std::array<int, N> Weights::*op;
    std::array<int, N> Weights::*eg;
};
// An explicit piece-square table row: op square s at index + s, eg at index + 64 + s.
struct PstRef {
    int index;
    int piece;
};

// Whether weights follow one another in the flat numbering (a run the tuner walks by offset from the
// first): checked with static_assert where a run is declared, so that the list's order is tied to it.
template <std::size_t N>
constexpr bool is_index_run(const IntRef (&run)[N]) {
    for (std::size_t i = 0; i < N; ++i)
        if (run[i].index != run[0].index + int(i)) return false;
    return true;
}

namespace weight_entry {

// One enumerator per line of the list, and the number of flat indices each line takes.
#define QUINCE_E_NAME(name, ...) name,
enum Entry : int { QUINCE_WEIGHTS(QUINCE_E_NAME, QUINCE_E_NAME, QUINCE_E_NAME, QUINCE_E_NAME, QUINCE_E_NAME,
                                  QUINCE_E_NAME, QUINCE_E_NAME, QUINCE_E_NAME) ENTRY_NB };
#undef QUINCE_E_NAME
#define QUINCE_E_INT(...) 1,
#define QUINCE_E_PAIR(...) 2,
#define QUINCE_E_ARRAY(name, n, ...) n,
#define QUINCE_E_PAIR_ARRAY(name, n, ...) 2 * (n),
#define QUINCE_E_NONE(...) 0,
#define QUINCE_E_TABLE(...) 128,
inline constexpr int SIZE[ENTRY_NB + 1] = {QUINCE_WEIGHTS(QUINCE_E_INT, QUINCE_E_PAIR, QUINCE_E_ARRAY, QUINCE_E_PAIR_ARRAY,
                                                          QUINCE_E_NONE, QUINCE_E_NONE, QUINCE_E_TABLE, QUINCE_E_NONE) 0};
#undef QUINCE_E_INT
#undef QUINCE_E_PAIR
#undef QUINCE_E_ARRAY
#undef QUINCE_E_PAIR_ARRAY
#undef QUINCE_E_NONE
#undef QUINCE_E_TABLE

constexpr int first(int entry) {
    int s = 0;
    for (int i = 0; i < entry; ++i) s += SIZE[i];
    return s;
}

}  // namespace weight_entry

// The number of tunable integers (eval/weights.h weight_count()).
inline constexpr int WEIGHT_NB = weight_entry::first(weight_entry::ENTRY_NB);

namespace WI {
#define QUINCE_R_INT(name, term, group, role, ...) \
    inline constexpr IntRef name{weight_entry::first(weight_entry::name), &Weights::name, Role::role};
#define QUINCE_R_PAIR(name, ...) \
    inline constexpr PairRef name{weight_entry::first(weight_entry::name), &Weights::name##_op, &Weights::name##_eg};
#define QUINCE_R_ARRAY(name, n, term, group, role, ...) \
    inline constexpr ArrayRef<n> name{weight_entry::first(weight_entry::name), &Weights::name, Role::role};
#define QUINCE_R_PAIR_ARRAY(name, n, ...)                                                                 \
    inline constexpr PairArrayRef<n> name{weight_entry::first(weight_entry::name), &Weights::name##_op, \
                                          &Weights::name##_eg};
#define QUINCE_R_NONE(...)
#define QUINCE_R_TABLE(name, piece, ...) inline constexpr PstRef name{weight_entry::first(weight_entry::name), piece};
QUINCE_WEIGHTS(QUINCE_R_INT, QUINCE_R_PAIR, QUINCE_R_ARRAY, QUINCE_R_PAIR_ARRAY, QUINCE_R_NONE, QUINCE_R_NONE,
               QUINCE_R_TABLE, QUINCE_R_NONE)
#undef QUINCE_R_INT
#undef QUINCE_R_PAIR
#undef QUINCE_R_ARRAY
#undef QUINCE_R_PAIR_ARRAY
#undef QUINCE_R_NONE
#undef QUINCE_R_TABLE
}  // namespace WI

}  // namespace quince::eval
