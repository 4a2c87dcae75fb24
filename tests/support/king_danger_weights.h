// Starting values of the king-danger count (eval/king_danger.h) for the tests that switch it on: every
// profile has it off, so the tests set values of Ethereal 12's order of magnitude to get a count.
#pragma once

#include "eval/profile.h"

namespace quince::test {

inline void set_king_danger_start(eval::Weights& w) {
    w.king_danger = true;
    w.king_danger_attacker_knight = 154, w.king_danger_attacker_bishop = 58, w.king_danger_attacker_rook = 96;
    w.king_danger_attacker_queen = 77, w.king_danger_zone_attack = 317, w.king_danger_weak = 365;
    w.king_danger_pawn = -211, w.king_danger_shelter = 3, w.king_danger_no_queen = -2650;
    w.king_danger_check_knight = 1181, w.king_danger_check_bishop = 490, w.king_danger_check_rook = 902;
    w.king_danger_check_queen = 912, w.king_danger_adjust = -173, w.king_danger_eg = 85;
}

}  // namespace quince::test
