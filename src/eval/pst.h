// Piece-square tables generated from Fruit 2.1's shape formulas with the profile's weights (spec §4.1).
#pragma once

#include "eval/profile.h"

namespace quince::eval {

// op[pt][sq], eg[pt][sq] for pt = PAWN..KING (index 0 unused), White's view, a1 = 0.
void build_pst(const Weights& w, int op[7][64], int eg[7][64]);
// The Rybka 2.3.2a tables of seed 003 §3 (data, spec §4.2 right blocks), same layout.
void rybka232_pst(int op[7][64], int eg[7][64]);

}  // namespace quince::eval
