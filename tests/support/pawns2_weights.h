// Starting values of Quince's second pawn group (switch pawns2: the pawn entry and eval/passers.h) for
// the tests that switch it on: every profile has it off, so the tests set values of Ethereal 12's order
// of magnitude, distinct per weight.
#pragma once

#include "eval/profile.h"

namespace quince::test {

inline void set_pawns2_start(eval::Weights& w) {
    w.pawns2 = true;
    w.connected_op = {0, 40, 310, 470, 950, 1900, 3150, 0};
    w.connected_eg = {0, -170, 20, 180, 630, 1880, 3230, 0};
    w.backward_rank_op = {0, 230, 170, 90, 0, 0, 0, 0};
    w.backward_rank_eg = {0, 260, 210, 120, 30, 0, 0, 0};
    w.passed_stacked_op = -150, w.passed_stacked_eg = -420;
    w.passed_safe_path_op = -1500, w.passed_safe_path_eg = 1800;
    w.passed_rook_behind_op = 110, w.passed_rook_behind_eg = 640;
    w.passed_enemy_rook_behind_op = -90, w.passed_enemy_rook_behind_eg = -580;
}

}  // namespace quince::test
