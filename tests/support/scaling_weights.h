// Starting values of the endgame scaling (eval/scaling.h) for the tests that switch it on: every
// profile has it off, so the tests set Ethereal 12's values (complexity x 32, factors /128).
#pragma once

#include "eval/profile.h"

namespace quince::test {

inline void set_scaling_start(eval::Weights& w) {
    w.complexity = true;
    w.complexity_pawns = 256, w.complexity_flanks = 2624, w.complexity_pawn_ending = 2432, w.complexity_adjust = -5024;
    w.scale_factors = true;
    w.scale_ocb_bishops = 64, w.scale_ocb_knight = 106, w.scale_ocb_rook = 96, w.scale_lone_queen = 88;
    w.scale_lone_minor = 0, w.scale_pawn_advantage = 144, w.scale_pawn_base = 96, w.scale_per_pawn = 8;
}

}  // namespace quince::test
