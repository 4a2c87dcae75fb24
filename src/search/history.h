// Move-ordering statistics owned by one search thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "board/position.h"

namespace quince::search {

// Pieces are 1..6 and 9..14; this packs them into 0..11 to keep the continuation tables small.
constexpr int PIECE_SLOTS = 12;
inline int piece_slot(Piece p) { return (p & 7) - 1 + 6 * (p >> 3); }

// "Gravity" update: the entry moves towards +-limit and saturates smoothly there.
template <int Limit>
inline void apply_bonus(std::int16_t& entry, int bonus) {
    bonus = std::clamp(bonus, -Limit, Limit);
    entry = std::int16_t(entry + bonus - entry * std::abs(bonus) / Limit);
}

constexpr int HISTORY_LIMIT = 16384;

// [side][from][to]
struct ButterflyHistory {
    std::int16_t table[COLOR_NB][SQUARE_NB][SQUARE_NB];
    void clear() { std::memset(table, 0, sizeof table); }
    std::int16_t& at(Color c, Move m) { return table[c][m.from()][m.to()]; }
};

// [moved piece][to][captured piece type]
struct CaptureHistory {
    std::int16_t table[PIECE_SLOTS][SQUARE_NB][PIECE_TYPE_NB];
    void clear() { std::memset(table, 0, sizeof table); }
};

// One row: scores of (piece, to) given a fixed earlier move.
struct PieceToHistory {
    std::int16_t table[PIECE_SLOTS][SQUARE_NB];
    std::int16_t& at(Piece p, Square to) { return table[piece_slot(p)][to]; }
    int get(Piece p, Square to) const { return table[piece_slot(p)][to]; }
};

// [previous piece][previous to] -> PieceToHistory. Slot PIECE_SLOTS is a sentinel row for
// "no previous move" (null move or root), so callers never need a null check.
struct ContinuationHistory {
    PieceToHistory rows[PIECE_SLOTS + 1][SQUARE_NB];
    void clear() { std::memset(rows, 0, sizeof rows); }
    PieceToHistory* row(Piece p, Square to) { return &rows[piece_slot(p)][to]; }
    PieceToHistory* sentinel() { return &rows[PIECE_SLOTS][0]; }
};

// [previous piece][previous to] -> refutation
struct CounterMoves {
    Move table[PIECE_SLOTS][SQUARE_NB];
    void clear() { std::fill(&table[0][0], &table[0][0] + PIECE_SLOTS * SQUARE_NB, Move::none()); }
};

}  // namespace quince::search
