// Mobility by square count over a mobility area (Quince's `mob_tables`, the form of Ethereal 12 and
// Stockfish): each knight, bishop, rook and queen gets a table value indexed by how many squares of
// its side's mobility area it attacks. The area leaves out the squares an enemy pawn attacks (a piece
// going there is lost for a pawn), the own king's square and own pawns that cannot advance (their
// square will not be vacated); own pieces that can move away do count. Sliders look through own
// sliders of their line (a bishop through own bishops and queens, a rook through own rooks and queens,
// a queen both ways), so a battery counts the squares behind its front piece.
#pragma once

#include "board/position.h"

namespace quince::eval {

// Table sizes by piece type (knight 0..8, bishop 0..13, rook 0..14, queen 0..27 squares).
inline constexpr int MOB_TABLE_SIZE[4] = {9, 14, 15, 28};

struct MobilityArea {
    Bitboard area;       // squares that count
    Bitboard occ_diag;   // occupancy a diagonal slider of the colour sees (own bishops and queens removed)
    Bitboard occ_line;   // occupancy a rook-line slider sees (own rooks and queens removed)
};

template <Color C>
inline MobilityArea mobility_area(const Position& pos) {
    const Bitboard occ = pos.pieces(), ownP = pos.pieces(C, PAWN);
    // Own pawns whose push square is occupied (by anything).
    const Bitboard blocked = ownP & (C == WHITE ? occ >> 8 : occ << 8);
    return {~(pawn_attacks_bb<~C>(pos.pieces(~C, PAWN)) | pos.pieces(C, KING) | blocked),
            occ ^ pos.pieces(C, BISHOP, QUEEN), occ ^ pos.pieces(C, ROOK, QUEEN)};
}

// The square count of a piece of type Pt on s: an index into its table.
template <PieceType Pt>
inline int mobility_count(const MobilityArea& m, Square s) {
    const Bitboard a = Pt == KNIGHT   ? knight_attacks(s)
                       : Pt == BISHOP ? bishop_attacks(s, m.occ_diag)
                       : Pt == ROOK   ? rook_attacks(s, m.occ_line)
                                      : bishop_attacks(s, m.occ_diag) | rook_attacks(s, m.occ_line);
    return popcount(a & m.area);
}

}  // namespace quince::eval
