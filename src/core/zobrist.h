// Zobrist keys for the position hash and the pawn hash.
#pragma once

#include "core/types.h"

namespace quince::zobrist {

extern Key psq[PIECE_NB][SQUARE_NB];
extern Key enpassant[FILE_NB];
extern Key castling[CASTLING_RIGHT_NB];
extern Key side;
extern Key no_pawns;  // pawn key of a position without pawns, so that it is never 0

void init();  // idempotent, thread-safe

}  // namespace quince::zobrist
