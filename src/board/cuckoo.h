// Upcoming-repetition detection after Marcel van Kervinck's method: every reversible move of a piece
// (knight, bishop, rook, queen or king, either colour, between two squares on an empty board) is stored by
// the Zobrist difference it makes (piece on one square ^ piece on the other ^ side to move) in a cuckoo
// hash table of two probes. If the key of the current position differs from the key of a position an odd
// number of plies back by exactly one such difference, a single move takes the game back to that position
// (Position::has_game_cycle checks that the path is clear and the piece belongs to the side to move).
#pragma once

#include "core/types.h"

namespace quince::cuckoo {

constexpr int SIZE = 8192;  // a power of two, a little over twice the number of moves
constexpr int MOVE_COUNT = 3668;  // reversible piece moves of both colours, each pair of squares once

inline int slot1(Key k) { return int(k & (SIZE - 1)); }
inline int slot2(Key k) { return int((k >> 16) & (SIZE - 1)); }

extern Key keys[SIZE];
extern Move moves[SIZE];  // from < to; Move::none() in an empty slot

// Fills the table (idempotent, thread-safe); Position's constructor and set_fen call it.
void init();

// The move (either direction) whose Zobrist difference is `diff`, or Move::none().
inline Move lookup(Key diff) {
    int i = slot1(diff);
    if (keys[i] == diff) return moves[i];
    i = slot2(diff);
    return keys[i] == diff ? moves[i] : Move::none();
}

// Moves stored (MOVE_COUNT after init), for the tests.
int stored_moves();

}  // namespace quince::cuckoo
