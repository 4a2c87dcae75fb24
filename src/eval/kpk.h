// King and pawn against king: the exact win/draw verdict of every position, from a table computed on
// first use by retrograde analysis (the rules alone — rule of the square, key squares, opposition —
// are right in most positions, not all). Used by the 2.3.2a pawn-ending evaluator (eval/pawn_ending.h).
#pragma once

#include "core/types.h"

namespace quince::eval {

// True when the side with the pawn (`strong`) wins with best play, `stm` to move. The position must be
// legal (kings apart, the side not to move not in check); squares are absolute.
bool kpk_win(Color strong, Square strong_king, Square pawn, Square weak_king, Color stm);

}  // namespace quince::eval
