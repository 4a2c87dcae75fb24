// The evaluation as a picture (`quince eval --svg`, `quince compare --svg`): the board with its pieces
// (drawn as paths here: no font or image file), each square shaded by what the evaluation credits there
// (eval::SquareTrace: PST, mobility, king-attack share, rook and pattern terms of the piece on it,
// structure and passer terms of a pawn, shelter on the king), the king zones and the scored passed pawns
// marked, a legend in centipawns and the final score; one board per profile, side by side.
#pragma once

#include <string>

#include "workbench/compare.h"

namespace quince::workbench {

// A square's credit in centipawns, White's view: its terms mixed by the profile's phase and scale.
double square_cp(const Column& column, Square s);

// SVG document of the comparison's boards. Every column must carry squares (compare(..., true)); the
// shading scale is common to all boards so that they can be compared.
std::string board_svg(const Comparison& c);

}  // namespace quince::workbench
