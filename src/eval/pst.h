// Piece-square tables generated from Fruit 2.1's shape formulas with the profile's weights (spec §4.1).
#pragma once

#include <functional>

#include "eval/profile.h"

namespace quince::eval {

// op[pt][sq], eg[pt][sq] for pt = PAWN..KING (index 0 unused), White's view, a1 = 0.
void build_pst(const Weights& w, int op[7][64], int eg[7][64]);

// The weights behind the PST entry of piece type pt on square sq (White's view), each with its
// multiplier: the table entry (pst_source table) or the generator weights (the tables are linear in
// them). For the tuner's coefficient trace: f(flat weight index, multiplier).
void pst_terms(const Weights& w, int pt, int sq, const std::function<void(int, int)>& f);

}  // namespace quince::eval
