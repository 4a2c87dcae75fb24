// Shared state of one evaluation: the accumulators (op, eg in internal units, White's view), the
// attack sets both piece loops build, and the optional per-term trace. The trace is a template
// switch (Tracing): with Tracing::Off every trace line compiles away, so traced and normal evaluation
// run the same code.
#pragma once

#include <cstdint>
#include <iterator>
#include <vector>

#include "board/position.h"
#include "eval/endgame.h"
#include "eval/pawns.h"
#include "eval/profile.h"
#include "eval/weight_ref.h"

namespace quince::eval {

// The trace rows, from the list's QUINCE_TERMS (eval/weight_list.h).
enum Term : int {
#define QUINCE_T_ID(id, name, legend) id,
    QUINCE_TERMS(QUINCE_T_ID)
#undef QUINCE_T_ID
    TERM_NB
};

#define QUINCE_T_NAME(id, name, legend) name,
constexpr const char* TERM_NAMES[TERM_NB] = {QUINCE_TERMS(QUINCE_T_NAME)};
#undef QUINCE_T_NAME
// What a row holds, for the legend of `quince eval` (empty: said by the row before).
#define QUINCE_T_LEGEND(id, name, legend) legend,
constexpr const char* TERM_LEGENDS[TERM_NB] = {QUINCE_TERMS(QUINCE_T_LEGEND)};
#undef QUINCE_T_LEGEND

// Coefficient trace for the tuner (tools/tune): with a CoefTrace attached to the Trace, every term
// also records how often each weight entered it (the sparse coefficients of Ethereal's tuner),
// by the same code path as the evaluation itself.
// The king attack's unit weights, one run of flat indices in the order of CoefTrace::KingAttack::n (the
// tuner adds n[t] times the weight at KING_ATTACK_UNIT_RUN[0].index + t).
inline constexpr IntRef KING_ATTACK_UNIT_RUN[] = {
    WI::king_attack_unit_knight, WI::king_attack_unit_bishop, WI::king_attack_unit_rook, WI::king_attack_unit_queen,
    WI::king_check_unit_knight,  WI::king_check_unit_bishop,  WI::king_check_unit_rook,  WI::king_check_unit_queen,
    WI::king_weak_unit};
inline constexpr int KING_ATTACK_UNITS = int(std::size(KING_ATTACK_UNIT_RUN));
static_assert(is_index_run(KING_ATTACK_UNIT_RUN), "the king attack units must follow one another in weight_list.h");

struct CoefTrace {
    std::vector<double> c[COLOR_NB];  // [colour][flat weight index, eval/weights.h], that colour's own view
    // King attack (§7.1), non-linear: (king_attack_weight[count] * sum(n[t] * unit[t])) >> 5, opening.
    // The units are KING_ATTACK_UNIT_RUN above.
    struct KingAttack {
        bool on = false;
        int count = 0;   // attackers (capped at 15)
        int n[KING_ATTACK_UNITS] = {};  // knights, bishops, rooks, queens reaching the zone; their safe checks; weak squares
    } king_attack[COLOR_NB];
    int drawish[COLOR_NB] = {};  // 2.3.2a drawishness byte of each colour's pawn files (§13.2)
    // Endgame scaling (eval/scaling.h), non-linear: the complexity's inputs (COMPLEXITY_RUN's order)
    // and the scale factor for either colour as the stronger side.
    struct Scaling {
        bool complexity = false, scaled = false;
        int n[4] = {};
        int factor[COLOR_NB] = {128, 128};
    } scaling;
    void reset();                // sized to weight_count(), zeroed
    void add(Color c, int index, double k) { this->c[c][std::size_t(index)] += k; }  // flat index (WI::…)
};

// Per-square attribution (the workbench's picture, `quince eval --svg`): what each term credits on each
// square, White's view (positive = good for White), internal units. A piece's PST, mobility, king attack
// share, rook-file and seventh-rank terms and patterns go to its square; a pawn's structure and passer
// terms to the pawn; king shelter to the king; threats to the attacked piece. Material and imbalance
// belong to no square. For every other term the squares sum to the term's White - Black total.
struct SquareTrace {
    int v[TERM_NB][64][2] = {};  // [term][square][op/eg]
    Bitboard passers = 0;        // the passed pawns scored by the passer terms (both colours)
};

struct Trace {
    int v[TERM_NB][COLOR_NB][2] = {};  // [term][colour][op/eg], in that colour's own view
    MatEntry mat{};
    int material_index = 0;
    bool in_table = true;
    bool lazy = false;
    bool ocb = false;
    bool ocb_after = false;  // halving applied to the interpolated score (2.3.2a, Fruit)
    int drawish_cp = 0;      // 2.3.2a drawishness change of the final score, White's view (§13.2)
    bool known_draw = false; // 2.3.2a pawn-ending evaluator: a drawn K+P v K, scored 0
    int complexity_eg = 0;   // Quince: the complexity's change of the endgame part, White's view
    int scale = 128;         // Quince: the endgame part's scale factor (/128) applied
    int op_before_scale = 0, eg_before_scale = 0;
    int op = 0, eg = 0;  // after the opposite-bishop halving
    int w0 = 0, w1 = 0;
    int white_cp = 0;  // interpolated, White's view, floor applied in the side to move's view then re-signed
    int final_cp = 0;  // side to move's view, tempo included, after the known-ending scale (eval/endgame.h)
    // The last step (eval/endgame.h): the profile's own score before it, the rule that scaled it and
    // the score after the scale, before the fifty-move damping.
    int profile_cp = 0;  // side to move's view, tempo included
    int scaled_cp = 0;
    int ending_factor = 128;
    Ending ending = Ending::None;
    CoefTrace* coef = nullptr;  // optional: also record coefficients (tuner)
    SquareTrace* squares = nullptr;  // optional: also record per-square attribution (workbench)
};

// Whether an evaluation records its terms (Trace; the tuner's CoefTrace and the picture's SquareTrace
// ride on it). Off in play: every trace line compiles away.
enum class Tracing { Off, On };

template <Tracing T>
struct Acc {
    static constexpr bool traced = T == Tracing::On;
    int op = 0, eg = 0;
    Trace* tr = nullptr;

