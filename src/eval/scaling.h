// Endgame scaling of the `quince` profile (Ethereal 12 / Stockfish form, not in the seeds): the
// complexity adjustment of the endgame part and the scale factor by material. Both act on the endgame
// sum alone, before the phase interpolation:
//   complexity: eg += sign(eg) * max(c, -|eg|), c = pawns * complexity_pawns + both flanks * complexity_flanks
//               + pawn ending * complexity_pawn_ending + complexity_adjust (a negative c pulls eg toward 0,
//               never across it);
//   scale:      eg = eg * factor / 128 (C division, colour-symmetric), the factor chosen for the side eg
//               favours (the stronger side). It replaces the opposite-bishop halving (ocb_halving).
// The tuner (tools/tune) keeps the complexity inputs and both sides' factors per position and fits the
// complexity weights by the chain rule; the factors are fixed constants of the profile.
#pragma once

#include <iterator>

#include "board/position.h"
#include "core/bitboard.h"
#include "eval/profile.h"
#include "eval/weight_ref.h"

namespace quince::eval {

inline constexpr int SCALE_NORMAL = 128;
// The complexity weights, one run of flat indices (the tuner adds n[i] times the weight at
// COMPLEXITY_RUN[0].index + i).
inline constexpr IntRef COMPLEXITY_RUN[] = {WI::complexity_pawns, WI::complexity_flanks, WI::complexity_pawn_ending,
                                            WI::complexity_adjust};
inline constexpr int COMPLEXITY_WEIGHTS = int(std::size(COMPLEXITY_RUN));
static_assert(is_index_run(COMPLEXITY_RUN), "the complexity weights must follow one another in weight_list.h");

// The inputs of the complexity, in COMPLEXITY_RUN's order.
struct ComplexityInputs {
    int n[COMPLEXITY_WEIGHTS];
};

inline ComplexityInputs complexity_inputs(const Position& pos) {
    constexpr Bitboard QUEEN_FLANK = FILE_A_BB | (FILE_A_BB << 1) | (FILE_A_BB << 2) | (FILE_A_BB << 3);
    const Bitboard pawns = pos.pieces(PAWN);
    const bool both_flanks = (pawns & QUEEN_FLANK) && (pawns & ~QUEEN_FLANK);
    const bool pawn_ending = pos.pieces() == pos.pieces(PAWN, KING);
    return {{popcount(pawns), both_flanks ? 1 : 0, pawn_ending ? 1 : 0, 1}};
}

inline int complexity_value(const Weights& w, const ComplexityInputs& in) {
    return in.n[0] * w.complexity_pawns + in.n[1] * w.complexity_flanks + in.n[2] * w.complexity_pawn_ending +
           in.n[3] * w.complexity_adjust;
}

// The adjustment added to eg: sign(eg) * max(c, -|eg|) (0 when eg is 0).
constexpr int complexity_adjustment(int eg, int c) {
    const int a = eg < 0 ? -eg : eg;
    const int v = c > -a ? c : -a;
    return eg > 0 ? v : eg < 0 ? -v : 0;
}

// The scale factor (/128) of the endgame part when `strong` is the side the endgame part favours.
inline int scale_factor(const Weights& w, const Position& pos, Color strong) {
    const Color weak = ~strong;
    const Bitboard bishops = pos.pieces(BISHOP), knights = pos.pieces(KNIGHT), rooks = pos.pieces(ROOK),
                   queens = pos.pieces(QUEEN);
    const auto one = [](Bitboard b) { return b && !(b & (b - 1)); };
    const auto several = [](Bitboard b) { return b & (b - 1); };
    // Opposite-coloured bishops: one each, on different colours.
    if (one(pos.pieces(WHITE, BISHOP)) && one(pos.pieces(BLACK, BISHOP)) && one(bishops & LIGHT_SQUARES)) {
        if (!(rooks | queens) && one(pos.pieces(WHITE, KNIGHT)) && one(pos.pieces(BLACK, KNIGHT)))
            return w.scale_ocb_knight;
        if (!(knights | queens) && one(pos.pieces(WHITE, ROOK)) && one(pos.pieces(BLACK, ROOK))) return w.scale_ocb_rook;
        if (!(knights | rooks | queens)) return w.scale_ocb_bishops;
    }
    const Bitboard pieces = knights | bishops | rooks;  // queens apart
    // A lone queen against two or more pieces.
    if (one(queens) && (queens & pos.pieces(strong)) && several(pieces) && !(pieces & pos.pieces(strong)))
        return w.scale_lone_queen;
    // A lone minor and no pawns wins nothing.
    if ((pos.pieces(strong) & (knights | bishops)) && popcount(pos.pieces(strong)) == 2) return w.scale_lone_minor;
    // At most one piece each, no queens, three or more pawns ahead: scale up.
    if (!queens && !several(pieces & pos.pieces(WHITE)) && !several(pieces & pos.pieces(BLACK)) &&
        pos.count(strong, PAWN) - pos.count(weak, PAWN) > 2)
        return w.scale_pawn_advantage;
    const int by_pawns = w.scale_pawn_base + w.scale_per_pawn * pos.count(strong, PAWN);
    return by_pawns < SCALE_NORMAL ? by_pawns : SCALE_NORMAL;
}

// eg * factor / 128, truncated toward zero (symmetric under negation).
constexpr int scale_eg(int eg, int factor) { return int(static_cast<long long>(eg) * factor / SCALE_NORMAL); }

}  // namespace quince::eval
