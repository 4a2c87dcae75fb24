// The integer steps between the term sums and the returned score (spec §1, §12): opposite-bishop
// halving, phase interpolation with the floor in the side to move's view, and the lazy bounds.
#pragma once

#include <cstdint>

#include "eval/evaluate.h"

namespace quince::eval {

// §12.1: C division, truncates toward zero (symmetric under negation).
constexpr int ocb_halve(int v) { return v / 2; }

// §1 with Quince's symmetry decision: s_stm = ((+-op)*W0 + (+-eg)*W1) >> 13 (floor), + for White
// to move, - for Black; the tempo is added by the caller.
constexpr int interpolate_stm(int op, int eg, int w0, int w1, Color stm) {
    const int sign = stm == WHITE ? 1 : -1;
    return (sign * op * w0 + sign * eg * w1) >> 13;
}

// §13.2 (2.3.2a) drawishness on the interpolated cp score s (side to move's view): the side that is
// ahead loses up to (min(|s|, cap) * k) >> 8 with k = d * mul / div, d = that side's drawishness byte.
// Mirrored for a negative score, so the rule is colour-symmetric.
constexpr int drawish_adjust(int s, int d_stm, int d_opp, int mul, int div, int cap) {
    if (s > 0) return s - (((s < cap ? s : cap) * (d_stm * mul / div)) >> 8);
    if (s < 0) return s + (((-s < cap ? -s : cap) * (d_opp * mul / div)) >> 8);
    return s;
}

constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return -floor_div(-a, b); }

// §12.3 lazy bounds in D units (pawns of the 1-3-3-5-10 count) from a window in White-view centipawns
// (white_lower / white_upper; +-VALUE_INFINITE = that side disabled):
// S_int = S_cp * 32 * 256 / wsum (undo >> 13 and the mix), q = S_int / pawn_unit,
// lo = floor(q(lower)) - margin, hi = ceil(q(upper)) + margin. Exact integer arithmetic.
// Lazy when D <= lo or D >= hi. Unbounded sides stay disabled.
struct LazyBounds {
    int lo, hi;
};
constexpr int LAZY_OFF_LO = -(1 << 28), LAZY_OFF_HI = 1 << 28;
constexpr LazyBounds lazy_bounds(Value white_lower, Value white_upper, int wsum, int pawn_unit, int margin) {
    const std::int64_t den = std::int64_t(wsum) * pawn_unit;
    LazyBounds b{LAZY_OFF_LO, LAZY_OFF_HI};
    if (white_lower > -VALUE_INFINITE) b.lo = int(floor_div(std::int64_t(white_lower) * 8192, den) - margin);
    if (white_upper < VALUE_INFINITE) b.hi = int(ceil_div(std::int64_t(white_upper) * 8192, den) + margin);
    return b;
}

}  // namespace quince::eval
