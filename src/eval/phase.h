// Game phase (spec §3): Fruit's formula divided by 4 (0 = opening .. 64 = endgame) and the
// interpolation table W[65][2] applied as (op*W0 + eg*W1) >> 13.
#pragma once

#include "eval/profile.h"

namespace quince::eval {

// Phase 0..64 from the piece counts of both sides together (§3.1); negative raw phase clamps to 0.
int material_phase(const Weights& w, int minors, int rooks, int queens);
// Fills W[ph] = {op weight, eg weight} for the chosen curve (§3.2).
void build_interpolation(const Weights& w, int W[65][2]);

}  // namespace quince::eval
