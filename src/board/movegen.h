// Move generation. Stages for the search: CAPTURES (captures and every promotion), QUIETS (the rest),
// EVASIONS (in check), NON_EVASIONS (CAPTURES + QUIETS); all pseudo-legal. LEGAL filters with
// Position::legal().
#pragma once

#include <algorithm>

#include "board/position.h"

namespace quince {

enum GenType { CAPTURES, QUIETS, EVASIONS, NON_EVASIONS, LEGAL };

struct ScoredMove {
    Move move;
    int score;
};

// Appends moves at `list` and returns the new end.
template <GenType T>
ScoredMove* generate(const Position& pos, ScoredMove* list);

// A fixed-capacity list of the moves of one position.
template <GenType T>
class MoveList {
public:
    explicit MoveList(const Position& pos) : last_(generate<T>(pos, moves_)) {}
    const ScoredMove* begin() const { return moves_; }
    const ScoredMove* end() const { return last_; }
    std::size_t size() const { return std::size_t(last_ - moves_); }
    bool contains(Move m) const {
        return std::any_of(begin(), end(), [m](const ScoredMove& s) { return s.move == m; });
    }

private:
    // In a union so that the 256 entries are not zero-initialised on every construction
    // (that alone cost more than the generation itself in perft).
    union {
        ScoredMove moves_[MAX_MOVES];
    };
    ScoredMove* last_;
};

// Leaf-counting perft; `divide` lists the moves of the root with their subtree counts.
std::uint64_t perft(Position& pos, int depth);

}  // namespace quince
