// The evaluation entry point the search calls. One Evaluator per search thread: it owns the
// thread's caches (pawn hash), so threads never share mutable evaluation state.
#pragma once

#include <memory>
#include <string>

#include "board/position.h"

namespace quince::eval {

// Bounds for lazy evaluation, in centipawns from the side to move's view. When the quick part of
// the evaluation is outside [lower - margin, upper + margin] the full evaluation may be skipped.
struct LazyWindow {
    Value lower = -VALUE_INFINITE;
    Value upper = VALUE_INFINITE;
};

class Evaluator {
public:
    Evaluator();
    ~Evaluator();
    Evaluator(const Evaluator&) = delete;
    Evaluator& operator=(const Evaluator&) = delete;

    // Score in centipawns relative to the side to move.
    Value evaluate(const Position& pos, const LazyWindow& window = {});
    void clear();  // empty the caches (ucinewgame)

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The simple material + piece-square evaluation (the core issue's baseline), kept for comparison.
Value simple_evaluate(const Position& pos);

}  // namespace quince::eval
