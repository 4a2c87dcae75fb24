// Piece-square tables generated from Fruit 2.1's shape formulas with the profile's weights (spec §4.1).
#pragma once

#include "eval/profile.h"

namespace quince::eval {

// op[pt][sq], eg[pt][sq] for pt = PAWN..KING (index 0 unused), White's view, a1 = 0.
void build_pst(const Weights& w, int op[7][64], int eg[7][64]);

}  // namespace quince::eval
