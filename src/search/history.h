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

// Correction history: what searches found about the static evaluation of positions sharing a pawn
// structure (pawn key) or a material balance (material index), per side to move. A hand-written
// evaluation errs systematically on some structures; the search corrects for it before every
// evaluation-based pruning decision. Entries are in 1/CORRECTION_GRAIN centipawns.
constexpr int CORRECTION_SIZE = 16384;          // entries per side and table (a power of two)
constexpr int CORRECTION_GRAIN = 256;           // entry units per centipawn
constexpr int CORRECTION_MAX = 64 * CORRECTION_GRAIN;  // an entry corrects by at most 64 cp
constexpr int CORRECTION_WEIGHT_SCALE = 256;    // update weights are in 1/256
constexpr int CORRECTION_WEIGHT_LIMIT = 16;     // the newest result weighs at most 16/256 (deep searches)
constexpr int CORRECTION_PAWN_WEIGHT = 2;       // corrected = raw + (2 pawn + 1 material) / 3 entries
constexpr int CORRECTION_MATERIAL_WEIGHT = 1;

struct CorrectionHistory {
    std::int16_t pawn[COLOR_NB][CORRECTION_SIZE];
    std::int16_t material[COLOR_NB][CORRECTION_SIZE];
    void clear() {
        std::memset(pawn, 0, sizeof pawn);
        std::memset(material, 0, sizeof material);
    }
    static std::size_t slot(std::uint64_t key) { return std::size_t(key & (CORRECTION_SIZE - 1)); }
    static std::size_t material_slot(int index) { return std::size_t(std::uint32_t(index) * 2654435761u) % CORRECTION_SIZE; }

    // The correction in centipawns for a position with these keys and side to move.
    int correction(Color us, std::uint64_t pawn_key, int material_index) const {
        const int sum = CORRECTION_PAWN_WEIGHT * pawn[us][slot(pawn_key)] +
                        CORRECTION_MATERIAL_WEIGHT * material[us][material_slot(material_index)];
        return sum / ((CORRECTION_PAWN_WEIGHT + CORRECTION_MATERIAL_WEIGHT) * CORRECTION_GRAIN);
    }

    // Moves both entries towards `diff` (search result minus static evaluation, centipawns) by a
    // weight growing with the depth of the search that found it.
    void update(Color us, std::uint64_t pawn_key, int material_index, int diff, int depth) {
        const int weight = std::min(depth + 1, CORRECTION_WEIGHT_LIMIT);
        const int target = std::clamp(diff * CORRECTION_GRAIN, -CORRECTION_MAX, CORRECTION_MAX);
        auto move_to = [&](std::int16_t& e) {
            e = std::int16_t(std::clamp((e * (CORRECTION_WEIGHT_SCALE - weight) + target * weight) / CORRECTION_WEIGHT_SCALE,
                                        -CORRECTION_MAX, CORRECTION_MAX));
        };
        move_to(pawn[us][slot(pawn_key)]);
        move_to(material[us][material_slot(material_index)]);
    }
};

}  // namespace quince::search