    const Weights* w = nullptr;  // the weights WI handles read (Acc::term)

    // The score only: o, e added to the sums (and to the trace's row t).
    template <Color C>
    inline void add(Term t, int o, int e) {
        if constexpr (C == WHITE) op += o, eg += e;
        else op -= o, eg -= e;
        if constexpr (traced) {
            tr->v[t][C][0] += o;
            tr->v[t][C][1] += e;
        }
    }
    // Per-square share of a term for colour C (traced evaluations with a SquareTrace only); the total
    // goes through add() as before, so an untraced evaluation never sees this.
    template <Color C>
    inline void at(Term t, Square s, int o, int e) {
        if constexpr (traced)
            if (tr->squares) {
                tr->squares->v[t][s][0] += C == WHITE ? o : -o;
                tr->squares->v[t][s][1] += C == WHITE ? e : -e;
            }
    }

    // One contribution of a term: n times weight r for colour C (its own view), credited to row t of
    // the trace, to the tuner's coefficient of r (k = n, by flat index) and, with a square s, to s in the
    // picture. Untraced, this is the score addition alone. Arrays take the element (e.g. the rank) first.
    template <Color C>
    inline void term(Term t, PairRef r, int n, Square s = SQ_NONE) {
        const int o = n * (w->*r.op), e = n * (w->*r.eg);
        add<C>(t, o, e);
        traced_parts<C>(t, s, o, e, r.index, r.index + 1, n);
    }
    template <Color C>
    inline void term(Term t, IntRef r, int n, Square s = SQ_NONE) {
        const int v = n * (w->*r.field);
        const int o = r.role == Role::Eg ? 0 : v, e = r.role == Role::Op ? 0 : v;
        add<C>(t, o, e);
        traced_parts<C>(t, s, o, e, r.index, -1, n);
    }
    template <Color C, int N>
    inline void term(Term t, ArrayRef<N> r, int element, int n, Square s = SQ_NONE) {
        const int v = n * (w->*r.field)[std::size_t(element)];
        const int o = r.role == Role::Eg ? 0 : v, e = r.role == Role::Op ? 0 : v;
        add<C>(t, o, e);
        traced_parts<C>(t, s, o, e, r.index + element, -1, n);
    }
    template <Color C, int N>
    inline void term(Term t, PairArrayRef<N> r, int element, int n, Square s = SQ_NONE) {
        const int o = n * (w->*r.op)[std::size_t(element)], e = n * (w->*r.eg)[std::size_t(element)];
        add<C>(t, o, e);
        traced_parts<C>(t, s, o, e, r.index + element, r.index + N + element, n);
    }
    // The tuner's coefficient alone (a weight whose score is added in a sum or a table elsewhere).
    template <Color C>
    inline void coef(PairRef r, double k) {
        if constexpr (traced)
            if (tr->coef) tr->coef->add(C, r.index, k), tr->coef->add(C, r.index + 1, k);
    }
    template <Color C>
    inline void coef(IntRef r, double k) {
        if constexpr (traced)
            if (tr->coef) tr->coef->add(C, r.index, k);
    }
    template <Color C, int N>
    inline void coef(ArrayRef<N> r, int element, double k) {
        if constexpr (traced)
            if (tr->coef) tr->coef->add(C, r.index + element, k);
    }
    template <Color C, int N>
    inline void coef(PairArrayRef<N> r, int element, double k) {
        if constexpr (traced)
            if (tr->coef) tr->coef->add(C, r.index + element, k), tr->coef->add(C, r.index + N + element, k);
    }

