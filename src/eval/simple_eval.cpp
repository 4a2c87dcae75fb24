// Baseline evaluation: material plus a small formula-based piece-square bonus, tapered by phase.
// It exists so the engine plays sensibly before the Rybka evaluation is wired in, and as the
// reference opponent that the Rybka profile must beat.
#include <algorithm>

#include "eval/evaluate.h"

namespace quince::eval {

namespace {
constexpr int SIMPLE_MG[PIECE_TYPE_NB] = {0, 82, 337, 365, 477, 1025, 0};
constexpr int SIMPLE_EG[PIECE_TYPE_NB] = {0, 94, 281, 297, 512, 936, 0};
constexpr int SIMPLE_PHASE[PIECE_TYPE_NB] = {0, 0, 1, 1, 2, 4, 0};

int centre_distance(Square s) {
    int f = file_of(s), r = rank_of(s);
    return std::max(std::abs(2 * f - 7), std::abs(2 * r - 7)) / 2;  // 0 (centre) .. 3 (edge)
}

void add_piece(Piece p, Square s, int& mg, int& eg) {
    PieceType pt = type_of(p);
    Color c = color_of(p);
    int rel_rank = relative_rank(c, s);
    int cd = centre_distance(s);
    int m = SIMPLE_MG[pt], e = SIMPLE_EG[pt];
    switch (pt) {
    case PAWN: m += 4 * (rel_rank - 1) - (cd == 3 ? 0 : 0); e += 10 * (rel_rank - 1); break;
    case KNIGHT: m += 12 - 8 * cd; e += 9 - 6 * cd; break;
    case BISHOP: m += 6 - 4 * cd; e += 6 - 4 * cd; break;
    case ROOK: m += rel_rank == RANK_7 ? 20 : 0; break;
    case QUEEN: m += 3 - 2 * cd; e += 6 - 4 * cd; break;
    case KING: m += rel_rank == RANK_1 ? 10 + 5 * (cd == 3) : -20 * rel_rank; e += 18 - 12 * cd; break;
    default: break;
    }
    if (c == BLACK) m = -m, e = -e;
    mg += m;
    eg += e;
}
}  // namespace

Value simple_evaluate(const Position& pos) {
    int mg = 0, eg = 0, phase = 0;
    for (Bitboard b = pos.pieces(); b;) {
        Square s = pop_lsb(b);
        Piece p = pos.piece_on(s);
        add_piece(p, s, mg, eg);
        phase += SIMPLE_PHASE[type_of(p)];
    }
    phase = std::min(phase, 24);
    int score = (mg * phase + eg * (24 - phase)) / 24;
    return (pos.side_to_move() == WHITE ? score : -score) + 10;  // small tempo bonus
}

}  // namespace quince::eval
