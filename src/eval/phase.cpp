#include "eval/phase.h"

#include <cmath>

namespace quince::eval {

int material_phase(const Weights& w, int minors, int rooks, int queens) {
    // Fruit: PawnPhase 0, Knight/Bishop 1, Rook 2, Queen 4, TotalPhase 24 (§3.1); rounded to 0..256.
    int p = w.phase_total - w.phase_minor * minors - w.phase_rook * rooks - w.phase_queen * queens;
    if (p < 0) p = 0;
    int phase256 = (p * 256 + w.phase_total / 2) / w.phase_total;
    return phase256 / 4;  // Rybka keeps 0..64 in one byte
}

void build_interpolation(const Weights& w, int W[65][2]) {
    for (int x = 0; x <= 64; ++x) {
        int eg;
        if (w.phase_curve == PhaseCurve::Table) {
            eg = w.phase_table_eg[std::size_t(x)];
        } else if (w.phase_curve == PhaseCurve::Linear) {
            eg = 4 * x;  // Rybka 2.3.2a's linear table; exact sum 256 (§3.2 recommendation)
        } else {
            // Shape guess for Rybka 1.0's three-section table (knots 12 and 52, C1-continuous, §3.2).
            const double c = 256.0 / 1248.0;
            double e = x <= 12 ? c * x * x : x <= 52 ? c * (24.0 * x - 144.0) : 256.0 - c * (64 - x) * (64 - x);
            eg = int(std::lround(e));
        }
        W[x][0] = 256 - eg;
        W[x][1] = eg;
    }
}

}  // namespace quince::eval