    bool squares() const {
        if constexpr (traced) return tr->squares != nullptr;
        return false;
    }
    // Coefficient of the weight with flat index `index` (tables that report indices: pst_terms, shelter_terms).
    template <Color C>
    inline void coef(int index, double k) {
        if constexpr (traced)
            if (tr->coef) tr->coef->add(C, index, k);
    }
    bool coefs() const {
        if constexpr (traced) return tr->coef != nullptr;
        return false;
    }

private:
    template <Color C>
    inline void traced_parts(Term t, Square s, int o, int e, int op_index, int eg_index, int n) {
        if constexpr (traced) {
            if (s != SQ_NONE) at<C>(t, s, o, e);
            if (tr->coef) {
                tr->coef->add(C, op_index, n);
                if (eg_index >= 0) tr->coef->add(C, eg_index, n);
            }
        } else {
            (void)t, (void)s, (void)o, (void)e, (void)op_index, (void)eg_index, (void)n;
        }
    }
};

// Every square a colour attacks, the squares it attacks at least twice, and by piece type (pawn..king),
// for the terms that need double attacks (threats2). eval_pieces builds them from its own attack sets on
// the general path when such a switch is on (maps_on); otherwise unset.
struct AttackMaps {
    Bitboard all[COLOR_NB], two[COLOR_NB], by[COLOR_NB][PIECE_TYPE_NB];
};

// The term groups whose terms read AttackMaps (the list's `maps` column).
inline bool maps_on(const Weights& w) {
#define QUINCE_M_NONE(...)
#define QUINCE_M_GROUP(name, group, run, maps, doc) || (maps && w.name)
    return false QUINCE_WEIGHTS(QUINCE_M_NONE, QUINCE_M_NONE, QUINCE_M_NONE, QUINCE_M_NONE, QUINCE_M_NONE, QUINCE_M_NONE,
                                QUINCE_M_NONE, QUINCE_M_GROUP);
#undef QUINCE_M_NONE
#undef QUINCE_M_GROUP
}

struct EvalState {
    const Profile* prof;
    const Position* pos;
    MatEntry mat;
    const PawnEntry* pawn;
    Bitboard att[COLOR_NB];  // every square a colour attacks (pawns, pieces, king)
    Bitboard att_by[COLOR_NB][4];  // extended profiles: squares attacked by knights, bishops, rooks, queens
    AttackMaps maps;  // general path with maps_on(w) only (eval_pieces)
    // king_safe_checks: a colour's king attack is finished after both piece loops, since its safe
    // checks need the defender's attack set (eval_king_safe_checks).
    struct PendingKingAttack {
        bool on;
        int count, weight;   // capped attacker count, units of the pieces reaching the zone
        int attackers[4];    // knights, bishops, rooks, queens reaching the zone (trace)
        Bitboard by_type[4]; // their attack sets
    } ka[COLOR_NB];
    // Traced evaluations with a SquareTrace only (set by eval_pieces): each piece of a colour (not
    // pawns, not the king) with its king-zone attack units, to share the king attack out by square.
    struct KingAttackers {
        static constexpr int MAX = 16;  // a side has at most 15 pieces besides its king
        int n;
        Square sq[MAX];
        PieceType pt[MAX];
        int unit[MAX];
    } kat[COLOR_NB];
};

// The king attack `v` of colour C shared among its pieces in proportion to `units` (one per entry of
// st.kat[C]); the last piece with units takes the rounding, so the shares sum to v exactly.
template <Color C, Tracing T>
inline void share_king_attack(const EvalState& st, Acc<T>& acc, int v, const int* units) {
    if constexpr (T == Tracing::On) {
        const EvalState::KingAttackers& k = st.kat[C];
        int total = 0, last = -1;
        for (int i = 0; i < k.n; ++i)
            if (units[i]) total += units[i], last = i;
        if (!acc.squares() || last < 0) return;
        int left = v;
        for (int i = 0; i < last; ++i) {
            const int share = int(std::int64_t(v) * units[i] / total);
            acc.template at<C>(T_KING_ATTACK, k.sq[i], share, 0);
            left -= share;
        }
        acc.template at<C>(T_KING_ATTACK, k.sq[last], left, 0);
    }
}

}  // namespace quince::eval
